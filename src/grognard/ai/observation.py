"""What a computer player is given: one seat's observation of a game, and the static facts of its scenario.

An :class:`Observation` holds the seat, its view (``Game.view(seat)``, the same filtered data a person's browser
gets), its legal decisions, the events the seat has seen so far, how many decisions the seat has made, and
:class:`Facts`: the ruleset's class, the scenario and the options, which are the same in every game of that
scenario. It holds no state of the game: nothing in it names a unit the seat may not know of, the generator or
the seed. :func:`observe` is the one function that builds it, from a :class:`~grognard.engine.Game`.

A player that needs the ruleset's tables, map or helpers builds a ruleset from the facts (:meth:`Facts.rules`),
whose caches only ever see the states players give it (their beliefs, built from views), never the game's: its
own, or, for a ruleset whose caches are keyed by what they were derived from (``Ruleset.shareable``), one
shared by the players of a thread. ``Observation.earlier()`` replays the seat's past observations, so that a player that
remembers (a general) can rebuild its memory after a server restart (``Player.catch_up``).

The lazily built parts (the view, the events, the legal lists, ``earlier``) are functions over the game kept
for speed; a player reads them only through these methods, and the conformance harness's fog-honesty check
(``grognard.testing.conformance.check_players_see_only_their_seat``) shows that none decides by what its seat
cannot know.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from grognard.engine import Game, IllegalDecision, Legal, Ruleset
from grognard.engine.events import Event, visible_to
from grognard.engine.protocol import Scenario

# players' rulesets shared per process and thread, for a ``Ruleset.shareable`` ruleset (see ``Facts.rules``)
SHARED_KEPT = 8
_shared: OrderedDict[tuple[int, str], tuple[Scenario, Ruleset[Any, Any]]] = OrderedDict()
_shared_lock = threading.Lock()
# the facts of each live ruleset (see facts_of)
_facts: weakref.WeakKeyDictionary[Ruleset[Any, Any], Facts] = weakref.WeakKeyDictionary()
_last_facts: tuple[Callable[[], Ruleset[Any, Any] | None], Facts | None] = (lambda: None, None)


@dataclass(frozen=True, slots=True, eq=False)
class Facts:
    """The static facts of a game: the same for every game of this scenario and options, and nothing else."""

    ruleset: type[Ruleset[Any, Any]]
    scenario: Scenario
    options: Mapping[str, Any]

    def rules(self) -> Ruleset[Any, Any]:
        """A ruleset bound to these facts: its tables, map and helpers, with caches that see only what players
        pass to it. A new one for one player alone, or, for a ``Ruleset.shareable`` ruleset (its caches keyed by
        what they were derived from), the one of these facts that every player of this thread shares (the
        generals of a server's worker pay the caches once, not once per game); at most :data:`SHARED_KEPT` are
        kept, the least recently asked going first. One per thread: a ruleset's caches are not locked."""
        if not self.ruleset.shareable:
            return self.ruleset(self.scenario, dict(self.options))
        options = json.dumps(dict(self.options), sort_keys=True, default=str)
        key = (threading.get_ident(), f"{self.ruleset.id}/{id(self.scenario)}/{options}")
        with _shared_lock:
            found = _shared.pop(key, None)
            if found is None or found[0] is not self.scenario:  # the scenario kept alive, so its id is its own
                found = (self.scenario, self.ruleset(self.scenario, dict(self.options)))
            _shared[key] = found
            while len(_shared) > SHARED_KEPT:
                _shared.popitem(last=False)
        return found[1]

    def __deepcopy__(self, memo: dict[int, Any]) -> Facts:
        return self  # static: a copied player shares them

    def same(self, other: Facts) -> bool:
        """The same scenario and options (a player keeps the ruleset it built while they stay the same)."""
        return self.ruleset is other.ruleset and self.scenario is other.scenario and self.options == other.options


class Observation:
    """One seat's observation: its view (built on first use), its legal decisions, the events it has seen (built on
    first use), the number of decisions it has made, and the static facts."""

    __slots__ = ("_earlier", "_events", "_view", "facts", "legal", "made", "seat")

    def __init__(
        self,
        seat: str,
        view: Mapping[str, Any] | Callable[[], Mapping[str, Any]],
        legal: Legal,
        facts: Facts,
        events: Sequence[Mapping[str, Any]] | Callable[[], Sequence[Mapping[str, Any]]] = (),
        made: int = 0,
        earlier: Callable[[], Iterator[Observation]] | None = None,
    ) -> None:
        self.seat = seat
        self.legal = legal
        self.facts = facts
        self.made = made
        self._view: Mapping[str, Any] | Callable[[], Mapping[str, Any]] = view
        self._events: Sequence[Mapping[str, Any]] | Callable[[], Sequence[Mapping[str, Any]]] = events
        self._earlier = earlier

    @property
    def view(self) -> Mapping[str, Any]:
        """What the seat may know now (``Game.view(seat)``)."""
        if callable(self._view):
            self._view = self._view()
        return self._view

    @property
    def events(self) -> Sequence[Mapping[str, Any]]:
        """Every event the seat has seen so far, oldest first (``Game.events_for(seat)``)."""
        if callable(self._events):
            self._events = self._events()
        return self._events

    def earlier(self) -> Iterator[Observation]:
        """The seat's observations at each earlier moment it had to decide (the turn was its own), oldest first:
        what it saw then, replayed from the game's decisions."""
        return self._earlier() if self._earlier is not None else iter(())


def facts_of(rules: Ruleset[Any, Any]) -> Facts:
    """The static facts of a bound ruleset: its class, scenario and options (made once per ruleset: they are
    asked for at every observation)."""
    global _last_facts
    last = _last_facts
    found = last[1] if last[0]() is rules else _facts.get(rules)  # the last ruleset asked about, most often
    if found is None or found.scenario is not rules.scenario or found.options != rules.options:
        found = _facts[rules] = Facts(type(rules), rules.scenario, MappingProxyType(dict(rules.options)))
    if last[1] is not found:
        _last_facts = (weakref.ref(rules), found)
    return found


def observe(game: Game, seat: str) -> Observation:
    """``seat``'s observation of ``game`` now: the one way a computer player is given a game."""
    return Observation(
        seat,
        lambda: game.view(seat),
        game.legal(seat),
        facts_of(game.rules),
        lambda: game.events_for(seat),
        game.decisions_by(seat),
        lambda: _earlier(game, seat),
    )


def _earlier(game: Game, seat: str) -> Iterator[Observation]:
    """Replay ``game``'s decisions from its seed and yield ``seat``'s observation before each decision it made
    when the turn was its own (the moments a computer in that seat was asked to choose). A played game always
    replays; one whose state a test set by hand replays only while its decisions fit the seed's game. The replay
    stops at the seat's last decision: what the other seats decided after it shows in no earlier observation (a
    seat that has made none, as at a general's first decision, replays nothing)."""
    mine = game.decisions_by(seat)
    if not mine:
        return
    past = Game(game.rules, game.seed)
    facts = facts_of(game.rules)
    made = 0
    for entry in game.log:
        if entry.seat == seat:
            if seat in past.turn().deciding:
                # the view now: ``past`` moves on when the caller asks for the next one
                yield Observation(
                    seat,
                    past.view(seat),
                    past.legal(seat),
                    facts,
                    _events_until(past.events, len(past.events), seat),
                    made,
                    None,
                )
            made += 1
            if made == mine:
                return
        try:
            past.apply(entry.seat, entry.decision)
        except IllegalDecision:
            return  # a position set up by hand (tests): its log does not replay from the seed past this point


def _events_until(events: list[Event], n: int, seat: str) -> Callable[[], list[Mapping[str, Any]]]:
    return lambda: [e.to_json() for e in events[:n] if visible_to(e, seat)]
