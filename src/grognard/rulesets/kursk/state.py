"""Objective Kursk's game state: frozen records, replaced rather than changed.

The per-group table is a tuple of small :class:`Group` records (about a hundred), rebuilt with ``replace`` when
one changes; the weapons of a group are a tuple of its units' counts.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from grognard.engine.records import replace

OFF_MAP = -1


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

    def group(self, gid: int) -> Group:
        for g in self.groups:
            if g.id == gid:
                return g
        raise KeyError(f"no group {gid}")

    def find(self, gid: int) -> Group | None:
        for g in self.groups:
            if g.id == gid and g.alive:
                return g
        return None

    def side_groups(self, side: str) -> Iterator[Group]:
        return (g for g in self.groups if g.side == side and g.on_map)

    def at(self, cell: int) -> list[Group]:
        return [g for g in self.groups if g.cell == cell and g.alive]

    def with_groups(self, changed: Mapping[int, Group]) -> KState:
        return replace(self, groups=tuple(changed.get(g.id, g) for g in self.groups))

    def with_group(self, g: Group) -> KState:
        return self.with_groups({g.id: g})

    def plot_of(self, gid: int) -> str | None:
        for g, p in self.plots:
            if g == gid:
                return p
        return None

    def holder(self, town: str) -> str:
        return dict(self.control)[town]
