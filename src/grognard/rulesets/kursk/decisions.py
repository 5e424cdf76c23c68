"""Objective Kursk's decisions: small frozen values with the manual's own text forms (§4-§6).

A tactical plot's text is the manual's digit string (§6.4-6.7): ``plot 3 0321``, ``plot 3 111S``,
``plot 70 B12``, ``plot 70 R4``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from grognard.engine import Decision


# --- §4 group adjustment ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Divide(Decision):
    """§4.3: the units (numbers 0-4) that leave ``group`` for the lowest empty group ID."""

    kind: ClassVar[str] = "divide"
    group: int
    units: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Transfer(Decision):
    """§4.4: the units of ``group`` that go to the other group in its hex (same designation)."""

    kind: ClassVar[str] = "transfer"
    group: int
    units: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Renumber(Decision):
    """§4.7: give an on-map group another (empty) ID of its side."""

    kind: ClassVar[str] = "renumber"
    group: int
    number: int


@dataclass(frozen=True, slots=True)
class EndGame(Decision):
    """§3.5, §4.6: the German player ends the game; the final score is counted."""

    kind: ClassVar[str] = "end_game"


@dataclass(frozen=True, slots=True)
class EndPhase(Decision):
    """The player is done with the current phase (§1.2: RETURN leaves a routine)."""

    kind: ClassVar[str] = "end_phase"


# --- §5 supply ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class NewDepot(Decision):
    """§5.3: a new depot on entry road ``entry`` (0-based, the side's roads in order); pressing N until the
    wanted road comes up is the same as naming it."""

    kind: ClassVar[str] = "new_depot"
    entry: int


@dataclass(frozen=True, slots=True)
class MoveDepot(Decision):
    """§5.1: the depot moves one hex in direction 1-6 (1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW)."""

    kind: ClassVar[str] = "depot"
    direction: int


@dataclass(frozen=True, slots=True)
class Distribute(Decision):
    """§5.2: (S)UPPLY: every friendly group within 2 hexes not yet supplied this phase receives supplies."""

    kind: ClassVar[str] = "supply"


# --- §6 modes, road movement, plots -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SetMode(Decision):
    """§6.2: the keys S, A, M, R."""

    kind: ClassVar[str] = "mode"
    group: int
    mode: str


@dataclass(frozen=True, slots=True)
class RoadMove(Decision):
    """§6.3: a group in road mode moves along roads to ``to`` at once."""

    kind: ClassVar[str] = "road"
    group: int
    to: int


@dataclass(frozen=True, slots=True)
class Plot(Decision):
    """§6.4-6.7: a tactical plot in the manual's syntax: up to four of 0-6 with an optional final S, or B and
    one or two directions, or R and one direction."""

    kind: ClassVar[str] = "plot"
    group: int
    plot: str


@dataclass(frozen=True, slots=True)
class Airstrike(Decision):
    """§7.1: bombers with fighter escorts against a hex: ``strike`` is target hex / bombers / escorts (points
    of 4 aircraft)."""

    kind: ClassVar[str] = "airstrike"
    strike: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Commit(Decision):
    """The plots are given: the side waits for the other; execution follows when both have committed."""

    kind: ClassVar[str] = "commit"


ALL: tuple[type[Decision], ...] = (
    Divide,
    Transfer,
    Renumber,
    EndGame,
    EndPhase,
    NewDepot,
    MoveDepot,
    Distribute,
    SetMode,
    RoadMove,
    Plot,
    Airstrike,
    Commit,
)
