"""The Perfect General's decisions, one small frozen value each, named as the manual names the orders."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from grognard.engine import Decision


@dataclass(frozen=True, slots=True)
class Buy(Decision):
    """Buy one unit of a type with buy points (p.8, p.17)."""

    kind: ClassVar[str] = "buy"
    type: str


@dataclass(frozen=True, slots=True)
class Sell(Decision):
    """Take back one bought, unplaced unit of a type and its points."""

    kind: ClassVar[str] = "sell"
    type: str


@dataclass(frozen=True, slots=True)
class EndPurchase(Decision):
    kind: ClassVar[str] = "done_buying"


@dataclass(frozen=True, slots=True)
class ConfirmPurchase(Decision):
    """The fail-safe requester when buy points are left (p.9): yes, I'm done; or back to buying."""

    kind: ClassVar[str] = "confirm"
    done: bool


@dataclass(frozen=True, slots=True)
class Place(Decision):
    """Place a unit (or a mine) of the pool in a location of the side's region (p.10)."""

    kind: ClassVar[str] = "place"
    type: str
    cell: int


@dataclass(frozen=True, slots=True)
class PickUp(Decision):
    """Return a unit placed in this placement to the pool (p.10)."""

    kind: ClassVar[str] = "pick_up"
    unit: str


@dataclass(frozen=True, slots=True)
class PickUpMine(Decision):
    kind: ClassVar[str] = "pick_up_mine"
    cell: int


@dataclass(frozen=True, slots=True)
class EndPlacement(Decision):
    kind: ClassVar[str] = "done_placing"


@dataclass(frozen=True, slots=True)
class Plot(Decision):
    """Plot indirect fire on a location, with or without barrage (p.28-29)."""

    kind: ClassVar[str] = "plot"
    unit: str
    barrage: bool
    cell: int


@dataclass(frozen=True, slots=True)
class EndPlot(Decision):
    kind: ClassVar[str] = "done_plotting"


@dataclass(frozen=True, slots=True)
class Fire(Decision):
    """Direct fire at a spotted enemy unit (p.27-28)."""

    kind: ClassVar[str] = "fire"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class Ignore(Decision):
    """ "Ignore unit this phase": save its shot for later (p.13)."""

    kind: ClassVar[str] = "ignore"
    unit: str


@dataclass(frozen=True, slots=True)
class NextUnit(Decision):
    """ "Next unit": prompt the next eligible unit, leaving this one eligible (p.13)."""

    kind: ClassVar[str] = "next_unit"


@dataclass(frozen=True, slots=True)
class EndFire(Decision):
    kind: ClassVar[str] = "done_firing"


@dataclass(frozen=True, slots=True)
class ReturnFire(Decision):
    """The target of direct fire shoots first, at any eligible enemy (p.13, p.29)."""

    kind: ClassVar[str] = "return_fire"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class PassingFire(Decision):
    """An unfired unit fires at an enemy moving in its range and sight (p.14). The moving unit is fixed."""

    kind: ClassVar[str] = "passing_fire"
    vary: ClassVar[str | None] = "unit"
    target: str
    unit: str


@dataclass(frozen=True, slots=True)
class HoldFire(Decision):
    """Let the offered reaction pass."""

    kind: ClassVar[str] = "hold_fire"


@dataclass(frozen=True, slots=True)
class Move(Decision):
    """Move a unit to a location by the fastest path ("smart moves", p.14)."""

    kind: ClassVar[str] = "move"
    unit: str
    to: int


@dataclass(frozen=True, slots=True)
class Assault(Decision):
    """An unfired armored car or tank moves onto an enemy unit: close assault (p.15, p.30)."""

    kind: ClassVar[str] = "assault"
    unit: str
    to: int


@dataclass(frozen=True, slots=True)
class Load(Decision):
    """An armored unit moves onto a friendly unit and loads it (p.26): 1 movement point."""

    kind: ClassVar[str] = "load"
    unit: str
    cargo: str


@dataclass(frozen=True, slots=True)
class Unload(Decision):
    """Drop the cargo where the carrier stands (1 movement point) and move on to ``to`` (p.27)."""

    kind: ClassVar[str] = "unload"
    unit: str
    to: int


@dataclass(frozen=True, slots=True)
class BuildBridge(Decision):
    """An engineer in a river location bridges it (p.14, p.21)."""

    kind: ClassVar[str] = "build_bridge"
    unit: str


@dataclass(frozen=True, slots=True)
class BlowBridge(Decision):
    kind: ClassVar[str] = "blow_bridge"
    unit: str
    cell: int


@dataclass(frozen=True, slots=True)
class LayMine(Decision):
    kind: ClassVar[str] = "lay_mine"
    unit: str
    cell: int


@dataclass(frozen=True, slots=True)
class ClearMine(Decision):
    kind: ClassVar[str] = "clear_mine"
    unit: str
    cell: int


@dataclass(frozen=True, slots=True)
class EndMovement(Decision):
    kind: ClassVar[str] = "done_moving"


ALL = (
    Buy,
    Sell,
    EndPurchase,
    ConfirmPurchase,
    Place,
    PickUp,
    PickUpMine,
    EndPlacement,
    Plot,
    EndPlot,
    Fire,
    Ignore,
    NextUnit,
    EndFire,
    ReturnFire,
    PassingFire,
    HoldFire,
    Move,
    Assault,
    Load,
    Unload,
    BuildBridge,
    BlowBridge,
    LayMine,
    ClearMine,
    EndMovement,
)
