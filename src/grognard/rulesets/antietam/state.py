"""Battle of Antietam's game state: frozen values, replaced rather than changed.

The per-unit table is a tuple of small records in the order of the scenario's units (``Board.specs``), so
a unit is updated by its index; what never changes (name, weapon, effectiveness, formation) stays in the
scenario's :class:`~.tables.UnitSpec`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from grognard.engine import records

R = TypeVar("R")

OFF_MAP = -1  # not arrived yet
GONE = -2  # eliminated


@dataclass(frozen=True, slots=True)
class Unit:
    cell: int  # OFF_MAP before arrival, GONE once eliminated
    strength: int  # men, or guns for artillery (§IA1.5)
    fatigue: int = 0  # §IA8.10: starts at 0
    op: int = 0  # operation points left (§B3.4)
    target: int = -1  # priority fire square (§B3.7), -1: none
    melee: bool = False  # melee plot (§B3.8)
    routed: bool = False  # §B4.3
    disrupted: bool = False  # §IA8.8
    ammo: bool = True  # §IA8.9
    moved: bool = False  # has moved this phase (§B3.4 artillery, §IA7.6 ZOC to ZOC as a first move)
    acted: bool = False  # was accessed this phase (the computer players' bookkeeping, shown to the owner)
    plotted: bool = False  # was given a plot this phase
    fired_at: int = -1  # the square it fired into in this combat phase (§IA7.13: melee only a square fired at)
    # intermediate and advanced games (unused in the basic game): §IA7.8 mode ("" the basic game's none),
    # §IA7.9 facing 1-8 (0: all round), §IA7.11 fortification level, §IA7.13 advance plot
    mode: str = ""
    facing: int = 0
    fort: int = 0
    advance: bool = False

    @property
    def on_map(self) -> bool:
        return self.cell >= 0

    def updated(self, **changes: Any) -> Unit:
        """The unit with ``changes`` (``replace`` below: the rules update units thousands of times a game)."""
        return _remake(self, changes)


@dataclass(frozen=True, slots=True)
class Pick:
    """What (Z) abort puts back (§B3.3, §IA7.3): the record of the unit as it was picked up, first, then the first
    record of each other unit its orders changed since (a stack's facing, §IA7.9; routed stacking fatigue, §IA7.7);
    the §B2.0 early releases and the AMB-18 holders of the victory squares at the pick-up."""

    units: tuple[tuple[int, Unit], ...]
    released: tuple[str, ...]
    holders: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AntietamState:
    rng: int
    turn: int  # 1 = 06:00 ... 11 = 16:00 (§IA1.3)
    part: int  # index in the sequence of play (§IA2.3)
    units: tuple[Unit, ...]
    fords: tuple[int, ...] = ()  # the random fords laid at set-up (§IA1.3)
    released: tuple[str, ...] = ()  # Union formations of the §B2.0 schedule released early
    accessed: int = -1  # the unit picked up in the operation phase (§B3.1 SPACE BAR), -1: none
    pick: Pick | None = None  # what (Z) abort restores while a unit is picked up (§B3.3, §IA7.3)
    holders: tuple[str, ...] = ()  # per victory square: the side that last entered it (AMB-18)
    losses: tuple[int, ...] = (0, 0, 0, 0, 0, 0)  # union men, cavalrymen, guns; then the confederate three
    score: tuple[int, int] = (0, 0)  # union, confederate victory points at the last determination (§IA10)
    early: bool = False  # A. P. Hill's division marches early (AMB-31)
    # §IA3 the activation cycle: divisions activated this turn, divisions still to be offered, activations left
    active: tuple[str, ...] = ()
    offer: tuple[str, ...] = ()
    limit: int = 0
    out_of_command: tuple[int, ...] = ()  # §IA4 units out of command control this turn (advanced game)
    # §IA7.12 (advanced game): the unit each division and corps leader of units.toml rides with, by the order of
    # its leaders table (-1: none); the leaders lost (wounded or killed); who holds each of those commands once the
    # chain has been updated (leaders.py names them; () until the first promotion: each command's own leader)
    leaders: tuple[int, ...] = ()
    fallen: tuple[str, ...] = ()
    commanders: tuple[str, ...] = ()
    over: bool = False

    def with_unit(self, i: int, unit: Unit) -> AntietamState:
        units = list(self.units)
        units[i] = unit
        return self._with_table(tuple(units))

    def with_unit_and(self, i: int, unit: Unit, **changes: Any) -> AntietamState:
        """The state with unit ``i`` replaced and ``changes`` to its other fields, made at once."""
        units = list(self.units)
        units[i] = unit
        changes["units"] = tuple(units)
        return _remake(self, changes)

    def with_units(self, changed: dict[int, Unit]) -> AntietamState:
        if not changed:
            return self
        units = list(self.units)
        for i, u in changed.items():
            units[i] = u
        return self._with_table(tuple(units))

    def _with_table(self, units: tuple[Unit, ...]) -> AntietamState:
        """``replace(self, units=units)`` (every fire and step of a unit comes here)."""
        out: AntietamState = _remake_table(self, units)
        return out


def _remaker(cls: type, changing: tuple[str, ...]) -> Callable[..., Any]:
    """For a frozen record class with slots and a plain ``__init__``: a function (record, *values) making the record
    ``dataclasses.replace(record, **dict(zip(changing, values)))`` makes, each slot set through its own descriptor.
    A frozen class's ``__init__`` sets every field through ``object.__setattr__``, which costs twice as much: the
    rules make some 10,000 units and states a random game, and that was a tenth of it."""
    names = [f.name for f in fields(cls)]
    assert sorted(names) == sorted(getattr(cls, "__slots__", ())) and not hasattr(cls, "__post_init__"), cls
    if not set(changing) <= set(names):
        raise TypeError(f"{cls.__name__} has no field {sorted(set(changing) - set(names))[0]}")
    space: dict[str, Any] = {"new": object.__new__, "cls": cls}
    space.update({f"set_{n}": getattr(cls, n).__set__ for n in names})
    args = "".join(f", {n}" for n in changing)
    sets = "".join(f"    set_{n}(out, {n if n in changing else 'obj.' + n})\n" for n in names)
    exec(f"def remake(obj{args}):\n    out = new(cls)\n{sets}    return out\n", space)
    made: Callable[..., Any] = space["remake"]
    return made


class _Remakers:
    """The remakers of each record class, one per set of fields changed (as many as the rules have call sites:
    at most ``LIMIT``, then any other set is made by the engine's ``records.replace``)."""

    LIMIT = 256

    def __init__(self) -> None:
        self.made: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}
        self.classes = frozenset((Unit, AntietamState, Pick))

    def remake(self, record: R, changes: dict[str, Any]) -> R:
        remake = self.made.get((type(record), tuple(changes)))
        if remake is None:
            remake = self.get(type(record), tuple(changes))
            if remake is None:
                out: R = records.replace(record, **changes)
                return out
        made: R = remake(record, *changes.values())
        return made

    def get(self, cls: type, changing: tuple[str, ...]) -> Callable[..., Any] | None:
        """The remaker of ``cls`` for the fields ``changing`` (None: not one of the game's records, or the limit)."""
        remake = self.made.get((cls, changing))
        if remake is None and cls in self.classes and len(self.made) < self.LIMIT:
            remake = self.made[cls, changing] = _remaker(cls, changing)
        return remake


_REMAKERS = _Remakers()
_remake = _REMAKERS.remake
_remake_table = _remaker(AntietamState, ("units",))


def remaker(cls: type[R], changing: tuple[str, ...]) -> Callable[..., R]:
    """A function (record, *values) making ``replace(record, **dict(zip(changing, values)))``, for a rule that
    changes the same fields of many records at once (a new phase's operation points)."""
    made = _REMAKERS.get(cls, changing)
    if made is None:
        return lambda record, *values: records.replace(record, **dict(zip(changing, values, strict=True)))
    return made


def replace(record: R, /, **changes: Any) -> R:
    """``dataclasses.replace`` for a unit, a state or a pick (quicker: ``_remaker``); any other record by the
    engine's ``records.replace``."""
    return _remake(record, changes)
