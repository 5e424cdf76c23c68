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

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from .geometry import Grid, HexGrid, SquareGrid, hex_line_axial, square_in_cone, square_line

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
        vectors: list[tuple[int, int]] = []
        lines: list[list[tuple[int, int]]] = []
        for a in range(-radius, radius + 1):
            for b in range(-radius, radius + 1):
                if kind == "hex":
                    dist = (abs(a) + abs(b) + abs(a + b)) // 2
                    pts = hex_line_axial(0, 0, a, b) if dist <= radius else []
                else:
                    dist = max(abs(a), abs(b))
                    pts = square_line(0, 0, a, b)
                if dist > radius or dist == 0:
                    continue
                vectors.append((a, b))
                lines.append(pts[1:-1])
        longest = max((len(p) for p in lines), default=0) or 1
        self.radius = radius
        self.vectors = np.array(vectors, dtype=np.int64).reshape(-1, 2)
        self.dist = np.array(
            [(abs(a) + abs(b) + abs(a + b)) // 2 if kind == "hex" else max(abs(a), abs(b)) for a, b in vectors],
            dtype=np.int64,
        )
        k = len(vectors)
        self.mid = np.zeros((k, longest, 2), dtype=np.int64)
        self.step = np.zeros((k, longest), dtype=np.int64)
        self.valid = np.zeros((k, longest), dtype=np.bool_)
        for i, pts in enumerate(lines):
            for j, p in enumerate(pts):
                self.mid[i, j] = p
                self.step[i, j] = j + 1
                self.valid[i, j] = True


@cache
def _line_table(kind: str, radius: int) -> _LineTable:
    return _LineTable(kind, radius)


@cache
def _cone_mask(radius: int, facing: int) -> BoolArray:
    table = _line_table("square", radius)
    return np.array([square_in_cone(facing, int(a), int(b)) for a, b in table.vectors], dtype=np.bool_)


class Sight:
    """Line of sight on one map with given ground and obstacle heights per cell."""

    def __init__(self, grid: Grid, ground: Sequence[int], obstacle: Sequence[int]) -> None:
        if len(ground) != grid.size or len(obstacle) != grid.size:
            raise ValueError("ground and obstacle need one height per cell")
        self.grid = grid
        self.ground = np.asarray(ground, dtype=np.int64)
        self.obstacle = np.asarray(obstacle, dtype=np.int64)
        self._ground_list = [int(g) for g in ground]
        self._top_list = [int(g) + int(o) for g, o in zip(ground, obstacle, strict=True)]
        # a padded plane in translation-invariant coordinates: plane[u, v] for axial (q, r) or (x, y)
        coords = [self._plane_coord(c) for c in range(grid.size)]
        us = [u for u, _ in coords]
        vs = [v for _, v in coords]
        self._u0, self._v0 = min(us), min(vs)
        self._du = max(us) - self._u0 + 1
        self._dv = max(vs) - self._v0 + 1
        self._coords = np.array(coords, dtype=np.int64).reshape(-1, 2)

    def _plane_coord(self, cell: int) -> tuple[int, int]:
        if isinstance(self.grid, HexGrid):
            return self.grid.axial(cell)
        return self.grid.coord(cell)

    # --- one pair, straight from the definition --------------------------------------------------------
    def clear(self, a: int, b: int, eye: int = 0, target: int = 0, extra: Sequence[int] | None = None) -> bool:
        """Whether the sight line from ``a`` (eye height ``eye``) to ``b`` (height ``target``) is clear.

        ``extra`` adds heights per cell for what changes in play (barrages, units as obstacles).
        """
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
            top = tops[c] + (extra[c] if extra is not None else 0)
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
        tops = self.ground + self.obstacle
        if extra is not None:
            tops = tops + np.asarray(extra, dtype=np.int64)
        groups: dict[tuple[int, int], list[int]] = {}
        for i, o in enumerate(observers):
            facing = o.facing if isinstance(self.grid, SquareGrid) else 0
            groups.setdefault((o.range, facing), []).append(i)
        for (radius, facing), members in groups.items():
            if radius <= 0:
                for i in members:
                    out[i, observers[i].cell] = True
                continue
            self._visible_group(observers, members, radius, facing, tops, target, out)
        return out

    def _visible_group(
        self,
        observers: Sequence[Observer],
        members: list[int],
        radius: int,
        facing: int,
        tops: IntArray,
        target: int,
        out: BoolArray,
    ) -> None:
        kind = "hex" if isinstance(self.grid, HexGrid) else "square"
        table = _line_table(kind, radius)
        keep = _cone_mask(radius, facing) if facing else None
        vectors = table.vectors if keep is None else table.vectors[keep]
        mid = table.mid if keep is None else table.mid[keep]
        step = table.step if keep is None else table.step[keep]
        valid = table.valid if keep is None else table.valid[keep]
        dist = table.dist if keep is None else table.dist[keep]

        plane, plane_ground, plane_tops, dv = self._plane(radius, tops)
        pad = radius
        obs_cells = np.array([observers[i].cell for i in members], dtype=np.int64)
        eyes = np.array([observers[i].eye for i in members], dtype=np.int64)
        oc = self._coords[obs_cells]  # (G, 2)
        base = (oc[:, 0] - self._u0 + pad) * dv + (oc[:, 1] - self._v0 + pad)  # (G,)
        tgt_off = vectors[:, 0] * dv + vectors[:, 1]  # (K,)
        mid_off = mid[:, :, 0] * dv + mid[:, :, 1]  # (K, L)

        tgt_idx = base[:, None] + tgt_off[None, :]  # (G, K)
        tgt_cell = plane[tgt_idx]  # -1 off the map
        h1 = plane_ground[tgt_idx] + target  # (G, K)
        h0 = self.ground[obs_cells] + eyes  # (G,)
        mid_top = plane_tops[base[:, None, None] + mid_off[None, :, :]]  # (G, K, L)
        n = dist[None, :, None]
        line_h = h0[:, None, None] * (n - step[None, :, :]) + h1[:, :, None] * step[None, :, :]
        blocked = ((mid_top * n > line_h) & valid[None, :, :]).any(axis=2)  # (G, K)
        seen = ~blocked & (tgt_cell >= 0)
        rows = np.array(members, dtype=np.int64)
        g_idx, k_idx = np.nonzero(seen)
        out[rows[g_idx], tgt_cell[g_idx, k_idx]] = True
        out[rows, obs_cells] = True

    def _plane(self, pad: int, tops: IntArray) -> tuple[IntArray, IntArray, IntArray, int]:
        """Cell ids, ground and tops laid on the padded plane; off-map points never block."""
        du, dv = self._du + 2 * pad, self._dv + 2 * pad
        plane = np.full(du * dv, -1, dtype=np.int64)
        idx = (self._coords[:, 0] - self._u0 + pad) * dv + (self._coords[:, 1] - self._v0 + pad)
        plane[idx] = np.arange(self.grid.size, dtype=np.int64)
        low = -(1 << 40)  # far below any sight line, yet safe from overflow when scaled by a distance
        plane_ground = np.zeros(du * dv, dtype=np.int64)
        plane_ground[idx] = self.ground
        plane_tops = np.full(du * dv, low, dtype=np.int64)
        plane_tops[idx] = tops
        return plane, plane_ground, plane_tops, dv
