"""What every rule function needs besides the state: the board, the tables and the chosen rule options."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from grognard.engine.events import Step

from .board import Board
from .state import SIDES, PGState, Unit, other
from .tables import Tables, UnitType


@dataclass(frozen=True, slots=True)
class Ctx:
    board: Board
    tables: Tables
    partial_kill: bool  # p.3: Partial Kill damages, Full Kill destroys
    random_hit: bool  # p.3: Random Hit may miss, Always Hit always hits in range
    full_view: bool  # p.33: Full View shows unspotted units (they still cannot be targeted)

    def utype(self, unit: Unit) -> UnitType:
        return self.tables.units[unit.type]

    def who_knows(self, state: PGState, unit: Unit) -> tuple[str, ...]:
        """The sides that may see what happens to ``unit`` now: its own, and the enemy if it is spotted."""
        if unit.spotted or self.full_view:
            return SIDES
        return ALONE[unit.side]

    def emit(self, step: Step, kind: str, text: str, seen_by: Iterable[str] | None = None, **data: object) -> None:
        """Emit an event; one that the other side sees makes undo impossible."""
        seen = tuple(seen_by) if seen_by is not None else SIDES
        step.emit(kind, text, seen, **data)
        if len(seen) > 1:
            step.reveal()


# each side alone, one tuple a side: every move's event keeps who saw it (a new tuple each was young work for the
# collector at every step of every walk)
ALONE = {side: (side,) for side in SIDES}


def enemy_units(state: PGState, side: str) -> tuple[Unit, ...]:
    """The enemy's units on the map (cargo is inside its carrier)."""
    return own_units(state, other(side))


# the last answer of own_units for each side, with the unit tuple it was read from (held, so that its id is not
# reused): spotting, fire and movement ask for one side's units over and over about one state
_last: dict[str, tuple[tuple[Unit, ...], tuple[Unit, ...]]] = {}


def carry_units(before: tuple[Unit, ...], after: tuple[Unit, ...], side: str) -> None:
    """``after`` is ``before`` with units of ``side`` alone changed where they stood (none came, went, boarded or
    left a carrier): the other side's units on the map are those of ``before``, the same tuple. A unit's step
    changes the units a few times, and spotting asks for the enemy's units after each change."""
    enemy = other(side)
    last = _last.get(enemy)
    if last is not None and last[0] is before:
        _last[enemy] = (after, last[1])


def own_units(state: PGState, side: str) -> tuple[Unit, ...]:
    """The side's units on the map (cargo is inside its carrier)."""
    last = _last.get(side)  # one read: another thread may replace it meanwhile
    if last is not None and last[0] is state.units:
        return last[1]
    found = tuple([u for u in state.units if u.side == side and not u.carried_by])
    _last[side] = (state.units, found)
    return found
