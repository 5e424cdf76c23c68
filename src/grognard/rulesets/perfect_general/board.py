"""What the map means in play: terrain as damaged so far, movement costs by unit type and weather, line of
sight with barrages, defensive locations. Derived tables are cached per state of the terrain."""

from __future__ import annotations

import sys
import weakref
from array import array
from collections.abc import Callable, Collection, Hashable, Iterable
from typing import Any, Literal, TypeVar, overload

import numpy as np

from grognard.engine.geometry import Grid
from grognard.engine.los import Observer, Sight
from grognard.engine.maps import GameMap
from grognard.engine.movement import UNREACHED, EdgeCosts, LazyCosts, Reach, Steps

from .scenario import PGScenario
from .state import PGState, Unit
from .tables import Tables, UnitType, Weather

# what one board keeps of movement searches (bytes): a Lauter search holds two full-map arrays, about 13 KB, so
# this keeps a few hundred, more than the units of one side, whose searches the next decision mostly reuses
REACH_BYTES = 8 * 1024 * 1024
# answered sight pairs and sight rows one arrangement of blocking terrain and barrages keeps (a pair ~100 bytes,
# a row one byte a location): both grow with play otherwise, as units go where nobody looked from before
SIGHT_PAIRS = 100_000
# answers of whether the enemy sees a location (SightCache.seen_at), one arrangement keeps (about 180 bytes each)
SIGHT_WATCHED = 5_000
# sets of locations the board hands out as one object (Board.one_set; a side's units: about 2 KB each)
SETS_KEPT = 1024
SIGHT_ROWS = 1024
# answers of SightCache.seen_near kept about one side's sight (8 bytes a location found: at most 18 KB of Lauter)
NEAR_KEPT = 64
# what the boards of a map keep of sight rows over it as the scenario made it, which every arrangement of
# barrages and damage starts from (a byte a location: 1,872 of Lauter's 8,960 rows; 15 random games use some
# 2,300), shared by the boards (_BASE_SIGHTS); the oldest go first
BASE_SIGHT_BYTES = 4 * 1024 * 1024
# at most this many locations changed since the last terrain: its step classes are patched, not made anew
CLASSES_PATCHED = 64
# counts of a search's destinations kept with it, by the friends' locations they were made with
COUNTS_KEPT = 16
# what distance rows the boards of a grid keep (a byte a location, distances from FAR on counted as FAR): all of
# Lauter's (2,240 rows of 2.2 KB), 1,800 of the doubled map's; shared by the boards of the grid (_DISTANCE_ROWS)
DISTANCE_BYTES = 8 * 1024 * 1024
FAR = 255

T = TypeVar("T")
K = TypeVar("K")

# the (location, cost) steps every board of a map size and pair scale shares (Board._pair_tables): one entry a map,
# at most MAPS_KEPT
_PAIRS: dict[tuple[object, ...], tuple[list[tuple[int, int]], bytearray]] = {}
# the steps made, which are made (a byte each), and the same bytes as an array
PairTables = tuple[list[tuple[int, int]], bytearray, np.ndarray]
# the sight over a map as its scenario made it and the rows of it worked out so far (Board.base_rows), shared by
# every board of that map (the games of a scenario: those of one server, or played one after another), by the
# map's grid, heights and eye: rows one game worked out are not worked out again by the next. At most MAPS_KEPT.
_BASE_SIGHTS: dict[tuple[object, ...], tuple[Sight, dict[tuple[int, int], np.ndarray]]] = {}
MAPS_KEPT = 8
# the distance rows worked out so far (Board.distance_row), shared alike by the boards of a grid's shape
_DISTANCE_ROWS: dict[tuple[object, ...], dict[int, bytes]] = {}
# every location's neighbours, by the grid's shape, and every step of a map (Board._steps), by the grid's shape,
# heights and paths: shared by the boards of a map (a millisecond each to make). At most MAPS_KEPT.
_NEIGHBORS: dict[tuple[object, ...], tuple[tuple[int, ...], ...]] = {}
StepArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
_STEPS: dict[tuple[object, ...], tuple[StepArrays, tuple[list[int], list[int]]]] = {}
# rows of cost tables over a map as its scenario made it (no damage, no cut road), shared by every board of that
# map (Board._shared_rows): by the map's grid and step classes, then by the cost of each step class (a unit kind's
# in a weather; with the classes whose cost differs between kinds marked, for the rows every kind has alike)
_COST_ROWS: dict[tuple[object, ...], dict[bytes, list[Steps | None]]] = {}
# what the boards of a map keep of those rows (bytes, estimated at ROW_BYTES a location of each list: a row is a
# tuple of up to six shared steps): about 30 of Lauter's full tables, where its kinds and weathers make 18
COST_ROW_BYTES = 8 * 1024 * 1024
ROW_BYTES = 120


class MapClasses:
    """What the boards of one map and tables work out alike about its step classes (``_MAP_CLASSES``): each step's
    class over the map as the scenario made it (an array, and as machine numbers), the key of its cost rows
    (``_COST_ROWS``), each class's cost by unit kind and weather, the class costs the kinds have alike by weather,
    and each step's path cost and climb. Every one is made once, by whichever board first needs it; none is
    changed once made."""

    __slots__ = ("alike_of", "base", "class_cost", "listed", "paths", "rows_key")

    def __init__(self) -> None:
        self.base: np.ndarray | None = None
        self.listed: array[int] | None = None
        self.rows_key: tuple[object, ...] | None = None
        self.class_cost: dict[tuple[int, bool, int], tuple[np.ndarray, list[int]]] = {}
        self.alike_of: dict[int, tuple[bytes, list[bool]]] = {}
        self.paths: tuple[array[int], array[int]] | None = None


# the step classes of a map (MapClasses), by its steps (the shared object of _STEPS: grid, heights and paths), its
# terrain as the scenario made it and the tables, each held beside (their ids are in the key): a new game's board
# does not work them out again (a few milliseconds a game). At most MAPS_KEPT.
_MAP_CLASSES: dict[tuple[object, ...], tuple[object, Tables, MapClasses]] = {}


def _shape(grid: Grid) -> tuple[object, ...]:
    """What makes two grids the same: their kind, size, layout and first label."""
    return (grid.kind, grid.columns, grid.rows, getattr(grid, "layout", ""), grid.first)


def _per_map(kept: dict[tuple[object, ...], T], key: tuple[object, ...], make: Callable[[], T]) -> T:
    """What ``kept`` holds for ``key`` (a map's), made now if not: at most :data:`MAPS_KEPT` maps' worth."""
    found = kept.get(key)
    if found is None:
        if len(kept) >= MAPS_KEPT:
            kept.clear()
        found = kept[key] = make()
    return found


def _let_oldest_go(kept: dict[K, Any], count: int, keep: Collection[K] = ()) -> None:
    """Let the ``count`` oldest entries of ``kept`` go, but those in ``keep``: the keys listed in one step and each
    taken if still there (a map's shared stores, which another thread may be changing meanwhile)."""
    for key in [k for k in list(kept) if k not in keep][: max(0, count)]:
        kept.pop(key, None)


# the step classes of a terrain and its cut roads: as a NumPy array (made when asked for) and as machine numbers read
# one at a time (a class is below 256, a number Python keeps made: read as quickly as from a list, and an array of
# numbers is nothing the garbage collector walks, where the list of a terrain's 13,058 classes was, at every pass)
Classes = tuple[tuple[tuple[int, str], ...], tuple[int, ...], np.ndarray | None, "array[int]"]


class Board:
    """The scenario's map with the rules of terrain (PG p.22-25) and sight (p.32)."""

    def __init__(self, scenario: PGScenario, tables: Tables) -> None:
        self.scenario = scenario
        self.tables = tables
        self.map: GameMap = scenario.map
        self.grid = scenario.map.grid
        self.base_terrain = scenario.map.terrain
        self.elevation = scenario.map.elevation
        self.neighbors = _per_map(
            _NEIGHBORS, _shape(self.grid), lambda: tuple(self.grid.neighbors(c) for c in range(self.grid.size))
        )
        self._costs: dict[tuple[object, ...], LazyCosts] = {}
        self._rows: dict[tuple[tuple[int, str], ...], tuple[str, ...]] = {}
        self._step_arrays: StepArrays | None = None
        self._latest: dict[tuple[object, int], tuple[Any, Any, LazyCosts]] = {}  # the last table by kind and weather
        self._type_costs: dict[str, tuple[Any, Any, int, LazyCosts]] = {}  # unit_costs' last table by unit type
        self._terrain_names = sorted(tables.terrain)
        self._terrain_index = {n: i for i, n in enumerate(self._terrain_names)}
        self._base_ids = np.array([self._terrain_index[t] for t in self.base_terrain], dtype=np.int64)
        self._ids: tuple[tuple[tuple[int, str], ...], np.ndarray] | None = None
        self._lists: tuple[list[int], list[int]] | None = None  # _step_lists
        self._classes: Classes | None = None  # _step_classes, for the last terrain
        self._map_classes_found: MapClasses | None = None  # _map_classes
        self._stores: dict[bytes, tuple[list[Steps | None], list[Steps | None], list[bool]]] = {}  # _shared_rows
        self._dirty_last: tuple[object, object, frozenset[int]] = (None, None, frozenset())  # _dirty
        # the cheapest path cost along a step is below this (a step class holds it)
        self._along_span = max([0, *tables.paths.values()]) + 1
        # one (location, cost) step shared by every table, kept by location * scale + cost: as many as locations
        # × costs, whatever the play. A step costs at most the dearest terrain, uphill, in the slowest weather.
        dearest = max(
            [max(2, t.move) for t in tables.units.values()]
            + [int(t.cost) for t in tables.terrain.values() if t.cost != "half_rate"]
        )
        slowest = max([100] + [w.move_percent for w in tables.weather.values()])
        self._pair_scale = -(-dearest * tables.uphill_factor * slowest // 100) + 1
        self._pair_tables_found: PairTables | None = None  # _pair_tables
        # movement searches by (cost table, start, budget, ...), each with its table: see moves.unit_reach
        self.reaches = ReachCache(REACH_BYTES)
        # moves._search's last search key of each unit, and the one object of each set of locations _field hands
        # out (so that equal sets are the same object from one state to the next)
        self.unit_searches: dict[str, tuple[Unit, int, frozenset[int], frozenset[int], Entry]] = {}
        # moves.load_candidates' last answer for each carrier, with the search and the units to load it came from
        self.loads: dict[str, tuple[Unit, Entry, tuple[Unit, ...], tuple[str, ...]]] = {}
        # moves._plan_assaults' last plans for each unit, with the search, the enemies' locations within reach, the
        # friends' locations and the locations around those enemies
        self.assaults: dict[
            str, tuple[Unit, Entry, tuple[int, ...], frozenset[int], frozenset[int], dict[int, int]]
        ] = {}
        # the locations of the enemies each side knows, with the enemy units they were read from (one object while
        # they stand), and for each unit the ones of them within its reach, with the unit and the locations they were
        # picked from (moves._plan_assaults)
        self.known_cells: dict[str, tuple[tuple[Unit, ...], tuple[int, ...]]] = {}
        self.assault_near: dict[str, tuple[Unit, tuple[int, ...], tuple[int, ...]]] = {}
        self._sets: dict[frozenset[int], frozenset[int]] = {}
        self._change: tuple[frozenset[int], frozenset[int], tuple[tuple[int, ...], tuple[int, ...]]] = (
            frozenset(),
            frozenset(),
            ((), ()),
        )
        self._cells_of: tuple[tuple[object, frozenset[int]], tuple[object, frozenset[int]]] = (
            ((), frozenset()),
            ((), frozenset()),
        )
        # moves._field for the last state asked; a computer player has a board of its own (ai Player.rules), so
        # this never hands it a real state
        self.field_memo: tuple[PGState, str, tuple[frozenset[int], frozenset[int], frozenset[int]]] | None = None
        # and its blocked and stopping locations for each side, with the enemy units, weather, mines, barrages and
        # neutral countries entered they were made from (held: compared by identity)
        self.field_kept: dict[str, tuple[tuple[Unit, ...], Weather, Any, Any, Any, frozenset[int], frozenset[int]]] = {}
        # moves.move_counts' last counts for each side: its field, friends' locations and terrain, cut roads and
        # weather (the cost tables), and each unit it counted, with its search and count
        self.move_counts: dict[
            str,
            tuple[frozenset[int], frozenset[int], frozenset[int], tuple[Any, ...], dict[str, tuple[Unit, Entry, int]]],
        ] = {}
        # spotting.end_of_phase's last units, sight, visibility and terrain, turn and each side's memory: units it
        # left as they were
        self.settled: tuple[tuple[Unit, ...], SightCache, int, tuple[tuple[int, str], ...], int, Any, Any] | None = None
        # what the legal set works out about the last state asked for, more than once (see state_memo)
        self._memo: tuple[PGState | None, dict[Any, Any]] = (None, {})
        self._sights: dict[tuple[object, ...], SightCache] = {}
        self._last_sight: tuple[object, object, SightCache] | None = None
        self._base_sight: tuple[Sight, dict[tuple[int, int], np.ndarray]] | None = None  # from _BASE_SIGHTS
        self._weather: dict[int, Weather] = {}
        self._distance_rows: dict[int, bytes] = _per_map(_DISTANCE_ROWS, _shape(self.grid), dict)
        self._near_last: tuple[tuple[Unit, ...], int, int, tuple[Unit, ...]] = ((), -1, -1, ())  # see near
        self._last_row: tuple[object, tuple[str, ...]] = ((), ())  # terrain_row's last answer, by the terrain tuple
        self._far_plane: tuple[np.ndarray, np.ndarray, list[int]] | None = None  # see distance_row
        self.region_ground: dict[tuple[object, ...], tuple[int, ...]] = {}  # setup._region_ground's
        self.unit_views: dict[int, tuple[Unit, dict[str, Any]]] = {}  # view._unit's, by the unit's id and view
        # how far a unit of each type can hit any target: its longest range, one more from higher ground (p.23)
        self.fire_reach = {
            f: max((r for (firer, _), r in tables.max_range.items() if firer == f), default=0) + 1 for f in tables.units
        }
        self.longest_fire_reach = max(self.fire_reach.values(), default=0)  # of any unit
        # moves._plan_assaults bounds how far a unit reaches by its movement points: no step may be free
        assert all(t.cost == "half_rate" or int(t.cost) >= 1 for t in tables.terrain.values())
        assert all(along >= 1 for along in tables.paths.values())
        self.town_cells = frozenset(c for t in scenario.towns for c in t.cells)
        # the unit types a carrier may load (p.26 b): moves.load_candidates looks through the side's units
        self.cargo_types = frozenset(name for name, u in tables.units.items() if u.has("cargo"))
        self.neutral_of = {c: n.name for n in scenario.neutrals for c in n.cells}

    def set_change(self, before: frozenset[int], after: frozenset[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """What ``after`` lacks of ``before`` and what it adds, kept for the last pair asked about (the friends'
        locations of two positions in a row, asked of every unit's count)."""
        last = self._change
        if last[0] is before and last[1] is after:
            return last[2]
        found = (tuple(before - after), tuple(after - before))
        self._change = (before, after, found)
        return found

    def cells_of(self, units: tuple[Unit, ...]) -> frozenset[int]:
        """The locations of ``units`` (``own_units`` of a side: one tuple for a state's units), one object for equal
        sets (:meth:`one_set`); kept for the last two tuples asked about."""
        kept = self._cells_of
        for i in (0, 1):
            if kept[i][0] is units:
                return kept[i][1]
        found = self.one_set(frozenset([u.cell for u in units]))
        self._cells_of = ((units, found), kept[0])
        return found

    def one_set(self, cells: frozenset[int]) -> frozenset[int]:
        """The one object kept for sets of locations equal to ``cells`` (at most :data:`SETS_KEPT` kept)."""
        found = self._sets.get(cells)
        if found is None:
            if len(self._sets) >= SETS_KEPT:
                self._sets.clear()
            found = self._sets[cells] = cells
        return found

    def unit_memo(self, state: PGState, what: str, unit: Unit, work: Callable[[], T]) -> T:
        """``work()``, what ``unit`` of ``state`` can do (its search, its assaults), kept in :meth:`state_memo`."""
        memo = self.state_memo(state)
        found = memo.get((what, unit.id))
        if found is None or found[0] is not unit:
            found = memo[(what, unit.id)] = (unit, work())
        out: T = found[1]
        return out

    def state_memo(self, state: PGState) -> dict[Any, Any]:
        """Scratch room for what is worked out from ``state`` alone and asked for more than once while its legal
        set is built, sized and applied (a unit's close assaults, the units a carrier may load); emptied when
        another state is asked about, so it holds one state's worth."""
        if self._memo[0] is not state:
            self._memo = (state, {})
        return self._memo[1]

    def near(self, units: tuple[Unit, ...], cell: int, radius: int) -> tuple[Unit, ...]:
        """Those of ``units`` within ``radius`` of ``cell``, in their order: who may see or shoot there (spotting
        and fire ask of every unit against every enemy; most are far). The last answer is kept by the tuple, the
        location and the radius: a step's spotting asks who sees the location entered, then whom the mover sees
        from there, of the same enemy units."""
        last = self._near_last
        if last[0] is units and last[1] == cell and last[2] == radius:
            return last[3]
        if radius >= FAR:
            found = units
        else:
            row = self.distance_row(cell)
            found = tuple([u for u in units if row[u.cell] <= radius])
        self._near_last = (units, cell, radius, found)
        return found

    def near_cells(self, cells: Iterable[int], cell: int, radius: int) -> list[int]:
        """Those of ``cells`` within ``radius`` of ``cell``, in their order (:meth:`near` for locations)."""
        if radius >= FAR:
            return list(cells)
        row = self.distance_row(cell)
        return [c for c in cells if row[c] <= radius]

    def distance_row(self, cell: int) -> bytes:
        """The distance from ``cell`` to every location (FAR for FAR and beyond), kept for the cells asked most
        (shared with the boards of the same grid: what is handed out is the row made or read here)."""
        rows = self._distance_rows
        row = rows.get(cell)
        if row is None:
            if len(rows) * self.grid.size >= DISTANCE_BYTES:
                rows.clear()
            if self._far_plane is None:  # the grid's plane of distances as bytes: one array operation a row
                plane, place, start = self.grid.distance_plane()
                self._far_plane = (np.minimum(plane, FAR).astype(np.uint8), place, start)
            plane, place, start = self._far_plane
            row = rows[cell] = plane[start[cell] :].take(place).tobytes()
        return row

    # --- terrain ---------------------------------------------------------------------------------------
    def terrain(self, state: PGState, cell: int) -> str:
        if state.terrain:
            return self.terrain_row(state)[cell]
        return self.base_terrain[cell]

    def terrain_row(self, state: PGState) -> tuple[str, ...]:
        """Every location's terrain as damaged so far (kept for the last few damage states)."""
        if not state.terrain:
            return self.base_terrain
        last = self._last_row
        if last[0] is state.terrain:  # states share the tuple until artillery changes it: no need to hash it
            return last[1]
        found = self._rows.get(state.terrain)
        if found is None:
            if len(self._rows) > 16:
                self._rows.clear()
            row = list(self.base_terrain)
            for c, t in state.terrain:
                row[c] = t
            found = self._rows[state.terrain] = tuple(row)
        self._last_row = (state.terrain, found)
        return found

    def defensive(self, state: PGState, cell: int) -> bool:
        return self.tables.terrain[self.terrain(state, cell)].defensive

    def allows(self, state: PGState, unit_type: UnitType, cell: int) -> bool:
        """Whether a unit of this type may stand in a location (p.24-25: sea for nobody, rivers not for armour)."""
        banned = self.tables.terrain[self.terrain(state, cell)].prohibited
        return not ("all" in banned or ("armor" in banned and unit_type.has("armor")))

    def higher(self, a: int, b: int) -> bool:
        return self.elevation[a] > self.elevation[b]

    def weather(self, state: PGState) -> Weather:
        """The turn's conditions combined: the shortest sight, the slowest ground, every prohibition."""
        found = self._weather.get(state.turn)  # by the state's turn: asked tens of times a decision
        if found is None:
            turn = min(state.turn, self.scenario.turns)
            ws = [self.tables.weather[n] for n in self.scenario.weather[turn - 1]]
            found = self._weather[state.turn] = Weather(
                visibility=min(w.visibility for w in ws),
                move_percent=max(w.move_percent for w in ws),
                no_direct_fire=any(w.no_direct_fire for w in ws),
                no_moving_next_to_spotted=any(w.no_moving_next_to_spotted for w in ws),
            )
        return found

    # --- movement --------------------------------------------------------------------------------------
    def costs(self, state: PGState, unit_type: UnitType) -> LazyCosts:
        """Half-point step costs for a unit type over the terrain as it is now, in this turn's weather: a table
        whose rows are worked out when a search first asks for them (a unit's search reaches a few hundred of
        Lauter's 2,240 locations)."""
        percent = self.weather(state).move_percent
        # costs differ between unit types only by the forest's "half their movement rate" and armour's bans
        kind = (max(2, unit_type.move), unit_type.has("armor"))
        latest = self._latest.get((kind, percent))
        if latest is not None and latest[0] is state.terrain and latest[1] is state.cut_roads:
            return latest[2]  # states share these tuples until artillery changes them: no need to hash them
        key = (kind, percent, state.terrain, state.cut_roads)
        found = self._costs.get(key)
        if found is None:
            if len(self._costs) > 64:
                self._costs.clear()
            fill = self._row_maker(state, unit_type, percent)
            if latest is None:
                # the rows of the map as the scenario made it that a board of the map worked out, less those around
                # what differs from it
                found = LazyCosts(self._shared_rows(unit_type, percent)[0], fill)
                for a in self._dirty(state):
                    found[a] = None
            else:
                # artillery damage is local: the last table this unit kind used, less the rows around what changed
                terrain, cut, table = latest
                changed = {c for c, _ in set(terrain).symmetric_difference(state.terrain)}
                changed.update(set(cut).symmetric_difference(state.cut_roads))
                found = LazyCosts(table, fill)
                for a in changed.union(*(self.neighbors[c] for c in changed)):
                    found[a] = None
            self._costs[key] = found
        self._latest[kind, percent] = (state.terrain, state.cut_roads, found)
        return found

    def unit_costs(self, state: PGState, unit_type: str) -> LazyCosts:
        """:meth:`costs` for a unit of the type named ``unit_type``, kept by type with the terrain and cut roads it
        was made for (states share those tuples until artillery changes them, and the kept ones are held) and the
        turn (its weather): every unit's search and count asks, decision after decision. One table a type."""
        kept = self._type_costs.get(unit_type)
        if kept is not None and kept[0] is state.terrain and kept[1] is state.cut_roads and kept[2] == state.turn:
            return kept[3]
        found = self.costs(state, self.tables.units[unit_type])
        self._type_costs[unit_type] = (state.terrain, state.cut_roads, state.turn, found)
        return found

    def whole_costs(self, state: PGState, unit_type: UnitType) -> LazyCosts:
        """:meth:`costs` with every row worked out, for a search of the whole map: the rows missing one by one if
        they are few (a table after damage lacks those around it), else all at once with array arithmetic."""
        table = self.costs(state, unit_type)
        missing = [a for a, row in enumerate(table) if row is None] if None in table else []
        if len(missing) * 8 < len(table):
            for a in missing:
                table.row(a)
        else:
            percent = self.weather(state).move_percent
            own, common, alike = self._shared_rows(unit_type, percent)
            dirty = self._dirty(state)
            for a, row in enumerate(self._full_costs(state, unit_type, percent)):
                if table[a] is None:
                    table[a] = row
                    if a not in dirty:
                        own[a] = row
                        if alike[a]:
                            common[a] = row
        return table

    def _row_maker(self, state: PGState, unit_type: UnitType, percent: int) -> Callable[[int], Steps]:
        """What works out one location's row of the table of ``unit_type`` in ``state``'s terrain and weather: each
        step's class (the terrain entered, the path along it, uphill) and each class's cost."""
        classes = self._step_classes(state, listed=True)
        cost_of = self._class_costs(unit_type, percent, listed=True)
        first, dst = self._step_lists()
        store, made, _ = self._pair_tables()
        scale = self._pair_scale
        # a row away from what differs from the scenario's map is the row every board of the map has: read there,
        # or worked out and left there
        own, common, alike = self._shared_rows(unit_type, percent)
        dirty = self._dirty(state)

        def fill(a: int) -> Steps:
            shared = a not in dirty
            if shared:
                found = own[a]
                if found is None and alike[a]:
                    found = own[a] = common[a]
                if found is not None:
                    return found
            out = []
            for i in range(first[a], first[a + 1]):
                c = cost_of[classes[i]]
                if c >= 0:
                    b = dst[i]
                    code = b * scale + c
                    if not made[code]:
                        store[code] = (b, c)
                        made[code] = True
                    out.append(store[code])
            row = tuple(out)
            if shared:
                own[a] = row
                if alike[a]:
                    common[a] = row
            return row

        return fill

    def _dirty(self, state: PGState) -> frozenset[int]:
        """The locations whose rows may differ from those of the map as the scenario made it: a row is the steps
        out of its location, whose costs read the terrain entered and the cut roads at both ends. Kept for the last
        terrain and cut roads."""
        last = self._dirty_last
        if last[0] is state.terrain and last[1] is state.cut_roads:
            return last[2]
        changed = {c for c, _ in state.terrain}.union(state.cut_roads)
        found = frozenset(changed.union(*(self.neighbors[c] for c in changed)))
        self._dirty_last = (state.terrain, state.cut_roads, found)
        return found

    def _shared_rows(
        self, unit_type: UnitType, percent: int
    ) -> tuple[list[Steps | None], list[Steps | None], list[bool]]:
        """The rows of the table of ``unit_type`` in weather slowing to ``percent`` over the map as the scenario
        made it that the boards of this map worked out (``_COST_ROWS``), by the cost of every step class; the rows
        alike for every unit kind of the tables, by the costs they have alike; and for each location whether its
        row is one of those: no step out of it enters a class whose cost differs between the kinds."""
        key = self._class_costs(unit_type, percent).tobytes()
        found = self._stores.get(key)
        if found is None:
            common, alike = self._alike(percent)
            shared = self._map_classes()
            if shared.rows_key is None:
                # what makes the rows of two boards' tables the same, cost for cost: the grid and every step's class
                # over the map as the scenario made it
                classes = self._base_classes()
                assert classes.max(initial=0) < 2**31  # kept as 32-bit numbers
                shared.rows_key = (*_shape(self.grid), classes.astype(np.int32).tobytes())
            kept = _per_map(_COST_ROWS, shared.rows_key, dict)
            # the oldest lists go first (the doubled map's 18 are more than its budget holds); the boards that hold
            # them keep them, and the keys are listed in one step (safe with another thread)
            room = COST_ROW_BYTES // (self.grid.size * ROW_BYTES)
            _let_oldest_go(kept, len(kept) + (key not in kept) + (common not in kept) - room, keep=(key, common))
            empty: list[Steps | None] = [None] * self.grid.size
            found = self._stores[key] = (kept.setdefault(key, empty), kept.setdefault(common, empty.copy()), alike)
        return found

    def _alike(self, percent: int) -> tuple[bytes, list[bool]]:
        """The step class costs the unit kinds of the tables have alike in weather slowing to ``percent`` (as
        bytes, -2 for a class whose cost differs between kinds), and for each location whether every step out of
        it enters such a class in the scenario's terrain (its row is the same for every kind)."""
        alike_of = self._map_classes().alike_of
        found = alike_of.get(percent)
        if found is None:
            costs = np.stack([self._class_costs(u, percent) for u in self.tables.units.values()])
            differ = (costs != costs[0]).any(axis=0)
            src = self._steps()[0]
            apart = np.bincount(src[differ[self._base_classes()]], minlength=self.grid.size)
            found = alike_of[percent] = (np.where(differ, -2, costs[0]).tobytes(), (apart == 0).tolist())
        return found

    def _full_costs(self, state: PGState, unit_type: UnitType, percent: int) -> EdgeCosts:
        """The whole table at once with array arithmetic: the same numbers as ``_step_cost`` step by step."""
        src, dst, *_ = self._steps()
        c = self._class_costs(unit_type, percent)[self._step_classes(state)]
        keep = c >= 0
        # every step in order, each (location, cost) one object shared with every other table, cut into rows
        # (the steps are in order of the location left)
        steps = tuple(self._pairs(dst[keep] * self._pair_scale + c[keep]))
        ends = np.cumsum(np.bincount(src[keep], minlength=self.grid.size)).tolist()
        return tuple(steps[start:end] for start, end in zip([0, *ends[:-1]], ends, strict=True))

    @overload
    def _step_classes(self, state: PGState, listed: Literal[False] = False) -> np.ndarray: ...
    @overload
    def _step_classes(self, state: PGState, listed: Literal[True]) -> array[int]: ...
    def _step_classes(self, state: PGState, listed: bool = False) -> np.ndarray | array[int]:
        """Each step's class in ``state``'s terrain: (terrain entered, cost along a path not cut, uphill), kept for
        the last terrain asked about (as a NumPy array, or ``listed`` as machine numbers read one at a time). Damage
        is local: from the last terrain's classes, only the steps into or out of the locations that changed are
        worked out again."""
        found = self._classes
        if found is None or found[0] is not state.terrain or found[1] is not state.cut_roads:
            found = self._classes = self._new_classes(state, found)
        if listed:
            return found[3]
        made = found[2]
        if made is None:  # made when first asked for (the general's whole tables)
            made = np.array(found[3], dtype=np.int64)
            self._classes = (found[0], found[1], made, found[3])
        return made

    def _new_classes(self, state: PGState, last: Classes | None) -> Classes:
        if last is not None:
            changed = {c for c, _ in set(last[0]).symmetric_difference(state.terrain)}
            changed.update(set(last[1]).symmetric_difference(state.cut_roads))
            if len(changed) <= CLASSES_PATCHED:
                classes = last[3][:]
                self._patch_classes(classes, state, changed)
                return (state.terrain, state.cut_roads, None, classes)
        if not state.terrain and not state.cut_roads:
            shared = self._map_classes()
            if shared.listed is None:
                shared.listed = self._listed(self._base_classes())
            return (state.terrain, state.cut_roads, self._base_classes(), shared.listed)
        made = self._classes_of(self._terrain_ids(state), state.cut_roads)
        return (state.terrain, state.cut_roads, made, self._listed(made))

    def _listed(self, made: np.ndarray) -> array[int]:
        """Step classes as machine numbers: every class the tables have is below 256 (Lauter's: 132), read as numbers
        Python keeps made."""
        small = len(self._terrain_names) * self._along_span * 2 <= 256
        listed = array("B" if small else "I")
        listed.frombytes(made.astype(np.uint8 if small else np.uint32).tobytes())
        return listed

    def _map_classes(self) -> MapClasses:
        """The step classes this board's map and tables share with the other boards of the same (``_MAP_CLASSES``)."""
        found = self._map_classes_found
        if found is None:
            steps = self._steps()
            key = (id(steps), self._base_ids.tobytes(), id(self.tables))
            kept = _MAP_CLASSES.get(key)
            if kept is None or kept[0] is not steps or kept[1] is not self.tables:
                if len(_MAP_CLASSES) >= MAPS_KEPT:
                    _MAP_CLASSES.clear()
                kept = _MAP_CLASSES[key] = (steps, self.tables, MapClasses())
            found = self._map_classes_found = kept[2]
        return found

    def _base_classes(self) -> np.ndarray:
        """Each step's class over the map as the scenario made it (read-only)."""
        shared = self._map_classes()
        if shared.base is None:
            made = self._classes_of(self._base_ids, ())
            made.flags.writeable = False
            shared.base = made
        return shared.base

    def _classes_of(self, ids: np.ndarray, cut_roads: Iterable[int]) -> np.ndarray:
        """Each step's class with the terrain ``ids`` (``_terrain_ids``) and ``cut_roads``."""
        src, dst, along, uphill, _ = self._steps()
        cut = np.zeros(self.grid.size, dtype=np.bool_)
        cut[list(cut_roads)] = True
        on_path = (along > 0) & ~cut[src] & ~cut[dst]
        out: np.ndarray = (ids[dst] * self._along_span + np.where(on_path, along, 0)) * 2 + uphill
        return out

    def _patch_classes(self, classes: array[int], state: PGState, changed: set[int]) -> None:
        """Work out again in ``classes`` (``_step_classes``' numbers) the steps into or out of ``changed`` locations,
        as the full computation does for ``state``'s terrain and cut roads."""
        first, dst = self._step_lists()
        shared = self._map_classes()
        if shared.paths is None:  # each step's path cost and climb, as the step classes are kept
            _, _, along, uphill, _ = self._steps()
            shared.paths = (array("B", along.astype(np.uint8).tobytes()), array("B", uphill.astype(np.uint8).tobytes()))
        paths, climbs = shared.paths
        terrain = dict(state.terrain)
        cut = state.cut_roads
        index, base, span = self._terrain_index, self.base_terrain, self._along_span
        for c in changed:
            entered = index[terrain.get(c, base[c])] * span  # a step into c: its terrain's part of the class
            for a in self.neighbors[c]:  # the one step into c from each neighbour
                for i in range(first[a], first[a + 1]):
                    if dst[i] == c:
                        path = paths[i] if paths[i] > 0 and a not in cut and c not in cut else 0
                        classes[i] = (entered + path) * 2 + climbs[i]
                        break
            for i in range(first[c], first[c + 1]):  # the steps out of c
                b = dst[i]
                path = paths[i] if paths[i] > 0 and c not in cut and b not in cut else 0
                classes[i] = (index[terrain.get(b, base[b])] * span + path) * 2 + climbs[i]

    @overload
    def _class_costs(self, unit_type: UnitType, percent: int, listed: Literal[False] = False) -> np.ndarray: ...
    @overload
    def _class_costs(self, unit_type: UnitType, percent: int, listed: Literal[True]) -> list[int]: ...
    def _class_costs(self, unit_type: UnitType, percent: int, listed: bool = False) -> np.ndarray | list[int]:
        """Each step class's cost in half points for ``unit_type`` in weather slowing to ``percent`` (-1: it may
        not enter), as an array or ``listed`` as a list."""
        kind = (max(2, unit_type.move), unit_type.has("armor"), percent)
        class_cost = self._map_classes().class_cost
        found = class_cost.get(kind)
        if found is None:
            span = self._along_span
            cls = np.arange(len(self._terrain_names) * span * 2)
            tid, along, uphill = cls // (2 * span), (cls // 2) % span, (cls % 2).astype(np.bool_)
            base, banned = self._terrain_costs(unit_type)
            on_path = along > 0  # a path not cut: the class holds its cost along the step, 0 for none
            c = base[tid]
            c = np.where(on_path, np.minimum(c, along), c)  # p.23: roads whatever the terrain
            c = np.where(uphill, c * self.tables.uphill_factor, c)  # p.23: twice as much uphill
            if percent != 100:
                c = np.where(on_path, c, -(-c * percent // 100))  # p.22: mud and storms, not on roads
            costs: np.ndarray = np.where(banned[tid], -1, c)
            found = class_cost[kind] = (costs, costs.tolist())
        return found[1] if listed else found[0]

    def _pair_tables(self) -> PairTables:
        """The ``(location, cost)`` steps made, which are made (read one at a time as bytes, quick from Python) and
        the same bytes as an array (many at once). A step is two numbers whatever the map: the boards of one size
        and scale (every game of a scenario) share them, so a new game does not make its tens of thousands again.
        Found when a first table needs them: a board built only to be looked at (a scenario's size, its map) never
        makes the list, a reference a location and cost that every full pass of the collector would go through for
        as long as the process lives."""
        found = self._pair_tables_found
        if found is None:
            size = self.grid.size * self._pair_scale
            key = (self.grid.size, self._pair_scale)
            store, made = _per_map(_PAIRS, key, lambda: ([(0, 0)] * size, bytearray(size)))
            found = self._pair_tables_found = (store, made, np.frombuffer(made, dtype=np.bool_))
        return found

    def _pairs(self, codes: np.ndarray) -> list[tuple[int, int]]:
        """The shared ``(location, cost)`` step of each code ``location * scale + cost``: one object per step
        for the board, whatever the tables (as many as locations times costs, whatever the play)."""
        store, _, made = self._pair_tables()
        new = np.unique(codes[~made[codes]]).tolist()
        scale = self._pair_scale
        for code in new:
            store[code] = divmod(code, scale)
        made[new] = True
        found: list[tuple[int, int]] = list(map(store.__getitem__, codes.tolist()))
        return found

    def _terrain_costs(self, unit_type: UnitType) -> tuple[np.ndarray, np.ndarray]:
        """By terrain id (``_terrain_ids``), the cost of entering in half points and whether the type may not."""
        half_rate = max(2, unit_type.move)
        armor = unit_type.has("armor")
        specs = [self.tables.terrain[n] for n in self._terrain_names]
        base = np.array([half_rate if t.cost == "half_rate" else int(t.cost) for t in specs], dtype=np.int64)
        banned = np.array(["all" in t.prohibited or (armor and "armor" in t.prohibited) for t in specs])
        return base, banned

    def _terrain_ids(self, state: PGState) -> np.ndarray:
        """Every location's terrain (as damaged so far) by its index in the sorted terrain names."""
        found = self._ids
        if found is None or found[0] != state.terrain:
            index = self._terrain_index
            ids = self._base_ids.copy()
            for c, t in state.terrain:
                ids[c] = index[t]
            self._ids = found = (state.terrain, ids)
        return found[1]

    def _steps(self) -> StepArrays:
        """Every step of the grid in direction order: from, to, the cheapest path cost along it (0: none),
        whether it goes uphill; and where each location's steps begin (one past the last: the count). Fixed for
        the map: shared by the boards of maps of the same grid, heights and paths (read-only)."""
        if self._step_arrays is None:
            paths = tuple(
                (kind, cost, self.map.edge_features.get(kind, frozenset())) for kind, cost in self.tables.paths.items()
            )
            key = (*_shape(self.grid), np.array(self.elevation, dtype=np.int64).tobytes(), paths)
            self._step_arrays, self._lists = _per_map(_STEPS, key, self._make_steps)
        return self._step_arrays

    def _make_steps(self) -> tuple[StepArrays, tuple[list[int], list[int]]]:
        """:meth:`_steps` made, with :meth:`_step_lists`."""
        table = np.array(self.grid.neighbor_table(), dtype=np.int64)
        src, d = np.nonzero(table >= 0)  # row by row, in direction order
        dst = table[src, d]
        along = np.zeros(len(src), dtype=np.int64)
        low, high = np.minimum(src, dst), np.maximum(src, dst)
        for kind, cost in self.tables.paths.items():
            edges = self.map.edge_features.get(kind, frozenset())
            if not edges:
                continue
            pairs = np.array(sorted(edges), dtype=np.int64).reshape(-1, 2)
            # each step's pair looked up in the sorted pairs (np.isin makes a table as long as the largest
            # code, a map's size squared: milliseconds for every new board)
            wanted = np.sort(pairs[:, 0] * self.grid.size + pairs[:, 1])
            codes = low * self.grid.size + high
            on = wanted[np.minimum(np.searchsorted(wanted, codes), len(wanted) - 1)] == codes
            along = np.where(on & ((along == 0) | (along > cost)), cost, along)
        elevation = np.array(self.elevation, dtype=np.int64)
        first = np.concatenate([[0], np.cumsum(np.bincount(src, minlength=self.grid.size))])
        made = (src, dst, along, elevation[dst] > elevation[src], first)
        for part in made:
            part.flags.writeable = False
        return made, (first.tolist(), dst.tolist())

    def _step_lists(self) -> tuple[list[int], list[int]]:
        """``_steps``' first step of each location and each step's destination, as lists (read one at a time)."""
        if self._lists is None:
            self._steps()
        assert self._lists is not None
        return self._lists

    def _step_cost(self, state: PGState, unit_type: UnitType, percent: int) -> Callable[[int, int, int], int | None]:
        terrain = self.terrain_row(state)
        table = self.tables.terrain
        budget = 2 * unit_type.move
        half_rate = max(2, budget // 2)
        cut = set(state.cut_roads)
        paths = [
            (kind, self.map.edge_features.get(kind, frozenset()), along) for kind, along in self.tables.paths.items()
        ]
        uphill = self.tables.uphill_factor
        armor = unit_type.has("armor")

        def cost(a: int, b: int, _d: int) -> int | None:
            spec = table[terrain[b]]
            if "all" in spec.prohibited or (armor and "armor" in spec.prohibited):
                return None
            c = half_rate if spec.cost == "half_rate" else int(spec.cost)
            on_path = False
            if a not in cut and b not in cut:
                key = (a, b) if a < b else (b, a)
                for _kind, edges, along in paths:
                    if key in edges:
                        # p.23: along a road, half of clear "regardless of what other terrain" is there
                        c = min(c, along)
                        on_path = True
            if self.elevation[b] > self.elevation[a]:
                c *= uphill  # p.23: twice as much uphill
            if percent != 100 and not on_path:
                c = -(-c * percent // 100)  # mud and storms slow all but the roads (p.22)
            return c

        return cost

    # --- sight -----------------------------------------------------------------------------------------
    def sight(self, state: PGState) -> SightCache:
        last = self._last_sight
        if last is not None and last[0] is state.terrain and last[1] is state.barrages:
            return last[2]  # states share these tuples until artillery changes them
        blocking = tuple(
            (c, t)
            for c, t in state.terrain
            if self.tables.terrain[t].blocks_sight != self.tables.terrain[self.base_terrain[c]].blocks_sight
        )
        barrages = tuple(sorted(b.cell for b in state.barrages))
        key = (blocking, barrages)
        found = self._sights.get(key)
        if found is None:
            if len(self._sights) > 16:
                self._sights.clear()
            found = self._sights[key] = SightCache(self, blocking, barrages)
        self._last_sight = (state.terrain, state.barrages, found)
        return found

    def base_sight(self) -> Sight:
        """Line of sight over the map as the scenario made it: no barrage, no damage."""
        return self._base()[0]

    def _base(self) -> tuple[Sight, dict[tuple[int, int], np.ndarray]]:
        """The base sight and its rows, shared with every board of the same map (``_BASE_SIGHTS``)."""
        if self._base_sight is None:
            t = self.tables
            ground = [e * t.sight.level for e in self.elevation]
            obstacles = [t.sight.obstacle if t.terrain[name].blocks_sight else 0 for name in self.base_terrain]
            key = (*_shape(self.grid), t.sight.eye, np.array(ground).tobytes(), np.array(obstacles).tobytes())
            self._base_sight = _per_map(_BASE_SIGHTS, key, lambda: (Sight(self.grid, ground, obstacles), {}))
        return self._base_sight

    def base_rows(self, cells: list[int], visibility: int) -> list[np.ndarray]:
        """What a unit in each of ``cells`` sees over the map as the scenario made it (kept within
        :data:`BASE_SIGHT_BYTES` a map, the oldest let go first): every arrangement of barrages and damage starts
        from these. The rows are shared with the other boards of the map, which another thread may be reading or
        letting go meanwhile (a server's games): what is handed out is read once."""
        sight, rows = self._base()
        found = {c: row for c in cells if (row := rows.get((c, visibility))) is not None}
        missing = [c for c in cells if c not in found]
        if missing:
            over = len(rows) + len(missing) - BASE_SIGHT_BYTES // self.grid.size
            if over > 0:  # the oldest go first, a quarter more than needed at once (listing the keys is not free)
                _let_oldest_go(rows, over + len(rows) // 4)
            eye = self.tables.sight.eye
            seen = sight.visible([Observer(c, eye, visibility) for c in missing], target=eye)
            for c, row in zip(missing, seen, strict=True):
                found[c] = rows[c, visibility] = row
        return [found[c] for c in cells]


class ReachCache:
    """Movement searches by key, each with the cost table it searched, bounded by an estimate of their bytes. An
    entry does not keep its table alive (a table is some 20-200 KB and the step classes of its terrain 100 KB
    more; hundreds of searches of past damage and weather would hold hundreds of them): once nobody else holds
    the table, nobody can ask for its searches again.
    When room is needed the oldest searches go first, but one asked for since it was last passed over gets a
    second chance (it goes to the back): nearly the least recently used, without reordering on every use.

    A search may be put with its *family* (what its key holds but the blocked locations), and the family's
    latest search looked up (:meth:`latest`): one made before an enemy was spotted is often the search after it
    (``movement.same_search``). An entry (:meth:`entry`) also keeps the counts of the search's destinations made
    with a few sets of friends' locations; a dropped entry lets go of its search and counts (``Entry.reach``
    None), so that whoever still holds it holds nothing large."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.bytes = 0
        self._entries: dict[Hashable, Entry] = {}  # oldest first
        self._latest: dict[Hashable, Hashable] = {}  # family -> the key last put with it

    def __len__(self) -> int:
        return len(self._entries)

    def entry(self, key: Hashable, costs: LazyCosts) -> Entry | None:
        """The entry kept under ``key``, if its search searched ``costs`` (the key holds the table's id, which a
        table made later may reuse)."""
        found = self._entries.get(key)
        if found is None or found.costs() is not costs:
            return None
        found.used = True
        return found

    def get(self, key: Hashable, costs: LazyCosts) -> Reach | None:
        """The search kept under ``key``, if it searched ``costs``."""
        found = self.entry(key, costs)
        return None if found is None else found.reach

    def latest(self, family: Hashable, costs: LazyCosts) -> tuple[Any, Reach] | None:
        """The key and search last put with ``family``, if still kept and it searched ``costs``."""
        key = self._latest.get(family)
        if key is None:
            return None
        found = self._entries.get(key)
        if found is None or found.costs() is not costs or found.reach is None:
            return None
        return key, found.reach

    def put(self, key: Hashable, costs: LazyCosts, reach: Reach, family: Hashable = None) -> Entry:
        size = _reach_bytes(reach)
        old = self._entries.pop(key, None)
        if old is not None:
            self._drop(key, old)
        entries = self._entries
        while entries and self.bytes + size > self.budget:
            oldest = next(iter(entries))
            found = entries.pop(oldest)
            if found.used:  # asked for since it was last passed over: a second chance, at the back
                found.used = False
                entries[oldest] = found
            else:
                self._drop(oldest, found)
        made = self._entries[key] = Entry(costs, reach, size, family)
        self.bytes += size
        if family is not None:
            self._latest[family] = key
        return made

    def _drop(self, key: Hashable, entry: Entry) -> None:
        self.bytes -= entry.size
        entry.reach = None
        entry.counts.clear()
        if entry.family is not None and self._latest.get(entry.family) == key:
            del self._latest[entry.family]

    def clear(self) -> None:
        for key, entry in list(self._entries.items()):
            self._drop(key, entry)
        self._entries.clear()
        self._latest.clear()
        self.bytes = 0


class Entry:
    """One kept search (None once dropped), its table (a weak reference), its size estimate and family, whether
    it was asked for since the cache last passed over it, and the counts of its destinations by friends'
    locations (at most :data:`COUNTS_KEPT` sets), the last one apart."""

    __slots__ = ("costs", "counts", "family", "last", "reach", "size", "used")

    def __init__(self, costs: LazyCosts, reach: Reach, size: int, family: Hashable) -> None:
        self.costs = weakref.ref(costs)
        self.reach: Reach | None = reach
        self.size = size
        self.family = family
        self.used = False
        self.counts: dict[frozenset[int], int] = {}
        self.last: tuple[frozenset[int], int] | None = None

    def count(self, friends: frozenset[int], board: Board) -> int | None:
        """The count of destinations of the search with ``friends`` as the locations not to end in: from the last
        count when the friends' locations differ from its by a few (one unit moved: ``Board.set_change``)."""
        found = self.counts.get(friends)
        r = self.reach
        if found is None and r is not None:
            last = self.last
            if last is not None:
                gone, came = board.set_change(last[0], friends)
                if len(gone) + len(came) <= 4:
                    # a location of a friend no longer is a destination again if reached, and one now is not
                    cost, start = r.cost, r.start
                    found = last[1]
                    for c in gone:  # a loop: quicker than sum() over a generator for a few locations
                        if c != start and cost[c] < UNREACHED:
                            found += 1
                    for c in came:
                        if c != start and cost[c] < UNREACHED:
                            found -= 1
            if found is None:
                found = r.count_destinations(friends)
            if len(self.counts) >= COUNTS_KEPT:
                self.counts.clear()
            self.counts[friends] = found
            self.last = (friends, found)
        return found


def _reach_bytes(r: Reach) -> int:
    """A search's own memory: its three lists (their numbers are small cached ints or the cost table's own
    location numbers), its key, record and noted counts."""
    return sys.getsizeof(r.cost) + sys.getsizeof(r.prev) + sys.getsizeof(r.reached) + 1000


class SightCache:
    """Line of sight for one arrangement of blocking terrain and barrages, with a cache of answered pairs."""

    def __init__(self, board: Board, blocking: Iterable[tuple[int, str]], barrages: Iterable[int]) -> None:
        t = board.tables
        self.eye = t.sight.eye
        base = board.base_sight()
        obstacles = base.obstacle.copy()
        for c, name in blocking:
            obstacles[c] = t.sight.obstacle if t.terrain[name].blocks_sight else 0
        for c in barrages:
            obstacles[c] += t.sight.barrage  # p.30: "Barrage fire will block the line of sight"
        # the locations whose height differs from the scenario's map: lines over them are looked at again
        self.changed: list[int] = np.flatnonzero(obstacles != base.obstacle).tolist()
        self.grid = board.grid
        self.sight = base.with_obstacles(obstacles) if self.changed else base
        # the board keeps its sight caches: a weak reference back, so that no cycle keeps a board (a game's
        # thousands of searches and rows) for the garbage collector to find, once its game is done
        self._board = weakref.proxy(board)
        self._pairs: dict[int, bool] = {}
        self._seen_at: dict[tuple[int, frozenset[int], int], bool] = {}
        self._rows: dict[tuple[int, int], np.ndarray] = {}  # (location, visibility) -> what it sees
        self._n = board.grid.size
        # seen_by's last answer, by the locations looked from (also as a set) and the visibility, and seen_near's
        # about it
        self._union: tuple[tuple[tuple[int, ...], int], np.ndarray, frozenset[int]] | None = None
        self._near: dict[tuple[int, int], np.ndarray] = {}

    def sees(self, a: int, b: int, visibility: int) -> bool:
        """Whether a unit in ``a`` has a line of sight to location ``b`` within ``visibility`` (p.32)."""
        if self.grid.distance(a, b) > visibility:
            return False
        return self.sees_within(a, b, visibility)

    def sees_within(self, a: int, b: int, visibility: int) -> bool:
        """:meth:`sees` of two locations known to lie within ``visibility`` of each other."""
        key = a * self._n + b if a < b else b * self._n + a
        found = self._pairs.get(key)
        if found is None:
            if len(self._pairs) >= SIGHT_PAIRS:
                self._pairs.clear()
            # a row kept for either end (an artillery plot's, seen_by) answers without a line: it is what clear
            # says of every location, and sight between equal eyes is symmetric (tests/test_los.py)
            row = self._rows.get((a, visibility))
            if row is not None:
                found = bool(row[b])
            else:
                row = self._rows.get((b, visibility))
                found = bool(row[a]) if row is not None else self.sight.clear(a, b, self.eye, self.eye)
            self._pairs[key] = found
        return found

    def seen_at(self, cell: int, watchers: frozenset[int], visibility: int, work: Callable[[], bool]) -> bool:
        """``work()``, whether a unit in one of the ``watchers`` locations sees ``cell`` within ``visibility``, kept
        by the three (at most :data:`SIGHT_WATCHED` answers), unless :meth:`seen_known` knows it."""
        found = self.seen_known(cell, watchers, visibility)
        if found is None:
            found = work()
            self.note_seen(cell, watchers, visibility, found)
        return found

    def seen_known(self, cell: int, watchers: frozenset[int], visibility: int) -> bool | None:
        """Whether a unit in one of the ``watchers`` locations sees ``cell`` within ``visibility``, if known without
        a line of sight: kept (:meth:`note_seen`), read in :meth:`seen_by`'s last answer when it is about the same
        locations (the end of an artillery plot part asks it of every enemy unit), or in the row kept for ``cell``
        (sight between equal eyes is symmetric, tests/test_los.py); None if not."""
        key = (cell, watchers, visibility)
        found = self._seen_at.get(key)
        if found is None:
            union = self._union
            if union is not None and union[0][1] == visibility and union[2] == watchers:
                found = bool(union[1][cell])  # seen_by's answer about the same locations (a plot part's side)
            else:
                row = self._rows.get((cell, visibility))
                if row is None:
                    return None
                found = bool(row[list(watchers)].any())
            self.note_seen(cell, watchers, visibility, found)
        return found

    def note_seen(self, cell: int, watchers: frozenset[int], visibility: int, seen: bool) -> None:
        """Keep ``seen`` as :meth:`seen_known`'s answer about the three."""
        if len(self._seen_at) >= SIGHT_WATCHED:
            self._seen_at.clear()
        self._seen_at[cell, watchers, visibility] = seen

    def seen_by(self, units: Iterable[Unit], visibility: int) -> np.ndarray:
        """Every location at least one of ``units`` sees (for plotting indirect fire, p.28-29), read-only. What one
        location sees is kept, so that a plot or a move recomputes only the locations not asked about before: from
        the board's row over the scenario's map, with the lines over barrages and damage looked at again. The last
        answer is kept by the locations looked from: every position of an artillery plot part asks it again, and
        nobody moves meanwhile."""
        cells = sorted({u.cell for u in units if not u.carried_by})
        key = (tuple(cells), visibility)
        last = self._union
        if last is not None and last[0] == key:
            return last[1]
        missing = [c for c in cells if (c, visibility) not in self._rows]
        if missing:
            if len(self._rows) + len(missing) > SIGHT_ROWS:
                self._rows.clear()
                missing = cells
            for c, row in zip(missing, self._board.base_rows(missing, visibility), strict=True):
                if self.changed:
                    # only a changed location nearer than the visibility can be on a line: the others are left
                    # out here, by the kept distances (quicker than relook's own test, one location at a time)
                    far = self._board.distance_row(c)
                    near = [x for x in self.changed if far[x] < visibility]
                    if near:
                        row = self.sight.relook(Observer(c, self.eye, visibility), row, near, self.eye)
                self._rows[c, visibility] = row
        out = np.zeros(self._n, dtype=np.bool_)
        for c in cells:
            out |= self._rows[c, visibility]
        out.flags.writeable = False  # handed out again
        self._union = (key, out, frozenset(cells))
        self._near = {}
        return out

    def seen_near(self, units: Iterable[Unit], visibility: int, cell: int, radius: int) -> np.ndarray:
        """The locations within ``radius`` of ``cell`` that one of ``units`` sees (:meth:`seen_by`), in order,
        read-only: kept for the last locations looked from (each artillery unit's plot in every position of a plot
        part; at most :data:`NEAR_KEPT` answers)."""
        seen = self.seen_by(units, visibility)
        found = self._near.get((cell, radius))
        if found is None:
            if len(self._near) >= NEAR_KEPT:
                self._near.clear()
            found = self._near[cell, radius] = np.flatnonzero(seen & (self.grid.distances(cell) <= radius))
            found.flags.writeable = False
        return found
