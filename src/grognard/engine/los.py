"""Line of sight over elevation and obstacles, for one pair of cells or many observers at once.

Heights are integers in the ruleset's unit (Antietam's feet: 40-50 ft a level, woods 20, towns 30,
cornfields 6, units 5 (BA 8.3); The Perfect General's hill levels with blocking woods and towns (PG p.23)).
Each cell has a ground height and an obstacle height standing on it. The sight line runs from the observer's
eye (ground + eye height) to the target (ground + target height) along :meth:`Grid.line`; the cell at step
``i`` of ``n`` blocks when its ground plus obstacle rises strictly above the line there::

    (ground + obstacle) * n  >  eye * (n - i) + target * i

all in integers. The two end cells never block: a unit in a wood sees out of it and can be seen in it
(whether it is *spotted* there is the ruleset's business). Sight is further limited by a maximum range and,
for Antietam, a facing cone.

:class:`Sight` answers one pair with :meth:`Sight.clear` (the reference, straight from the definition) and
many observers with :meth:`Sight.visible` (the same test vectorised with NumPy over precomputed,
translation-invariant line tables; a test compares the two on random maps).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from .geometry import (
    LINES_KEPT,
    Grid,
    HexGrid,
    SquareGrid,
    hex_line_axial,
    hex_lines_axial,
    square_in_cone,
    square_line,
)

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Observer:
    """Who looks from where: eye height above the ground, sight range, and facing (0: all around)."""

    cell: int
    eye: int = 0
    range: int = 1
    facing: int = 0


class _LineTable:
    """All offsets within ``radius`` of an origin, with the intermediate cells of the line to each.

    Offsets are axial (hexes) or x/y (squares) vectors, so the table serves every origin: a cell's
    intermediate cells are its position in a padded plane plus fixed deltas.
    """

    def __init__(self, kind: str, radius: int) -> None:
        span = np.arange(-radius, radius + 1, dtype=np.int64)
        a, b = np.repeat(span, len(span)), np.tile(span, len(span))
        dist = (np.abs(a) + np.abs(b) + np.abs(a + b)) // 2 if kind == "hex" else np.maximum(np.abs(a), np.abs(b))
        inside = (dist >= 1) & (dist <= radius)
        self.radius = radius
        self.vectors = np.stack([a[inside], b[inside]], axis=1)
        self.dist = dist[inside]
        k, longest = len(self.vectors), max(radius - 1, 1)
        # the intermediate cells of each line: steps 1 .. dist - 1
        if kind == "hex":
            cells, _ = hex_lines_axial(self.vectors)
            mid = cells[:, 1:-1] if cells.shape[1] > 2 else np.zeros((k, 0, 2), dtype=np.int64)
        else:
            mid = np.zeros((k, max(radius - 1, 0), 2), dtype=np.int64)
            for i, (x, y) in enumerate(self.vectors.tolist()):
                pts = square_line(0, 0, x, y)[1:-1]
                if pts:
                    mid[i, : len(pts)] = pts
        self.step = np.tile(np.arange(1, longest + 1, dtype=np.int64), (k, 1))
        self.valid = self.step < self.dist[:, None]
        self.step[~self.valid] = 0
        self.mid = np.zeros((k, longest, 2), dtype=np.int64)
        self.mid[:, : mid.shape[1]] = np.where(self.valid[:, : mid.shape[1], None], mid, 0)
        self._through: tuple[IntArray, IntArray, IntArray] | None = None
        self._index: dict[tuple[int, int], int] | None = None

    def line(self, vector: tuple[int, int]) -> list[tuple[int, int]]:
        """The intermediate cells of the line from the origin to ``vector`` (within the radius, not the origin)."""
        if self._index is None:
            self._index = {v: i for i, v in enumerate(map(tuple, self.vectors.tolist()))}
        i = self._index[vector]
        return [(a, b) for a, b in self.mid[i, : int(self.dist[i]) - 1].tolist()]

    def _code(self, a: IntArray, b: IntArray) -> IntArray:
        side = 2 * self.radius + 1
        out: IntArray = (a + self.radius) * side + (b + self.radius)
        return out

    def _crossings(self) -> tuple[IntArray, IntArray, IntArray]:
        """Every (cell, line) of an intermediate cell on a line, by the cell's code: the codes sorted, the lines,
        and where each code's lines start (one more than the codes)."""
        if self._through is None:
            lines, places = np.nonzero(self.valid)
            codes = self._code(self.mid[lines, places, 0], self.mid[lines, places, 1])
            order = np.argsort(codes, kind="stable")
            side = 2 * self.radius + 1
            starts = np.searchsorted(codes[order], np.arange(side * side + 1), "left")
            self._through = (codes[order], lines[order], starts)
        return self._through

    def over(self, a: int, b: int) -> IntArray:
        """The lines (indices into ``vectors``) whose intermediate cells include the vector ``(a, b)`` (within the
        radius), in index order: a view."""
        _, lines, starts = self._crossings()
        code = (a + self.radius) * (2 * self.radius + 1) + b + self.radius
        found: IntArray = lines[starts[code] : starts[code + 1]]
        return found

    def through(self, offsets: IntArray) -> IntArray:
        """The lines (indices into ``vectors``) whose intermediate cells include one of ``offsets`` (an ``(n, 2)``
        array of vectors from the origin), in index order."""
        codes, lines, _ = self._crossings()
        wanted = self._code(offsets[:, 0], offsets[:, 1])
        lo, hi = np.searchsorted(codes, wanted, "left"), np.searchsorted(codes, wanted, "right")
        hit = np.zeros(len(self.vectors), dtype=np.bool_)
        count = hi - lo
        total = int(count.sum())
        if total:  # every range lo..hi laid end to end, at once
            hit[lines[np.repeat(lo - np.cumsum(count) + count, count) + np.arange(total)]] = True
        found: IntArray = np.flatnonzero(hit)
        return found


@cache
def _line_table(kind: str, radius: int) -> _LineTable:
    return _LineTable(kind, radius)


@cache
def _cone_mask(radius: int, facing: int) -> BoolArray:
    table = _line_table("square", radius)
    return np.array([square_in_cone(facing, int(a), int(b)) for a, b in table.vectors], dtype=np.bool_)


_NONE = np.zeros(0, dtype=np.int64)

# the lines of one pair at a time (Sight.clear) within this distance come from the table of this radius
SHAPES_RADIUS = 25

# observers whose answers are gathered at once (each observer's lines are tested in turn; the answer's arrays
# grow with the batch: about 18 KB an observer at a range of 25 hexes)
BATCH = 8


def _int_type(bound: int) -> type[np.signedinteger[Any]]:
    """The narrowest integer type that holds every value up to ``bound`` either way (narrower is quicker)."""
    if bound < 2**15:
        return np.int16
    if bound < 2**31:
        return np.int32
    return np.int64


class _Geometry:
    """What lines of sight on one grid share whatever its heights: every cell's place on a plane in
    translation-invariant coordinates (axial for hexes, x/y for squares), and each range's lines laid out on
    that plane, padded by the range so that no offset from a cell leaves it."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.kind = "hex" if isinstance(grid, HexGrid) else "square"
        self.coords = grid.plane_coords()
        self.u0, self.v0 = (int(x) for x in self.coords.min(axis=0))
        self.du, self.dv = (int(x) + 1 for x in self.coords.max(axis=0) - self.coords.min(axis=0))
        self._plans: dict[tuple[int, int], _Plan] = {}
        self._places: dict[int, tuple[IntArray, IntArray]] = {}
        # for one line at a time: each cell's coordinates and index in the plane without padding (a line's
        # intermediate cells lie between its ends, so within it), and each vector's line as offsets there
        self.u: list[int] = self.coords[:, 0].tolist()
        self.v: list[int] = self.coords[:, 1].tolist()
        self.base: list[int] = ((self.coords[:, 0] - self.u0) * self.dv + (self.coords[:, 1] - self.v0)).tolist()
        self._shapes: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}

    def shape(self, a: int, b: int) -> tuple[int, tuple[int, ...]]:
        """The line from ``a`` to ``b``: its length and the plane offsets of its intermediate cells from ``a``'s
        (the same cells as :meth:`Grid.line`, off the map too), kept by vector."""
        vector = (self.u[b] - self.u[a], self.v[b] - self.v[a])
        found = self._shapes.get(vector)
        if found is None:
            if len(self._shapes) >= LINES_KEPT:
                self._shapes.clear()
            if self.kind == "hex":
                q, r = vector
                n = (abs(q) + abs(r) + abs(q + r)) // 2
                # within the usual sight range the lines are in the table every map shares (made once)
                table = _line_table("hex", SHAPES_RADIUS) if 0 < n <= SHAPES_RADIUS else None
                points = table.line(vector) if table is not None else hex_line_axial(0, 0, q, r)[1:-1]
            else:
                points = square_line(0, 0, *vector)[1:-1]
                n = len(points) + 1
            found = self._shapes[vector] = (n, tuple(q * self.dv + r for q, r in points))
        return found

    def places(self, pad: int) -> tuple[IntArray, IntArray]:
        """Each cell's index in the plane padded by ``pad``, and the plane of cell ids (-1 off the map)."""
        found = self._places.get(pad)
        if found is None:
            dv = self.dv + 2 * pad
            idx = (self.coords[:, 0] - self.u0 + pad) * dv + (self.coords[:, 1] - self.v0 + pad)
            plane = np.full((self.du + 2 * pad) * dv, -1, dtype=np.int64)
            plane[idx] = np.arange(self.grid.size, dtype=np.int64)
            found = self._places[pad] = (idx, plane)
        return found

    def plan(self, radius: int, facing: int) -> _Plan:
        found = self._plans.get((radius, facing))
        if found is None:
            table = _line_table(self.kind, radius)
            keep = np.flatnonzero(_cone_mask(radius, facing)) if facing else np.arange(len(table.vectors))
            dv = self.dv + 2 * radius
            shift = radius * dv + radius  # the farthest an offset within the range reaches either way
            mid = table.mid[keep]
            valid = table.valid[keep]
            # intermediate cells across (L, K): one row of the reduction per place along the lines, and no
            # place (length 0) where a line is shorter, which then never blocks
            found = self._plans[(radius, facing)] = _Plan(
                table,
                keep,
                np.ascontiguousarray((mid[:, :, 0] * dv + mid[:, :, 1]).T) + shift,
                np.ascontiguousarray(np.where(valid, table.dist[keep][:, None], 0).T),
                np.ascontiguousarray(np.where(valid, table.step[keep], 0).T),
                table.vectors[keep, 0] * dv + table.vectors[keep, 1] + shift,
                shift,
            )
        return found


class _Plan:
    """The lines of one range and facing on one plane: for the ``K`` offsets kept (``keep``, indices into the
    table's vectors), the plane offsets of the ``L`` intermediate cells ``(L, K)``, each line's length and each
    cell's place along it (0 past a line's end), and the plane offset of the target. Offsets count from
    ``shift`` places before the observer's, so that none is negative (the plane is padded by the range)."""

    __slots__ = ("_cast", "keep", "length", "mid", "shift", "step", "table", "target")

    def __init__(
        self,
        table: _LineTable,
        keep: IntArray,
        mid: IntArray,
        length: IntArray,
        step: IntArray,
        target: IntArray,
        shift: int,
    ) -> None:
        self.table = table
        self.keep = keep
        self.mid = mid
        self.length = length
        self.step = step
        self.target = target
        self.shift = shift
        self._cast: dict[type, tuple[Any, Any]] = {}

    def lengths_and_steps(self, kind: type[np.signedinteger[Any]]) -> tuple[Any, Any]:
        """``length`` and ``step`` as ``kind`` (kept: the product is taken in it)."""
        found = self._cast.get(kind)
        if found is None:
            found = self._cast[kind] = (self.length.astype(kind), self.step.astype(kind))
        return found

    def part(self, lines: IntArray) -> _Plan:
        """The plan of some of its lines (columns)."""
        return _Plan(
            self.table,
            self.keep[lines],
            self.mid[:, lines],
            self.length[:, lines],
            self.step[:, lines],
            self.target[lines],
            self.shift,
        )


class Sight:
    """Line of sight on one map with given ground and obstacle heights per cell."""

    def __init__(self, grid: Grid, ground: Sequence[int], obstacle: Sequence[int]) -> None:
        if len(ground) != grid.size or len(obstacle) != grid.size:
            raise ValueError("ground and obstacle need one height per cell")
        self.grid = grid
        self._geo = _Geometry(grid)
        self.ground = np.asarray(ground, dtype=np.int64)
        self._ground_list = [int(g) for g in ground]
        self._ground_low, self._ground_high = min(self._ground_list, default=0), max(self._ground_list, default=0)
        self._set_obstacles(obstacle)

    def _set_obstacles(self, obstacle: Sequence[int] | IntArray, tops: list[int] | None = None) -> None:
        self.obstacle = np.asarray(obstacle, dtype=np.int64)
        self._top_list: list[int] = (self.ground + self.obstacle).tolist() if tops is None else tops
        self._top_plane: list[int] | None = None  # the tops on the plane without padding, for one line at a time
        self._planes: dict[tuple[int, int, int], tuple[Any, Any]] = {}
        # the sight this one was made from and where their heights differ, until its plane of tops is made
        self._source: tuple[Sight, list[int]] | None = None

    def with_obstacles(self, obstacle: Sequence[int] | IntArray) -> Sight:
        """The same map and ground with other obstacles (what changes in play), sharing what depends on the
        map alone: quicker than a new :class:`Sight`."""
        if len(obstacle) != self.grid.size:
            raise ValueError("obstacle needs one height per cell")
        other = copy.copy(self)
        heights = np.asarray(obstacle, dtype=np.int64)
        changed: list[int] = np.flatnonzero(heights != self.obstacle).tolist()
        tops = self._top_list.copy()  # where the heights differ set again: quicker than a list of every cell made anew
        for c in changed:
            tops[c] = self._ground_list[c] + int(heights[c])
        other._set_obstacles(heights, tops)
        other._source = (self, changed)
        return other

    def _tops(self) -> list[int]:
        """The tops on the plane without padding (off the map nothing stands: below every line), for one line at a
        time, made when first asked: from the plane of the sight this one was made from, where the heights differ
        set again."""
        tops = self._top_plane
        if tops is None:
            geo = self._geo
            if self._source is not None:
                source, changed = self._source
                tops = source._tops().copy()
                for c in changed:
                    tops[geo.base[c]] = self._top_list[c]
                self._source = None
            else:
                tops = [-(1 << 40)] * (geo.du * geo.dv)
                for place, top in zip(geo.base, self._top_list, strict=True):
                    tops[place] = top
            self._top_plane = tops
        return tops

    # --- one pair, straight from the definition --------------------------------------------------------
    def clear(self, a: int, b: int, eye: int = 0, target: int = 0, extra: Sequence[int] | None = None) -> bool:
        """Whether the sight line from ``a`` (eye height ``eye``) to ``b`` (height ``target``) is clear.

        ``extra`` adds heights per cell for what changes in play (barrages, units as obstacles).
        """
        if extra is not None:
            return self._clear_with(a, b, eye, target, extra)
        geo = self._geo
        n, offsets = geo.shape(a, b)
        if n <= 1:
            return True
        tops = self._top_plane
        if tops is None:
            tops = self._tops()
        h0 = self._ground_list[a] + eye
        h1 = self._ground_list[b] + target
        start = geo.base[a]
        for i, off in enumerate(offsets, 1):  # noqa: SIM110 (a loop: quicker than all() over a generator)
            if tops[start + off] * n > h0 * (n - i) + h1 * i:
                return False
        return True

    def _clear_with(self, a: int, b: int, eye: int, target: int, extra: Sequence[int]) -> bool:
        """:meth:`clear` with heights added per cell, straight from the definition."""
        line = self.grid.line(a, b)
        n = len(line) - 1
        if n <= 1:
            return True
        h0 = self._ground_list[a] + eye
        h1 = self._ground_list[b] + target
        tops = self._top_list
        for i in range(1, n):
            c = line[i]
            if c < 0:  # the line leaves the map between two border cells: nothing stands there
                continue
            top = tops[c] + extra[c]
            if top * n > h0 * (n - i) + h1 * i:
                return False
        return True

    def sees(self, observer: Observer, b: int, target: int = 0, extra: Sequence[int] | None = None) -> bool:
        """Range, facing cone and a clear line: whether ``observer`` sees cell ``b``."""
        if self.grid.distance(observer.cell, b) > observer.range:
            return False
        if observer.facing and isinstance(self.grid, SquareGrid):
            dx, dy = self.grid.vector(observer.cell, b)
            if not square_in_cone(observer.facing, dx, dy):
                return False
        return self.clear(observer.cell, b, observer.eye, target, extra)

    # --- many observers at once ------------------------------------------------------------------------
    def visible(self, observers: Sequence[Observer], target: int = 0, extra: Sequence[int] | None = None) -> BoolArray:
        """For each observer, which cells it sees: a ``(len(observers), cells)`` boolean array.

        Exactly :meth:`sees` for every observer and cell, computed in batches of observers that share a
        range and facing.
        """
        out = np.zeros((len(observers), self.grid.size), dtype=np.bool_)
        if not observers:
            return out
        flat = out.reshape(-1)  # a view
        tops = None if extra is None else self.ground + self.obstacle + np.asarray(extra, dtype=np.int64)
        groups: dict[tuple[int, int], list[int]] = {}
        for i, o in enumerate(observers):
            facing = o.facing if isinstance(self.grid, SquareGrid) else 0
            groups.setdefault((o.range, facing), []).append(i)
        for (radius, facing), members in groups.items():
            if radius <= 0:
                for i in members:
                    out[i, observers[i].cell] = True
                continue
            plan = self._geo.plan(radius, facing)
            for start in range(0, len(members), BATCH):
                rows = members[start : start + BATCH]
                cells = [observers[i].cell for i in rows]
                blocked, targets = self._blocked(plan, cells, [observers[i].eye for i in rows], target, tops)
                on = targets >= 0
                rows_array = np.array(rows, dtype=np.int64)
                # each line's answer at its target's place in ``out`` (one place a line: no two lines end together)
                targets += (rows_array * self.grid.size)[:, None]
                flat[targets[on]] = ~blocked[on]
                out[rows_array, cells] = True
        return out

    def relook(self, observer: Observer, row: BoolArray, cells: Sequence[int], target: int = 0) -> BoolArray:
        """What ``observer`` sees, from ``row``, what it sees where only the heights of ``cells`` differ from
        this sight's (a barrage, a wood burnt): the targets whose line passes over one of ``cells`` are
        looked at again, the rest kept. A new array, or ``row`` itself when no line of the observer's passes
        over them. The same as :meth:`visible` of the observer, for the work of those lines alone."""
        radius = observer.range
        if radius <= 1 or not len(cells):
            return row
        o = observer.cell
        distance = self.grid.distance
        near = [c for c in cells if 0 < distance(o, c) < radius]  # an end of a line never blocks it
        if not near:
            return row
        geo = self._geo
        facing = observer.facing if geo.kind == "square" else 0
        # a cell standing above both ends of every line blocks each line over it: nothing to compare (a barrage)
        above = self._ground_high + max(observer.eye, target)
        if not facing and all(self._top_list[c] > above for c in near):
            plan = geo.plan(radius, 0)
            u, v = geo.u, geo.v
            over = [plan.table.over(u[c] - u[o], v[c] - v[o]) for c in near]
            idx, ids = geo.places(radius)
            ends = ids[int(idx[o]) - plan.shift :].take(plan.target.take(np.concatenate(over)))
            out = row.copy()
            out[ends[ends >= 0]] = False
            return out
        at = np.asarray(near, dtype=np.int64)
        where = geo.coords[at] - geo.coords[o]
        walls = self.ground[at] + self.obstacle[at] > above
        plan = geo.plan(radius, facing)
        walled = plan.table.through(where[walls]) if walls.any() else _NONE
        others = _NONE
        if not walls.all():
            others = plan.table.through(where[~walls])
            if len(walled):
                others = np.setdiff1d(others, walled, assume_unique=True)
        if facing:  # the lines kept by the facing, as the plan's columns
            walled = np.flatnonzero(np.isin(plan.keep, walled))
            others = np.flatnonzero(np.isin(plan.keep, others))
        if not len(walled) and not len(others):
            return row
        out = row.copy()
        if len(walled):
            idx, ids = geo.places(radius)
            ends = ids[int(idx[observer.cell]) - plan.shift :].take(plan.target[walled])
            out[ends[ends >= 0]] = False
        if len(others):
            blocked, targets = self._blocked(plan.part(others), [observer.cell], [observer.eye], target, None)
            on = targets[0] >= 0
            out[targets[0][on]] = ~blocked[0][on]
        return out

    def _blocked(
        self, plan: _Plan, cells: list[int], eyes: list[int], target: int, tops: IntArray | None
    ) -> tuple[BoolArray, IntArray]:
        """For observers in ``cells`` with ``eyes``, whether each line of ``plan`` is blocked ``(G, K)``, and the
        cell at its end (-1 off the map).

        A cell at step ``i`` of ``n`` blocks when ``top * n > h0 * (n - i) + h1 * i``, that is
        ``(top - h0) * n > (h1 - h0) * i``. Every height is first brought within one of the lowest and highest
        ends a line can have (below the lowest never blocks, above the highest always does), which keeps the
        products small enough for the narrowest integer type that holds them."""
        radius = plan.table.radius
        low = self._ground_low + min(min(eyes), target) - 1
        high = self._ground_high + max(max(eyes), target) + 1
        kind = _int_type(max((high - low) * (radius + 1), abs(low), abs(high)))
        ground_plane, top_plane = self._plane(radius, low, high, kind, tops)
        length, step = plan.lengths_and_steps(kind)
        idx, ids = self._geo.places(radius)
        blocked = np.empty((len(cells), len(plan.target)), dtype=np.bool_)
        ends = np.empty((len(cells), len(plan.target)), dtype=np.int64)
        for g, (cell, eye) in enumerate(zip(cells, eyes, strict=True)):
            start = int(idx[cell]) - plan.shift  # the plane from there: the plan's offsets count from it
            h0 = self._ground_list[cell] + eye
            rise = top_plane[start:].take(plan.mid)  # (L, K)
            rise -= kind(h0)
            rise *= length
            climb = ground_plane[start:].take(plan.target)  # h1 - h0: the target's ground less (h0 - target)
            climb -= kind(h0 - target)
            np.any(rise > climb * step, axis=0, out=blocked[g])
            ends[g] = ids[start:].take(plan.target)
        return blocked, ends

    def _plane(
        self, pad: int, low: int, high: int, kind: type[np.signedinteger[Any]], tops: IntArray | None
    ) -> tuple[Any, Any]:
        """Ground and tops laid on the plane padded by ``pad`` as ``kind``, the tops brought within ``low``..``high``;
        off the map stands ``low``, which never blocks."""
        key = (pad, low, high)
        found = None if tops is not None else self._planes.get(key)
        if found is None:
            idx, ids = self._geo.places(pad)
            ground = np.zeros(len(ids), dtype=kind)
            ground[idx] = self.ground
            top = np.full(len(ids), low, dtype=kind)
            top[idx] = np.clip(self.ground + self.obstacle if tops is None else tops, low, high)
            found = (ground, top)
            if tops is None:
                self._planes[key] = found
        return found
