"""Hypothesis strategies shared by the engine's property tests: grids of every kind and layout, cells on them."""

from __future__ import annotations

from functools import cache

from hypothesis import strategies as st

from grognard.engine.geometry import Grid, HexGrid, SquareGrid

HEX_LAYOUTS = ("odd-q", "even-q", "odd-r", "even-r")
KINDS = (*HEX_LAYOUTS, "square")


@cache
def make_grid(kind: str, columns: int, rows: int, first: tuple[int, int] = (0, 0)) -> Grid:
    """A grid of ``kind`` (a hex layout or ``"square"``); cached, since grids are immutable."""
    if kind == "square":
        return SquareGrid(columns, rows, first)
    return HexGrid(columns, rows, kind, first)  # type: ignore[arg-type]


def grids(max_side: int = 10, kinds: tuple[str, ...] = KINDS, min_side: int = 1) -> st.SearchStrategy[Grid]:
    """Rectangles of every kind, from one cell to ``max_side`` a side, numbered from a random first label."""
    side = st.integers(min_side, max_side)
    first = st.tuples(st.integers(0, 3), st.integers(0, 3))
    return st.builds(make_grid, st.sampled_from(kinds), side, side, first)


def draw_cell(data: st.DataObject, grid: Grid, label: str = "cell") -> int:
    return data.draw(st.integers(0, grid.size - 1), label=label)
