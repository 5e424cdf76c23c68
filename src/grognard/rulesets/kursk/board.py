"""What the rules ask of the map and the groups on it: ZOC (§8.5), roads (§5.1, §6.3), minefields (§9.4),
rivers in rain (§10.2), stacking (§9.3), town control (§11.1). One context object the rule modules share."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from grognard.engine.events import Step
from grognard.engine.geometry import Grid
from grognard.engine.maps import GameMap
from grognard.engine.records import replace

from .scenario import KurskScenario
from .state import OFF_MAP, Group, KState
from .tables import SEATS, Tables


def enemy_of(side: str) -> str:
    return "german" if side == "soviet" else "soviet"


@dataclass(frozen=True)
class Ctx:
    tables: Tables
    scenario: KurskScenario
    level: int

    @property
    def map(self) -> GameMap:
        return self.tables.map

    @property
    def grid(self) -> Grid:
        return self.tables.map.grid

    @property
    def roads(self) -> frozenset[int]:
        """Road and town hexes (§5.1, §6.3: town hexes count as road hexes)."""
        return self.tables.roads

    @cached_property
    def towns(self) -> dict[int, str]:
        """VP town hexes by name (§11.1)."""
        return {p.cells[0]: p.name for p in self.map.places if p.value}

    @cached_property
    def entries(self) -> dict[str, tuple[int, ...]]:
        """§5.1, §5.3: the depot entry roads of each side, in a fixed order."""
        return {s: tuple(sorted(self.map.region(f"{s}_depot_entry"))) for s in SEATS}

    def label(self, cell: int) -> str:
        return self.grid.label(cell)

    @property
    def around(self) -> tuple[tuple[int, ...], ...]:
        """Every hex's neighbours on the map, in direction order (``grid.neighbors``, worked out once per map)."""
        return self.tables.around

    @cached_property
    def _zocs(self) -> dict[frozenset[int], frozenset[int]]:
        return {}

    def zoc_of(self, cells: frozenset[int]) -> frozenset[int]:
        """``cells`` and the hexes around them (§8.5), kept for the last few sets of cells: a decision that moves
        no group of a side leaves the ZOC it exerts as it was."""
        kept = self._zocs
        found = kept.get(cells)
        if found is None:
            if len(kept) >= ZOCS_KEPT:
                del kept[next(iter(kept))]
            around = self.around
            out = set(cells)
            for c in cells:
                out.update(around[c])
            found = kept[cells] = frozenset(out)
        return found

    def hexes_around(self, cell: int, reach: int) -> tuple[int, ...]:
        """The hexes within ``reach`` of ``cell`` but ``cell`` itself, in the grid's order (kept with the map's tables:
        a plot's hint asks them of every group in every plot phase, of a few reaches)."""
        kept = self.tables.within
        found = kept.get((cell, reach))
        if found is None:
            found = kept[(cell, reach)] = tuple(c for c in self.grid.within(cell, reach) if c != cell)
        return found

    # --- who stands where, and §8.5 zones of control ----------------------------------------------------------
    @cached_property
    def _placed(self) -> dict[int, Placed]:
        return {}

    def placed(self, state: KState) -> Placed:
        """Who stands where in ``state``: worked out once for its tuple of groups (the legal set, the sequence and
        the next decision ask it again and again of one position), kept for the last few tuples."""
        kept = self._placed
        groups = state.groups
        found = kept.get(id(groups))
        if found is None or found.groups is not groups:
            last = next(reversed(kept.values()), None)  # most often the position this one was made from
            if len(kept) >= PLACED_KEPT:
                del kept[next(iter(kept))]
            found = kept[id(groups)] = Placed(self, groups, last)
        return found

    def side_groups(self, state: KState, side: str) -> tuple[Group, ...]:
        """``state.side_groups(side)``, kept for the position."""
        return self.placed(state).side(side)

    def enemy_cells(self, state: KState, side: str) -> frozenset[int]:
        return self.placed(state).cells(enemy_of(side))

    def zoc(self, state: KState, side: str) -> frozenset[int]:
        """The hexes in the ZOC of ``side``'s enemy: their hexes and the six around each (§8.5)."""
        return self.placed(state).zoc(side)

    def friendly_count(self, state: KState, side: str, cell: int) -> int:
        return self.placed(state).count(side, cell)

    def minefield(self, state: KState, cell: int) -> bool:
        """§9.4: a Soviet minefield not destroyed yet (AMB-19)."""
        return self.map.has("minefield", cell) and cell not in state.cleared

    def river_between(self, a: int, b: int, rain: bool) -> bool:
        """A river hexside; streams count as rivers on rain turns (§10.2)."""
        if self.map.edge_has("river", a, b):
            return True
        return rain and self.map.edge_has("stream", a, b)

    def engineers(self, g: Group) -> int:
        return g.count("ENGR")

    def rain_disruption(self, g: Group, here: int, there: int, rain: bool) -> int:
        """§10.2 on rain turns: crossing a river or leaving a gully costs disruption, less with engineers
        (AMB-15: 90 x max(0, 100 - ENGR) / 100 a hex)."""
        if not rain:
            return 0
        if not (self.river_between(here, there, True) or self.map.terrain[here] == "gully"):
            return 0
        w = self.tables["weather"]["rain"]
        cancel = int(w["disruption_engineers_cancel"])
        return int(w["max_disruption_per_hex"]) * max(0, cancel - self.engineers(g)) // cancel

    def mover_limit(self, g: Group) -> int:
        m = self.tables.modes[g.mode]
        return m.mech_move if g.mechanized else m.inf_move

    # --- §11.1 town control ----------------------------------------------------------------------------
    def enter_town(self, state: KState, side: str, cell: int, step: Step) -> KState:
        """A town is held by the side that last moved a group or depot onto it (§11.1, AMB-24)."""
        name = self.towns.get(cell)
        if name is None or state.holder(name) == side:
            return state
        step.emit("town", f"{name} is taken by the {side.capitalize()} side", None, town=name, side=side)
        return replace(state, control=tuple((t, side if t == name else s) for t, s in state.control))

    @cached_property
    def _nearest(self) -> dict[tuple[int, ...], tuple[int, ...]]:
        return {}

    def _roads_nearest(self, cells: tuple[int, ...]) -> tuple[int, ...]:
        """The road hexes nearest ``cells`` first (then by number), kept per entry: a reinforcement's entry hexes
        are the scenario's, so there are few."""
        found = self._nearest.get(cells)
        if found is None:
            distance = self.grid.distance
            found = tuple(sorted(self.roads, key=lambda c: (min(distance(c, e) for e in cells), c)))
            self._nearest[cells] = found
        return found

    def nearest_free(self, state: KState, side: str, cells: Iterable[int]) -> int | None:
        """The first of ``cells``, then the nearest road hex to them, with room for one more group (§9.3) out of
        the enemy's ZOC: where a reinforcement enters (reading)."""
        zoc = self.zoc(state, side)
        for c in self._roads_nearest(tuple(cells)):
            if c not in zoc and self.friendly_count(state, side, c) < 2:
                return c
        return None


PLACED_KEPT = 8  # a search step and the sequence's look-ahead ask of a few positions in turn
CHANGED_AT_MOST = 8  # a position is taken from the one asked about before when at most this many groups differ
ZOCS_KEPT = 16  # the ZOCs of a side's last few arrangements of hexes (each a few hundred hexes)


class Placed:
    """The groups of one position by side, the hexes each side holds, its enemy's ZOC and the groups of a side in each
    hex: each worked out when first asked for, or taken from ``prior`` (the position asked about before) where the
    groups it reads are the same: a decision changes a group or two, most often of one side and in place. ``memo``
    keeps what the rule modules work out of the groups' IDs alone (the free group IDs, say)."""

    __slots__ = ("_cells", "_ctx", "_full", "_sides", "_stacks", "_zocs", "groups", "memo")

    def __init__(self, ctx: Ctx, groups: tuple[Group, ...], prior: Placed | None = None) -> None:
        self._ctx = ctx
        self.groups = groups
        self._sides: dict[str, tuple[Group, ...]] = {}
        self._cells: dict[str, frozenset[int]] = {}
        self._zocs: dict[str, frozenset[int]] = {}
        self._stacks: dict[str, dict[int, tuple[Group, ...]]] = {}
        self._full: dict[str, frozenset[int]] = {}
        self.memo: dict[tuple[str, str], Any] = {}
        if prior is not None and len(prior.groups) == len(groups):
            self._take(prior)

    def _take(self, prior: Placed) -> None:
        """What ``prior`` worked out of groups these groups share: a side's groups and stacks if none of them
        changed, its hexes (and the ZOC it exerts, the hexes it fills) if none moved, entered or left, the memo if
        every group keeps its ID."""
        changed: set[str] = set()
        moved: set[str] = set()
        same_ids = True
        pairs = [(a, b) for a, b in zip(prior.groups, self.groups, strict=True) if a is not b]
        if len(pairs) > CHANGED_AT_MOST:  # another position than the one it was made from, or groups renumbered
            return
        for a, b in pairs:
            changed.update((a.side, b.side))
            if a.cell != b.cell or a.alive != b.alive or a.side != b.side:
                moved.update((a.side, b.side))
            same_ids = same_ids and a.id == b.id
        for side in SEATS:
            if side not in changed:
                _copy(prior._sides, self._sides, side)
                _copy(prior._stacks, self._stacks, side)
            elif side not in moved:  # changed in place: each new group takes its old one's place
                self._patch(prior, side, [(a, b) for a, b in pairs if a.side == side and a.on_map])
            if side not in moved:
                _copy(prior._cells, self._cells, side)
                _copy(prior._full, self._full, side)
            if enemy_of(side) not in moved:
                _copy(prior._zocs, self._zocs, side)
        if same_ids:
            self.memo.update(prior.memo)

    def _patch(self, prior: Placed, side: str, pairs: list[tuple[Group, Group]]) -> None:
        """``prior``'s groups and stacks of ``side`` with each group of ``pairs`` replaced in place."""
        groups = prior._sides.get(side)
        if groups is not None:
            for a, b in pairs:
                i = next(i for i, x in enumerate(groups) if x.id == a.id)  # by ID: index() compares every field
                groups = (*groups[:i], b, *groups[i + 1 :])
            self._sides[side] = groups
        stacks = prior._stacks.get(side)
        if stacks is not None:
            stacks = dict(stacks)
            for a, b in pairs:
                stacks[a.cell] = tuple(b if x is a else x for x in stacks[a.cell])
            self._stacks[side] = stacks

    def side(self, side: str) -> tuple[Group, ...]:
        found = self._sides.get(side)
        if found is None:
            found = self._sides[side] = tuple(
                [g for g in self.groups if g.side == side and g.alive and g.cell != OFF_MAP]
            )
        return found

    def cells(self, side: str) -> frozenset[int]:
        found = self._cells.get(side)
        if found is None:
            found = self._cells[side] = frozenset(g.cell for g in self.side(side))
        return found

    def zoc(self, side: str) -> frozenset[int]:
        """The ZOC ``side``'s enemy exerts (§8.5)."""
        found = self._zocs.get(side)
        if found is None:
            found = self._zocs[side] = self._ctx.zoc_of(self.cells(enemy_of(side)))
        return found

    def stack(self, side: str, cell: int) -> tuple[Group, ...]:
        """The groups of ``side`` in ``cell``, in the order of the state's groups."""
        return self.stacks(side).get(cell, ())

    def stacks(self, side: str) -> dict[int, tuple[Group, ...]]:
        """The hexes holding groups of ``side``, with the groups in each (:meth:`stack`)."""
        found = self._stacks.get(side)
        if found is None:
            stacks: dict[int, list[Group]] = {}
            for g in self.side(side):
                stacks.setdefault(g.cell, []).append(g)
            found = self._stacks[side] = {c: tuple(gs) for c, gs in stacks.items()}
        return found

    def count(self, side: str, cell: int) -> int:
        return len(self.stack(side, cell))

    def full(self, side: str) -> frozenset[int]:
        """The hexes holding two groups of ``side`` (§9.3), none of which a third may enter or end a move in."""
        found = self._full.get(side)
        if found is None:
            most = int(self._ctx.tables["plots"]["stacking"]["max_groups"])
            found = self._full[side] = frozenset(c for c, gs in self.stacks(side).items() if len(gs) >= most)
        return found


def _copy(source: dict[str, Any], target: dict[str, Any], key: str) -> None:
    found = source.get(key)
    if found is not None:
        target[key] = found
