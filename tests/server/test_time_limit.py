"""A time limit the server keeps for people's seats (``Ruleset.time_limit``; Battle of Antietam's §IA2.1 #6, "a time
limit to how much time a player has to complete his operations phase"): when it runs out the server makes the rules'
decision for the seat (the end of the operation phase), logs and stores it like any other, and the game rebuilt from
the store is the same game."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from grognard.rulesets.antietam import Antietam
from grognard.rulesets.antietam import decisions as D
from grognard.server.sessions import Sessions, rebuild
from grognard.server.store import Store

SHORT = 0.5  # seconds: the test's limit instead of the option's two minutes


def test_the_server_ends_a_persons_operation_phase_when_the_time_limit_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    minutes = Antietam.time_limit

    def short(self: Antietam, state: Any) -> Any:
        limit = minutes(self, state)
        assert limit is None or limit.seconds == 120.0  # the option's 2 minutes, as the rules give it
        return None if limit is None else replace(limit, seconds=SHORT)

    monkeypatch.setattr(Antietam, "time_limit", short)

    async def play() -> None:
        store = Store(":memory:")
        sessions = Sessions(store)
        seats = {"union": {"kind": "human"}, "confederate": {"kind": "computer", "player": "random"}}
        session, _ = await sessions.create("antietam", "5_ix_corps", {"time_limit": 2}, seats, seed=3)
        game = session.game
        assert game.turn().seat == "union" and "time_left" in session.message("union")
        assert 0 < session.message("union")["time_left"] <= SHORT
        key = session._clock
        # a decision inside the phase keeps its clock running: the limit is the phase's, not the decision's
        uid = game.legal("union").of_kind("access")[0].hint[0]
        await session.decide("union", session.core("union")["tag"], D.Access(uid).to_json())
        assert session._clock is key
        turn = game.state.turn
        await asyncio.sleep(SHORT + 0.5)
        async with session.lock:
            ends = [e for e in game.log if e.seat == "union" and e.decision == D.EndPhase()]
            assert len(ends) == 1 and game.log[1].decision == D.EndPhase()  # the server's, after the access
            # the computer Confederate played its phase (no clock for a computer), and the Union's next operation
            # phase has a clock of its own
            assert game.turn().seat == "union" and (game.state.turn, game.state.part) != (turn, 0)
            assert session._clock is not None and session._clock is not key
            assert rebuild(store, session.id)[1].digest() == game.digest()  # stored like any other decision
        session.close()

    asyncio.run(play())


def test_no_clock_without_the_option() -> None:
    async def play() -> None:
        sessions = Sessions(Store(":memory:"))
        seats = {"union": {"kind": "human"}, "confederate": {"kind": "computer", "player": "random"}}
        session, _ = await sessions.create("antietam", "5_ix_corps", None, seats, seed=3)
        assert session._clock is None and "time_left" not in session.message("union")

    asyncio.run(play())
