"""The one game protocol every ruleset implements, and the browser, the computer players, saves and tests use.

A ruleset is a class with its game's metadata (id, seats, options, decision kinds, scenarios); an instance
is bound to one scenario and one set of options. Its state is a frozen dataclass with an ``rng`` field; the
rules never mutate a state, they return a new one (Pgx), so an illegal decision cannot leave a mark and a
copy for search costs nothing.

The calls, in the order a driver makes them::

    rules = Ruleset(scenario, options)
    state = rules.initial_state(seed)
    turn = rules.turn(state)            # who must decide now (and who may interject)
    legal = rules.legal(state, seat)    # what that seat may decide, what it is asked, a suggestion
    state = rules.apply(state, seat, decision, step)   # only with a decision in ``legal``
    rules.view(state, seat)             # all that seat may know: the only way out of the engine
    rules.result(state)                 # None until the game is over

:class:`grognard.engine.game.Game` wraps these with validation, the decision log, events and undo.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from .decisions import Decision, DecisionCodec, Legal
from .errors import DataError, IllegalDecision, nearest
from .events import Event, Step
from .records import replace
from .rng import Dice, seed_state


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A rule option the manual offers, with its default."""

    name: str
    label: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def check(self, value: Any) -> Any:
        if self.choices:
            if value not in self.choices:
                raise DataError("options", self.name, f"{value!r} is not one of {list(self.choices)}")
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise DataError("options", self.name, f"expected true or false, found {value!r}")
            return value
        if isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise DataError("options", self.name, f"expected a whole number, found {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise DataError("options", self.name, f"{value} is below the minimum {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise DataError("options", self.name, f"{value} is above the maximum {self.maximum}")
            return value
        return value

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "label": self.label, "default": self.default}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.help:
            out["help"] = self.help
        return out


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The full option set: defaults overridden by ``given``, each checked."""
    by_name = {s.name: s for s in specs}
    out = {s.name: s.default for s in specs}
    for name, value in (given or {}).items():
        if name not in by_name:
            raise DataError("options", name, f"unknown option {name!r}; {nearest(name, by_name)}")
        out[name] = by_name[name].check(value)
    return out


@dataclass(frozen=True, slots=True)
class ScenarioInfo:
    """What the lobby and ``grognard games`` show of a scenario."""

    id: str
    name: str
    summary: str = ""
    description: str = ""
    turns: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "summary": self.summary,
            "description": self.description,
            "turns": self.turns,
            **dict(self.extra),
        }


class Scenario(ABC):
    """A loaded scenario. ``document()`` is a self-contained JSON value that rebuilds it (saves embed it)."""

    info: ScenarioInfo
    user_file: bool = False
    """Read from a file of the user's rather than bundled: a save then embeds its document instead of its id."""

    @abstractmethod
    def document(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Turn:
    """Who must decide now (``seat``; None once the game is over) and who may interject (``optional``).

    In a phase of orders given at the same time (Kursk's plots), ``also`` names the other seats that must
    decide too: each fills its own order sheet, in any order, and the rules go on when the last one commits
    (:meth:`at_once`). ``seat`` is then the first of them, and :attr:`deciding` all of them.
    """

    seat: str | None
    optional: tuple[str, ...] = ()
    phase: str = ""
    also: tuple[str, ...] = ()

    @classmethod
    def at_once(cls, seats: Sequence[str], phase: str = "") -> Turn:
        """A turn in which every seat of ``seats`` (those that have not committed yet) decides at once."""
        return cls(seats[0], phase=phase, also=tuple(seats[1:])) if seats else cls(None, phase=phase)

    @property
    def deciding(self) -> tuple[str, ...]:
        """Every seat that must decide now (one, or several giving orders at the same time)."""
        return () if self.seat is None else (self.seat, *self.also)

    @property
    def together(self) -> bool:
        """Several seats give orders at the same time: what each decides is hidden from the others, so the
        order in which they decide carries no information."""
        return bool(self.also)

    def may_act(self, seat: str) -> bool:
        return seat == self.seat or seat in self.also or seat in self.optional

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "optional": list(self.optional), "phase": self.phase}
        if self.also:
            out["deciding"] = list(self.deciding)
        return out


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game in the manual's terms: winner (None for a draw), victory level and score per seat."""

    winner: str | None
    levels: Mapping[str, str]
    scores: Mapping[str, int]
    summary: str

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "levels": dict(self.levels),
            "scores": dict(self.scores),
            "summary": self.summary,
        }


SETTING_MODES = ("ask", "best", "never")
"""A seat's reaction settings, in the manual's terms: ask me; take the best shot when its chance is at least
``percent``; never ask this phase (the seat declines every reaction of that kind until the phase ends)."""


@dataclass(frozen=True, slots=True)
class ReactionKind:
    """A kind of reaction a ruleset offers; ``best`` says whether it has a best shot with a chance to set a
    threshold on (passing fire has; La Grande Armée's reinforce-or-withdraw has not)."""

    name: str
    label: str
    best: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "best": self.best}


@dataclass(frozen=True, slots=True)
class Reaction:
    """A reaction pending for a seat: its kind, the best answer with its chance in percent (None: no best shot
    now) and the answer that declines (None: declining is letting the mover go on, no decision logged)."""

    kind: str
    best: Decision | None
    chance: int | None
    decline: Decision | None


@dataclass(frozen=True, slots=True)
class ReactionSetting(Decision):
    """A seat's standing answer to one kind of reaction: ``mode`` is one of :data:`SETTING_MODES`, ``percent``
    the least chance a best shot needs, ``phase`` the phase a "never" holds for (filled in by ``Game.apply``
    from :meth:`Ruleset.reaction_phase`). A decision of that seat, logged and re-run like any other, that
    changes no state and never shows in another seat's view, events or messages."""

    kind: ClassVar[str] = "reaction_setting"
    reaction: str
    mode: str
    percent: int = 50
    phase: str = ""


@dataclass(frozen=True, slots=True)
class Resignation(Decision):
    """A seat gives up the game. Any seat may resign at any moment until the game is over, whoever has the
    turn; it ends the game (:meth:`Ruleset.resigned` gives the result). Logged and re-run like any other
    decision; it changes no state, and cannot be taken back."""

    kind: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True)
class TimeLimit:
    """A time limit a seat is under now (Battle of Antietam's per operation phase, §IA2.1 #6): ``seconds`` for the
    stretch of its decisions named ``key`` (the same key from one decision to the next while the stretch lasts),
    and the ``decision`` made for the seat when the time runs out, logged like any other. Kept by the server for
    people's seats (``server/sessions.py``); the rules hold no clock."""

    seat: str
    key: str
    seconds: float
    decision: Decision


S = TypeVar("S")
Sc = TypeVar("Sc", bound=Scenario)


class Ruleset(ABC, Generic[S, Sc]):
    """One game's rules, bound to a scenario and options."""

    id: ClassVar[str]
    name: ClassVar[str]
    seats: ClassVar[tuple[str, ...]]
    decision_types: ClassVar[tuple[type[Decision], ...]]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    state_type: ClassVar[type]
    # kinds of events after which a computer that has the turn waits for a person who may react (``Turn.optional``,
    # e.g. La Grande Armée's reinforce and withdraw after an attack) until that person lets it go on
    reaction_events: ClassVar[tuple[str, ...]] = ()
    version: ClassVar[int] = 1  # of the rules: saves record it, and one of another version is refused
    _codec: ClassVar[DecisionCodec | None] = None

    def __init__(self, scenario: Sc, options: Mapping[str, Any] | None = None) -> None:
        self.scenario = scenario
        self.options = resolve_options(self.option_specs, options)

    # --- what the server, the page and the command line ask of a ruleset (each with a default) ----------
    counted_families: ClassVar[bool] = True
    """The server may send a family of many locations (a unit's destinations) as its count, the page asking for its
    values when it shows them (docs/server.md); False where the ruleset's page module reads every family's values
    as the update brings them."""
    shareable: ClassVar[bool] = False
    """An instance holds nothing of one game, only what it derives from its scenario and options and caches keyed
    by what they were derived from (bounded by bytes or by a size play does not grow): the server's games of one
    bundled scenario and options then share one instance, so its caches are paid once per process, not once per
    game. Shared by one thread only (the server shares it where no computer thinks in a thread)."""

    hotseat_options: ClassVar[Mapping[str, Any]] = {}
    """Rule options forced when two people share one screen (The Perfect General p.33: Full View); the lobby
    shows them and the server applies them."""

    match_option: ClassVar[str | None] = None
    """For a ruleset with a match game (The Perfect General p.3: the scenario twice, sides swapped, the victory
    points of both games added up), the rule option naming the seat player 1 takes; ``grognard simulate
    --match`` plays it, and ``grognard play`` seats its person there. None: the game has no match game."""

    cell_format: ClassVar[str] = ""
    """How a person may type a cell at the terminal besides its number, as the manual names it (La Grande
    Armée: ``column,row``), read by :meth:`parse_cell`; empty where cells are typed as decisions print them."""

    @classmethod
    def computer_players(cls) -> Mapping[str, Callable[[int, int], Any]]:
        """The ruleset's own computer players (its ``general``): a factory per kind, called with a seed and a
        level, beside the generic random and greedy players every ruleset has."""
        return {}

    def map_json(self) -> dict[str, Any]:
        """What the page draws the map by (terrain, places, borders): public facts of the scenario only, the same
        for every seat; fog stays in :meth:`view`. Empty: the page draws from the views alone."""
        return {}

    def parse_cell(self, label: str) -> int:
        """The cell a person names by ``label`` in :attr:`cell_format`; raises ``ValueError`` for no such cell."""
        raise ValueError(f"{self.name} names cells by number")

    def cell_label(self, cell: int) -> str:
        """A cell as :attr:`cell_format` writes it (the terminal lists decisions so); its number by default."""
        return str(cell)

    def turns_played(self, state: S) -> int:
        """How many of the scenario's turns (``ScenarioInfo.turns``: La Grande Armée's seasons) have begun, as
        ``grognard simulate --json`` reports them; 0 for a ruleset that counts no turns."""
        return 0

    # --- reactions: what a seat may answer while the other seat acts, and how its settings answer for it ---
    reaction_kinds: ClassVar[tuple[ReactionKind, ...]] = ()
    """The kinds of reaction the game offers a seat that is not acting (The Perfect General's passing and return
    fire, La Grande Armée's reinforce and withdraw), in the manual's words; empty: the game has none. A seat's
    settings for each kind (:class:`ReactionSetting`) let the one driver answer for a person."""

    def reaction(self, state: S, seat: str) -> Reaction | None:
        """The reaction ``seat`` is offered now, with its best answer and chance and the answer that declines;
        None when none is pending for it."""
        return None

    def reaction_phase(self, state: S) -> str:
        """The phase a reaction belongs to, as a key: "never ask this phase" holds while it stays the same. By
        default the turn's own phase label."""
        return self.turn(state).phase

    def time_limit(self, state: S) -> TimeLimit | None:
        """The time limit a seat is under now, if the game's options set one (:class:`TimeLimit`); None: none."""
        return None

    # --- scenarios -------------------------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def scenario_dir(cls) -> Path:
        """Where the bundled scenarios live (one ``<id>.json`` each)."""

    @classmethod
    def scenario_ids(cls) -> list[str]:
        return sorted(p.stem for p in cls.scenario_dir().glob("*.json"))

    @classmethod
    def scenarios(cls) -> list[ScenarioInfo]:
        return [cls.load_scenario(i).info for i in cls.scenario_ids()]

    @classmethod
    def scenario_by_id(cls, sid: str) -> Sc:
        """A bundled scenario by its id, one of :meth:`scenario_ids`; nothing else is opened (the server and
        saves use only this, so no name a client sends reaches a file outside the bundled data)."""
        ids = cls.scenario_ids()
        if sid not in ids:
            raise DataError(cls.id, "scenario", f"no scenario {sid[:80]!r}; {nearest(sid[:80], ids)}")
        return cls.read_scenario(cls.scenario_dir() / f"{sid}.json")

    @classmethod
    def load_scenario(cls, ref: str | Path) -> Sc:
        """A bundled scenario by id, or a user's scenario file by path (the command line's explicit use)."""
        text = str(ref)
        if "/" not in text and "\\" not in text and not text.endswith(".json"):
            return cls.scenario_by_id(text)
        path = Path(ref)
        if not path.is_file():
            raise DataError(str(path), "", "scenario file not found")
        return cls.read_scenario(path)

    @classmethod
    @abstractmethod
    def read_scenario(cls, path: Path) -> Sc:
        """Load and check a scenario file."""

    @classmethod
    @abstractmethod
    def scenario_from_document(cls, document: Mapping[str, Any], where: str) -> Sc:
        """Rebuild a scenario from the self-contained document a save embeds."""

    @classmethod
    def decisions(cls) -> DecisionCodec:
        if cls.__dict__.get("_codec") is None:
            cls._codec = DecisionCodec((*cls.decision_types, ReactionSetting, Resignation))
        codec = cls.__dict__["_codec"]
        assert isinstance(codec, DecisionCodec)
        return codec

    @classmethod
    def describe_game(cls) -> dict[str, Any]:
        """The entry ``grognard games --json`` prints for this game."""
        return {
            "id": cls.id,
            "name": cls.name,
            "seats": list(cls.seats),
            "scenarios": [s.to_json() for s in cls.scenarios()],
            "options": [o.to_json() for o in cls.option_specs],
            "match_option": cls.match_option,
        }

    # --- play ------------------------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, seed: int) -> S:
        """The state before the first decision; its ``rng`` field is seeded from ``seed``."""

    def opening(self, seed: int) -> tuple[S, list[Event]]:
        """The state before the first decision and the events of what the rules did to reach it (a scenario's
        opening rolls, logged like every other die). By default :meth:`initial_state` with no events."""
        return self.initial_state(seed), []

    @abstractmethod
    def turn(self, state: S) -> Turn: ...

    @abstractmethod
    def legal(self, state: S, seat: str) -> Legal:
        """Every decision ``seat`` may make now (empty if none)."""

    @abstractmethod
    def apply(self, state: S, seat: str, decision: Decision, step: Step) -> S:
        """The state after a legal decision. Dice and events go through ``step``."""

    @abstractmethod
    def view(self, state: S, seat: str | None) -> dict[str, Any]:
        """All that ``seat`` may know, as plain data; ``None`` for the full view (finished games, replays).

        This is the one place that decides what a seat may know. Nothing else leaves the engine.
        """

    @abstractmethod
    def result(self, state: S) -> Result | None: ...

    def resigned(self, state: S, seat: str) -> Result:
        """The end of a game ``seat`` resigned: by default the one other seat wins (with more, nobody does),
        the resigner's level "resigned", the winner's "won by resignation", no scores."""
        others = [s for s in self.seats if s != seat]
        winner = others[0] if len(others) == 1 else None
        levels = {s: "resigned" if s == seat else ("won by resignation" if s == winner else "") for s in self.seats}
        told = f" {winner.capitalize()} wins." if winner else ""
        return Result(winner, levels, {}, f"{seat.capitalize()} resigned.{told}")

    # --- helpers with defaults -------------------------------------------------------------------------
    def explain(self, state: S, seat: str, decision: Decision, legal: Legal) -> IllegalDecision:
        """Why a decision outside ``legal`` is refused: by default the check of its family (which names the
        manual's rule), else in general terms. A ruleset whose families have no checks yet overrides it."""
        found = legal.refusal(decision)
        return found or IllegalDecision(f"{decision.text()!r} is not possible now")

    def describe(self, decision: Decision) -> str:
        """The decision in words, with the manual's cell numbering."""
        return decision.text()

    def describe_for(self, state: S, seat: str | None, decision: Decision) -> str:
        """The decision in words as ``seat`` may read them in ``state`` (``None``: all is known): where decisions
        name units by an id, by what the units are and where they stand, and a unit the seat may not know of
        only as an enemy unit. By default :meth:`describe`."""
        return self.describe(decision)

    def hidden_units(self, state: S, seat: str) -> frozenset[str]:
        """Ids of units ``seat`` may not know of now; the conformance harness checks views against them."""
        return frozenset()

    def perturb_hidden(self, state: S, seat: str, dice: Dice) -> S:
        """A state that differs from ``state`` only in what ``seat`` may not know (an unseen enemy unit moved or
        removed, a hidden plot changed...), drawn with ``dice``; the conformance harness checks that no computer
        player decides differently in it. By default only the generator changes."""
        return self.with_rng(state, seed_state(dice.bits32()))

    def check_invariants(self, state: S) -> list[str]:
        """What ``state`` breaks of the rules that must hold after every decision (e.g. two units at rest in one
        location), one sentence each; empty when nothing. The conformance harness checks it after every
        decision of its random games."""
        return []

    def render_text(self, state: S, seat: str | None) -> str:
        """A text picture of the map and units as ``seat`` sees them (terminal play, debugging)."""
        return ""

    def typed(self, state: S, seat: str, line: str) -> str:
        """A line a person typed at the terminal in the manual's own words, rewritten into a decision's text
        form (Battle of Antietam: a unit named by its square, ``access 27,22``); unchanged by default. It may read
        only what ``seat`` knows (its own units)."""
        return line

    def inspect(self, state: S, seat: str, query: Mapping[str, Any]) -> dict[str, Any]:
        """Answer a question of ``seat``'s that decides nothing (the path a move would take, what a unit sees),
        from what that seat may know. A question the ruleset does not answer raises ``IllegalDecision``."""
        raise IllegalDecision(f"{self.name} answers no question of kind {query.get('kind')!r}")

    def rate(self, view: Mapping[str, Any], seat: str, decision: Decision) -> int:
        """A quick score of a decision from ``seat``'s view alone (for the greedy player); higher is better."""
        return 0

    def clone(self, state: S) -> S:
        """A copy for search. States are immutable, so the copy is the state itself."""
        return state

    def with_rng(self, state: S, rng: int) -> S:
        """``state`` holding the generator's state ``rng``: ``Game.apply`` asks for it only when a decision's draws
        moved the generator (most roll nothing: the state the rules made is then kept as it is)."""
        return replace(state, rng=rng)
