"""La Grande Armée's decisions, one small frozen value each, named after the manual's buttons and options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from grognard.engine import Decision


@dataclass(frozen=True, slots=True)
class Build(Decision):
    """Build an available unit in one of the areas its power may build in (§5.5 Building a Unit)."""

    kind: ClassVar[str] = "build"
    unit: str
    at: int


@dataclass(frozen=True, slots=True)
class Rally(Decision):
    """Raise a unit's morale by one, once per season (§5.5 Rallying a Unit)."""

    kind: ClassVar[str] = "rally"
    unit: str


@dataclass(frozen=True, slots=True)
class Aid(Decision):
    """British military aid: one military point from Britain to another allied power (§5.5)."""

    kind: ClassVar[str] = "aid"
    power: str


@dataclass(frozen=True, slots=True)
class EndBuild(Decision):
    """END of the Build/Rally phase (§5.5)."""

    kind: ClassVar[str] = "end_build"


@dataclass(frozen=True, slots=True)
class Move(Decision):
    """Move a unit into an adjacent area, or sail to a sea area; into an enemy-held area it is an attack (§5.6)."""

    kind: ClassVar[str] = "move"
    unit: str
    to: int


@dataclass(frozen=True, slots=True)
class Garrison(Decision):
    """END in a city and answer YES to "Want to garrison city?" (§3.6)."""

    kind: ClassVar[str] = "garrison"
    unit: str


@dataclass(frozen=True, slots=True)
class EndUnit(Decision):
    """The END button: the unit's movement ends for the season (§2.11)."""

    kind: ClassVar[str] = "end_unit"
    unit: str


@dataclass(frozen=True, slots=True)
class EndMovement(Decision):
    """End phase V: every unit's movement ends."""

    kind: ClassVar[str] = "end_movement"


@dataclass(frozen=True, slots=True)
class Reinforce(Decision):
    """The defending player moves a unit one area into an enemy ZOC (§2.13, §5.65)."""

    kind: ClassVar[str] = "reinforce"
    unit: str
    to: int


@dataclass(frozen=True, slots=True)
class Withdraw(Decision):
    """The defending player moves a unit one area out of an enemy ZOC (§2.13, §5.65)."""

    kind: ClassVar[str] = "withdraw"
    unit: str
    to: int


@dataclass(frozen=True, slots=True)
class SetTop(Decision):
    """The defending player changes the unit on top of a stack (§5.65, §3.5)."""

    kind: ClassVar[str] = "set_top"
    unit: str


ALL = (Build, Rally, Aid, EndBuild, Move, Garrison, EndUnit, EndMovement, Reinforce, Withdraw, SetTop)
