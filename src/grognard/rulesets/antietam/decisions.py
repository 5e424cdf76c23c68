"""Battle of Antietam's decisions, one small frozen value each, named after the keys of the command menus
(§B3.1, §B3.3). Squares are written as the manual writes them, ``x,y``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from grognard.engine import Decision


@dataclass(frozen=True, slots=True)
class Access(Decision):
    """SPACE BAR / U: pick up a friendly unit to give it commands (§B3.1, §B3.3)."""

    kind: ClassVar[str] = "access"
    unit: str


@dataclass(frozen=True, slots=True)
class Next(Decision):
    """N: go to the next unit in promotion order, the order of the Order of Battle (§B3.3), that has not been
    picked up this phase."""

    kind: ClassVar[str] = "next"


@dataclass(frozen=True, slots=True)
class Move(Decision):
    """Keys 1-8: move the accessed unit one square, from ``at`` to the adjacent square ``to`` (§B3.4)."""

    kind: ClassVar[str] = "move"
    unit: str
    at: str
    to: str


@dataclass(frozen=True, slots=True)
class PutDown(Decision):
    """Q: put the unit down and go back to the cursor menu (§B3.3)."""

    kind: ClassVar[str] = "put_down"


@dataclass(frozen=True, slots=True)
class Abort(Decision):
    """Z: "Abort move, The unit you have accessed will return to its original square, facing, and mode with its
    original operation points and fatigue" (§B3.3, §IA7.3): it stays picked up."""

    kind: ClassVar[str] = "abort"
    unit: str


@dataclass(frozen=True, slots=True)
class Plot(Decision):
    """F and M for several units at once: each order is ``unit@x,y`` (priority fire square, §B3.7),
    ``unit@x,y!`` (fire and melee into it, §B3.8) or ``unit@-`` (no plot)."""

    kind: ClassVar[str] = "plot"
    orders: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EndPhase(Decision):
    """C: end the operation phase and go to the combat phase (§B3.1)."""

    kind: ClassVar[str] = "end_phase"


@dataclass(frozen=True, slots=True)
class Activate(Decision):
    """Activate the Union division the cycle offers (§IA3.1, intermediate and advanced games)."""

    kind: ClassVar[str] = "activate"
    division: str


@dataclass(frozen=True, slots=True)
class Bypass(Decision):
    """Bypass the Union division the cycle offers: it may not move this turn (§IA3.1, §IA3.3)."""

    kind: ClassVar[str] = "bypass"
    division: str


@dataclass(frozen=True, slots=True)
class Mode(Decision):
    """S: change the accessed unit's mode (§IA7.8): column/normal, mounted/dismounted, limbered/unlimbered."""

    kind: ClassVar[str] = "mode"
    unit: str


@dataclass(frozen=True, slots=True)
class Face(Decision):
    """D: face the accessed unit and its stack in direction 1-8 (§IA7.9), at no cost."""

    kind: ClassVar[str] = "face"
    unit: str
    facing: int


@dataclass(frozen=True, slots=True)
class ForceMarch(Decision):
    """X: one more operation point for six fatigue points (§IA7.10)."""

    kind: ClassVar[str] = "force_march"
    unit: str


@dataclass(frozen=True, slots=True)
class Fortify(Decision):
    """B: build one level of fortification (§IA7.11, advanced game)."""

    kind: ClassVar[str] = "fortify"
    unit: str


@dataclass(frozen=True, slots=True)
class Transfer(Decision):
    """L: transfer a division or corps leader riding with the accessed unit to another unit of his formation
    (§IA7.12, advanced game)."""

    kind: ClassVar[str] = "transfer"
    leader: str
    to: str


ALL = (Access, Next, Move, PutDown, Abort, Plot, EndPhase, Activate, Bypass, Mode, Face, ForceMarch, Fortify, Transfer)
