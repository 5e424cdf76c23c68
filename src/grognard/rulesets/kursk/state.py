"""Objective Kursk's game state: frozen records, replaced rather than changed.

The per-group table is a tuple of small :class:`Group` records (about a hundred), rebuilt with ``replace`` when
one changes; the weapons of a group are a tuple of its units' counts.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from operator import attrgetter

from grognard.engine.records import replace

OFF_MAP = -1
GROUP_ID = attrgetter("id")
FEW = 8  # changes at most this many groups are looked up one by one; more, by a walk over every group


@dataclass(frozen=True, slots=True)
class Unit:
    """A combat unit (CU, §4.2): a descriptive name and up to six weapon systems with their counts."""

    name: str
    weapons: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Group:
    """A combat group (CG, §4.1): 1 to 5 units, an ID, a divisional designation, mode, supply, morale and
    disruption. ``cell`` is OFF_MAP until it arrives (``arrives``: the turn; ``entry``: the cells it may enter
    by) and once destroyed (``alive`` False)."""

    id: int
    side: str
    designation: str
    mechanized: bool
    cell: int
    units: tuple[Unit, ...]
    mode: str = "static"
    supply: int = 0
    morale: int = 0
    disruption: int = 0
    alive: bool = True
    arrives: int = 1
    entry: tuple[int, ...] = ()
    supplied: bool = False  # received supplies this supply phase (§5.2: once a phase)
    adjusted: bool = False  # took part in a divide, transfer or renumber this phase (reading, docs)
    mode_set: bool = False  # its mode was set this turn's plot phase
    road_moved: bool = False  # used road movement this turn (§6.3)

    @property
    def tag(self) -> str:
        """How views and events name the group (the harness looks for it in what a seat receives)."""
        return f"CG{self.id}"

    @property
    def on_map(self) -> bool:
        return self.alive and self.cell != OFF_MAP

    def counts(self) -> dict[str, int]:
        """Every weapon system of the group with its total count."""
        out: dict[str, int] = {}
        for u in self.units:
            for name, n in u.weapons:
                out[name] = out.get(name, 0) + n
        return out

    def count(self, name: str) -> int:
        return sum(n for u in self.units for w, n in u.weapons if w == name)

    def label(self) -> str:
        """§4.1: "LAH SS PZG GROUP 3"."""
        return f"{self.designation} GROUP {self.id}"


@dataclass(frozen=True, slots=True)
class Depot:
    """A supply depot during its supply phase (§5.1): its level is kept in quarter points (§5.1's ¼ costs)."""

    side: str
    cell: int
    quarters: int
    entry: int


@dataclass(frozen=True, slots=True)
class Report:
    """A recon report (§9.2): what the searching side saw in a hex this turn."""

    side: str
    cell: int
    afv: int
    artillery: int
    infantry: int


@dataclass(frozen=True, slots=True)
class KState:
    rng: int
    turn: int  # 1 = 5 July 1943 AM (AMB-2)
    part: int  # index into the declared sequence (phases.py)
    weather: str
    groups: tuple[Group, ...]
    control: tuple[tuple[str, str], ...]  # VP town -> side (§11.1)
    cleared: tuple[int, ...] = ()  # minefield hexes destroyed (§9.4, AMB-19)
    depot: Depot | None = None
    plots: tuple[tuple[int, str], ...] = ()  # group -> plot text (§6.4-6.7), hidden from the other side
    committed: tuple[str, ...] = ()
    reports: tuple[Report, ...] = ()
    air: tuple[tuple[str, int, int], ...] = ()  # side, fighter points, bomber points (§7.1, AMB-8)
    strikes: tuple[tuple[str, int, int, int], ...] = ()  # side, target, bombers, escorts: hidden until §9.1
    over: bool = False
    ended_by: str = ""  # "german" when the German ended the game (§3.5, §4.6)

    def index(self, gid: int) -> int:
        """Where group ``gid`` stands in ``groups`` (-1: nowhere). The groups are kept in the order of their IDs
        (the order of battle, divide and renumber sort them), so it is looked up by bisection, then by a walk if
        a position set up otherwise does not hold it there."""
        groups = self.groups
        i = bisect_left(groups, gid, key=GROUP_ID)
        if i < len(groups) and groups[i].id == gid:
            return i
        return next((j for j, g in enumerate(groups) if g.id == gid), -1)

    def group(self, gid: int) -> Group:
        i = self.index(gid)
        if i < 0:
            raise KeyError(f"no group {gid}")
        return self.groups[i]

    def find(self, gid: int) -> Group | None:
        i = self.index(gid)
        return self.groups[i] if i >= 0 and self.groups[i].alive else None

    def side_groups(self, side: str) -> Iterator[Group]:
        return (g for g in self.groups if g.side == side and g.on_map)

    def at(self, cell: int) -> list[Group]:
        return [g for g in self.groups if g.cell == cell and g.alive]

    def with_groups(self, changed: Mapping[int, Group]) -> KState:
        if len(changed) > FEW:
            return replace(self, groups=tuple(changed.get(g.id, g) for g in self.groups))
        groups = list(self.groups)
        for gid, g in changed.items():
            i = self.index(gid)
            if i >= 0:
                groups[i] = g
        return replace(self, groups=tuple(groups))

    def with_group(self, g: Group) -> KState:
        i = self.index(g.id)
        if i < 0:
            return replace(self, groups=self.groups)
        groups = self.groups
        return replace(self, groups=(*groups[:i], g, *groups[i + 1 :]))

    def plot_of(self, gid: int) -> str | None:
        for g, p in self.plots:
            if g == gid:
                return p
        return None

    def holder(self, town: str) -> str:
        return dict(self.control)[town]
