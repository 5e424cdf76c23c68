"""Games in play on the server: one :class:`Session` per game, with its lock, its listeners and its computers.

A decision goes: check the seat's tag (a stale picture is refused), apply through ``Game.apply`` (the rules
refuse anything illegal and change nothing), append to the store, then let the computer seats answer, each
from its own seat's view only, and push every listener the message :func:`fog.seat_core` builds for its seat.
All of it happens under the game's lock, so concurrent decisions on one game are serialised.

A computer's choice is drawn from dice seeded by the game's seed, its seat and the log's length, so after a
restart it chooses exactly what it would have chosen: a game is its inputs, even with computers in it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from grognard import rulesets
from grognard.ai import Player, make_player
from grognard.ai.driver import asks, computer_decision, seat_seed
from grognard.engine import Game, GrognardError, IllegalDecision
from grognard.engine.errors import DataError
from grognard.engine.protocol import Resignation, Ruleset, Scenario

from . import fog
from .computers import TIMINGS, ComputerPool, computers_only, reacting, timing_line
from .store import GameRow, SeatRow, Store

SEAT_KINDS = ("human", "remote", "computer")
# by default a snapshot is kept every this many decisions, so a restart re-runs at most about as many (about a
# second of a Lauter game's); a snapshot holds the whole log and takes the game's worker 0.1-0.4 s, during which a
# reaction another person waits for waits too (the server's fourth pass: 200 made 100 of them in a 20-game run)
SNAPSHOT_EVERY = 1000
# a computer batch pushes its progress to the listeners at most this often (seconds)
PUSH_EVERY = 0.4
# a game nobody has listened to or asked for in this long leaves memory (seconds; see Sessions.evict_idle)
IDLE_SECONDS = 600.0
# rulesets shared by the games of one bundled scenario and options (Ruleset.shareable), per process
RULES_KEPT = 8
_shared: OrderedDict[str, Ruleset[Any, Any]] = OrderedDict()
# a finished game nobody listens to leaves sooner: only its final screen and its replay are left to ask for
FINISHED_IDLE_SECONDS = 60.0
# a part of a seat's view.state (units, terrain, towns...) whose JSON is at least this long and the same as in the
# last update a listener got is left out of the next one, named in its ``kept`` (the page keeps its copy)
KEPT_FROM = 64
# TIMINGS (GROGNARD_TIMINGS=FILE, read in computers.py): a line per person's decision: the server's own work on
# it in milliseconds (the wall clock under the game's lock, less the waits for the computers' worker), the event
# loop thread's CPU milliseconds meanwhile (the same work when no computer decided: nothing else runs then), and
# how many decisions the computers then made, then the game, when the decision began (time.perf_counter,
# CLOCK_MONOTONIC on Linux), the milliseconds it waited for the worker, and how many of the computers' decisions
# were their own part of the turn (not a reaction: the general played, after a person's answer to its fire);
# benchmarks/real_server.py reads it, apart from the queueing of the other games' messages


class Refused(GrognardError):
    """A request the server refuses; nothing changed. ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class NewSeats:
    """A new game's secrets, each told once: the tokens of the seats played at the creator's browser, the
    invitation of each remote seat (not its token: the invited browser gets its own when it claims the seat),
    and the creator's secret (deletes the game)."""

    tokens: dict[str, str]
    invites: dict[str, str]
    creator: str

    def to_json(self) -> dict[str, Any]:
        return {"tokens": self.tokens, "invites": self.invites, "creator": self.creator}


@dataclass(eq=False)
class Listener:
    """A browser connection of one seat; ``sent_events`` counts the events it has had. ``send`` takes a message,
    or its JSON text (a push's, joined from the texts of its pieces: ``fog.update_text``)."""

    seat: str
    send: Callable[[dict[str, Any] | str], Awaitable[None]]
    sent_events: int = 0
    sent_over: bool = False
    last_tag: str = ""
    sent_state: dict[str, str] = field(default_factory=dict)  # the JSON of each part of view.state it last got


@dataclass(eq=False)
class Session:
    id: str
    row: GameRow
    game: Game
    store: Store
    players: dict[str, Player]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    _cores: dict[str, tuple[int, fog.Core]] = field(default_factory=dict)
    # per seat (and whether the game is over): how many of the game's events were sorted, and the indices of those
    # the seat sees; the events themselves are the game's (a seat's copy in JSON would double them)
    _events: dict[tuple[str, bool], tuple[int, list[int]]] = field(default_factory=dict)
    _frames: list[Any] | None = None
    # decisions in words, by seat, for one state (they name units where they stand: Ruleset.describe_for)
    _words: dict[Any, str] = field(default_factory=dict)
    _words_of: Any = None
    snapshot_every: int = SNAPSHOT_EVERY
    _snapshot_at: int = 0
    _let_go: dict[str, int] = field(default_factory=dict)  # seat -> the decision after which it let the computer go on
    _map: Any = None
    computers: ComputerPool | None = None  # worker processes for the computer seats (None: a thread here)
    _replica: int = -1  # decisions the worker's replica of this game has (-1: it must rebuild from the store)
    # the time limit a person is under (Ruleset.time_limit): its seat and key, when it runs out, and its timer
    _clock: tuple[str, float, asyncio.Task[None]] | None = None
    _waited: float = 0.0  # seconds the decision being made has waited for the computers' worker (TIMINGS)
    _played: int = 0  # of the computers' decisions since, those of their own part of the turn: no reaction (TIMINGS)

    # --- who is who ------------------------------------------------------------------------------------
    def seat_of(self, token: str | None) -> str:
        """The seat a token sits in; a forged or missing token is refused."""
        if not isinstance(token, str) or not token or len(token) > 200:
            raise Refused("a seat token is needed", 403)
        digest = token_digest(token)
        for s in self.row.seats:
            if s.token_sha is not None and hmac.compare_digest(s.token_sha, digest):
                return s.seat
        raise Refused("that token sits in no seat of this game", 403)

    def is_creator(self, token: str | None) -> bool:
        """The token is the creator's secret (or, in a game stored before creators were kept, that of a seat
        played at the creator's browser): the one who may delete the game for everyone."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return False
        digest = token_digest(token)
        if self.row.owner_sha is not None:
            return hmac.compare_digest(self.row.owner_sha, digest)
        return any(
            s.kind == "human" and s.token_sha is not None and hmac.compare_digest(s.token_sha, digest)
            for s in self.row.seats
        )

    def plays(self, token: str | None) -> bool:
        """The token sits in a seat of this game."""
        try:
            self.seat_of(token)
        except Refused:
            return False
        return True

    async def claim(self, invitation: Any) -> tuple[str, str]:
        """The first browser to open an invitation gets the seat and a token of its own; the invitation then
        stops working (the creator's browser keeps the invitation, never the seat's token)."""
        if not isinstance(invitation, str) or not invitation or len(invitation) > 200:
            raise Refused("an invitation is needed", 403)
        digest = token_digest(invitation)
        async with self.lock:
            seat = next(
                (s.seat for s in self.row.seats if s.invite_sha and hmac.compare_digest(s.invite_sha, digest)), None
            )
            token = secrets.token_urlsafe(18)
            if seat is None or not self.store.claim_seat(self.id, seat, digest, token_digest(token)):
                raise Refused("this invitation has already been claimed (an invitation opens its seat once)", 410)
            row = self.store.game(self.id)
            assert row is not None
            self.row = row
            return seat, token

    def core(self, seat: str) -> dict[str, Any]:
        """The seat's message (view, legal decisions, tag), built once per position."""
        return self._core(seat).message

    def _core(self, seat: str) -> fog.Core:
        """The seat's message with the JSON text of its pieces (``fog.Core``), built once per position."""
        n = len(self.game.log)
        cached = self._cores.get(seat)
        if cached is None or cached[0] != n:
            cached = (n, fog.seat_core_texts(self.game, seat, partial(self._describe, seat)))
            self._cores[seat] = cached
        return cached[1]

    def message(self, seat: str) -> dict[str, Any]:
        """The seat's message: its core, whether the computer waits for its reaction (:meth:`waiting_for`), and
        the seconds left of the time limit it is under (:meth:`_arm_clock`)."""
        extra = self._extra(seat)
        core = self.core(seat)
        return {**core, **extra} if extra else core

    def _extra(self, seat: str) -> dict[str, Any]:
        """What the seat's message adds to its core now: ``hold`` and ``time_left`` (:meth:`message`)."""
        extra: dict[str, Any] = {}
        if self.waiting_for() == seat:
            extra["hold"] = True
        clock = self._clock
        if clock is not None and clock[0].partition("/")[0] == seat:
            extra["time_left"] = round(max(0.0, clock[1] - time.monotonic()), 1)
        return extra

    def waiting_for(self) -> str | None:
        """A person who may react to the computer's last decision (one that emitted one of the ruleset's
        ``reaction_events``: an attack) and has not let the computer go on: the computers wait for that person.
        Decisions the person made since (several reactions) keep the wait; it is worked out from the log, so it
        holds after a restart too. A person whose reaction settings answer ("never ask this phase") is not
        waited for (``driver.asks``)."""
        game = self.game
        kinds = game.rules.reaction_events
        if not kinds or game.over:
            return None
        people = [s for s in game.turn().optional if s not in self.players]
        if not people:
            return None
        i = len(game.log) - 1
        while i >= 0 and (game.log[i].seat in people or game.log[i].decision.kind == "reaction_setting"):
            i -= 1
        if i < 0 or game.log[i].seat not in self.players:
            return None  # a person moves: the one who may react does so when he likes
        end = len(game.events) - sum(game.event_counts[i + 1 :])
        if not any(e.kind in kinds for e in game.events[end - game.event_counts[i] : end]):
            return None
        return next((s for s in people if self._let_go.get(s) != i and game.legal(s) and asks(game, s)), None)

    async def go_on(self, seat: str) -> None:
        """The person the computer waits for lets it go on (without reacting, or after reacting)."""
        async with self.lock:
            if self.waiting_for() != seat:
                raise Refused("no computer is waiting for you", 409)
            i = len(self.game.log) - 1
            while self.game.log[i].seat == seat or self.game.log[i].decision.kind == "reaction_setting":
                i -= 1
            self._let_go[seat] = i
            await self._run_computers()
            await self.push()

    def events(self, seat: str) -> list[int]:
        """Where the seat's event log is in the game's (all of it once the game is over), extended as it grows;
        :func:`fog.events_json` gives a part of it as the seat receives it."""
        key = (seat, self.game.over)
        done, seen = self._events.get(key, (0, []))
        if done > len(self.game.events):
            done, seen = 0, []
        if done < len(self.game.events):
            seen.extend(fog.seat_event_indices(self.game, seat, done))
            self._events[key] = (len(self.game.events), seen)
        return seen

    def _describe(self, seat: str, decision: Any) -> str:
        state = self.game.state
        if self._words_of is not state:
            self._words, self._words_of = {}, state
        words = self._words.get((seat, decision))
        if words is None:
            words = self._words[seat, decision] = self.game.rules.describe_for(state, seat, decision)
        return words

    def summary(self, seat: str) -> dict[str, Any]:
        """What the lobby lists of a game for a seat: nothing its view does not hold."""
        view = self.core(seat)["view"]
        return {
            **self.creator_summary(),
            "seat": seat,
            "turn": view["turn"],
            "over": view["over"],
            "result": view.get("result"),
            "your_turn": self.game.turn().may_act(seat) and not self.game.over,
        }

    def creator_summary(self) -> dict[str, Any]:
        """What the lobby lists for a creator who plays no seat of the game: who sits where (a remote seat:
        whether its invitation is claimed), and whether it is over; nothing of any seat's view."""
        rules = self.game.rules
        return {
            "id": self.id,
            "game": rules.id,
            "game_name": rules.name,
            "scenario": rules.scenario.info.id,
            "scenario_name": rules.scenario.info.name,
            "seat": None,
            "seats": {
                s.seat: {"kind": s.kind, "player": s.player, **({"claimed": s.claimed} if s.kind == "remote" else {})}
                for s in self.row.seats
            },
            "over": self.game.over,
            "created": self.row.created,
        }

    # --- the replay of a finished game, in the full view ----------------------------------------------------
    def _replay_states(self) -> list[Any]:
        """The state before the first decision and after each one, from a fresh run of the log."""
        if self._frames is None:
            rules = self.game.rules  # a copy of its own: this runs in a thread, and the game's may be shared
            game = Game(type(rules)(rules.scenario, rules.options), self.game.seed)
            frames = [game.state]
            for entry in self.game.log:
                game.apply(entry.seat, entry.decision)
                frames.append(game.state)
            self._frames = frames
        return self._frames

    async def replay(self, step: int | None) -> dict[str, Any]:
        """The replay's index (``step`` None: decisions and events) or the full view after ``step`` decisions."""
        async with self.lock:
            if not self.game.over:
                raise Refused("a replay shows everything, so it opens once the game is over", 409)
            rules = self.game.rules
            if step is None:
                marks = [self.game.opening_events]
                for n in self.game.event_counts:
                    marks.append(marks[-1] + n)
                return {
                    "total": len(self.game.log),
                    "decisions": self.game.decisions_json(),
                    "events": [e.to_json() for e in self.game.events],
                    "event_marks": marks,
                }
            if not 0 <= step <= len(self.game.log):
                raise Refused(f"step {step} is not between 0 and {len(self.game.log)}", 404)
            state = (await asyncio.to_thread(self._replay_states))[step]
            last = step == len(self.game.log)  # the end as the game has it (a resignation changes no state)
            turn = self.game.turn() if last else rules.turn(state)
            result = self.game.result() if last else rules.result(state)
            view = {
                "game": rules.id,
                "scenario": rules.scenario.info.id,
                "seat": None,
                "turn": turn.to_json(),
                "over": turn.seat is None,
                "state": rules.view(state, None),
            }
            if result is not None:
                view["result"] = result.to_json()
            return {"type": "update", "step": step, "view": view, "legal": None, "undo": False}

    # --- deciding --------------------------------------------------------------------------------------
    async def decide(self, seat: str, tag: Any, decision_json: Any) -> None:
        async with self.lock:
            started, cpu, n = time.perf_counter(), time.thread_time(), len(self.game.log)
            self._waited, self._played = 0.0, 0
            await self._decide(seat, tag, decision_json)
            if TIMINGS:
                own, cpu = (time.perf_counter() - started - self._waited) * 1e3, (time.thread_time() - cpu) * 1e3
                made, waited, played = len(self.game.log) - n - 1, self._waited * 1e3, self._played
                timing_line(TIMINGS, f"{own:.3f} {cpu:.3f} {made} {self.id} {started:.6f} {waited:.3f} {played}\n")

    async def _decide(self, seat: str, tag: Any, decision_json: Any) -> None:
        if self.game.over:
            raise Refused("the game is over", 409)
        if tag != self.core(seat)["tag"]:
            raise Refused("stale decision: the position has changed since; look again", 409)
        try:
            decision = self.game.rules.decisions().from_json(decision_json, "decision")
        except DataError as e:
            raise Refused(f"malformed decision: {e}") from None
        except (TypeError, ValueError, KeyError) as e:
            raise Refused(f"malformed decision: {e}") from None
        try:
            self._apply(seat, decision)
        except IllegalDecision as e:
            raise Refused(f"refused: {e}", 422) from None
        except (IndexError, KeyError, TypeError, ValueError, OverflowError):
            # a value no rule expects (a location far off the map) failed in the rules' explanation of the
            # refusal, before anything changed (a state is replaced only after ``apply`` returns)
            raise Refused(f"refused: {decision.text()[:200]!r} is not possible now", 422) from None
        await self._run_computers()
        await self.push()

    async def resign(self, seat: str) -> None:
        """The seat gives up the game, whoever has the turn; every seat's page then shows the end."""
        async with self.lock:
            if self.game.over:
                raise Refused("the game is over", 409)
            try:
                self._apply(seat, Resignation())
            except IllegalDecision as e:
                raise Refused(f"refused: {e}", 422) from None
            await self.push()

    def inspect(self, seat: str, query: Any) -> dict[str, Any]:
        """A seat's question that decides nothing (the path a move would take, what a unit sees), answered by
        the rules from what that seat may know (``Ruleset.inspect``)."""
        try:
            return self.game.inspect(seat, query)
        except IllegalDecision as e:
            raise Refused(f"refused: {e}", 422) from None
        except (IndexError, KeyError, TypeError, ValueError, OverflowError):
            raise Refused("refused: the rules answer no such question", 422) from None

    def values(self, seat: str, tag: Any, asked: Any) -> list[dict[str, Any]]:
        """The values of some families of the seat's legal decisions, which its message gives as a count only
        (``fog.summarised``: a unit's destinations, asked for when the page selects it), from the same legal set;
        asked with the message's tag, so an answer never mixes two positions."""
        if tag != self.core(seat)["tag"]:
            raise Refused("stale question: the position has changed since; look again", 409)
        found = fog.family_values(self.game.legal(seat), asked, partial(self._describe, seat))
        if found is None:
            raise Refused("that is no family of your legal decisions now", 422)
        return found

    def map_json(self) -> Any:
        """The public map of the game's scenario (bundled, or the one an uploaded save embeds)."""
        if self._map is None:
            self._map = self.game.rules.map_json()
        return self._map

    async def undo(self, seat: str, tag: Any) -> None:
        """Take back the seat's last decision, where the rules allow it (no die rolled, nothing revealed)."""
        async with self.lock:
            if tag != self.core(seat)["tag"]:
                raise Refused("stale request: the position has changed since; look again", 409)
            if self.game.over or not self.game.can_undo(seat):
                raise Refused("nothing to undo: a die was rolled, something was revealed, or another seat decided", 409)
            seq = len(self.game.log) - 1
            self.game.undo(seat)
            try:
                self.store.remove_last_decision(self.id, seq)
            except BaseException:
                self.game = rebuild(self.store, self.id)[1]
                raise
            self._cores.clear()
            self._replica = -1
            self._events.clear()  # the next decision may emit as many events as the one taken back
            await self.push()

    def _apply(self, seat: str, decision: Any, checked: bool = False) -> None:
        """Apply and store one decision; if storing fails, the game is rebuilt from the store. ``checked``: the
        worker's replica applied it at this position (``Game.apply`` checked it there)."""
        seq = len(self.game.log)
        self.game.apply(seat, decision, checked=checked)
        try:
            self.store.append_decision(self.id, seq, seat, decision.to_json())
        except BaseException:
            self.game = rebuild(self.store, self.id)[1]
            self._replica = -1
            raise
        self._snapshot()

    def _snapshot(self) -> None:
        """Keep a snapshot now and then, at a moment when no seat may undo (a snapshot loads with no undo stack,
        so it is taken only when a re-run of the log would have none either). In a game of computers and people
        on a server with workers, only when the computers play their own part of the turn next: the snapshot
        takes the game's worker 0.1-0.4 s, and the game's next questions wait for it (a general's turn waits
        anyway; a reaction a person waits for should not)."""
        game = self.game
        n = len(game.log)
        if not self.snapshot_every or n - self._snapshot_at < self.snapshot_every:
            return
        if any(game.can_undo(s) for s in game.rules.seats):
            return
        if self.computers is not None and self.players and not self._computers_play():
            return
        self._snapshot_at = n
        if self.computers is not None:  # built and stored by the game's worker, off the event loop
            self.computers.snapshot(self.id, *self._replica_sync())
            self._replica = n
            return
        from grognard.persistence.saves import save_document

        self.store.put_snapshot(self.id, n, save_document(game))

    async def _computer_due(self) -> list[tuple[str, Any, bool]]:
        """The one driver's next decision for a computer seat, or a person's reaction its settings answer, if one
        is due: asked of this game's replica in a worker process (the event loop stays free for the other games),
        or in a thread when the server runs without workers; and whether the replica checked it (applied it at
        this position: it is not checked again here). A worker answers a computer's reaction with the reactions
        that follow it while only computers may decide (``computers._next``): those come after it, in order."""
        turn = self.game.turn()
        computers = [s for s in (*turn.deciding, *turn.optional) if s in self.players]
        if not computers:
            # no computer may decide now: the one driver gives only a person's reaction its settings answer, if
            # any, asked here with no players (the same answer the worker would give, without waiting behind
            # another game's general); the replica catches up when a computer is next asked
            answer = computer_decision(self.game, {})
            return [] if answer is None else [(*answer, False)]
        if self.computers is None:
            answer = await asyncio.to_thread(computer_decision, self.game, self.players)
            return [] if answer is None else [(*answer, False)]
        # a computer's reaction is answered in the middle of the person's phase, while the person waits: a reflex
        # (the general's declined passing fire, from the offer's chances alone) is made here, as the worker's
        # driver would (its replica follows with the decisions since: computers._sync), and the others go
        # before the other games' generals in the worker's queue
        urgent = reacting(self.game, computers)
        if urgent and (answer := computer_decision(self.game, self.players, think=False)) is not None:
            return [(*answer, False)]
        n = len(self.game.log)
        sync = self._replica_sync()
        self._replica = -1  # until the worker has answered
        asked = time.perf_counter()
        got = await self.computers.next_decisions(self.id, *sync, urgent=urgent)
        self._waited += time.perf_counter() - asked
        self._played += 0 if urgent else len(got)
        # the replica applied them; so does _run_computers (a failure there resets this)
        self._replica = n + len(got)
        codec = self.game.rules.decisions()
        return [(seat, codec.from_json(data, f"game {self.id} computer decision"), True) for seat, data in got]

    def _computers_play(self) -> bool:
        """Whether the computers play their own part of the turn next: only computer seats may decide, and none
        is asked for a reaction."""
        seats = computers_only(self.game, self.players)
        return bool(seats) and not reacting(self.game, seats)

    def _replica_sync(self) -> tuple[bool, int, list[tuple[str, dict[str, Any]]]]:
        """What the worker needs to bring its replica to this position: whether to rebuild it from the store, the
        decisions it has, and the decisions since."""
        n = len(self.game.log)
        fresh = not 0 <= self._replica <= n
        base = 0 if fresh else self._replica
        return fresh, base, [] if fresh else [(e.seat, e.decision.to_json()) for e in self.game.log[base:]]

    async def _run_computers(self) -> None:
        """Let the computer seats decide, and people's reaction settings answer, until a person must (in a worker
        process: the server stays live). The mover's page gets only the position after: an answered reaction
        shows no pause."""
        last_push = time.monotonic()
        while not self.game.over and self.waiting_for() is None:
            try:
                dues = await self._computer_due()
                if not dues:
                    break
                for i, due in enumerate(dues):
                    if i and (self.game.over or self.waiting_for() is not None):  # the replica's rules say not
                        self._replica = -1  # the replica went further: rebuilt when next asked
                        break
                    self._apply(*due)
            except Exception as e:  # a computer player's bug: the person's decision stands, the computer waits
                self._replica = -1
                print(f"grognard serve: game {self.id}: the computer failed: {e!r}", file=sys.stderr, flush=True)
                break
            if time.monotonic() - last_push > PUSH_EVERY:
                await self.push()
                last_push = time.monotonic()

    async def start(self) -> None:
        """After creation or a restart: the computers move if it is their turn."""
        async with self.lock:
            if self.computers is not None and self.players and not self.game.over:
                self.computers.warm(self.id)  # the worker's questions about a game come in order: it is first
                self._replica = len(self.game.log)
            await self._run_computers()
            self._arm_clock()

    # --- the time limit (Ruleset.time_limit) ----------------------------------------------------------
    def _arm_clock(self) -> None:
        """One timer per game, for the person whose time runs now (a computer seat decides at once): started when
        the rules name a new stretch of that person's decisions, kept while they name the same one, cancelled
        when they name none. A restart of the server starts the stretch's time again."""
        limit = None if self.game.over else self.game.rules.time_limit(self.game.state)
        key = None if limit is None or limit.seat in self.players else f"{limit.seat}/{limit.key}"
        if self._clock is not None and self._clock[0] == key:
            return
        self.close()
        if limit is not None and key is not None:
            task = asyncio.get_running_loop().create_task(self._time_up(key, limit.seconds))
            self._clock = (key, time.monotonic() + limit.seconds, task)

    async def _time_up(self, key: str, seconds: float) -> None:
        """The time has run out: the rules' decision for the seat is made, logged like any other (a replay makes
        it at the same place), and the computers and listeners go on from there."""
        await asyncio.sleep(seconds)
        async with self.lock:
            limit = None if self.game.over else self.game.rules.time_limit(self.game.state)
            if self._clock is None or self._clock[0] != key or limit is None or f"{limit.seat}/{limit.key}" != key:
                return
            self._clock = None
            try:
                self._apply(limit.seat, limit.decision)
            except IllegalDecision as e:  # the rules' own decision refused: a ruleset's bug, the person goes on
                print(f"grognard serve: game {self.id}: the time limit's decision: {e}", file=sys.stderr, flush=True)
                return
            await self._run_computers()
            await self.push()

    def close(self) -> None:
        """Stop the game's timer (the game leaves memory, or its time limit ends)."""
        if self._clock is not None:
            self._clock[2].cancel()
            self._clock = None

    # --- telling ---------------------------------------------------------------------------------------
    async def push(self, only: Listener | None = None) -> None:
        """Send each listener (or ``only`` one) what changed for its seat; the time limit follows the position."""
        self._arm_clock()
        for listener in [only] if only is not None else list(self.listeners):
            core = self._core(listener.seat)
            extra = self._extra(listener.seat)
            seat_events = self.events(listener.seat)
            start = min(listener.sent_events, len(seat_events))  # fewer after an undo: the page cuts its log
            if self.game.over and not listener.sent_over:
                start = 0  # the full log replaces the seat's own
            mark = core.message["tag"] + ("+hold" if "hold" in extra else "")  # a wait that ends changes it too
            if mark == listener.last_tag and start == len(seat_events):
                continue
            extra["events_from"] = start
            extra["events"] = fog.events_json(self.game, seat_events[start:])
            # the parts of view.state of KEPT_FROM bytes or more: what the page has already of these, it keeps
            parts = {k: text for k, text in (core.state or {}).items() if len(text) >= KEPT_FROM}
            kept = [k for k, text in parts.items() if listener.sent_state.get(k) == text]
            if kept:
                extra["kept"] = kept
            message = fog.update_text(core, kept, extra)
            listener.sent_state = parts
            listener.sent_events = len(seat_events)
            listener.sent_over = self.game.over
            listener.last_tag = mark
            try:
                await listener.send(message)
            except Exception:
                self.listeners.discard(listener)


def rebuild(store: Store, game_id: str, snapshots: bool = True) -> tuple[GameRow, Game]:
    """A game from the store: its inputs and every decision re-applied, in order; from its last snapshot on,
    when it has one that agrees with the log (the snapshot's digest is checked as it loads)."""
    from grognard.persistence.saves import resume_snapshot

    row = store.game(game_id)
    if row is None:
        raise Refused(f"no game {game_id!r}", 404)
    cls = rulesets.get(row.ruleset)
    log = store.decisions(game_id)
    game: Game | None = None
    snap = store.snapshot(game_id) if snapshots else None
    if snap is not None and snap[0] <= len(log):
        at, doc = snap
        try:
            if [(d["seat"], d["decision"]) for d in doc["decisions"]] == [(s, d) for s, d in log[:at]]:
                game = resume_snapshot(doc, f"game {game_id}")
        except (GrognardError, KeyError, TypeError):
            game = None  # a bad snapshot costs only time: the log is the record
    if game is None:
        game = Game(cls(scenario_of(cls, row.scenario), row.options), row.seed)
    codec = cls.decisions()
    for i in range(len(game.log), len(log)):
        seat, data = log[i]
        game.apply(seat, codec.from_json(data, f"game {game_id} decision {i + 1}"))
    return row, game


def shared_rules(rules: Ruleset[Any, Any], ref: Mapping[str, Any]) -> Ruleset[Any, Any]:
    """The process's ruleset of the same class, bundled scenario (``ref``, as the store keeps it) and options as
    ``rules``, where the ruleset may be shared (``Ruleset.shareable``); ``rules`` itself otherwise, or when it
    is the first. At most :data:`RULES_KEPT` are kept (the least recently asked go first)."""
    cls = type(rules)
    if not cls.shareable or "id" not in ref:
        return rules
    key = json.dumps([cls.id, ref["id"], rules.options], sort_keys=True, default=str)
    found = _shared.pop(key, rules)
    _shared[key] = found
    while len(_shared) > RULES_KEPT:
        _shared.popitem(last=False)
    return found


def scenario_of(cls: type[Ruleset[Any, Any]], ref: Mapping[str, Any]) -> Scenario:
    """A stored game's scenario: the whole document a save embedded, or a bundled id (never a path)."""
    scenario: Scenario = (
        cls.scenario_from_document(ref["document"], "scenario") if "document" in ref else cls.scenario_by_id(ref["id"])
    )
    return scenario


class Sessions:
    """Every game of one server: created here, loaded from the store on first use after a restart."""

    def __init__(
        self, store: Store, snapshot_every: int = SNAPSHOT_EVERY, computers: ComputerPool | None = None
    ) -> None:
        self.store = store
        self.snapshot_every = snapshot_every
        self.computers = computers
        self._sessions: dict[str, Session] = {}
        self._loading = asyncio.Lock()
        self._used: dict[str, float] = {}  # game id -> when a request last got its session (monotonic seconds)
        self._swept = time.monotonic()

    async def get(self, game_id: str) -> Session:
        if not isinstance(game_id, str) or len(game_id) > 64:
            raise Refused("no such game", 404)
        if time.monotonic() - self._swept > FINISHED_IDLE_SECONDS:
            self.evict_idle()
        session = self._sessions.get(game_id)
        if session is not None:
            self._used[game_id] = time.monotonic()
            return session
        async with self._loading:
            session = self._sessions.get(game_id)
            if session is not None:
                return session
            row, game = await asyncio.to_thread(rebuild, self.store, game_id)
            if self.computers is not None:  # no computer thinks in a thread here: the games may share a ruleset
                game.rules = shared_rules(game.rules, row.scenario)
            session = self._session(game_id, row, game)
            session._snapshot_at = self.store.snapshot_at(game_id)
            self._sessions[game_id] = session
            self._used[game_id] = time.monotonic()
        await session.start()
        return session

    def evict_idle(self, idle: float = IDLE_SECONDS, now: float | None = None) -> list[str]:
        """Let go of the games that no browser listens to and no request has asked for in ``idle`` seconds (a
        finished one: :data:`FINISHED_IDLE_SECONDS`, if shorter), so that their memory is freed; the next request
        rebuilds one from the store (``get``). A game whose lock is held or awaited (a decision, the computers'
        turn) stays. Returns the ids let go."""
        now = time.monotonic() if now is None else now
        self._swept = now
        gone = [
            gid
            for gid, s in self._sessions.items()
            if not s.listeners
            and not s.lock.locked()
            and now - self._used.get(gid, now) >= (min(idle, FINISHED_IDLE_SECONDS) if s.game.over else idle)
        ]
        for gid in gone:
            self._sessions.pop(gid).close()
            self._used.pop(gid, None)
            if self.computers is not None:
                self.computers.forget(gid)
        return gone

    def _session(self, game_id: str, row: GameRow, game: Game) -> Session:
        return Session(
            game_id, row, game, self.store, _players(row), snapshot_every=self.snapshot_every, computers=self.computers
        )

    async def resume_all(self) -> int:
        """Load every stored game (at start-up), so computers owing a decision make it."""
        loaded = 0
        for game_id in self.store.game_ids():
            try:
                await self.get(game_id)
                loaded += 1
            except (GrognardError, RuntimeError) as e:  # one broken game does not keep the others down
                print(f"grognard serve: game {game_id} cannot be resumed: {e}", file=sys.stderr, flush=True)
        return loaded

    async def create(
        self,
        game: str,
        scenario: str,
        options: Mapping[str, Any] | None,
        seats: Mapping[str, Mapping[str, Any]],
        seed: int | None = None,
    ) -> tuple[Session, NewSeats]:
        """A new game; returns it and its secrets (:class:`NewSeats`).

        The seed is drawn from the operating system's random source. A seed may be asked for only when no
        seat is a person elsewhere: whoever knew it would know every die and every hidden unit id."""
        if seed is not None and any((seats.get(s) or {}).get("kind") == "remote" for s in seats):
            raise Refused("a game with a person elsewhere ('remote') has a seed the server draws and keeps secret")
        try:
            cls = rulesets.get(game)
            sc = cls.scenario_by_id(scenario)  # a bundled id only: never a path
        except DataError as e:
            raise Refused(str(e)) from None
        chosen = dict(options or {})
        humans_here = [s for s in cls.seats if (seats.get(s) or {}).get("kind") == "human"]
        if len(humans_here) > 1:
            chosen.update(cls.hotseat_options)  # the manual's rule for two at one screen
        try:
            rules = cls(sc, chosen)
        except DataError as e:
            raise Refused(str(e)) from None
        seed = secret_seed() if seed is None else int(seed)
        return await self._store_new(cls, {"id": sc.info.id}, dict(rules.options), seed, seats, [])

    async def upload(self, save: Any, seats: Mapping[str, Mapping[str, Any]]) -> tuple[Session, NewSeats]:
        """A new game from a save file (its document, or its text): checked by the one check of a save, which
        re-runs every decision, before anything is stored."""
        from grognard.persistence.saves import check_save, save_document

        source = save.encode("utf-8") if isinstance(save, str) else save
        verdict = await asyncio.to_thread(check_save, source, "the save")
        if not verdict.ok or verdict.game is None:
            raise Refused(f"that save cannot be loaded: {verdict.message}")
        game = verdict.game
        cls = type(game.rules)
        if not game.over and any((seats.get(s) or {}).get("kind") == "remote" for s in seats):
            # its seed and every decision are in the uploader's hands: a person elsewhere would play blind
            raise Refused("a game in progress from a save is played here or against the computer, not remotely")
        humans_here = [s for s in cls.seats if (seats.get(s) or {}).get("kind") == "human"]
        forced = cls.hotseat_options
        if len(humans_here) > 1 and not game.over and any(game.rules.options.get(k) != v for k, v in forced.items()):
            raise Refused(f"two people at one screen must play with {forced} (the manual's rule); this save does not")
        doc = save_document(game, snapshot=False)
        decisions = [(e.seat, e.decision.to_json()) for e in game.log]
        return await self._store_new(cls, doc["scenario"], doc["options"], game.seed, seats, decisions, game)

    async def _store_new(
        self,
        cls: Any,
        scenario: Mapping[str, Any],
        options: Mapping[str, Any],
        seed: int,
        seats: Mapping[str, Mapping[str, Any]],
        decisions: list[tuple[str, dict[str, Any]]],
        game: Game | None = None,
    ) -> tuple[Session, NewSeats]:
        tokens: dict[str, str] = {}
        invites: dict[str, str] = {}
        rows: list[SeatRow] = []
        for s in cls.seats:
            spec = seats.get(s) or {}
            kind = spec.get("kind", "human")
            if kind not in SEAT_KINDS:
                raise Refused(f"seat {s}: kind {kind!r} is not one of {', '.join(SEAT_KINDS)}")
            if kind == "computer":
                player = str(spec.get("player") or "general")
                try:
                    make_player(player, cls)
                except DataError as e:
                    raise Refused(str(e)) from None
                rows.append(SeatRow(s, kind, player, None))
            elif kind == "remote":  # an invitation, claimed once by whoever opens it first (Session.claim)
                invites[s] = secrets.token_urlsafe(18)
                rows.append(SeatRow(s, kind, "", None, token_digest(invites[s])))
            else:
                tokens[s] = secrets.token_urlsafe(18)
                rows.append(SeatRow(s, kind, "", token_digest(tokens[s])))
        unknown = set(seats) - set(cls.seats)
        if unknown:
            raise Refused(f"no seat {sorted(unknown)[0]!r}: the seats are {', '.join(cls.seats)}")
        if not tokens and not invites:
            raise Refused("at least one seat must be a person's")
        game_id = secrets.token_urlsafe(9)
        creator = secrets.token_urlsafe(18)
        self.store.create_game(game_id, cls.id, scenario, options, seed, rows, decisions, token_digest(creator))
        if game is not None:  # already rebuilt from the same inputs: no need to run the log again
            row = self.store.game(game_id)
            assert row is not None
            self._sessions[game_id] = self._session(game_id, row, game)
            await self._sessions[game_id].start()
        return await self.get(game_id), NewSeats(tokens, invites, creator)

    def delete(self, game_id: str) -> None:
        self.store.delete_game(game_id)
        session = self._sessions.pop(game_id, None)
        if session is not None:
            session.close()
        self._used.pop(game_id, None)
        if self.computers is not None:
            self.computers.forget(game_id)


def secret_seed() -> int:
    """A game's seed from the operating system's random source: 63 bits (SQLite's signed integer), far beyond
    trying every seed until one gives the unit ids or dice a player sees."""
    return secrets.randbits(63)


def _players(row: GameRow) -> dict[str, Player]:
    cls = rulesets.get(row.ruleset)
    return {s.seat: make_player(s.player, cls, seat_seed(row.seed, s.seat)) for s in row.seats if s.kind == "computer"}
