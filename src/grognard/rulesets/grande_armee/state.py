"""La Grande Armée's game state: frozen values, replaced rather than changed."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from grognard.engine.records import replace

SEATS = ("french", "allied", "neutral")
OFF_MAP = -1


class Phase(StrEnum):
    """The phases of a player turn that ask for decisions (§5.1); phases I-III and VI resolve by themselves."""

    BUILD = "build_rally"  # phase IV (§5.5)
    MOVE = "movement_combat"  # phase V (§5.6)
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    power: str
    type: str
    cell: int  # OFF_MAP: not built yet, or destroyed and waiting to be rebuilt
    morale: int = 0
    fatigue: int = 0
    moves: int = 0  # moves left in this phase V
    garrison: bool = False
    stack: int = 0  # arrival order in its area: the highest is on top (§3.5)
    supplied: bool = True  # began its turn in a supplied area (§5.4)
    rallied: bool = False  # rallied this season (§5.5)
    reacted: bool = False  # made its one defensive move this season (§5.65)
    withdrew: bool = False  # withdrew this season: attacks on it cost 2 moves (§5.67)
    sailed: bool = False  # moved between sea areas this phase
    fixed: bool = False  # may not move (Napoleon in Paris, scenario 3)
    year: int = 0  # buildable from this year
    bonus: int = 0  # an HQ's combat bonus (§3.3)


@dataclass(frozen=True, slots=True)
class Sighting:
    """Where ``seat`` last saw the enemy unit ``unit`` (on top of a stack, or moving in front of it)."""

    seat: str
    unit: str
    cell: int
    type: str
    power: str
    year: int
    season: int


@dataclass(frozen=True, slots=True)
class LGAState:
    rng: int
    year: int
    season: int  # index into the seasons (spring, summer, autumn, winter)
    seat: str  # whose player turn it is (§2.7)
    phase: Phase
    control: tuple[str, ...]  # per area: "french", "allied", "neutral" or "" (sea, prohibited)
    units: tuple[Unit, ...]
    mp: tuple[tuple[str, int], ...]  # military points of each power at war (§2.14)
    attacked: bool = False  # the moving player has made an attack this phase (§5.66)
    secret: tuple[tuple[str, int, int, bool], ...] = ()  # id, area, stack order, garrison as phase V began (§5.66)
    secret_control: tuple[str, ...] = ()  # control of the areas as phase V began (§5.66)
    serial: int = 0  # arrival counter for stacking order
    vp: tuple[tuple[str, int], ...] = ()  # victory points at the last count (§5.2)
    sightings: tuple[Sighting, ...] = ()  # where each seat last saw each enemy unit it has seen

    # --- small helpers (pure) ----------------------------------------------------------------------------
    def unit(self, uid: str) -> Unit:
        for u in self.units:
            if u.id == uid:
                return u
        raise KeyError(uid)

    def find(self, uid: str) -> Unit | None:
        for u in self.units:
            if u.id == uid:
                return u
        return None

    def with_unit(self, unit: Unit) -> LGAState:
        return replace(self, units=self.units_with(unit))

    def units_with(self, unit: Unit) -> tuple[Unit, ...]:
        """The units with ``unit`` in the place of the one of its id."""
        units = self.units
        uid = unit.id
        for i, u in enumerate(units):
            if u.id == uid:
                return (*units[:i], unit, *units[i + 1 :])
        return units

    def with_units(self, changed: dict[str, Unit]) -> LGAState:
        return replace(self, units=tuple(changed.get(u.id, u) for u in self.units))

    def points(self, power: str) -> int:
        return next((v for p, v in self.mp if p == power), 0)

    def with_points(self, power: str, value: int) -> LGAState:
        return replace(self, mp=tuple((p, value if p == power else v) for p, v in self.mp))

    def known_to(self, seat: str) -> set[str]:
        return {s.unit for s in self.sightings if s.seat == seat}

    def victory_points(self, side: str) -> int:
        return dict(self.vp).get(side, 0)
