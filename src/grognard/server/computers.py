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

A worker is a child process (``python -m grognard.server.computers``) that reads its questions from its standard
input and writes the answers to its standard output, each a pickle after its length. The server talks to it
through the event loop's own pipes: no thread of the server's takes the interpreter lock from the event loop
(a ``concurrent.futures`` process pool has two, woken at every question and answer, and on a busy machine the
event loop waited for them), and the server asks one question at a time, choosing which: a reaction a person
waits for in the middle of a phase (:meth:`ComputerPool.next_decisions`, ``urgent``) goes before the general's
turn in another game, and a game's questions keep their order. Nor does a reaction wait for the whole of a
question the worker has begun for another game (a general's decision, a snapshot, 0.1-0.4 s on a busy machine):
that work stops at its safe points (:func:`grognard.ai.driver.pause_point`), where the worker looks at its pipe at
most every :data:`LOOK_EVERY` seconds and answers there any urgent question of another game before it goes on.
The worker thinks at a lower priority (:data:`NICE`), so that on a machine short of cores a person's decision on
the event loop goes before a general's thinking; it reads its pipe and answers the urgent questions at the server's
(in a thread of its own: :class:`_Answers`). A worker ends at the end of its standard input: when its server
ends, even a killed one.
"""

from __future__ import annotations

import asyncio
import importlib
import itertools
import os
import pickle
import select
import struct
import sys
import threading
import time
import traceback
from collections import OrderedDict, deque
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from queue import SimpleQueue
from typing import Any

from grognard import rulesets
from grognard.ai import Player
from grognard.ai.driver import computer_decision, pause_point, set_pause
from grognard.engine import Game

from .collector import keep_pauses_short

# games a worker keeps a replica of; one asked for beyond this is rebuilt from the store
REPLICAS = 24
# how much lower a worker's priority is than the server's (os.nice): the event loop, which answers every person,
# goes first when the cores are busy; on a machine with a core to spare this changes nothing
NICE = 10
# how often, at most, a question in progress looks at the worker's pipe for another game's urgent question (a
# look is a select(2) call, some microseconds; a reaction found waits at most about this long, plus the time to
# the work's next safe point)
LOOK_EVERY = 0.002

# GROGNARD_TIMINGS=FILE: the server writes a line per person's decision to FILE (sessions.py), and each worker a
# line per question to FILE.worker: its game, operation, 1 if urgent, when it was read, begun and answered
# (time.perf_counter, CLOCK_MONOTONIC on Linux), the CPU milliseconds of the thread that answered it (the
# questions answered at its safe points, by the other thread, left out), 1 if it was answered at a safe point of
# another, when the server sent it, and its longest stretch in milliseconds without a safe point;
# benchmarks/real_server.py reads both
TIMINGS = os.environ.get("GROGNARD_TIMINGS")
_timing_files: dict[str, Any] = {}  # TIMINGS files kept open (a line each, written whole: line-buffered)


def timing_line(path: str, line: str) -> None:
    """Write one line to a TIMINGS file, opened once per process (not at every decision, whose time it measures)."""
    out = _timing_files.get(path)
    if out is None:
        out = _timing_files[path] = open(path, "a", buffering=1)  # noqa: SIM115 (open for the process's life)
    out.write(line)


Entry = tuple[str, dict[str, Any]]  # a decision as stored: seat, decision JSON
# in a worker: a question's game, order (0 if urgent, else 1; its reference), operation, arguments, and when it was
# sent and read (time.perf_counter: CLOCK_MONOTONIC, one clock for the server and its workers on Linux)
Question = tuple[str, tuple[int, int], str, tuple[Any, ...], tuple[float, float]]
_HEADER = struct.Struct("!I")  # a frame: its length, then a pickle


class WorkerFailed(RuntimeError):
    """A worker could not answer: its question raised (the worker's traceback is the message), or it ended."""


# --- in a worker ----------------------------------------------------------------------------------------------
@dataclass
class _Replica:
    game: Game
    players: dict[str, Player]


_db = ""
_replicas: OrderedDict[str, _Replica] = OrderedDict()


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
        game, codec = replica.game, replica.game.rules.decisions()
        for seat, data in tail:
            player = replica.players.get(seat)
            if player is not None:  # a computer's decision the server made: a reflex (sessions.Session._computer_due)
                player.reflexed(seat, game.decisions_by(seat))
            # the server's game found it legal at this same position: its legal set is not built again here
            game.apply(seat, codec.from_json(data, f"game {game_id}"), checked=True)
            pause_point()
    _replicas[game_id] = replica
    while len(_replicas) > REPLICAS:
        _replicas.popitem(last=False)
    return replica


def computers_only(game: Game, computers: Container[str]) -> tuple[str, ...]:
    """The seats that may decide now if every one of them is among ``computers`` (no person may act), else none."""
    turn = game.turn()
    seats = (*turn.deciding, *turn.optional)
    return seats if all(s in computers for s in seats) else ()


def reacting(game: Game, seats: Sequence[str]) -> bool:
    """Whether one of ``seats`` (computer seats that may decide now) is asked for a reaction: a shot at the
    person's moving unit, answered in the middle of the person's phase while the person waits."""
    return any(game.rules.reaction(game.state, s) is not None for s in seats)


def _next(game_id: str, rebuild: bool, base: int, tail: Sequence[Entry], urgent: bool = False) -> list[Entry]:
    """In a worker: ask the one driver for the next computer decision at the server's position, apply it to the
    replica and return it (none: no computer decides). ``urgent`` (a reaction): then the next ones too, as long
    as only computer seats may decide and one of them reacts (several shots at the moving unit), which the server
    would have asked next, each urgent, one round trip each."""
    replica = _sync(game_id, rebuild, base, tail)
    game = replica.game
    made: list[Entry] = []
    while True:
        pause_point()
        due = computer_decision(game, replica.players)
        if due is None:
            break
        pause_point()
        game.apply(*due)
        made.append((due[0], due[1].to_json()))
        seats = computers_only(game, replica.players)
        if not urgent or game.over or not seats or not reacting(game, seats):
            break
    if game.over:  # nothing more to ask of it: it leaves the worker's memory now, not when the server lets it go
        _replicas.pop(game_id, None)
    turn = game.turn()
    if not type(game.rules).shareable and not any(s in replica.players for s in (*turn.deciding, *turn.optional)):
        # a person decides now, for a while (the server asks no computer until one may decide): the replica's own
        # ruleset goes for a fresh one of the same scenario and options, which lets go of the caches it grew
        game.rules = type(game.rules)(game.rules.scenario, game.rules.options)
    return made


def _warm(game_id: str) -> None:
    _sync(game_id, True, 0, [])


def _snapshot(game_id: str, rebuild: bool, base: int, tail: Sequence[Entry]) -> None:
    """In a worker: store a snapshot of the game at the server's position (a save document of a Lauter game
    takes about half a second to build, which the server's event loop would otherwise spend)."""
    from grognard.persistence.saves import save_document

    from .store import Store

    game = _sync(game_id, rebuild, base, tail).game
    doc = save_document(game, between=pause_point)  # other games' reactions are answered in its course
    pause_point()
    store = Store(_db)
    try:
        pause_point()
        store.put_snapshot(game_id, len(game.log), doc)
    finally:
        store.close()


def _forget(game_id: str) -> None:
    _replicas.pop(game_id, None)


_OPS: dict[str, Callable[..., Any]] = {"next": _next, "warm": _warm, "snapshot": _snapshot, "forget": _forget}


class _Questions:
    """In a worker: the questions the server has sent, read as they come (its pipe is drained before each
    answer), each game's in order; the next one answered is the first of the games' next questions by urgency,
    then by when it was asked."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        # each game's questions: (its order, operation, arguments, when it was sent and read)
        self.waiting: dict[str, deque[tuple[tuple[int, int], str, tuple[Any, ...], tuple[float, float]]]] = {}
        self.ended = False

    def _take(self, block: bool) -> None:
        """Read what the pipe holds (waiting for something if ``block``) and file every whole question in it."""
        while not self.ended and (block or select.select([self.fd], [], [], 0)[0]):
            block = False
            data = os.read(self.fd, 1 << 16)
            if not data:
                self.ended = True
            self.buffer += data
            while len(self.buffer) >= _HEADER.size:
                size = _HEADER.unpack_from(self.buffer)[0]
                if len(self.buffer) < _HEADER.size + size:
                    block = True  # the rest of a question is on its way
                    break
                body = bytes(self.buffer[_HEADER.size : _HEADER.size + size])
                del self.buffer[: _HEADER.size + size]
                self._file(pickle.loads(body))

    def _file(self, question: Any) -> None:
        order, game_id, op, args, *sent = question  # when the server sent it, if it says
        read = time.perf_counter()
        self.waiting.setdefault(game_id, deque()).append((order, op, args, (sent[0] if sent else read, read)))

    def first(self) -> Any:
        """The server's first message (the worker's start), or None if it has ended."""
        while not self.ended:
            self._take(True)
            if self.waiting:
                return self.waiting.pop("")[0][2]
        return None

    def next(self) -> Question | None:
        """The next question to answer, or None once the server has ended and every question it sent is
        answered."""
        self._take(not self.waiting)
        while not self.waiting and not self.ended:
            self._take(True)
        if not self.waiting:
            return None
        return self._pop(min(self.waiting, key=lambda g: self.waiting[g][0][0]))

    def urgent(self, busy: str) -> Question | None:
        """The first urgent question (a reaction a person waits for) next in its game's order, of a game other
        than ``busy`` (whose question is in progress), among those read so far; None if there is none."""
        heads = [g for g, queue in self.waiting.items() if g != busy and queue[0][0][0] == 0]
        return self._pop(min(heads, key=lambda g: self.waiting[g][0][0])) if heads else None

    def _pop(self, game_id: str) -> Question:
        queue = self.waiting[game_id]
        order, op, args, times = queue.popleft()
        if not queue:
            del self.waiting[game_id]
        return game_id, order, op, args, times


def _frame(obj: Any) -> bytes:
    body = pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(body)) + body


def worker_main() -> None:
    """A worker's life: the store's path, the server's import path and the rulesets it registered that are not
    shipped (the test rulesets), then questions until the server ends. Its standard output is the answers'
    alone: anything printed goes to standard error."""
    global _db
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    questions = _Questions(0)
    start = questions.first()
    if start is None:
        return
    _db, path, extra = start
    sys.path[:] = path
    for module, name in extra:
        rulesets.register(getattr(importlib.import_module(module), name))
    keep_pauses_short()  # a reaction a person waits for never waits for a long collection (collector.py)
    _Answers(questions, answers, NICE).run()


class _Answers:
    """In a worker: the questions answered in order (:meth:`_Questions.next`), and, at the safe points of one in
    progress (:func:`grognard.ai.driver.pause_point`), another game's urgent questions read meanwhile.

    What a question for one game does in the middle of another's is safe because the two share only what the
    worker's games share, at points where the work in progress has left it whole: the store (each question opens
    its own connection), the replicas' table (the game in progress holds its replica), the rulesets of a
    scenario (``sessions.shared_rules`` and the players' ``Facts.rules``: caches keyed by what they were derived
    from, each complete at a safe point). Each game's players, replica and questions are its own, so both games
    decide what they would have decided alone (tests/server/test_shared_generals.py; which questions are answered
    inside which: tests/server/test_computers.py). Only one question is answered inside another: the urgent one's
    own safe points look at nothing.

    The urgent questions are answered by the worker's main thread, which also reads the pipe while the worker is
    idle, at the server's priority; the others by a thread of their own at a priority ``nice`` lower (on Linux a
    thread's own: ``os.nice`` in it), which hands the urgent questions it finds at its safe points to the main
    thread and waits for their answers. One of the two runs at a time, so nothing changes but the priority: a
    reaction a person waits for is no longer answered at the general's (the server's fifth pass: a reaction's
    CPU p50 1.6 ms, its wall time 4 ms at nice 10 on a busy machine; a worker all at the server's priority took
    the event loop's core and made every person's decision slower)."""

    def __init__(self, questions: _Questions, out: Any, nice: int = 0) -> None:
        self.questions = questions
        self.out = out
        self.nice = nice
        # to the slow thread: a question to answer (None: the end); from it: an urgent question met at one of its
        # safe points (None: its question is answered); to it: the urgent question is answered
        self._to_slow: SimpleQueue[Question | None] = SimpleQueue()
        self._to_main: SimpleQueue[Question | None] = SimpleQueue()
        self._resume: SimpleQueue[None] = SimpleQueue()
        self.busy: str | None = None  # the game whose question is in progress
        self.look_at = 0.0  # time.perf_counter() before which a safe point does not look at the pipe
        # the last safe point (or the start) of the question in progress, and its longest stretch without one so
        # far (TIMINGS), the questions answered inside it left out
        self.point = 0.0
        self.stretch = 0.0

    def run(self) -> None:
        slow = threading.Thread(target=self._slow, name="grognard-worker-slow", daemon=True)
        slow.start()
        try:
            while (question := self.questions.next()) is not None:
                if question[1][0] == 0:  # urgent: answered here, at the server's priority
                    self.answer(*question)
                    self.busy = None
                    continue
                self._to_slow.put(question)
                while (inner := self._to_main.get()) is not None:  # an urgent question met at a safe point
                    self.answer(*inner)
                    self._resume.put(None)
        finally:
            self._to_slow.put(None)
            slow.join()

    def _slow(self) -> None:
        """The slow thread: the questions that are not urgent, at a lower priority."""
        if self.nice and hasattr(os, "nice"):
            os.nice(self.nice)
        while (question := self._to_slow.get()) is not None:
            self.look_at = time.perf_counter() + LOOK_EVERY
            set_pause(self.pause)
            try:
                self.answer(*question)
            finally:
                set_pause(None)
                self.busy = None
                self._to_main.put(None)

    def answer(
        self, game_id: str, order: tuple[int, int], op: str, args: tuple[Any, ...], times: tuple[float, float]
    ) -> None:
        inside, self.busy = self.busy is not None, game_id
        started, cpu = time.perf_counter(), time.thread_time()
        self.point, self.stretch = started, 0.0
        try:
            answer = (order[1], True, _OPS[op](*args))
        except Exception:
            answer = (order[1], False, traceback.format_exc())
        self.out.write(_frame(answer))
        self.out.flush()
        if TIMINGS:
            ended, cpu = time.perf_counter(), (time.thread_time() - cpu) * 1e3
            stretch = max(self.stretch, ended - self.point) * 1e3
            sent, read = times
            timing_line(
                TIMINGS + ".worker",
                f"{game_id} {op} {1 - order[0]} {read:.6f} {started:.6f} {ended:.6f} {cpu:.3f} {int(inside)} "
                f"{sent:.6f} {stretch:.3f}\n",
            )

    def pause(self) -> None:
        """At a safe point of the question in progress: answer the urgent questions of other games that came."""
        now = time.perf_counter()
        self.stretch = max(self.stretch, now - self.point)
        self.point = now
        if now < self.look_at:
            return
        self.look_at = now + LOOK_EVERY
        self.questions._take(False)
        outer, stretch = self.busy, self.stretch
        assert outer is not None
        while (question := self.questions.urgent(outer)) is not None:
            set_pause(None)  # not within this one
            try:
                self._to_main.put(question)  # answered by the main thread, at its priority
                self._resume.get()
            finally:
                self.busy, self.point, self.stretch = outer, time.perf_counter(), stretch
                set_pause(self.pause)


# --- in the server --------------------------------------------------------------------------------------------
@dataclass(eq=False)
class _Worker:
    """One worker process and the answers the server waits for (by the question's reference)."""

    extra: list[tuple[str, str]]
    db: str
    proc: asyncio.subprocess.Process | None = None
    unsent: list[bytes] = field(default_factory=list)  # questions asked while the process starts
    answers: dict[int, asyncio.Future[Any]] = field(default_factory=dict)
    starting: asyncio.Task[None] | None = None
    reading: asyncio.Task[None] | None = None

    def put(self, question: tuple[Any, ...], answer: asyncio.Future[Any] | None) -> None:
        """Send a question (``(order, game id, operation, arguments)``); its answer, if one waits for it, comes
        to ``answer``."""
        if answer is not None:
            self.answers[question[0][1]] = answer
        frame = _frame((*question, time.perf_counter()))  # when it was sent (TIMINGS)
        if self.proc is not None and self.proc.stdin is not None:
            self.proc.stdin.write(frame)
            return
        self.unsent.append(frame)
        if self.starting is None:
            self.starting = asyncio.get_running_loop().create_task(self._start())

    async def _start(self) -> None:
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "grognard.server.computers",
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
        except OSError as e:
            self._fail(WorkerFailed(f"a computers' worker could not start: {e}"))
            return
        finally:
            self.starting = None
        assert proc.stdin is not None
        proc.stdin.write(_frame(((0, -1), "", "start", (self.db, list(sys.path), self.extra))))
        for frame in self.unsent:
            proc.stdin.write(frame)
        self.unsent = []
        self.proc = proc
        self.reading = asyncio.get_running_loop().create_task(self._read(proc))

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        try:
            while True:
                head = await proc.stdout.readexactly(_HEADER.size)
                ref, ok, value = pickle.loads(await proc.stdout.readexactly(_HEADER.unpack(head)[0]))
                answer = self.answers.pop(ref, None)
                if answer is None or answer.done():
                    continue
                if ok:
                    answer.set_result(value)
                else:
                    answer.set_exception(WorkerFailed(value))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # its pipe closed mid-answer or between answers: handled below, as any end of the worker
        # the worker ended: the questions it had fail (their games' replicas are rebuilt from the store when
        # next asked), and the next questions go to a new worker
        if self.proc is proc:
            self.proc = None
        self._fail(WorkerFailed("the computers' worker ended"))
        await _end(proc)

    def _fail(self, error: Exception) -> None:
        for answer in self.answers.values():
            if not answer.done():
                answer.set_exception(error)
        self.answers.clear()
        self.unsent = []

    async def close(self) -> None:
        for task in (self.starting, self.reading):
            if task is not None:
                task.cancel()
        self._fail(WorkerFailed("the server is closing"))
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.returncode is None:
                proc.kill()  # at once, even in the middle of a general's turn
            await _end(proc)


async def _end(proc: asyncio.subprocess.Process) -> None:
    """Close a worker's pipes and wait for its end (reaped, not left a zombie)."""
    if proc.stdin is not None:
        proc.stdin.close()
    await proc.wait()


class ComputerPool:
    """``workers`` processes (started on first use); games are dealt to the least loaded, and a game's questions
    all go to its worker, which answers them in order."""

    def __init__(self, db: str, workers: int) -> None:
        self.db = db
        self.workers = workers
        self._workers: list[_Worker] = []
        self._home: dict[str, int] = {}  # game id -> its worker
        self._asked = itertools.count()

    def _worker(self, game_id: str) -> _Worker:
        if not self._workers:
            extra = []
            for gid in rulesets.game_ids():
                cls = rulesets.get(gid)
                if not cls.__module__.startswith("grognard."):
                    extra.append((cls.__module__, cls.__qualname__))
            self._workers = [_Worker(extra, self.db) for _ in range(self.workers)]
        if game_id not in self._home:
            load = [0] * self.workers
            for i in self._home.values():
                load[i] += 1
            self._home[game_id] = load.index(min(load))
        return self._workers[self._home[game_id]]

    def _put(self, game_id: str, op: str, args: tuple[Any, ...], urgent: bool = False, wait: bool = False) -> Any:
        answer = asyncio.get_running_loop().create_future() if wait else None
        self._worker(game_id).put(((0 if urgent else 1, next(self._asked)), game_id, op, args), answer)
        return answer

    async def next_decisions(
        self, game_id: str, rebuild: bool, base: int, tail: Sequence[Entry], urgent: bool = False
    ) -> list[Entry]:
        """The next computer decision at the server's position, asked of the game's worker (none: no computer
        decides); ``urgent``: a person waits for it in the middle of a phase (a reaction), so it goes before
        other games' questions, and the reactions that follow it come with it (``_next``)."""
        args = (game_id, rebuild, base, list(tail), urgent)
        answer: list[Entry] = await self._put(game_id, "next", args, urgent, True)
        return answer

    def warm(self, game_id: str) -> None:
        """Have the game's worker build its replica now, from the store, so the computer's first question does
        not wait for the re-run of the log."""
        self._put(game_id, "warm", (game_id,))

    def snapshot(self, game_id: str, rebuild: bool, base: int, tail: Sequence[Entry]) -> None:
        """Have the game's worker store a snapshot at this position, without waiting for it: the worker takes
        its questions about a game in order, so the next one finds the replica where this one left it."""
        self._put(game_id, "snapshot", (game_id, rebuild, base, list(tail)))

    def forget(self, game_id: str) -> None:
        """The game left the server's memory: its worker lets go of its replica too."""
        home = self._home.pop(game_id, None)
        if home is not None and self._workers:
            self._workers[home].put(((1, next(self._asked)), game_id, "forget", (game_id,)), None)

    async def close(self) -> None:
        """End every worker, at once."""
        workers, self._workers = self._workers, []
        for worker in workers:
            await worker.close()


if __name__ == "__main__":  # the module's own copy, not this ``__main__`` one, keeps the worker's replicas
    from grognard.server.computers import worker_main as main

    main()
