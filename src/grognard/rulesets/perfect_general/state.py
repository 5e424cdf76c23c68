"""The Perfect General's game state: frozen values, replaced rather than changed."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from grognard.engine.records import replace

SIDES = ("attacker", "defender")

# the unit tuple last asked about by id, and the position of each of its units by id once asked twice (PGState.find)
# or carried from the tuple it was made from by replacing a unit (replaced: every unit stays where it was, so a walk
# replacing its mover location after location reads where it stands): one entry, held so that the tuple's id is not
# reused
_by_id: list[tuple[tuple[Unit, ...], dict[str, int] | None]] = [((), None)]


def other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


class Phase(StrEnum):
    """The phases that ask for decisions (PG p.18-19). Indirect fire and scoring resolve by themselves."""

    PURCHASE = "purchase"
    PLACEMENT = "placement"
    MOBILE_PLOT = "mobile_artillery_plot"
    ARTILLERY_PLOT = "artillery_plot"
    FIRST_FIRE = "first_direct_fire"
    MOVEMENT = "movement"
    SECOND_FIRE = "second_direct_fire"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    type: str
    side: str
    cell: int
    hp: int
    fired: bool = False  # has used its one shot this turn (direct, indirect, passing or assault)
    moved: bool = False  # has moved (or been transported) this turn
    mp: int = 0  # half movement points left in this movement phase
    spotted: bool = False  # spotted by the enemy (p.32)
    spot_pending: bool = False  # fired or moved in enemy sight: spotted at the end of the phase (p.32 b)
    cargo: str = ""  # the unit it carries
    carried_by: str = ""  # the unit carrying it
    unloaded: bool = False  # unloaded this turn: no move, no fire until next turn (p.27 c)
    plotted: bool = False  # plotted indirect fire this turn: no direct fire (p.29 e)
    pinned: bool = False  # next to an artillery strike: no movement this turn (p.30)
    ignored: bool = False  # "ignore unit this phase" (p.13)
    worked: bool = False  # an engineer that built or destroyed something this turn


@dataclass(frozen=True, slots=True)
class Plot:
    """An indirect fire order; light and heavy artillery fire the next turn, mobile artillery this turn."""

    unit: str
    side: str
    unit_type: str
    cell: int
    barrage: bool
    turn: int  # the turn in which it fires


@dataclass(frozen=True, slots=True)
class Barrage:
    cell: int
    strike: bool  # the strike location itself (destroys units entering); else next to a heavy barrage


@dataclass(frozen=True, slots=True)
class Mine:
    cell: int
    side: str
    charges: int = 2  # "an effective charge lasting two detonations" (p.22)
    turn: int = 0  # the turn it was laid (pick-up during placement only)


@dataclass(frozen=True, slots=True)
class Sighting:
    """Where a side last saw an enemy unit that it no longer sees."""

    unit: str
    type: str
    cell: int
    turn: int


@dataclass(frozen=True, slots=True)
class SideState:
    points: int = 0  # buy or reinforcement points to spend now
    earned: int = 0  # reinforcement points waiting for the next reinforcement phase
    pool: tuple[str, ...] = ()  # unit types bought and not yet placed
    placed: tuple[str, ...] = ()  # units placed in this placement (they may be picked up again)
    score: int = 0
    confirming: bool = False  # asked to confirm finishing with points left (p.9)
    memory: tuple[Sighting, ...] = ()


@dataclass(frozen=True, slots=True)
class Offer:
    """A reaction offered to the side not moving: return fire (p.13, p.29) or passing fire (p.14)."""

    kind: str  # "return" or "passing"
    shooter: str  # the unit that fired (return) or that moves (passing)
    target: str  # the unit fired at (return); the moving unit (passing)


@dataclass(frozen=True, slots=True)
class Walk:
    """A move under way, paused for passing fire: the cells still to enter and what to do at the end."""

    unit: str
    path: tuple[int, ...]
    then: str = ""  # "", "assault" or "load"
    target: str = ""  # the unit assaulted or loaded
    unloaded: str = ""  # cargo dropped at the start of this walk (re-loaded if the carrier cannot leave)
    trail: tuple[int, ...] = ()  # the locations left behind, the start first (where a stopped move falls back)


@dataclass(frozen=True, slots=True)
class Interrupt:
    """A purchase and placement that pauses the game (a neutral country entered, p.18)."""

    side: str  # who buys and places
    region: str  # "neutral:<name>"
    resume_phase: Phase
    resume_side: str


@dataclass(frozen=True, slots=True)
class PGState:
    rng: int
    secret: int  # seeds the unit ids; never shown
    turn: int
    phase: Phase
    side: str
    region: str  # where the current placement happens: "setup", "reinforce" or "neutral:<name>"
    units: tuple[Unit, ...]
    sides: tuple[SideState, SideState]
    plots: tuple[Plot, ...] = ()
    barrages: tuple[Barrage, ...] = ()
    mines: tuple[Mine, ...] = ()
    terrain: tuple[tuple[int, str], ...] = ()  # locations whose terrain changed (damage, bridges)
    cut_roads: tuple[int, ...] = ()  # locations whose road artillery destroyed
    offer: Offer | None = None
    walk: Walk | None = None
    interrupt: Interrupt | None = None
    neutrals_entered: tuple[str, ...] = ()
    prompt: str = ""  # the unit the fire phase prompts now (p.12)
    serial: int = 0
    history: tuple[tuple[int, int], ...] = ()  # (attacker, defender) score after each turn

    # --- small helpers (pure) ----------------------------------------------------------------------------
    def side_state(self, side: str) -> SideState:
        return self.sides[SIDES.index(side)]

    def with_side(self, side: str, **changes: object) -> PGState:
        i = SIDES.index(side)
        sides = list(self.sides)
        sides[i] = replace(sides[i], **changes)
        return replace(self, sides=(sides[0], sides[1]))

    def unit(self, uid: str) -> Unit:
        found = self.find(uid)
        if found is None:
            raise KeyError(uid)
        return found

    def find(self, uid: str) -> Unit | None:
        units = self.units
        kept = _by_id[0]  # one read: another thread may replace it meanwhile
        if kept[0] is units:
            index = kept[1]
            if index is None:  # asked again about these units: index them (the general asks of hundreds)
                index = {u.id: i for i, u in enumerate(units)}
                _by_id[0] = (units, index)
            i = index.get(uid)
            return None if i is None else units[i]
        _by_id[0] = (units, None)
        for u in units:
            if u.id == uid:
                return u
        return None

    def with_unit(self, unit: Unit) -> PGState:
        return replace(self, units=replaced(self.units, unit))

    def with_units(self, changed: dict[str, Unit]) -> PGState:
        return replace(self, units=tuple(changed.get(u.id, u) for u in self.units))

    def without_units(self, ids: set[str]) -> PGState:
        return replace(self, units=tuple(u for u in self.units if u.id not in ids))

    def unit_at(self, cell: int) -> Unit | None:
        """The unit standing in a location (a carrier, not its cargo)."""
        for u in self.units:
            if u.cell == cell and not u.carried_by:
                return u
        return None

    def mine_at(self, cell: int) -> Mine | None:
        for m in self.mines:
            if m.cell == cell:
                return m
        return None

    def terrain_at(self, cell: int, base: tuple[str, ...]) -> str:
        for c, t in self.terrain:
            if c == cell:
                return t
        return base[cell]


def replaced(units: tuple[Unit, ...], unit: Unit) -> tuple[Unit, ...]:
    """``units`` with ``unit`` where the unit of its id stands (the same tuple when none does)."""
    uid = unit.id
    kept = _by_id[0]  # one read: another thread may replace it meanwhile
    if kept[0] is units and kept[1] is not None:
        i = kept[1].get(uid)
        if i is None:
            return units
        found = (*units[:i], unit, *units[i + 1 :])
        _by_id[0] = (found, kept[1])  # the same positions
        return found
    for i, u in enumerate(units):
        if u.id == uid:
            return (*units[:i], unit, *units[i + 1 :])
    return units
