"""Movement: Dial's bucketed search against a brute-force Bellman-Ford, and the rules its options carry.

Costs are in each ruleset's unit; The Perfect General counts half points, so a road step costs 1 and a clear
step 2 (PG p.22: roads "allow a unit to move at half the cost of movement through clear terrain").
"""

from __future__ import annotations

import itertools
from collections.abc import Collection

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grognard.engine.geometry import HexGrid, SquareGrid
from grognard.engine.movement import (
    UNREACHED,
    EdgeCosts,
    LazyCosts,
    StepHook,
    edge_costs,
    path_cost,
    reach,
    same_search,
)
from strategies import draw_cell, grids

STEP_COSTS = (None, 0, 1, 1, 2, 2, 3, 7)  # None: the step is prohibited


def bellman_ford(
    costs: EdgeCosts,
    start: int,
    budget: int,
    blocked: Collection[int] = (),
    stop: Collection[int] = (),
    hook: StepHook | None = None,
    hook_cells: Collection[int] = (),
    min_one: bool = False,
) -> list[int]:
    """The cheapest cost of every cell, by relaxing every allowed step until nothing changes; then the one
    step ``min_one`` grants into a cell nothing else reaches, for the whole budget."""

    def step_cost(u: int, v: int, c: int) -> int | None:
        if v in blocked:
            return None
        if hook is not None and (u in hook_cells or v in hook_cells):
            return hook(u, v, c, u == start)
        return c

    cost = [UNREACHED] * len(costs)
    cost[start] = 0
    changed = True
    while changed:
        changed = False
        for u in range(len(costs)):
            if cost[u] >= UNREACHED or (u in stop and u != start):
                continue
            for v, c in costs[u]:
                sc = step_cost(u, v, c)
                if sc is not None and cost[u] + sc <= budget and cost[u] + sc < cost[v]:
                    cost[v] = cost[u] + sc
                    changed = True
    if min_one and budget > 0:
        for v, c in costs[start]:
            sc = step_cost(start, v, c)
            if sc is not None and sc > budget and cost[v] == UNREACHED:
                cost[v] = budget
    return cost


def random_hook(u: int, v: int, c: int, first: bool) -> int | None:
    """A zone-of-control-like rule that depends on the step: forbids some steps, charges extra for others."""
    if (u * 7 + v) % 5 == 0:
        return None
    return c + u % 3 + (2 if first else 0)


@st.composite
def movement_problems(draw: st.DrawFn) -> tuple:
    grid = draw(grids(max_side=7))
    table = draw(st.lists(st.sampled_from(STEP_COSTS), min_size=grid.size * 8, max_size=grid.size * 8))
    costs = edge_costs(grid, lambda a, b, d: table[a * 8 + d - 1])
    cell_sets = st.frozensets(st.integers(0, grid.size - 1), max_size=max(1, grid.size // 4))
    start = draw(st.integers(0, grid.size - 1))
    options = {
        "blocked": draw(cell_sets) - {start},
        "no_stop": draw(cell_sets),
        "stop": draw(cell_sets),
        "min_one": draw(st.booleans()),
    }
    if draw(st.booleans()):
        options["hook"] = random_hook
        options["hook_cells"] = draw(cell_sets)
    budget = draw(st.integers(0, 14))
    return grid, costs, start, budget, options


def walk_cost(costs: EdgeCosts, path: list[int], options: dict, budget: int) -> int:
    """What ``reach`` charges for walking ``path``: the static costs, changed by the hook and min_one."""
    hook, hook_cells = options.get("hook"), options.get("hook_cells", ())
    total = 0
    for a, b in itertools.pairwise(path):
        c = dict(costs[a])[b]
        if hook is not None and (a in hook_cells or b in hook_cells):
            c = hook(a, b, c, a == path[0])
            assert c is not None
        total += c
        if total > budget:
            assert options["min_one"] and a == path[0] and len(path) == 2
            total = budget
    return total


@given(movement_problems())
def test_reach_finds_the_cheapest_cost_of_every_cell(problem):
    grid, costs, start, budget, options = problem
    r = reach(costs, start, budget, **options)
    no_stop = options.pop("no_stop")
    assert list(r.cost) == bellman_ford(costs, start, budget, **options)
    assert sorted(r.reached) == [c for c in grid.cells() if r.cost[c] < UNREACHED]
    assert r.destinations() == sorted(set(r.reached) - {start} - no_stop)


@given(movement_problems())
def test_every_path_is_an_allowed_walk_costing_what_reach_says(problem):
    _, costs, start, budget, options = problem
    r = reach(costs, start, budget, **options)
    for cell in r.reached:
        path = r.path(cell)
        assert path[0] == start and path[-1] == cell
        assert not set(path) & options["blocked"]
        assert not set(path[1:-1]) & (options["stop"] - {start})
        assert walk_cost(costs, path, options, budget) == r.cost[cell]
        if "hook" not in options and not (options["min_one"] and len(path) == 2):
            assert path_cost(costs, path) == r.cost[cell]


@given(movement_problems())
def test_a_table_whose_rows_are_worked_out_when_asked_searches_as_the_whole_table(problem):
    _, costs, start, budget, options = problem
    asked: list[int] = []
    lazy = LazyCosts([None] * len(costs), lambda cell: asked.append(cell) or costs[cell])
    r, whole = reach(lazy, start, budget, **options), reach(costs, start, budget, **options)
    assert (r.cost, r.prev, r.reached) == (whole.cost, whole.prev, whole.reached)
    assert len(asked) == len(set(asked)) and set(asked) <= set(whole.reached)  # each row once, where it went
    for cell in whole.reached:
        assert path_cost(lazy, whole.path(cell)) == path_cost(costs, whole.path(cell))


@given(movement_problems())
def test_a_search_told_the_cheapest_step_is_the_same_search(problem):
    # least: a cell reached with less than the cheapest step left is not gone on from, which changes no answer
    _, costs, start, budget, options = problem
    least = min((c for row in costs for _, c in row), default=0)
    told, whole = reach(costs, start, budget, least=least, **options), reach(costs, start, budget, **options)
    assert (told.cost, told.prev, told.reached) == (whole.cost, whole.prev, whole.reached)


@given(movement_problems(), st.data())
def test_a_search_said_the_same_with_other_cells_blocked_is_that_search(problem, data):
    # an enemy spotted or lost from sight where a unit's search never went leaves its moves as they were
    grid, costs, start, budget, options = problem
    options.pop("hook", None)
    options.pop("hook_cells", None)
    then = reach(costs, start, budget, **options)
    now = data.draw(st.frozensets(st.integers(0, grid.size - 1), max_size=max(1, grid.size // 4)), label="now") - {
        start
    }
    if data.draw(st.booleans(), label="one changed"):  # mostly one enemy more or less
        cell = data.draw(st.integers(0, grid.size - 1), label="cell")
        now = (options["blocked"] ^ {cell}) - {start}
    fresh = reach(costs, start, budget, **{**options, "blocked": now})
    kept = (options["stop"], options["min_one"])
    near = [grid.neighbors(c) for c in grid.cells()]
    same = same_search(then, costs, options["blocked"], now, stop=kept[0], min_one=kept[1])
    assert same == same_search(then, costs, options["blocked"], now, stop=kept[0], min_one=kept[1], near=near)
    if same:
        assert (fresh.cost, fresh.prev, fresh.reached) == (then.cost, then.prev, then.reached)
    elif now != options["blocked"]:  # said different: then it is, when nothing else changed
        assert fresh.cost != then.cost or fresh.reached != then.reached or fresh.prev != then.prev


@given(st.data(), grids(max_side=8))
def test_paths_on_ties_are_the_same_on_every_run_and_for_every_kind_of_collection(data, grid):
    costs = edge_costs(grid, lambda a, b, d: 1 + (b % 2))
    start = draw_cell(data, grid)
    blocked = sorted(data.draw(st.sets(st.integers(0, grid.size - 1), max_size=4)) - {start})
    kinds = (list, tuple, set, frozenset, dict.fromkeys, lambda cells: cells[::-1])
    runs = [reach(costs, start, 12, blocked=kind(blocked)) for kind in kinds]
    assert all(r.prev == runs[0].prev and r.reached == runs[0].reached for r in runs)


def test_ties_keep_the_first_path_found_in_direction_order():
    # from 0,0 to 2,0 on open squares: east-east and south-east/north-east tie; east (direction 3) comes first
    grid = SquareGrid(3, 3)
    r = reach(edge_costs(grid, lambda a, b, d: 1), grid.index(0, 0), 5)
    assert r.path(grid.index(2, 0)) == [grid.index(0, 0), grid.index(1, 0), grid.index(2, 0)]
    assert r.path(grid.index(2, 2)) == [grid.index(0, 0), grid.index(1, 1), grid.index(2, 2)]


# --- the options, one by one -------------------------------------------------------------------------------


def open_row(n: int, cost: int = 1) -> EdgeCosts:
    """Steps along a one-row square map: cell i is column i."""
    return edge_costs(SquareGrid(n, 1), lambda a, b, d: cost)


def perfect_general_field() -> tuple[HexGrid, EdgeCosts]:
    """A 5x3 hex field, in half points: a road along the middle row (1), clear (2), forest at 2,0 (large)."""
    grid = HexGrid(5, 3, "odd-q")
    road = {grid.index(c, 1) for c in range(5)}
    forest = {grid.index(2, 0)}

    def cost(a: int, b: int, d: int) -> int:
        if a in road and b in road:
            return 1  # PG p.22: only along the road
        return 20 if b in forest else 2

    return grid, edge_costs(grid, cost)


def test_a_medium_tank_follows_the_road_at_half_cost():
    # a 5 MP unit has a budget of 10 half points: five road steps, or five clear steps at most
    grid, costs = perfect_general_field()
    r = reach(costs, grid.index(0, 1), 10)
    assert r.cost[grid.index(4, 1)] == 4
    assert r.path(grid.index(4, 1)) == [grid.index(c, 1) for c in range(5)]
    assert r.cost[grid.index(4, 2)] == 5  # four road steps, then off the road onto clear
    assert not r.can_reach(grid.index(2, 0))  # forest costs more than the whole budget


def test_blocked_cells_cannot_be_entered_or_passed():
    # PG p.26: "a moving unit cannot move through a location occupied by an enemy unit"
    costs = open_row(5)
    r = reach(costs, 0, 10, blocked={2})
    assert [r.can_reach(c) for c in range(5)] == [True, True, False, False, False]
    assert r.destinations() == [1]


def test_no_stop_cells_can_be_passed_but_not_ended_in():
    # PG p.25: two units may not "occupy the same location, unless one of them is moving"
    costs = open_row(4)
    r = reach(costs, 0, 10, no_stop={1, 2})
    assert [r.can_reach(c) for c in range(4)] == [True] * 4
    assert r.destinations() == [3]
    assert r.path(3) == [0, 1, 2, 3]


def test_stop_cells_end_the_move_on_entering():
    costs = open_row(4)
    r = reach(costs, 0, 10, stop={1})
    assert r.can_reach(1) and not r.can_reach(2)
    assert r.destinations() == [1]
    started_in_stop = reach(costs, 1, 10, stop={1})  # a unit standing in such a cell may leave it
    assert started_in_stop.destinations() == [0, 2, 3]


def test_hook_sees_only_steps_into_or_out_of_its_cells_and_sets_their_cost():
    costs = open_row(5)
    calls: list[tuple[int, int, int, bool]] = []

    def zoc(frm: int, to: int, base: int, first: bool) -> int | None:
        calls.append((frm, to, base, first))
        if frm == 2:
            return None  # may not leave the zone once in it
        return base + 3  # entering the zone costs 3 more

    r = reach(costs, 0, 10, hook=zoc, hook_cells={2})
    assert list(r.cost[:3]) == [0, 1, 5] and not r.can_reach(3)
    assert sorted(set(calls)) == [(1, 2, 1, False), (2, 1, 1, False), (2, 3, 1, False)]
    r = reach(costs, 1, 10, hook=zoc, hook_cells={2})
    assert (1, 2, 1, True) in calls and r.cost[2] == 4


def test_min_one_lets_a_unit_always_move_one_location():
    # PG p.26: "a unit can always move a minimum of one location within a turn"; the step uses all points
    grid, costs = perfect_general_field()
    start, forest = grid.index(2, 1), grid.index(2, 0)
    assert not reach(costs, start, 10).can_reach(forest)
    r = reach(costs, start, 10, min_one=True)
    assert r.cost[forest] == 10 and forest in r.destinations()
    assert r.path(forest) == [start, forest]
    # only from where it stands, not onward, and never into a cell it may not enter
    one_step = reach(costs, grid.index(3, 1), 3, min_one=True)
    assert not one_step.can_reach(forest)
    assert not reach(costs, start, 10, min_one=True, blocked={forest}).can_reach(forest)
    assert reach(costs, start, 0, min_one=True).reached == [start]


def test_the_min_one_step_ends_the_move_even_before_a_free_step():
    # the step "whatever it costs" spends the whole budget: a zero-cost step after it is not a second location
    grid = SquareGrid(3, 1)
    costs = edge_costs(grid, lambda a, b, d: {(0, 1): 5, (1, 2): 0}.get((a, b), 1))
    r = reach(costs, 0, 2, min_one=True)
    assert r.cost[1] == 2 and not r.can_reach(2)
    assert r.destinations() == [1]


def test_the_min_one_step_is_not_taken_where_an_ordinary_path_reaches():
    # 1,0 straight from 0,0 costs 20; by way of 1,1 (south-east, before south) it costs the budget exactly
    grid = SquareGrid(2, 2)
    costs = edge_costs(grid, lambda a, b, d: 20 if (a, b) == (0, 1) else 1)
    r = reach(costs, 0, 2, min_one=True)
    assert r.cost[1] == 2 and r.path(1) == [0, 3, 1] and path_cost(costs, r.path(1)) == 2


def test_a_search_on_a_map_past_16_bit_cells_holds_its_paths() -> None:
    # a search keeps its numbers in the narrowest machine integers that hold them: on a map of more than 32,767
    # cells a previous cell may not fit in 16 bits
    n = 40_000
    line = tuple(tuple((b, 1) for b in (a - 1, a + 1) if 0 <= b < n) for a in range(n))  # a line of 40,000
    r = reach(line, n - 30, 25)
    assert r.path(n - 6) == list(range(n - 30, n - 5)) and r.cost[n - 6] == 24 and r.cost[n - 1] == UNREACHED
    assert r.path(n - 55) == list(range(n - 30, n - 56, -1))


def test_zero_cost_steps_are_followed_within_the_same_bucket():
    costs = open_row(6, cost=0)
    assert list(reach(costs, 0, 0).cost) == [0] * 6


def test_edge_costs_skip_prohibited_steps_and_refuse_negative_costs():
    grid = SquareGrid(2, 2)
    costs = edge_costs(grid, lambda a, b, d: None if d % 2 == 0 else 1)
    assert costs[0] == ((1, 1), (2, 1))  # east then south; the diagonal to 3 is prohibited
    with pytest.raises(ValueError, match="never negative"):
        edge_costs(grid, lambda a, b, d: -1)


def test_path_cost_and_path_refuse_what_cannot_be_walked():
    costs = open_row(4)
    assert path_cost(costs, [0, 1, 2]) == 2 and path_cost(costs, [0]) == 0
    assert path_cost(costs, [0, 2]) is None
    r = reach(costs, 0, 1)
    with pytest.raises(ValueError, match="not reached"):
        r.path(3)


def test_a_search_that_fails_leaves_the_next_search_as_a_fresh_one() -> None:
    # reach works in a list of costs it keeps for the thread and puts back as it was: a step hook that raises in
    # the middle of a search must not leave the costs it had written for the next search to find
    grid = HexGrid(9, 9)
    costs = edge_costs(grid, lambda a, b, d: 2)
    start, blocked = grid.size // 2, frozenset({3, 4})
    fresh = reach(costs, start, 8, blocked=blocked)

    def fails(u: int, v: int, c: int, first: bool) -> int | None:
        if not first:
            raise RuntimeError("a hook that fails")
        return c

    with pytest.raises(RuntimeError):
        reach(costs, start, 8, blocked=blocked, hook=fails, hook_cells=frozenset(range(grid.size)))
    again = reach(costs, start, 8, blocked=blocked)
    assert (list(again.cost), list(again.prev), again.reached) == (list(fresh.cost), list(fresh.prev), fresh.reached)
