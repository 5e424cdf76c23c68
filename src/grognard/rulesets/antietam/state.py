"""Battle of Antietam's game state: frozen values, replaced rather than changed.

The per-unit table is a tuple of small records in the order of the scenario's units (``Board.specs``), so
a unit is updated by its index; what never changes (name, weapon, effectiveness, formation) stays in the
scenario's :class:`~.tables.UnitSpec`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grognard.engine.records import remaker, replace

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
        """The unit with ``changes`` (the rules update units thousands of times a game)."""
        return replace(self, **changes)


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
        return self._with_table(made_from(tuple(units), self.units, (i,)))

    def with_units_and_losses(self, changed: dict[int, Unit], losses: tuple[int, ...]) -> AntietamState:
        """The state with the units ``changed`` replaced and the sides' losses ``losses``, made at once (a fire's
        firer and the units it hit)."""
        out: AntietamState = _remake_losses(self, self._table(changed), losses)
        return out

    def with_units(self, changed: dict[int, Unit]) -> AntietamState:
        if not changed:
            return self
        return self._with_table(self._table(changed))

    def _table(self, changed: dict[int, Unit]) -> tuple[Unit, ...]:
        """The unit table with the units ``changed`` replaced (its lineage noted: ``made_from``)."""
        units = list(self.units)
        for i, u in changed.items():
            units[i] = u
        return made_from(tuple(units), self.units, tuple(changed))

    def _with_table(self, units: tuple[Unit, ...]) -> AntietamState:
        """``replace(self, units=units)`` (every fire and step of a unit comes here)."""
        out: AntietamState = _remake_table(self, units)
        return out


_remake_table = remaker(AntietamState, ("units",))
_remake_losses = remaker(AntietamState, ("units", "losses"))

# The unit tables last made from another by replacing some of its units, by the new table's id: (the new table,
# the table it was made from, the indices replaced). What ``ctx.changed`` follows back instead of comparing two
# tables of 209 units record by record (a fire makes one table, asked about at once). Holds the tables it names,
# so an id found here is the table's own; emptied when it holds ``LINEAGE`` tables (few: ``changed`` follows at
# most eight back, and every table held alive is walked by each of the collector's passes until it is let go).
Table = tuple[Unit, ...]
lineage: dict[int, tuple[Table, Table, tuple[int, ...]]] = {}
LINEAGE = 16


def made_from(units: Table, before: Table, replaced: tuple[int, ...]) -> Table:
    """``units``, noted as ``before`` with the units ``replaced`` (and the others the same records)."""
    if len(lineage) >= LINEAGE:
        lineage.clear()
    lineage[id(units)] = (units, before, replaced)
    return units
