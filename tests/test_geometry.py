"""Grid laws, checked on random rectangles of every hex layout and of squares (one test per operation)."""

from __future__ import annotations

import itertools
import math
from collections import deque
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grognard.engine.geometry import (
    FLAT_NAMES,
    POINTY_NAMES,
    SQUARE_NAMES,
    Grid,
    HexGrid,
    SquareGrid,
    hex_line_axial,
    square_in_cone,
    square_line,
)
from strategies import HEX_LAYOUTS, draw_cell, grids, make_grid

coordinate = st.integers(-40, 40)


def opposite(grid: Grid, d: int) -> int:
    return (d - 1 + grid.directions // 2) % grid.directions + 1


def brute_within(grid: Grid, cell: int, radius: int) -> list[int]:
    return [c for c in grid.cells() if grid.distance(cell, c) <= radius]


def walk_distances(grid: Grid, start: int) -> list[int]:
    """Breadth-first step counts from ``start`` over the map's own neighbours."""
    dist = [-1] * grid.size
    dist[start] = 0
    queue = deque([start])
    while queue:
        u = queue.popleft()
        for v in grid.neighbors(u):
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


# --- numbering ---------------------------------------------------------------------------------------------


@given(st.sampled_from(HEX_LAYOUTS), coordinate, coordinate)
def test_offset_to_axial_round_trips_in_every_layout(layout, col, row):
    grid = make_grid(layout, 4, 4)
    assert isinstance(grid, HexGrid)
    assert grid.axial_to_offset(*grid.offset_to_axial(col, row)) == (col, row)
    assert grid.offset_to_axial(*grid.axial_to_offset(col, row)) == (col, row)


@given(st.data(), grids(kinds=HEX_LAYOUTS))
def test_at_axial_finds_the_cell_and_is_minus_one_off_the_map(data, grid):
    cell = draw_cell(data, grid)
    assert grid.at_axial(*grid.axial(cell)) == cell
    col, row = data.draw(st.tuples(coordinate, coordinate))
    on_map = 0 <= col < grid.columns and 0 <= row < grid.rows
    expected = row * grid.columns + col if on_map else -1
    assert grid.at_axial(*grid.offset_to_axial(col, row)) == expected


@given(st.data(), grids())
def test_index_coord_label_and_parse_round_trip(data, grid):
    cell = draw_cell(data, grid)
    col, row = grid.coord(cell)
    assert grid.index(col, row) == cell
    label = grid.label(cell)
    assert label == f"{col + grid.first[0]},{row + grid.first[1]}"
    assert grid.parse(label) == cell
    assert grid.parse(label.replace(",", " , ")) == cell
    assert grid.from_label(col + grid.first[0], row + grid.first[1]) == cell


@given(grids())
def test_index_and_parse_refuse_cells_off_the_map(grid):
    for col, row in ((-1, 0), (0, -1), (grid.columns, 0), (0, grid.rows)):
        with pytest.raises(ValueError, match="off the"):
            grid.index(col, row)
        label = f"{col + grid.first[0]},{row + grid.first[1]}"
        with pytest.raises(ValueError, match=f"^{label} is off the"):  # in the numbering the player wrote
            grid.parse(label)
    for text in ("", "3", "a,b", "1,2,3"):
        with pytest.raises(ValueError, match="write column,row"):
            grid.parse(text)


def test_grids_refuse_empty_rectangles_and_unknown_layouts():
    with pytest.raises(ValueError, match="at least one"):
        SquareGrid(0, 3)
    with pytest.raises(ValueError, match="at least one"):
        HexGrid(3, 0)
    with pytest.raises(ValueError, match="unknown hex layout"):
        HexGrid(3, 3, "odd-x")  # type: ignore[arg-type]


# --- directions --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["odd-q", "even-q"])
def test_flat_hex_directions_are_numbered_as_objective_kursk_4_5(layout):
    # OK 4.5: "1-N,2-NE,3-SE,4-S,5-SW,6-NW", clockwise from north
    grid = HexGrid(5, 5, layout)
    assert grid.direction_names == FLAT_NAMES == ("N", "NE", "SE", "S", "SW", "NW")
    for col in (1, 2):  # one column of each parity
        c = grid.index(col, 2)
        coords = {d: grid.coord(grid.neighbor(c, d)) for d in range(1, 7)}
        assert coords[1] == (col, 1) and coords[4] == (col, 3)  # straight up and down the column
        assert {coords[2][0], coords[3][0]} == {col + 1} and coords[2][1] == coords[3][1] - 1  # NE above SE
        assert {coords[6][0], coords[5][0]} == {col - 1} and coords[6][1] == coords[5][1] - 1  # NW above SW


@pytest.mark.parametrize("layout", ["odd-r", "even-r"])
def test_pointy_hex_directions_run_clockwise_from_north_east(layout):
    grid = HexGrid(5, 5, layout)
    assert grid.direction_names == POINTY_NAMES == ("NE", "E", "SE", "SW", "W", "NW")
    for row in (1, 2):
        c = grid.index(2, row)
        coords = {d: grid.coord(grid.neighbor(c, d)) for d in range(1, 7)}
        assert coords[2] == (3, row) and coords[5] == (1, row)  # east and west along the row
        assert {coords[1][1], coords[6][1]} == {row - 1} and coords[6][0] == coords[1][0] - 1
        assert {coords[3][1], coords[4][1]} == {row + 1} and coords[4][0] == coords[3][0] - 1


@pytest.mark.parametrize(
    ("layout", "frm", "direction", "to"),
    [
        ("odd-q", (0, 0), 3, (1, 0)),  # odd columns are shoved down: 1,0 is south-east of 0,0
        ("even-q", (0, 0), 2, (1, 0)),  # even columns are shoved down: 1,0 is north-east of 0,0
        ("odd-r", (0, 0), 3, (0, 1)),  # odd rows are shoved right: 0,1 is south-east of 0,0
        ("even-r", (0, 0), 4, (0, 1)),  # even rows are shoved right: 0,1 is south-west of 0,0
    ],
)
def test_offset_layouts_shove_the_odd_or_even_lines(layout, frm, direction, to):
    grid = HexGrid(3, 3, layout)
    assert grid.neighbor(grid.index(*frm), direction) == grid.index(*to)


def test_square_directions_are_the_antietam_compass():
    # BA 3.1 / Operations Costs Table: 1..8 around the compass; "diagonal moves - directions 2,4,6, and 8"
    grid = SquareGrid(3, 3)
    centre = grid.index(1, 1)
    assert grid.direction_names == SQUARE_NAMES == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    steps = [grid.vector(centre, grid.neighbor(centre, d)) for d in range(1, 9)]
    assert steps == [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]
    assert [d for d in range(1, 9) if SquareGrid.is_diagonal(d)] == [2, 4, 6, 8]
    assert all((dx != 0 and dy != 0) == SquareGrid.is_diagonal(d) for d, (dx, dy) in enumerate(steps, 1))


@given(st.data(), grids())
def test_every_neighbour_is_one_step_away_in_its_direction(data, grid):
    cell = draw_cell(data, grid)
    for d in range(1, grid.directions + 1):
        n = grid.neighbor(cell, d)
        if n >= 0:
            assert grid.distance(cell, n) == 1
            assert grid.direction(cell, n) == d
            assert grid.adjacent(cell, n) and grid.adjacent(n, cell)
    assert set(grid.neighbors(cell)) == {c for c in grid.cells() if grid.distance(cell, c) == 1}
    assert list(grid.neighbors(cell)) == [n for n in grid.neighbor_table()[cell] if n >= 0]
    assert grid.direction(cell, cell) == 0


@given(st.data(), grids())
def test_opposite_directions_invert(data, grid):
    cell = draw_cell(data, grid)
    for d in range(1, grid.directions + 1):
        n = grid.neighbor(cell, d)
        if n >= 0:
            assert grid.neighbor(n, opposite(grid, d)) == cell
            assert grid.direction(n, cell) == opposite(grid, d)


# --- distance ----------------------------------------------------------------------------------------------


@given(st.data(), grids())
def test_distance_is_a_metric(data, grid):
    a, b, c = (draw_cell(data, grid, name) for name in "abc")
    assert grid.distance(a, b) == grid.distance(b, a)
    assert (grid.distance(a, b) == 0) == (a == b)
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)


@given(st.data(), grids())
def test_distance_is_the_length_of_a_shortest_walk_on_the_map(data, grid):
    start = draw_cell(data, grid)
    assert walk_distances(grid, start) == [grid.distance(start, c) for c in grid.cells()]


@given(st.data(), grids())
def test_distances_from_a_cell_are_its_distance_to_each_cell(data, grid):
    start = draw_cell(data, grid)
    assert grid.distances(start).tolist() == [grid.distance(start, c) for c in grid.cells()]


@given(st.data(), grids())
def test_plane_coordinates_add_up_as_vectors(data, grid):
    coords = grid.plane_coords()
    a, b = draw_cell(data, grid, "a"), draw_cell(data, grid, "b")
    assert tuple((coords[b] - coords[a]).tolist()) == grid.vector(a, b)
    assert coords.shape == (grid.size, 2)


@given(st.data(), grids(), st.integers(0, 6))
def test_within_is_every_cell_in_range(data, grid, radius):
    cell = draw_cell(data, grid)
    assert grid.within(cell, radius) == brute_within(grid, cell, radius)


@given(st.data(), grids(), st.integers(0, 6))
def test_ring_is_every_cell_at_exactly_the_radius(data, grid, radius):
    cell = draw_cell(data, grid)
    assert grid.ring(cell, radius) == [c for c in grid.cells() if grid.distance(cell, c) == radius]


@pytest.mark.parametrize("kind", [*HEX_LAYOUTS, "square"])
def test_rings_on_open_ground_hold_six_or_eight_cells_a_step(kind):
    grid = make_grid(kind, 13, 13)
    centre = grid.index(6, 6)
    per_step = 6 if kind != "square" else 8
    assert [len(grid.ring(centre, r)) for r in range(7)] == [1] + [per_step * r for r in range(1, 7)]


# --- lines -------------------------------------------------------------------------------------------------


def axial_distance(dq: int, dr: int) -> int:
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@given(coordinate, coordinate, coordinate, coordinate)
def test_hex_line_steps_one_hex_at_a_time_from_end_to_end(qa, ra, qb, rb):
    pts = hex_line_axial(qa, ra, qb, rb)
    n = axial_distance(qb - qa, rb - ra)
    assert len(pts) == n + 1 and pts[0] == (qa, ra) and pts[-1] == (qb, rb)
    for i, (q, r) in enumerate(pts):
        assert axial_distance(q - qa, r - ra) == i and axial_distance(qb - q, rb - r) == n - i


@given(coordinate, coordinate, coordinate, coordinate)
def test_hex_line_picks_the_hex_nearest_the_true_line(qa, ra, qb, rb):
    pts = hex_line_axial(qa, ra, qb, rb)
    n = len(pts) - 1
    for i, (q, r) in enumerate(pts):
        if n == 0:
            continue
        fq, fr = Fraction(qa) + Fraction((qb - qa) * i, n), Fraction(ra) + Fraction((rb - ra) * i, n)

        def sq_dist(cq: int, cr: int, fq: Fraction = fq, fr: Fraction = fr) -> Fraction:
            dq, dr = fq - cq, fr - cr  # squared Euclidean distance in axial units (up to a constant factor)
            return dq * dq + dq * dr + dr * dr

        best = sq_dist(q, r)
        for dq, dr in ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)):
            assert best <= sq_dist(q + dq, r + dr)


@given(coordinate, coordinate, coordinate, coordinate)
def test_square_line_steps_one_square_at_a_time_nearest_the_true_line(xa, ya, xb, yb):
    pts = square_line(xa, ya, xb, yb)
    n = max(abs(xb - xa), abs(yb - ya))
    assert len(pts) == n + 1 and pts[0] == (xa, ya) and pts[-1] == (xb, yb)
    for i, (x, y) in enumerate(pts):
        assert max(abs(x - xa), abs(y - ya)) == i
        if n:
            assert abs(Fraction(xa) + Fraction((xb - xa) * i, n) - x) <= Fraction(1, 2)
            assert abs(Fraction(ya) + Fraction((yb - ya) * i, n) - y) <= Fraction(1, 2)


@given(coordinate, coordinate, coordinate, coordinate, coordinate, coordinate)
def test_lines_are_symmetric_and_translation_invariant(qa, ra, qb, rb, tq, tr):
    # symmetry makes line of sight symmetric; translation invariance lets Sight.visible share one line table
    for line in (hex_line_axial, square_line):
        pts = line(qa, ra, qb, rb)
        assert line(qb, rb, qa, ra) == pts[::-1]
        assert line(qa + tq, ra + tr, qb + tq, rb + tr) == [(q + tq, r + tr) for q, r in pts]


@given(st.data(), grids(kinds=HEX_LAYOUTS))
def test_hex_grid_line_from_its_kept_shapes_is_the_exact_line_between_the_ends(data, grid):
    # HexGrid.line rounds a vector once and moves the shape to each start: the same cells as rounding afresh
    a, b = draw_cell(data, grid, "a"), draw_cell(data, grid, "b")
    (qa, ra), (qb, rb) = grid.axial(a), grid.axial(b)
    exact = tuple(grid.at_axial(q, r) for q, r in hex_line_axial(qa, ra, qb, rb))
    assert grid.line(a, b) == exact
    assert grid.line(a, b) == exact  # the second time from the kept shape


def test_tied_lines_break_the_same_way_from_both_ends():
    # exactly between two hexes (and two squares) at the midpoint: the nudge picks one, from either end
    assert hex_line_axial(0, 0, 2, -1) == [(0, 0), (1, 0), (2, -1)]
    assert hex_line_axial(2, -1, 0, 0) == [(2, -1), (1, 0), (0, 0)]
    assert square_line(0, 0, 2, 1) == [(0, 0), (1, 1), (2, 1)]
    assert square_line(2, 1, 0, 0) == [(2, 1), (1, 1), (0, 0)]


@given(st.data(), grids())
def test_grid_line_runs_from_a_to_b_one_step_at_a_time(data, grid):
    a, b = draw_cell(data, grid, "a"), draw_cell(data, grid, "b")
    line = grid.line(a, b)
    assert line[0] == a and line[-1] == b and len(line) == grid.distance(a, b) + 1
    assert line == grid.line(b, a)[::-1]
    assert tuple(grid.iter_line(a, b)) == line
    for i, c in enumerate(line):
        if c >= 0:
            assert grid.distance(a, c) == i and grid.distance(c, b) == len(line) - 1 - i
    for x, y in itertools.pairwise(line):
        if x >= 0 and y >= 0:
            assert grid.adjacent(x, y)


@given(st.data(), grids(kinds=HEX_LAYOUTS))
def test_hex_line_leaves_the_map_only_for_one_hex_between_two_border_hexes(data, grid):
    # the zigzag edge of an offset rectangle: a straight line between two border hexes may cut through the
    # half-hex outside it; such a step is -1 (Sight treats it as open ground), flanked by border hexes
    a, b = draw_cell(data, grid, "a"), draw_cell(data, grid, "b")
    line = grid.line(a, b)
    border = {c for c in grid.cells() if len(grid.neighbors(c)) < 6}
    for i, c in enumerate(line):
        if c < 0:
            before, after = line[i - 1], line[i + 1]
            assert before in border and after in border
            assert grid.distance(before, after) == 2


def test_hex_line_along_the_zigzag_edge_does_leave_the_map():
    # the case the previous test bounds is real: odd-q bottom row, 1,2 to 3,2 passes through 2,3 below it
    grid = HexGrid(4, 3, "odd-q")
    a, b = grid.index(1, 2), grid.index(3, 2)
    assert grid.line(a, b) == (a, -1, b)


@given(st.data(), grids(kinds=("square",)))
def test_square_lines_never_leave_the_map(data, grid):
    a, b = draw_cell(data, grid, "a"), draw_cell(data, grid, "b")
    assert min(grid.line(a, b)) >= 0


# --- facing (Antietam) -------------------------------------------------------------------------------------


def angle_between(fx: int, fy: int, dx: int, dy: int) -> float:
    return abs(math.remainder(math.atan2(dy, dx) - math.atan2(fy, fx), 2 * math.pi))


@pytest.mark.parametrize("facing", range(1, 9))
def test_square_cone_is_the_90_degree_v_of_ba_7_9(facing):
    # BA 7.9: "a line of sight equal to 90 degree angle radiating in a V shape from the unit"
    grid = SquareGrid(3, 3)
    fx, fy = grid.vector(4, grid.neighbor(4, facing))
    for dx, dy in itertools.product(range(-7, 8), repeat=2):
        expected = (dx, dy) == (0, 0) or angle_between(fx, fy, dx, dy) <= math.pi / 4 + 1e-9
        assert square_in_cone(facing, dx, dy) == expected, (dx, dy)


def test_four_orthogonal_cones_cover_every_square():
    for dx, dy in itertools.product(range(-5, 6), repeat=2):
        assert any(square_in_cone(f, dx, dy) for f in (1, 3, 5, 7))
        assert any(square_in_cone(f, dx, dy) for f in (2, 4, 6, 8))
