"""A game nobody listens to or asks for leaves the server's memory, and the next request rebuilds it from the store
exactly as it was (issue 17, item 5)."""

from __future__ import annotations

import asyncio
import time

from grognard.engine.rng import Dice
from grognard.server.sessions import Listener, Sessions
from grognard.server.store import Store


async def _send(_message: object) -> None:
    return None


def test_an_idle_game_leaves_memory_and_comes_back_from_the_store_unchanged() -> None:
    async def play() -> None:
        sessions = Sessions(Store(":memory:"))
        seats = {"attacker": {"kind": "human"}, "defender": {"kind": "computer", "player": "random"}}
        session, _ = await sessions.create("perfect_general", "dawn_patrol", None, seats, seed=5)
        dice = Dice(11)
        for _ in range(6):  # a few of the person's decisions, each answered by the computer
            decision = session.game.legal("attacker").sample(dice)
            await session.decide("attacker", session.core("attacker")["tag"], decision.to_json())
        digest, decisions = session.game.digest(), len(session.game.log)
        start = time.monotonic()

        listener = Listener("attacker", _send)
        session.listeners.add(listener)
        assert sessions.evict_idle(60, start + 3600) == []  # a browser listens
        session.listeners.discard(listener)
        async with session.lock:
            assert sessions.evict_idle(60, start + 3600) == []  # a decision is under way
        assert sessions.evict_idle(60, start + 30) == []  # asked for half a minute ago
        assert sessions.evict_idle(60, start + 120) == [session.id]

        again = await sessions.get(session.id)
        assert again is not session
        assert (again.game.digest(), len(again.game.log)) == (digest, decisions)

    asyncio.run(play())
