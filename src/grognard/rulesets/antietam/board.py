"""The battlefield as the rules consult it: the map with its costs, sight and victory squares, and the
scenario's units by index. Built once per scenario; nothing here changes in play."""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from grognard.engine.geometry import SquareGrid, square_in_cone
from grognard.engine.los import Observer, Sight
from grognard.engine.maps import GameMap, edge_key

from .scenario import AntietamScenario
from .state import AntietamState
from .tables import UnitSpec, load_battlefield, load_tables

# a step's (diagonal, along a road): four tuples every board's steps share (a tuple of its own for each of the 11,632
# steps of a board was as many objects more for the garbage collector to count and walk)
STEP_KINDS = {(diagonal, road): (diagonal, road) for diagonal in (False, True) for road in (False, True)}

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
U8Array = npt.NDArray[np.uint8]


@cache
def _static_sight() -> tuple[BoolArray, IntArray]:
    """§IA8.3: which square sees which, over the elevation levels and the obstacles, up to the longest limit
    (16 squares at level 4); and the distance between every two squares. Units stand 5 ft tall: that is the
    eye and the target height (AMB-15), not an obstacle between them."""
    m = load_battlefield()
    sight = load_tables().terrain["sight"]
    feet = sight["feet_per_level_used"]
    heights = sight["obstacle_feet"]
    ground = [level * feet for level in m.elevation]
    obstacle = [heights.get(t, 0) for t in m.terrain]
    s = Sight(m.grid, ground, obstacle)
    eye = heights["unit"]
    longest = max(sight["limit_by_level"].values())
    cells = list(m.grid.cells())
    vis = np.zeros((m.grid.size, m.grid.size), dtype=np.bool_)
    for start in range(0, len(cells), 96):  # in slices: the vectorised test holds (observers, offsets, line)
        chunk = cells[start : start + 96]
        vis[start : start + len(chunk)] = s.visible([Observer(c, eye, longest) for c in chunk], target=eye)
    dist = np.stack([m.grid.distances(c) for c in cells])
    return vis, dist


@cache
def _sight_distance() -> U8Array:
    """The distance from every square to every square it sees (255 where it sees none, and from a square to
    itself): range and sight in one table, so "within range ``r`` and in sight" is ``table[a, b] <= r`` with
    ``r`` at most the sight limit (at most 16)."""
    vis, dist = _static_sight()
    out = np.full(vis.shape, 255, dtype=np.uint8)
    seen = vis & (dist > 0)
    out[seen] = dist[seen]
    return out


@cache
def _sight_rows() -> U8Array:
    """The sight table with its rows the squares seen (``Board.seen_by``): the table itself where a square sees
    another as far as it is seen from it (eyes and targets at one height, AMB-15: so on this map), else its
    transpose (worked out once a process)."""
    table = _sight_distance()
    if np.array_equal(table, table.T):
        return table
    rows: U8Array = np.ascontiguousarray(table.T)
    return rows


@cache
def _cones() -> dict[int, BoolArray]:
    """§IA7.9: for each facing 1-8, which square lies in the 90° V of a unit on which square (the engine's
    ``square_in_cone`` over every offset, then looked up for every pair of squares)."""
    grid = load_battlefield().grid
    cols = np.array([grid.coord(c)[0] for c in grid.cells()], dtype=np.int64)
    rows = np.array([grid.coord(c)[1] for c in grid.cells()], dtype=np.int64)
    dx = cols[None, :] - cols[:, None]
    dy = rows[None, :] - rows[:, None]
    w, h = grid.columns, grid.rows
    out = {}
    for f in range(1, 9):
        table = np.array(
            [[square_in_cone(f, x, y) for y in range(-h + 1, h)] for x in range(-w + 1, w)], dtype=np.bool_
        )
        out[f] = np.asarray(table[dx + w - 1, dy + h - 1], dtype=np.bool_)
    return out


class Board:
    def __init__(self, scenario: AntietamScenario) -> None:
        self.scenario = scenario
        self.tables = load_tables()
        self.map: GameMap = load_battlefield()
        grid = self.map.grid
        assert isinstance(grid, SquareGrid)
        self.grid: SquareGrid = grid
        self.specs: tuple[UnitSpec, ...] = scenario.units
        self.index = {s.id: i for i, s in enumerate(self.specs)}
        self.unit_ids = tuple(s.id for s in self.specs)
        self.vis, self.dist = _static_sight()
        self.seen_at = _sight_distance()
        self.seen_by = _sight_rows()  # ``seen_by[b, a]`` is ``seen_at[a, b]``: the squares seeing ``b`` in a row
        self.sides = tuple(s.side for s in self.specs)
        self.artillery = tuple(s.artillery for s in self.specs)
        sight = self.tables.terrain["sight"]
        self._limit = {int(k): v for k, v in sight["limit_by_level"].items()}
        self._visibility = {int(k): v for k, v in sight["visibility_percent_by_turn"].items()}
        self.victory = tuple(
            (p.cells[0], p.value, int(p.data["in_zoc"])) for p in self.map.places if p.kind == "victory"
        )
        self.rear = {
            "confederate": self.map.region("confederate_rear"),
            "union": self.map.region("union_rear"),
        }
        self.stream = tuple(c for c in grid.cells() if self.map.terrain[c] == "stream")
        self.one_unit = frozenset(self.tables.rules["stacking"]["one_unit_terrains"])
        self.weapon_range = tuple(self.tables.weapon_range(s.weapon) for s in self.specs)
        self.ranges = np.array(self.weapon_range, dtype=np.int64)
        # each square's neighbours in direction order, the direction of each step (1-8, §B3.3 keys 1-8; 0: not a
        # step) and the steps along a road: asked for every step a unit considers
        self.neighbors = tuple(grid.neighbors(c) for c in grid.cells())
        # (by the step's number a * stride + b + 1, one for every pair of a square and a square or GONE: a dict of
        # numbers alone is none the garbage collector walks; one by pairs was 11,632 entries walked at every full
        # pass, for each board alive)
        self._stride = stride = grid.size + 1
        self._direction = {a * stride + b + 1: grid.direction(a, b) for a in grid.cells() for b in self.neighbors[a]}
        # and from each square, each step's (diagonal, along a road): what a step's cost reads of the map
        roads = self.map.edge_features.get("road", frozenset())
        direction = self._direction
        self.steps_from = tuple(
            {b: STEP_KINDS[grid.is_diagonal(direction[a * stride + b + 1]), edge_key(a, b) in roads] for b in near}
            for a, near in enumerate(self.neighbors)
        )
        self.levels = tuple(self.map.elevation)
        # each square's place in the order "lowest x, then lowest y" (AMB-21's ties between squares)
        self.xy_order = tuple(x * grid.rows + y for x, y in map(grid.coord, grid.cells()))
        # every square's name, and the square of every name (asked for all the time by decisions and views)
        self.labels = tuple(grid.label(c) for c in grid.cells())
        self._cells = {text: c for c, text in enumerate(self.labels)}
        # the sight limit of every square on every turn (§IA8.3, AMB-15)
        self.limits = {
            t: np.array([self._limit[lv] * pct // 100 for lv in self.map.elevation], dtype=np.int64)
            for t, pct in self._visibility.items()
        }

    @property
    def cones(self) -> dict[int, BoolArray]:
        """The 90° views of §IA7.9 (built on first use: the basic game sees all round)."""
        return _cones()

    # --- squares --------------------------------------------------------------------------------------
    def label(self, cell: int) -> str:
        return self.labels[cell]

    def square(self, text: str) -> int:
        """The square ``x,y`` names; ValueError when it names none."""
        cell = self._cells.get(text)
        return self.grid.parse(text) if cell is None else cell  # written otherwise ("3, 12"): the grid reads it

    def parse(self, text: str) -> int | None:
        """A square from ``x,y``; None when it is not one."""
        try:
            return self.square(text)
        except ValueError:
            return None

    def direction(self, a: int, b: int) -> int:
        """The direction of the step from ``a`` to ``b`` (1-8), or 0 when they are not next to each other."""
        return self._direction.get(a * self._stride + b + 1, 0)

    def adjacent(self, a: int, b: int) -> bool:
        return a * self._stride + b + 1 in self._direction

    def terrain(self, state: AntietamState, cell: int) -> str:
        """The terrain, with the random fords of this game on the creek (§IA1.3)."""
        return "ford" if cell in state.fords else self.map.terrain[cell]

    def level(self, cell: int) -> int:
        return self.map.elevation[cell]

    def sight_limit(self, cell: int, turn: int) -> int:
        """§IA8.3: four squares at level 1 ... sixteen at level 4, cut by the battlefield's visibility (AMB-15)."""
        return int(self.limits[turn][cell])

    def sees(self, a: int, b: int, turn: int) -> bool:
        """Whether a unit on ``a`` sees square ``b`` (all around: §B3.3 "You see in a 360 degree arc")."""
        return bool(self.vis[a, b]) and int(self.dist[a, b]) <= self.sight_limit(a, turn)

    def seen_from(self, cells: list[int], turn: int, facings: list[int] | None = None) -> BoolArray:
        """Every square some unit on ``cells`` sees: all round, or with ``facings`` (§IA7.9, 0: all round) in
        each unit's 90° V and on the eight squares next to it ("Hidden units will also become visible when moved
        adjacent to", §IA2.1 #5)."""
        if not cells:
            return np.zeros(self.grid.size, dtype=np.bool_)
        idx = np.array(cells, dtype=np.int64)
        limits = self.limits[turn][idx]
        rows = self.vis[idx] & (self.dist[idx] <= limits[:, None])
        if facings is not None:
            for k, f in enumerate(facings):
                if f:
                    rows[k] &= self.cones[f][idx[k]] | (self.dist[idx[k]] <= 1)
        return np.asarray(rows.any(axis=0), dtype=np.bool_)

    # --- units ----------------------------------------------------------------------------------------
    def spec(self, i: int) -> UnitSpec:
        return self.specs[i]

    def side(self, i: int) -> str:
        return self.specs[i].side

    def column(self, i: int) -> str:
        """The unit's column of the Operations Costs Table in the basic game, which has no modes (AMB-3):
        infantry moves as INF, cavalry as mounted CAV, artillery as LIMB. ART."""
        t = self.specs[i].type
        return {"infantry": "inf", "cavalry": "cav", "artillery": "limb"}[t]

    def unit_name(self, i: int) -> str:
        """``Law-A, Hood's division``: the unit as the OOB prints it, with its formation."""
        s = self.specs[i]
        if s.division:
            return f"{s.name}, {s.division}'s division"
        if s.corps:
            return f"{s.name}, {s.corps}'s artillery"
        return s.name
