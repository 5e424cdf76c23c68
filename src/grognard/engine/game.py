"""A game in progress: rules + seed + the decisions made, with its events, views, digest and undo.

``Game.apply`` is the one entry point through which a state changes: it checks that the seat may act and
that the decision is in that seat's legal set, applies it with a fresh :class:`Step`, stores the advanced
generator in the new state, appends the decision to the log and the events to the event log. An illegal
decision raises :class:`IllegalDecision` and changes nothing.

Undo is per seat. A seat takes back its last decision if nothing was rolled or revealed since and either it
was the last decision made, or every decision since was another seat's, given at the same time as it
(``Turn.together``: hidden orders, which cannot have depended on it); those are then made again in order.

A seat's reaction settings (:class:`ReactionSetting`) are decisions it may make at any moment: logged and
re-run like the others, they change no state, emit nothing, and are invisible to undo (another seat's
setting never keeps a seat from taking its decision back, which would tell it a setting was made).

Any seat may resign (:class:`Resignation`) at any moment until the game is over: logged like any decision, it
changes no state, ends the game with :meth:`Ruleset.resigned`'s result and cannot be taken back.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from . import codec
from .decisions import Decision, Legal
from .errors import IllegalDecision
from .events import Event, Step, visible_to
from .protocol import SETTING_MODES, ReactionSetting, Resignation, Result, Ruleset, Turn
from .records import remaker

TRAIL_CHARS = 16


@dataclass(frozen=True, slots=True)
class LogEntry:
    seat: str
    decision: Decision


@dataclass(frozen=True, slots=True)
class _Undoable:
    """What taking back one logged decision needs: the state and event count before it, and whether it was
    given at the same time as another seat's orders."""

    state: Any
    events: int
    together: bool


# records made with every field given, without a frozen class's ``__init__`` (one of each per decision): the same
# objects ``LogEntry(seat, decision)`` and ``_Undoable(state, events, together)`` make
_NO_ENTRY = LogEntry("", Resignation())
_entry = remaker(LogEntry, ("seat", "decision"))
_NO_UNDO = _Undoable(None, 0, False)
_undoable = remaker(_Undoable, ("state", "events", "together"))


def state_digest(state: Any) -> str:
    """SHA-256 of the canonical JSON of a state: equal on every machine for equal games."""
    return hashlib.sha256(codec.dumps(state).encode("utf-8")).hexdigest()


def paced(events: list[Event], between: Callable[[], None] | None) -> Iterator[Event]:
    """The events one by one, ``between`` (if given) called after every 64th: a long log's safe points (the
    server's worker answers other games' reactions there)."""
    for i, e in enumerate(events, 1):
        yield e
        if between is not None and i % 64 == 0:
            between()


def events_digest(events: list[Event], between: Callable[[], None] | None = None) -> str:
    """SHA-256 of the events' canonical JSON lines; ``between``: :func:`paced` (a long log's digest takes tens of
    milliseconds)."""
    h = hashlib.sha256()
    for e in paced(events, between):
        h.update(codec.dumps({"kind": e.kind, "text": e.text, "data": e.data, "seen_by": e.seen_by}).encode())
        h.update(b"\n")
    return h.hexdigest()


class Game:
    """One game: a bound ruleset, its seed, the current state, the decision log and the event log."""

    def __init__(self, rules: Ruleset[Any, Any], seed: int, *, trail: bool = False) -> None:
        self.rules = rules
        self.seed = seed
        self.state, opening = rules.opening(seed)
        self.log: list[LogEntry] = []
        self.events: list[Event] = list(opening)  # the opening's events (its rolls), then each decision's
        self.event_counts: list[int] = []  # events emitted by each logged decision
        # digest prefixes after each decision, kept when asked: a save names the first decision that diverges
        self.trail: list[str] | None = [] if trail else None
        self._undo: list[_Undoable] = []  # the last decisions, since the last roll or reveal, one entry each
        self._legal: tuple[Any, str, Legal] | None = None  # the last legal set asked for, by state and seat
        self._turn: tuple[Any, Turn] | None = None  # whose turn it is in the last state asked about
        self._settings: dict[str, dict[str, ReactionSetting]] = {}  # seat -> reaction kind -> its setting
        self.settings_made = 0  # how many decisions of the log are reaction settings
        self.resigned: str | None = None  # the seat that resigned, if one did
        self._counted: tuple[int, Counter[str]] = (0, Counter())  # decisions of each seat in the log's first n

    # --- asking ----------------------------------------------------------------------------------------
    def turn(self) -> Turn:
        if self.resigned is not None:
            return Turn(None, phase="resigned")
        cached = self._turn  # asked several times a decision (the driver, the legal set, apply): kept per state
        if cached is not None and cached[0] is self.state:
            return cached[1]
        turn = self.rules.turn(self.state)
        self._turn = (self.state, turn)
        return turn

    @property
    def over(self) -> bool:
        return self.turn().seat is None

    def legal(self, seat: str) -> Legal:
        cached = self._legal
        if cached is not None and cached[0] is self.state and cached[1] == seat and self.resigned is None:
            return cached[2]  # kept only for a seat that could act in this state (whose turn is the state's)
        if not self.turn().may_act(seat):
            return Legal(seat)
        return self._legal_now(seat)

    def _legal_now(self, seat: str) -> Legal:
        cached = self._legal
        if cached is not None and cached[0] is self.state and cached[1] == seat:
            return cached[2]
        legal = self.rules.legal(self.state, seat)
        self._legal = (self.state, seat, legal)
        return legal

    def result(self) -> Result | None:
        if self.resigned is not None:
            return self.rules.resigned(self.state, self.resigned)
        return self.rules.result(self.state)

    # --- deciding --------------------------------------------------------------------------------------
    def apply(self, seat: str, decision: Decision, *, checked: bool = False) -> list[Event]:
        """Apply ``seat``'s decision; returns the events it caused (all of them: filter before sending).
        ``checked``: the same decision was found legal at this same position already (the server's computers'
        worker applied it to its replica of the game, or the server to its own before the replica follows), so
        the seat's legal set is not built again for it."""
        turn = self.turn()
        if turn.seat is None:
            raise IllegalDecision("the game is over")
        if seat not in self.rules.seats:
            raise IllegalDecision(f"no seat {seat!r} in {self.rules.name}")
        if isinstance(decision, ReactionSetting):
            self._set(seat, decision)
            return []
        if isinstance(decision, Resignation):
            return self._resign(seat)
        if not turn.may_act(seat):
            raise IllegalDecision(f"it is not {seat}'s decision: waiting for {turn.seat}")
        if not checked:
            legal = self._legal_now(seat)
            if decision not in legal:
                raise self.rules.explain(self.state, seat, decision, legal)
        step = Step(self.state.rng)
        new_state = self.rules.apply(self.state, seat, decision, step)
        if new_state.rng != step.dice.state:  # most decisions roll nothing: the state made holds the dice already
            new_state = self.rules.with_rng(new_state, step.dice.state)
        if step.irreversible:
            self._undo.clear()
        else:
            self._undo.append(_undoable(_NO_UNDO, self.state, len(self.events), turn.together))
        self.state = new_state
        self.log.append(_entry(_NO_ENTRY, seat, decision))
        self.events.extend(step.events)
        self.event_counts.append(len(step.events))
        if self.trail is not None:
            self.trail.append(self.digest()[:TRAIL_CHARS])
        return step.events

    def _resign(self, seat: str) -> list[Event]:
        result = self.rules.resigned(self.state, seat)  # refuses a seat that may not resign
        self.resigned = seat
        self._undo.clear()
        event = Event("resigned", result.summary, {"seat": seat})
        self.log.append(LogEntry(seat, Resignation()))
        self.events.append(event)
        self.event_counts.append(1)
        if self.trail is not None:
            self.trail.append(self.digest()[:TRAIL_CHARS])
        return [event]

    # --- reaction settings -----------------------------------------------------------------------------
    def _set(self, seat: str, setting: ReactionSetting) -> None:
        """Record a seat's reaction setting (a "never" holds for the phase it is made in)."""
        kinds = {k.name: k for k in self.rules.reaction_kinds}
        kind = kinds.get(setting.reaction)
        if kind is None:
            names = ", ".join(kinds) or "none"
            raise IllegalDecision(f"{self.rules.name} has no reaction {setting.reaction!r} (its reactions: {names})")
        if setting.mode not in SETTING_MODES or (setting.mode == "best" and not kind.best):
            modes = [m for m in SETTING_MODES if kind.best or m != "best"]
            raise IllegalDecision(f"a setting for {kind.label} is one of {', '.join(modes)}")
        if not 0 <= setting.percent <= 100:
            raise IllegalDecision("a chance is a percentage, 0 to 100")
        if setting.mode == "never" and not setting.phase:
            setting = ReactionSetting(setting.reaction, "never", setting.percent, self.rules.reaction_phase(self.state))
        self._keep(seat, setting)
        self._undo.append(_Undoable(self.state, len(self.events), True))
        self.log.append(LogEntry(seat, setting))
        self.event_counts.append(0)
        self.settings_made += 1
        if self.trail is not None:
            self.trail.append(self.digest()[:TRAIL_CHARS])

    def _keep(self, seat: str, setting: ReactionSetting) -> None:
        """A "never" is kept beside the standing setting (ask, or best), which holds again once its phase ends."""
        mine = self._settings.setdefault(seat, {})
        if setting.mode == "never":
            mine[f"{setting.reaction}/never"] = setting
        else:
            mine[setting.reaction] = setting
            mine.pop(f"{setting.reaction}/never", None)

    def setting(self, seat: str, reaction: str) -> ReactionSetting:
        """A seat's setting for one kind of reaction now: "never" in the phase it was made for, else its standing
        setting ("ask" until it sets another)."""
        mine = self._settings.get(seat, {})
        never = mine.get(f"{reaction}/never")
        if never is not None and never.phase == self.rules.reaction_phase(self.state):
            return never
        return mine.get(reaction) or ReactionSetting(reaction, "ask")

    def _refold(self) -> None:
        self._settings = {}
        self.settings_made = 0
        self.resigned = next((e.seat for e in self.log if isinstance(e.decision, Resignation)), None)
        for e in self.log:
            if isinstance(e.decision, ReactionSetting):
                self._keep(e.seat, e.decision)
                self.settings_made += 1

    def _undoable(self, seat: str) -> int | None:
        """The index in the log of the decision ``seat`` may take back now, if any (reaction settings are passed
        over: they depend on nothing and nothing depends on them)."""
        first = len(self.log) - len(self._undo)
        for i in range(len(self.log) - 1, first - 1, -1):
            if isinstance(self.log[i].decision, ReactionSetting):
                continue
            if self.log[i].seat == seat:
                later = [
                    j for j in range(i + 1, len(self.log)) if not isinstance(self.log[j].decision, ReactionSetting)
                ]
                if not later or (self._undo[i - first].together and all(self._undo[j - first].together for j in later)):
                    return i
                return None
        return None

    def decisions_by(self, seat: str) -> int:
        """How many of the log's decisions ``seat`` made (counted as the log grows, not over it at every call)."""
        log = self.log
        seen, counts = self._counted
        if seen != len(log):
            for i in range(seen, len(log)):
                counts[log[i].seat] += 1
            self._counted = (len(log), counts)
        return counts[seat]

    def can_undo(self, seat: str) -> bool:
        return self._undoable(seat) is not None

    def undo(self, seat: str) -> None:
        """Take back ``seat``'s last decision, if no die was rolled and nothing hidden was revealed since, and
        it was the last decision made or every one since was another seat's order given at the same time."""
        i = self._undoable(seat)
        if i is None:
            if not self._undo:
                raise IllegalDecision("nothing to undo: a die was rolled or something hidden was revealed")
            raise IllegalDecision(f"nothing of {seat}'s to undo: another seat has decided since")
        first = len(self.log) - len(self._undo)
        again = self.log[i + 1 :]
        kept = (self.state, list(self.log), list(self.events), list(self.event_counts), self.trail, list(self._undo))
        before = self._undo[i - first]
        self.state = before.state
        del self.events[before.events :]
        del self.log[i:]
        del self.event_counts[i:]
        self._counted = (0, Counter())
        del self._undo[i - first :]
        if self.trail is not None:
            self.trail = self.trail[:i]
        self._refold()
        try:
            for entry in again:  # orders given at the same time: independent of the one taken back
                self.apply(entry.seat, entry.decision)
        except IllegalDecision:
            self.state, self.log, self.events, self.event_counts, self.trail, self._undo = kept
            self._refold()
            raise IllegalDecision(f"{seat}'s last decision cannot be taken back now") from None

    # --- what leaves the engine ------------------------------------------------------------------------
    def view(self, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may know now; once the game is over every seat gets the full view."""
        over = self.over
        who = None if over else seat
        data = self.rules.view(self.state, who)
        turn = self.turn()
        out: dict[str, Any] = {
            "game": self.rules.id,
            "scenario": self.rules.scenario.info.id,
            "seat": seat,
            "turn": turn.to_json(),
            "over": over,
            "state": data,
        }
        if seat is not None and self.rules.reaction_kinds and not over:
            # the seat's own settings: no other seat's view, event or message has them
            mine = self._settings.get(seat, {})
            out["reactions"] = [
                {**k.to_json(), "mode": self.setting(seat, k.name).mode, "percent": _percent(mine.get(k.name))}
                for k in self.rules.reaction_kinds
            ]
        if who is None:  # the log's length would count the enemy's hidden decisions (purchases, placements)
            out["decisions"] = len(self.log)
        result = self.result()
        if result is not None:
            out["result"] = result.to_json()
        return out

    def inspect(self, seat: str, query: Mapping[str, Any]) -> dict[str, Any]:
        """A seat's question that decides nothing (``Ruleset.inspect``), answered from what it may know now."""
        if seat not in self.rules.seats:
            raise IllegalDecision(f"no seat {seat!r} in {self.rules.name}")
        if not isinstance(query, Mapping) or not isinstance(query.get("kind"), str):
            raise IllegalDecision("a question is an object with a 'kind'")
        return self.rules.inspect(self.state, seat, query)

    def events_for(self, seat: str | None, start: int = 0) -> list[dict[str, Any]]:
        """The event log from ``start`` as ``seat`` may see it (the full log once the game is over)."""
        who = None if self.over else seat
        return [e.to_json() for e in self.events[start:] if visible_to(e, who)]

    @property
    def opening_events(self) -> int:
        """How many events the rules emitted before the first decision (``Ruleset.opening``)."""
        return len(self.events) - sum(self.event_counts)

    def digest(self) -> str:
        return state_digest(self.state)

    def events_digest(self) -> str:
        return events_digest(self.events)

    def decisions_json(self) -> list[dict[str, Any]]:
        return [
            {"seat": e.seat, "decision": e.decision.to_json(), "text": self.rules.describe(e.decision)}
            for e in self.log
        ]

    def entries(self) -> Iterator[LogEntry]:
        return iter(self.log)

    @classmethod
    def restore(
        cls,
        rules: Ruleset[Any, Any],
        seed: int,
        state: Any,
        log: list[LogEntry],
        events: list[Event],
        event_counts: list[int],
        trail: list[str] | None,
    ) -> Game:
        """A game resumed from a snapshot without replaying its decisions (undo starts empty)."""
        game = cls.__new__(cls)
        game.rules = rules
        game.seed = seed
        game.state = state
        game.log = list(log)
        game.events = list(events)
        game.event_counts = list(event_counts)
        game.trail = list(trail) if trail is not None else None
        game._undo = []
        game._legal = None
        game._turn = None
        game._counted = (0, Counter())
        game._refold()
        return game


def _percent(standing: ReactionSetting | None) -> int:
    """The threshold a seat's page shows: its standing setting's (a "never" for one phase leaves it be)."""
    return standing.percent if standing is not None else ReactionSetting("", "ask").percent


def new_game(
    ruleset: type[Ruleset[Any, Any]], scenario: str, options: Mapping[str, Any] | None = None, seed: int = 0
) -> Game:
    """A new game of ``ruleset`` on a bundled scenario id or a scenario file path."""
    return Game(ruleset(ruleset.load_scenario(scenario), options), seed)
