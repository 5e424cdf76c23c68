"""Line of sight: the vectorised batch against a brute-force reference on random maps, and hand-made cases.

Heights follow Antietam (BA 8.3): "40 - 50 feet of elevation per level. Woods represent a 20 foot elevation
obstacle, towns 30 feet, cornfields 6 feet, and units 5 feet". Ranges are what the rulesets pass to observers:
Antietam's visibility limit per level (4, 8, 12, 16 squares, BA 8.3) and The Perfect General's maximum
visible distance (25 clear, 10 fog, 5 night, PG p.32).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from grognard.engine.geometry import Grid, HexGrid, SquareGrid, square_in_cone
from grognard.engine.los import Observer, Sight
from strategies import HEX_LAYOUTS, draw_cell, grids

LEVEL = 45  # feet of one elevation level (BA 8.3: 40-50)
WOODS, TOWN, CORN, UNIT = 20, 30, 6, 5  # BA 8.3
PG_CLEAR, PG_FOG, PG_NIGHT = 25, 10, 5  # PG p.32


def reference_sees(
    grid: Grid,
    ground: list[int],
    obstacle: list[int],
    o: Observer,
    b: int,
    target: int = 0,
    extra: list[int] | None = None,
) -> bool:
    """Straight from the definition, in exact fractions: range, cone, then no cell strictly above the line."""
    if grid.distance(o.cell, b) > o.range:
        return False
    if o.facing and isinstance(grid, SquareGrid) and not square_in_cone(o.facing, *grid.vector(o.cell, b)):
        return False
    line = grid.line(o.cell, b)
    n = len(line) - 1
    h0, h1 = ground[o.cell] + o.eye, ground[b] + target
    for i in range(1, n):
        c = line[i]
        if c < 0:
            continue
        top = ground[c] + obstacle[c] + (extra[c] if extra else 0)
        if top > h0 + (h1 - h0) * Fraction(i, n):
            return False
    return True


def cell_list(grid: Grid, values: tuple[int, ...]) -> st.SearchStrategy[list[int]]:
    return st.lists(st.sampled_from(values), min_size=grid.size, max_size=grid.size)


@st.composite
def battlefields(draw: st.DrawFn, kinds: tuple[str, ...] = (*HEX_LAYOUTS, "square")) -> tuple:
    """A random map with Antietam-like heights, a few observers and what changes in play."""
    grid = draw(grids(max_side=9, kinds=kinds))
    ground = draw(cell_list(grid, (0, LEVEL, 2 * LEVEL, 3 * LEVEL)))
    obstacle = draw(cell_list(grid, (0, 0, 0, CORN, WOODS, TOWN)))
    extra = draw(st.none() | cell_list(grid, (0, 0, 0, UNIT, 2 * LEVEL)))
    observer = st.builds(
        Observer,
        st.integers(0, grid.size - 1),
        st.sampled_from((0, UNIT, 10, LEVEL)),
        st.integers(0, 7),
        st.integers(0, 8),
    )
    observers = draw(st.lists(observer, min_size=1, max_size=6))
    target = draw(st.sampled_from((0, UNIT, 30)))
    return grid, ground, obstacle, extra, observers, target


@given(battlefields())
def test_visible_is_sees_for_every_observer_and_cell(field):
    grid, ground, obstacle, extra, observers, target = field
    sight = Sight(grid, ground, obstacle)
    seen = sight.visible(observers, target, extra)
    assert seen.shape == (len(observers), grid.size) and seen.dtype == np.bool_
    for i, o in enumerate(observers):
        expected = [reference_sees(grid, ground, obstacle, o, b, target, extra) for b in grid.cells()]
        assert [sight.sees(o, b, target, extra) for b in grid.cells()] == expected
        assert seen[i].tolist() == expected, o


@given(battlefields(), st.data())
def test_sight_is_symmetric_between_equal_heights(field, data):
    grid, ground, obstacle, extra, _, _ = field
    sight = Sight(grid, ground, obstacle)
    a, b = draw_cell(data, grid, "a"), draw_cell(data, grid, "b")
    h = data.draw(st.sampled_from((0, UNIT, LEVEL)), label="height")
    assert sight.clear(a, b, h, h, extra) == sight.clear(b, a, h, h, extra)


@given(st.data(), grids(max_side=9, kinds=HEX_LAYOUTS))
def test_hex_observers_see_all_around_whatever_their_facing(data, grid):
    # facing cones are Antietam's, on squares; on hexes a facing is ignored
    ground = data.draw(cell_list(grid, (0, 1, 2)))
    obstacle = data.draw(cell_list(grid, (0, 0, 1)))
    sight = Sight(grid, ground, obstacle)
    cell, rng = draw_cell(data, grid), data.draw(st.integers(1, 5))
    faced = [Observer(cell, 1, rng, f) for f in range(0, 7)]
    seen = sight.visible(faced)
    assert all((row == seen[0]).all() for row in seen)


# --- hand-made cases ---------------------------------------------------------------------------------------


def row_map(ground: list[int], obstacle: list[int]) -> Sight:
    """A one-row square map: cell i is column i."""
    return Sight(SquareGrid(len(ground), 1), ground, obstacle)


def test_a_wood_between_two_units_blocks():
    sight = row_map([0] * 5, [0, 0, WOODS, 0, 0])
    assert not sight.clear(0, 4, UNIT, UNIT)
    assert sight.clear(0, 1, UNIT, UNIT) and sight.clear(3, 4, UNIT, UNIT)


def test_a_cornfield_hides_units_on_level_ground():
    # BA 8.3: cornfields 6 ft stand above units' 5 ft
    assert not row_map([0] * 3, [0, CORN, 0]).clear(0, 2, UNIT, UNIT)


def test_a_hill_blocks():
    sight = row_map([0, 0, LEVEL, 0, 0], [0] * 5)
    assert not sight.clear(0, 4, UNIT, UNIT)
    assert not sight.clear(4, 0, UNIT, UNIT)


def test_a_higher_observer_sees_over_a_low_wood():
    # observer two levels up (95 ft with his 5): the line is 27.5 ft over the wood next to the target
    sight = row_map([2 * LEVEL, 0, 0, 0, 0], [0, 0, 0, WOODS, 0])
    assert sight.clear(0, 4, UNIT, UNIT)
    assert not row_map([0] * 5, [0, 0, 0, WOODS, 0]).clear(0, 4, UNIT, UNIT)


def test_a_line_grazing_an_obstacle_is_not_blocked():
    # blocked only when strictly above: from 20 ft to 0 ft over two steps the line is at 10 ft midway
    assert row_map([0] * 3, [0, 10, 0]).clear(0, 2, 20, 0)
    assert not row_map([0] * 3, [0, 11, 0]).clear(0, 2, 20, 0)
    assert row_map([0] * 3, [0, UNIT, 0]).clear(0, 2, UNIT, UNIT)


def test_end_cells_never_block():
    # a unit in a wood sees out of it and can be seen in it
    sight = row_map([0] * 4, [WOODS, 0, 0, TOWN])
    assert sight.clear(0, 3, UNIT, UNIT) and sight.clear(3, 0, UNIT, UNIT)
    assert row_map([0, LEVEL], [0, 0]).clear(0, 1)  # adjacent cells always see each other


def test_extra_heights_block_like_obstacles():
    sight = row_map([0] * 3, [0] * 3)
    assert sight.clear(0, 2, UNIT, UNIT)
    assert not sight.clear(0, 2, UNIT, UNIT, extra=[0, 2 * LEVEL, 0])
    o = Observer(0, UNIT, 4)
    assert sight.visible([o], UNIT, extra=[0, 2 * LEVEL, 0])[0].tolist() == [True, True, False]


def test_the_facing_v_limits_what_an_antietam_unit_sees():
    # BA 7.9: a unit facing north (1) sees nothing south of it, within its level's visibility (BA 8.3: 4 at level 1)
    grid = SquareGrid(11, 11)
    sight = Sight(grid, [0] * grid.size, [0] * grid.size)
    centre = grid.index(5, 5)
    seen = sight.visible([Observer(centre, UNIT, 4, facing=1)], UNIT)[0]
    cells = set(np.flatnonzero(seen).tolist())
    expected = {c for c in grid.within(centre, 4) if square_in_cone(1, *grid.vector(centre, c))}
    assert cells == expected
    assert all(grid.coord(c)[1] <= 5 for c in cells)
    assert grid.index(5, 1) in cells and grid.index(9, 1) in cells and grid.index(5, 6) not in cells


@pytest.mark.parametrize("level_range", [4, 8, 12, 16])
def test_antietam_visibility_by_level_is_the_observer_range(level_range):
    grid = SquareGrid(42, 36)
    sight = Sight(grid, [0] * grid.size, [0] * grid.size)
    centre = grid.index(20, 18)
    seen = sight.visible([Observer(centre, UNIT, level_range)], UNIT)[0]
    assert set(np.flatnonzero(seen).tolist()) == set(grid.within(centre, level_range))


@pytest.mark.parametrize("distance", [PG_CLEAR, PG_FOG, PG_NIGHT])
def test_perfect_general_visibility_is_the_observer_range(distance):
    grid = HexGrid(42, 36, "odd-q")
    sight = Sight(grid, [0] * grid.size, [0] * grid.size)
    centre = grid.index(20, 18)
    seen = sight.visible([Observer(centre, 1, distance)])[0]
    assert set(np.flatnonzero(seen).tolist()) == set(grid.within(centre, distance))


def test_a_perfect_general_forest_hides_what_is_behind_it():
    # PG p.22: forest "blocks vision"; a ruleset gives it a height no line can clear
    grid = HexGrid(7, 1, "odd-r")
    forest = 10_000
    sight = Sight(grid, [0] * 7, [0, 0, 0, forest, 0, 0, 0])
    seen = sight.visible([Observer(0, 1, PG_NIGHT)])[0].tolist()
    assert seen == [True, True, True, True, False, False, False]


def test_range_zero_sees_only_its_own_cell_and_no_observers_see_nothing():
    grid = SquareGrid(3, 3)
    sight = Sight(grid, [0] * 9, [0] * 9)
    assert np.flatnonzero(sight.visible([Observer(4, UNIT, 0)])[0]).tolist() == [4]
    assert sight.visible([]).shape == (0, 9)


def test_sight_needs_one_height_per_cell():
    with pytest.raises(ValueError, match="one height per cell"):
        Sight(SquareGrid(2, 2), [0] * 3, [0] * 4)


@given(battlefields(), st.data())
def test_a_row_looked_at_again_over_the_changed_cells_is_the_row_with_the_new_heights(field, data):
    # a barrage or a burnt wood changes a few cells: relook works out only the lines over them again
    grid, ground, obstacle, extra, observers, target = field
    before = Sight(grid, ground, obstacle)
    changed = data.draw(st.lists(st.integers(0, grid.size - 1), max_size=4, unique=True), label="changed")
    now = list(obstacle)
    wall = 10_000  # above every line, as a PG barrage
    for c in changed:
        now[c] = data.draw(st.sampled_from((0, CORN, WOODS, 2 * LEVEL, wall)), label=f"height of {c}")
    after = before.with_obstacles(now)
    fresh = Sight(grid, ground, now)
    for o in observers:
        expected = fresh.visible([o], target)[0]
        assert after.visible([o], target)[0].tolist() == expected.tolist()
        assert after.relook(o, before.visible([o], target)[0], changed, target).tolist() == expected.tolist(), o
        assert [after.sees(o, b, target) for b in grid.cells()] == expected.tolist(), o
        if extra is not None:  # heights added in play stand on the new ones (with_obstacles patches its tops)
            assert [after.sees(o, b, target, extra) for b in grid.cells()] == fresh.visible([o], target, extra)[
                0
            ].tolist()


def test_relook_hands_back_the_row_itself_when_no_line_passes_over_the_cells():
    grid = HexGrid(9, 9, "odd-q")
    sight = Sight(grid, [0] * grid.size, [0] * grid.size)
    o = Observer(grid.index(4, 4), 1, 3)
    row = sight.visible([o])[0]
    far, next_to = grid.index(0, 0), grid.neighbors(o.cell)[0]  # out of range; an end of every line it is on
    assert sight.relook(o, row, [far]) is row and sight.relook(Observer(o.cell, 1, 1), row, [next_to]) is row


def test_with_obstacles_needs_one_height_per_cell():
    with pytest.raises(ValueError, match="one height per cell"):
        Sight(SquareGrid(2, 2), [0] * 4, [0] * 4).with_obstacles([0] * 3)
