"""Grids: hexes (three games) and 8-direction squares (Battle of Antietam).

A cell is a dense integer index (``row * columns + column``, both counted from 0), which keeps movement and
line of sight on flat arrays. Players and scenario files use each manual's own numbering, ``column,row``
counted from the scenario's ``first`` number; :meth:`Grid.label` and :meth:`Grid.parse` convert at the edges.

Hexes use axial coordinates inside (Red Blob Games' guide); the map is a rectangle of offset columns
("odd-q"/"even-q", flat-topped hexes with north and south neighbours, as Objective Kursk's direction keys
show) or offset rows ("odd-r"/"even-r", pointy-topped hexes with east and west neighbours). Directions are
numbered as the manuals number them: flat hexes 1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW (OK 4.5); pointy hexes
1 NE, 2 E, 3 SE, 4 SW, 5 W, 6 NW; squares 1 N, 2 NE ... 8 NW clockwise, the even ones diagonal (BA 3.1 and
the Operations Costs Table: "diagonal moves - directions 2,4,6, and 8").

Lines between two cells are exact: integer arithmetic with a fixed infinitesimal nudge that breaks ties the
same way whichever end the line starts from, so line of sight is symmetric and the same on every machine.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import Literal

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]

HexLayout = Literal["odd-q", "even-q", "odd-r", "even-r"]

# Axial (dq, dr) of each direction, indexed by the manual's direction number - 1.
_FLAT_DIRS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))  # N NE SE S SW NW
_POINTY_DIRS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))  # NE E SE SW W NW
_SQUARE_DIRS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))  # N NE E SE S SW W NW

FLAT_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
POINTY_NAMES = ("NE", "E", "SE", "SW", "W", "NW")
SQUARE_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


LINES_KEPT = 8192  # hex line shapes kept by vector (a sight range of 25 has 1,951)


def _round_nudged(num: int, den: int, nudge: int) -> tuple[int, tuple[int, int]]:
    """Round ``num/den + nudge*eps`` (eps infinitesimal, den > 0) to the nearest integer.

    Returns the integer and the absolute rounding error as ``(|num - k*den|, eps coefficient)`` so that
    errors compare exactly as tuples.
    """
    k, rem = divmod(num, den)  # num = k*den + rem, 0 <= rem < den
    twice = 2 * rem
    if twice > den or (twice == den and nudge > 0):
        k += 1
    diff = num - k * den
    if diff > 0:
        err = (diff, nudge)
    elif diff < 0:
        err = (-diff, -nudge)
    else:
        err = (0, abs(nudge))
    return k, err


class Grid(ABC):
    """A rectangle of cells with the neighbours, distances and lines of one kind of grid."""

    kind: str
    direction_names: tuple[str, ...]

    def __init__(self, columns: int, rows: int, first: tuple[int, int] = (0, 0)) -> None:
        if columns <= 0 or rows <= 0:
            raise ValueError("a grid needs at least one column and one row")
        self.columns = columns
        self.rows = rows
        self.size = columns * rows
        self.first = first
        self._distance_plane: tuple[IntArray, IntArray, list[int]] | None = None  # see distances
        self._neighbors: tuple[tuple[int, ...], ...] = tuple(
            tuple(self._step(i, d) for d in range(1, len(self.direction_names) + 1)) for i in range(self.size)
        )

    # --- numbering -------------------------------------------------------------------------------------
    def index(self, col: int, row: int) -> int:
        """The cell at 0-based ``col, row``; raises ``ValueError`` off the map."""
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            raise ValueError(f"{col},{row} is off the {self.columns}x{self.rows} map")
        return row * self.columns + col

    def coord(self, cell: int) -> tuple[int, int]:
        """0-based ``(col, row)`` of a cell."""
        row, col = divmod(cell, self.columns)
        return col, row

    def label(self, cell: int) -> str:
        """The manual's ``column,row`` name of a cell."""
        col, row = self.coord(cell)
        return f"{col + self.first[0]},{row + self.first[1]}"

    def from_label(self, col: int, row: int) -> int:
        """The cell a scenario file names with the manual's numbering; raises ``ValueError`` off the map."""
        c, r = col - self.first[0], row - self.first[1]
        if not (0 <= c < self.columns and 0 <= r < self.rows):
            fc, fr = self.first
            raise ValueError(
                f"{col},{row} is off the {self.columns}x{self.rows} map "
                f"({fc},{fr} to {fc + self.columns - 1},{fr + self.rows - 1})"
            )
        return r * self.columns + c

    def parse(self, text: str) -> int:
        """The cell named ``"col,row"`` in the manual's numbering."""
        try:
            c, r = (int(p) for p in text.replace(" ", "").split(","))
        except ValueError:
            raise ValueError(f"{text!r} is not a location: write column,row") from None
        return self.from_label(c, r)

    def cells(self) -> range:
        return range(self.size)

    # --- adjacency -------------------------------------------------------------------------------------
    @property
    def directions(self) -> int:
        return len(self.direction_names)

    def neighbor(self, cell: int, direction: int) -> int:
        """The cell one step away in the manual's ``direction`` (1-based), or -1 off the map."""
        return self._neighbors[cell][direction - 1]

    def neighbors(self, cell: int) -> tuple[int, ...]:
        """On-map neighbours in direction order."""
        return tuple(n for n in self._neighbors[cell] if n >= 0)

    def neighbor_table(self) -> tuple[tuple[int, ...], ...]:
        """For every cell, its neighbour in each direction (-1 off the map)."""
        return self._neighbors

    def direction(self, a: int, b: int) -> int:
        """The direction number from ``a`` to adjacent ``b``, or 0 if they are not adjacent."""
        row = self._neighbors[a]
        for d, n in enumerate(row, start=1):
            if n == b:
                return d
        return 0

    def adjacent(self, a: int, b: int) -> bool:
        return self.direction(a, b) != 0

    @abstractmethod
    def _step(self, cell: int, direction: int) -> int: ...

    @abstractmethod
    def distance(self, a: int, b: int) -> int:
        """Steps between two cells on an unbounded grid of this kind."""

    @abstractmethod
    def line(self, a: int, b: int) -> tuple[int, ...]:
        """The cells from ``a`` to ``b`` inclusive, each adjacent to the next; symmetric in ``a`` and ``b``."""

    @abstractmethod
    def vector(self, a: int, b: int) -> tuple[int, int]:
        """The translation-invariant offset from ``a`` to ``b`` (axial for hexes, x/y for squares)."""

    def within(self, cell: int, radius: int) -> list[int]:
        """Every on-map cell at distance ``radius`` or less, in index order."""
        found: list[int] = np.flatnonzero(self.distances(cell) <= radius).tolist()
        return found

    def distances(self, cell: int) -> IntArray:
        """The distance from ``cell`` to every cell, as an array indexed by cell (read from a plane of the distance
        of every vector between two cells, made once: one array operation a call)."""
        plane, place, start = self.distance_plane()
        out: IntArray = plane[start[cell] :].take(place)
        return out

    def distance_plane(self) -> tuple[IntArray, IntArray, list[int]]:
        """What :meth:`distances` reads: the distance of every vector between two cells laid on a plane, each
        cell's place on it, and for each cell where the plane starts so that ``plane[start[c]:].take(place)`` is
        the distance from ``c`` to every cell (a caller may keep the plane in another type)."""
        if self._distance_plane is None:
            coords = self.plane_coords()
            low, span = coords.min(axis=0), coords.max(axis=0) - coords.min(axis=0)
            width = 2 * int(span[1]) + 1
            a = np.arange(-int(span[0]), int(span[0]) + 1, dtype=np.int64)[:, None]
            b = np.arange(-int(span[1]), int(span[1]) + 1, dtype=np.int64)[None, :]
            place = (coords[:, 0] - low[0]) * width + (coords[:, 1] - low[1])
            middle = int(span[0]) * width + int(span[1])  # the plane's zero vector
            self._distance_plane = (self._offset_distance(a, b).ravel(), place, (middle - place).tolist())
        return self._distance_plane

    @staticmethod
    @abstractmethod
    def _offset_distance(a: IntArray, b: IntArray) -> IntArray:
        """The distance of vectors ``(a, b)`` (arrays that broadcast) on an unbounded grid of this kind."""

    def ring(self, cell: int, radius: int) -> list[int]:
        """Every on-map cell at exactly ``radius``, in index order."""
        found: list[int] = np.flatnonzero(self.distances(cell) == radius).tolist()  # one array operation
        return found

    def iter_line(self, a: int, b: int) -> Iterator[int]:
        yield from self.line(a, b)

    def plane_coords(self) -> IntArray:
        """Every cell's translation-invariant coordinates as an ``(n, 2)`` array: a cell plus a :meth:`vector` is
        the cell at its coordinates plus the vector (axial for hexes, x/y for squares)."""
        cells = np.arange(self.size, dtype=np.int64)
        return np.stack([cells % self.columns, cells // self.columns], axis=1)


class HexGrid(Grid):
    """A rectangle of hexes in offset numbering, with axial coordinates inside."""

    kind = "hex"

    def __init__(self, columns: int, rows: int, layout: HexLayout = "odd-q", first: tuple[int, int] = (0, 0)) -> None:
        if layout not in ("odd-q", "even-q", "odd-r", "even-r"):
            raise ValueError(f"unknown hex layout {layout!r}")
        self.layout = layout
        self.flat = layout.endswith("q")
        self.direction_names = FLAT_NAMES if self.flat else POINTY_NAMES
        self._dirs = _FLAT_DIRS if self.flat else _POINTY_DIRS
        self._q: list[int] = []
        self._r: list[int] = []
        self._lines: dict[tuple[int, int], list[tuple[int, int]]] = {}  # line steps by axial vector (see line)
        for cell in range(columns * rows):
            row, col = divmod(cell, columns)
            q, r = self.offset_to_axial(col, row)
            self._q.append(q)
            self._r.append(r)
        super().__init__(columns, rows, first)

    # offset <-> axial ------------------------------------------------------------------------------------
    def axial(self, cell: int) -> tuple[int, int]:
        return self._q[cell], self._r[cell]

    def plane_coords(self) -> IntArray:
        return np.array([self._q, self._r], dtype=np.int64).T.reshape(-1, 2)

    def offset_to_axial(self, col: int, row: int) -> tuple[int, int]:
        if self.layout == "odd-q":
            return col, row - (col - (col & 1)) // 2
        if self.layout == "even-q":
            return col, row - (col + (col & 1)) // 2
        if self.layout == "odd-r":
            return col - (row - (row & 1)) // 2, row
        return col - (row + (row & 1)) // 2, row

    def axial_to_offset(self, q: int, r: int) -> tuple[int, int]:
        if self.layout == "odd-q":
            return q, r + (q - (q & 1)) // 2
        if self.layout == "even-q":
            return q, r + (q + (q & 1)) // 2
        if self.layout == "odd-r":
            return q + (r - (r & 1)) // 2, r
        return q + (r + (r & 1)) // 2, r

    def at_axial(self, q: int, r: int) -> int:
        """The cell at axial ``q, r``, or -1 off the map."""
        col, row = self.axial_to_offset(q, r)
        if 0 <= col < self.columns and 0 <= row < self.rows:
            return row * self.columns + col
        return -1

    def _step(self, cell: int, direction: int) -> int:
        q, r = self.axial(cell)
        dq, dr = self._dirs[direction - 1]
        return self.at_axial(q + dq, r + dr)

    def vector(self, a: int, b: int) -> tuple[int, int]:
        return self._q[b] - self._q[a], self._r[b] - self._r[a]

    def distance(self, a: int, b: int) -> int:
        dq = self._q[b] - self._q[a]
        dr = self._r[b] - self._r[a]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    @staticmethod
    def _offset_distance(a: IntArray, b: IntArray) -> IntArray:
        out: IntArray = (np.abs(a) + np.abs(b) + np.abs(a + b)) // 2
        return out

    def line(self, a: int, b: int) -> tuple[int, ...]:
        qa, ra = self._q[a], self._r[a]
        # the line moved by a whole hex is the line moved (hex_line_axial rounds each coordinate alone, and
        # shifting the numerator by a multiple of the denominator shifts the result and keeps the error), so the
        # exact rounding is done once per vector: line of sight asks for the same vectors all over the map
        vector = (self._q[b] - qa, self._r[b] - ra)
        steps = self._lines.get(vector)
        if steps is None:
            if len(self._lines) >= LINES_KEPT:
                self._lines.clear()
            steps = self._lines[vector] = hex_line_axial(0, 0, *vector)
        at = self.at_axial
        return tuple([at(qa + q, ra + r) for q, r in steps])


def hex_line_axial(qa: int, ra: int, qb: int, rb: int) -> list[tuple[int, int]]:
    """Axial cells on the straight line between two hexes, ends included (exact, tie-stable)."""
    sa, sb = -qa - ra, -qb - rb
    n = (abs(qb - qa) + abs(rb - ra) + abs(sb - sa)) // 2
    if n == 0:
        return [(qa, ra)]
    out = []
    for i in range(n + 1):
        # cube coordinates scaled by n, nudged by (+1, +2, -3) infinitesimals (they sum to zero)
        q, eq = _round_nudged(qa * n + (qb - qa) * i, n, 1)
        r, er = _round_nudged(ra * n + (rb - ra) * i, n, 2)
        s, es = _round_nudged(sa * n + (sb - sa) * i, n, -3)
        if eq > er and eq > es:
            q = -r - s
        elif er > es:
            r = -q - s
        out.append((q, r))
    return out


def _rounded_nudged(num: IntArray, den: IntArray, nudge: int) -> tuple[IntArray, IntArray]:
    """:func:`_round_nudged` over arrays: the integers, and each error as one number that orders as the
    ``(|num - k*den|, eps coefficient)`` pairs do (coefficients lie within -4..4)."""
    k, rem = np.divmod(num, den)
    twice = 2 * rem
    k = k + ((twice > den) | ((twice == den) & (nudge > 0)))
    diff = num - k * den
    eps = np.where(diff > 0, nudge, np.where(diff < 0, -nudge, abs(nudge)))
    return k, np.abs(diff) * 16 + eps + 8


def hex_lines_axial(vectors: IntArray) -> tuple[IntArray, IntArray]:
    """:func:`hex_line_axial` from the origin to each of ``vectors`` (an ``(n, 2)`` array of axial offsets) at
    once: the cells of each line, padded with its last cell to the longest, ``(n, longest + 1, 2)``, and each
    line's length (its distance)."""
    q, r = vectors[:, 0:1], vectors[:, 1:2]
    s = -q - r
    n = (np.abs(q) + np.abs(r) + np.abs(s)) // 2
    longest = int(n.max(initial=0))
    i = np.minimum(np.arange(longest + 1)[None, :], n)
    den = np.maximum(n, 1)
    qi, eq = _rounded_nudged(q * i, den, 1)
    ri, er = _rounded_nudged(r * i, den, 2)
    si, es = _rounded_nudged(s * i, den, -3)
    fix_q = (eq > er) & (eq > es)
    fix_r = ~fix_q & (er > es)
    qi, ri = np.where(fix_q, -ri - si, qi), np.where(fix_r, -qi - si, ri)
    return np.stack([qi, ri], axis=2), n[:, 0]


class SquareGrid(Grid):
    """Squares with eight directions; a diagonal step is its own direction with its own costs."""

    kind = "square"
    direction_names = SQUARE_NAMES

    def _step(self, cell: int, direction: int) -> int:
        col, row = self.coord(cell)
        dc, dr = _SQUARE_DIRS[direction - 1]
        c, r = col + dc, row + dr
        if 0 <= c < self.columns and 0 <= r < self.rows:
            return r * self.columns + c
        return -1

    @staticmethod
    def is_diagonal(direction: int) -> bool:
        return direction % 2 == 0

    def vector(self, a: int, b: int) -> tuple[int, int]:
        ca, ra = self.coord(a)
        cb, rb = self.coord(b)
        return cb - ca, rb - ra

    def distance(self, a: int, b: int) -> int:
        """King-move (Chebyshev) distance: a diagonal step is one square, as ranges are counted."""
        dx, dy = self.vector(a, b)
        return max(abs(dx), abs(dy))

    @staticmethod
    def _offset_distance(a: IntArray, b: IntArray) -> IntArray:
        out: IntArray = np.maximum(np.abs(a), np.abs(b))
        return out

    def line(self, a: int, b: int) -> tuple[int, ...]:
        ca, ra = self.coord(a)
        cb, rb = self.coord(b)
        return tuple(r * self.columns + c for c, r in square_line(ca, ra, cb, rb))


def square_line(xa: int, ya: int, xb: int, yb: int) -> list[tuple[int, int]]:
    """Squares on the straight line between two squares, ends included (exact, tie-stable, symmetric)."""
    n = max(abs(xb - xa), abs(yb - ya))
    if n == 0:
        return [(xa, ya)]
    out = []
    for i in range(n + 1):
        x, _ = _round_nudged(xa * n + (xb - xa) * i, n, 1)
        y, _ = _round_nudged(ya * n + (yb - ya) * i, n, 2)
        out.append((x, y))
    return out


def square_in_cone(facing: int, dx: int, dy: int) -> bool:
    """Whether offset ``dx, dy`` lies in the 90-degree V that a unit facing ``facing`` (1-8) sees (BA 7.9).

    Orthogonal facings see the quarter centred on the facing; diagonal facings the quadrant between its two
    neighbouring orthogonal directions. Edges of the V are included; a unit's own square is in its cone.
    """
    if dx == 0 and dy == 0:
        return True
    fx, fy = _SQUARE_DIRS[facing - 1]
    if facing % 2 == 1:  # orthogonal: along the facing at least as far as across it
        along = dx * fx + dy * fy
        across = abs(dx * fy - dy * fx)
        return along >= across
    return dx * fx >= 0 and dy * fy >= 0
