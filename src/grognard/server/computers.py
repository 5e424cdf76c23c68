"""Computer players in worker processes, so that a general's turn in one game never holds the server's interpreter
while people in other games wait (a thread would: the general's search is pure Python and keeps the GIL).

Each game is given to one worker of a small pool, which keeps a replica of it (rebuilt from the store, then kept
in step with the decisions the server sends along) and answers one question: the next computer decision, asked
of the one driver (:func:`grognard.ai.driver.computer_decision`) exactly as the server asked it in a thread
before. The server applies that decision to its own game, stores it and tells the listeners; the replica has
applied it too. Nothing about the choice changes: the same position and the same player seeds give the same
decision, so a game's digest is the one ``simulate`` gives (tests/server/test_one_driver.py).

A replica that may have drifted (an undo, a rebuild, a worker that dropped it) is rebuilt from the store, which
holds every decision before the question is asked. Each worker keeps at most :data:`REPLICAS` games (the least
recently asked leave first), so its memory does not grow with the number of games on the server.
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from grognard import rulesets
from grognard.ai import Player
from grognard.ai.driver import computer_decision
from grognard.engine import Game

# games a worker keeps a replica of; one asked for beyond this is rebuilt from the store
REPLICAS = 24

Entry = tuple[str, dict[str, Any]]  # a decision as stored: seat, decision JSON


@dataclass
class _Replica:
    game: Game
    players: dict[str, Player]


_db = ""
_replicas: OrderedDict[str, _Replica] = OrderedDict()


def _start(db: str, extra: Sequence[tuple[str, str]], server: int) -> None:
    """A worker's start: the store's path, and the rulesets the server registered that are not shipped (the
    test rulesets), imported and registered here too. A worker ends with its server, even a killed one."""
    global _db
    _db = db
    for module, name in extra:
        rulesets.register(getattr(importlib.import_module(module), name))
    # the server's id comes from the server: one that ended while this worker was starting is not its parent now
    threading.Thread(target=_end_with, args=(server,), daemon=True).start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(1.0)
    os._exit(0)


def _sync(game_id: str, rebuild: bool, base: int, tail: Sequence[Entry]) -> _Replica:
    """In a worker: the game's replica brought to the server's position (``base`` decisions it had, then
    ``tail``), rebuilt from the store if it may have drifted."""
    from .sessions import _players, shared_rules
    from .sessions import rebuild as from_store
    from .store import Store

    replica = _replicas.pop(game_id, None)
    if rebuild or replica is None or len(replica.game.log) != base:
        store = Store(_db)
        try:
            row, game = from_store(store, game_id)  # the store already holds ``tail``
        finally:
            store.close()
        game.rules = shared_rules(game.rules, row.scenario)  # one thread here: the worker's games share it
        replica = _Replica(game, _players(row))
    else:
        codec = replica.game.rules.decisions()
        for seat, data in tail:
            replica.game.apply(seat, codec.from_json(data, f"game {game_id}"))
    _replicas[game_id] = replica
    while len(_replicas) > REPLICAS:
        _replicas.popitem(last=False)
    return replica


def _next(game_id: str, rebuild: bool, base: int, tail: Sequence[Entry]) -> Entry | None:
    """In a worker: ask the one driver for the next computer decision at the server's position, apply it to the
    replica and return it."""
    replica = _sync(game_id, rebuild, base, tail)
    game = replica.game
    due = computer_decision(game, replica.players)
    if due is not None:
        game.apply(*due)
    if game.over:  # nothing more to ask of it: it leaves the worker's memory now, not when the server lets it go
        _replicas.pop(game_id, None)
    turn = game.turn()
    if not type(game.rules).shareable and not any(s in replica.players for s in (*turn.deciding, *turn.optional)):
        # a person decides now, for a while (the server asks no computer until one may decide): the replica's own
        # ruleset goes for a fresh one of the same scenario and options, which lets go of the caches it grew
        game.rules = type(game.rules)(game.rules.scenario, game.rules.options)
    return None if due is None else (due[0], due[1].to_json())


def _warm(game_id: str) -> None:
    _sync(game_id, True, 0, [])


def _snapshot(game_id: str, rebuild: bool, base: int, tail: Sequence[Entry]) -> None:
    """In a worker: store a snapshot of the game at the server's position (a save document of a Lauter game
    takes about half a second to build, which the server's event loop would otherwise spend)."""
    from grognard.persistence.saves import save_document

    from .store import Store

    game = _sync(game_id, rebuild, base, tail).game
    store = Store(_db)
    try:
        store.put_snapshot(game_id, len(game.log), save_document(game))
    finally:
        store.close()


def _forget(game_id: str) -> None:
    _replicas.pop(game_id, None)


class ComputerPool:
    """``workers`` processes (started on first use), each a single worker so that a game's replica stays in
    one place; games are dealt to the least loaded."""

    def __init__(self, db: str, workers: int) -> None:
        self.db = db
        self.workers = workers
        self._pools: list[ProcessPoolExecutor] = []
        self._home: dict[str, int] = {}  # game id -> its worker

    def _pool(self, game_id: str) -> ProcessPoolExecutor:
        if not self._pools:
            extra = []
            for gid in rulesets.game_ids():
                cls = rulesets.get(gid)
                if not cls.__module__.startswith("grognard."):
                    extra.append((cls.__module__, cls.__qualname__))
            context = multiprocessing.get_context("spawn")  # never fork a process that runs an event loop
            self._pools = [
                ProcessPoolExecutor(1, context, initializer=_start, initargs=(self.db, extra, os.getpid()))
                for _ in range(self.workers)
            ]
        if game_id not in self._home:
            load = [0] * self.workers
            for i in self._home.values():
                load[i] += 1
            self._home[game_id] = load.index(min(load))
        return self._pools[self._home[game_id]]

    async def next_decision(self, game_id: str, rebuild: bool, base: int, tail: Sequence[Entry]) -> Entry | None:
        pool = self._pool(game_id)
        return await asyncio.get_running_loop().run_in_executor(pool, _next, game_id, rebuild, base, list(tail))

    def warm(self, game_id: str) -> None:
        """Have the game's worker build its replica now, from the store, so the computer's first question does
        not wait for the re-run of the log."""
        self._pool(game_id).submit(_warm, game_id)

    def snapshot(self, game_id: str, rebuild: bool, base: int, tail: Sequence[Entry]) -> None:
        """Have the game's worker store a snapshot at this position, without waiting for it: the worker takes
        its questions about a game in order, so the next one finds the replica where this one left it."""
        self._pool(game_id).submit(_snapshot, game_id, rebuild, base, list(tail))

    def forget(self, game_id: str) -> None:
        """The game left the server's memory: its worker lets go of its replica too."""
        home = self._home.pop(game_id, None)
        if home is not None and self._pools:
            self._pools[home].submit(_forget, game_id)

    def close(self) -> None:
        for pool in self._pools:
            pool.shutdown(wait=False, cancel_futures=True)
        self._pools = []
