"""Movement: every cell a unit can reach within its movement points, and the cheapest path to one of them.

Costs are small non-negative integers in the ruleset's unit (The Perfect General counts half points, so a
road step costs 1 and a clear step 2). A ruleset precomputes :class:`EdgeCosts` for each movement class from
the terrain tables (terrain of the cell entered, roads only along the road, uphill, hexside features,
prohibited terrain), then adds what changes during play when it asks for a reach: cells that cannot be
entered (enemy units), cells that can be passed but not ended in (friendly units), cells where movement must
stop, and a hook for costs that depend on the step itself (entering or leaving a zone of control).

The search is Dial's bucketed Dijkstra over the integer costs: exact, deterministic (neighbours are visited
in direction order and ties keep the first path found), and linear in the cells reached.
"""

from __future__ import annotations

import itertools
import threading
from array import array
from collections.abc import Callable, Collection, Iterable, MutableSequence, Sequence
from dataclasses import dataclass

from .geometry import Grid

UNREACHED = 1 << 30
BLOCKED = -1  # the cost a blocked cell holds during a search
PREALLOCATED = 1024  # budgets below this get all their buckets at once
SCRATCHES = 4  # map sizes a thread keeps a search's scratch list for

Steps = tuple[tuple[int, int], ...]
"""The ``(neighbour, cost)`` pairs of the steps allowed out of one cell."""

EdgeCosts = tuple[Steps, ...]
"""For every cell, the ``(neighbour, cost)`` pairs of the steps allowed out of it."""


class LazyCosts(list[Steps | None]):
    """A cost table whose rows are worked out when first asked for (a search reaches a few hundred cells of a
    map of thousands): a row not yet worked out is None, and :meth:`row` works it out with ``fill`` and keeps it.
    ``reach`` and the other functions here take it wherever they take :data:`EdgeCosts`."""

    __slots__ = ("__weakref__", "_fill")

    def __init__(self, rows: Iterable[Steps | None], fill: Callable[[int], Steps]) -> None:
        super().__init__(rows)
        self._fill = fill

    def row(self, cell: int) -> Steps:
        found = self[cell]
        if found is None:
            found = self[cell] = self._fill(cell)
        return found


Costs = EdgeCosts | LazyCosts
"""A cost table, every row worked out or worked out when asked for."""


def steps_of(costs: Costs, cell: int) -> Steps:
    """The steps allowed out of ``cell`` (worked out now if ``costs`` is lazy and had not yet)."""
    found = costs[cell]
    if found is None:
        assert isinstance(costs, LazyCosts)
        found = costs.row(cell)
    return found


StepHook = Callable[[int, int, int, bool], int | None]
"""``hook(from, to, base_cost, first_step)`` -> the step's cost, or None if the step is not allowed."""


def edge_costs(grid: Grid, cost: Callable[[int, int, int], int | None]) -> EdgeCosts:
    """Precompute ``cost(from, to, direction)`` (None: prohibited) for every step of a grid."""
    table = grid.neighbor_table()
    out = []
    for a in range(grid.size):
        steps = []
        for d, b in enumerate(table[a], start=1):
            if b < 0:
                continue
            c = cost(a, b, d)
            if c is not None:
                if c < 0:
                    raise ValueError("movement costs are never negative")
                steps.append((b, c))
        out.append(tuple(steps))
    return tuple(out)


@dataclass(slots=True)
class Reach:
    """The result of a movement search from ``start``: each cell's cost (``UNREACHED`` where not reached) and the
    cell its cheapest path comes from (-1 where none), by cell, and the cells reached in the order found. The two
    by cell are arrays of machine integers: a search's thousands of numbers are not objects the garbage collector
    goes through (a search made lists of 2 x 2,240 references that every collection of young objects read)."""

    start: int
    budget: int
    cost: MutableSequence[int]
    prev: MutableSequence[int]
    reached: list[int]
    no_stop: Collection[int]

    def can_reach(self, cell: int) -> bool:
        return self.cost[cell] < UNREACHED

    def destinations(self) -> list[int]:
        """Cells the unit may end its move in (sorted), not counting where it stands."""
        found = set(self.reached)  # each cell once; set operations, not a generator: the cell drawn is listed
        found.difference_update(self.no_stop)
        found.discard(self.start)
        return sorted(found)

    def count_destinations(self, no_stop: Collection[int] | None = None) -> int:
        """How many :meth:`destinations` there are, without listing them: the cells reached but the start, less
        the cells not to be ended in that were reached (whichever of the two is shorter is looked through).
        ``no_stop``: count as if those were the cells not to be ended in."""
        cost, start = self.cost, self.start
        if no_stop is None:
            no_stop = self.no_stop
        # map over C-level methods, not a generator: sizing every unit's move is what random play and search do
        if len(no_stop) < len(self.reached):
            barred = sum(map(UNREACHED.__gt__, map(cost.__getitem__, no_stop)))  # cost < UNREACHED: reached
        else:
            barred = sum(map(no_stop.__contains__, self.reached))
        barred -= start in no_stop  # the start is reached, and never a destination
        return len(self.reached) - 1 - barred

    def path(self, cell: int) -> list[int]:
        """The cheapest path from the start to ``cell``, both included."""
        if self.cost[cell] >= UNREACHED:
            raise ValueError("cell not reached")
        out = [cell]
        while out[-1] != self.start:
            out.append(self.prev[out[-1]])
        out.reverse()
        return out


def reach(
    costs: Costs,
    start: int,
    budget: int,
    *,
    blocked: Collection[int] = (),
    no_stop: Collection[int] = (),
    stop: Collection[int] = (),
    hook: StepHook | None = None,
    hook_cells: Collection[int] = (),
    min_one: bool = False,
    least: int = 0,
) -> Reach:
    """Every cell reachable from ``start`` within ``budget``.

    - ``blocked``: cells that cannot be entered (an enemy unit; a unit cannot move through enemies).
    - ``no_stop``: cells that may be passed through but not ended in (a friendly unit).
    - ``stop``: cells where movement ends on entering.
    - ``hook``: called for steps into or out of ``hook_cells``, to change their cost or forbid them.
    - ``least``: no step costs less (hooked ones included): a cell reached with less left is not gone on from,
      which changes nothing but the work.
    - ``min_one``: a unit that has not moved may always make one allowed step, whatever it costs
      (PG p.26: "a unit can always move a minimum of one location"; BA 7.5). That step spends the whole
      budget and ends the move, and it is only taken into a cell the unit cannot reach otherwise.
    """
    n = len(costs)
    # the narrowest machine integers that hold the numbers (a cost kept is below UNREACHED, or the budget of a
    # min_one step; a previous cell is a cell or -1): 6 bytes a cell on a map of fewer than 32,768 cells instead
    # of 16, less memory to fill, and a cache of searches bounded by bytes keeps more than twice as many
    prev = array("h" if n < 1 << 15 else "i" if n < 1 << 31 else "q", (-1,)) * n
    # The search reads and writes its costs in a list kept by the thread (an array would make a number object
    # at every read of a cell not reached, UNREACHED being no small integer: a tenth of a search), copied into
    # the result's array at the end and put back as it was, cell by cell reached.
    cost = _scratch(n)
    reached = [start]
    try:
        for b in blocked:  # a cost below every step's makes the relaxation test refuse blocked cells by itself
            cost[b] = BLOCKED
        cost[start] = 0
        # One bucket per cost up to the budget when that is small (every unit's move); grown on demand otherwise.
        buckets: list[list[int]] = [[] for _ in range(budget + 1)] if budget < PREALLOCATED else [[]]
        buckets[0].append(start)
        start_steps = (
            steps_of(costs, start) if hook is None else _hooked_steps(costs, start, start, blocked, hook, hook_cells)
        )
        fill: Callable[[int], Steps] = costs.row if isinstance(costs, LazyCosts) else lambda u: steps_of(costs, u)
        add_reached = reached.append
        d, top = 0, len(buckets)  # the bucket being read, and how many there are
        # a cell reached with less than the cheapest step left goes nowhere: its bucket need not be read
        last = budget - least if least > 0 else budget
        while d < top and d <= last:
            for u in buckets[d]:  # zero-cost steps append to the bucket being read, which this loop then visits
                if cost[u] != d:
                    continue
                if u == start:
                    steps = start_steps
                elif u in stop:
                    continue
                elif hook is None:
                    found = costs[u]
                    steps = found if found is not None else fill(u)  # a row a lazy table had not worked out yet
                else:
                    steps = _hooked_steps(costs, u, start, blocked, hook, hook_cells)
                for v, c in steps:
                    nd = d + c
                    if nd < cost[v] and nd <= budget:  # the cheap test first: most fail it (blocked cells always)
                        if cost[v] == UNREACHED:
                            add_reached(v)
                        cost[v] = nd
                        prev[v] = u
                        if nd >= top:
                            buckets.extend([] for _ in range(nd + 1 - top))
                            top = nd + 1
                        buckets[nd].append(v)
            d += 1
        if min_one and budget > 0:  # after the search, so that the move ends there: no zero-cost step follows it
            for v, c in start_steps:
                if c > budget and cost[v] == UNREACHED:  # (a blocked cell holds BLOCKED)
                    reached.append(v)
                    cost[v] = budget
                    prev[v] = start
        result = array("i" if budget < UNREACHED else "q", (UNREACHED,)) * n
        for c in reached:
            result[c] = cost[c]
    finally:  # the scratch list as it was, whatever happened
        for c in reached:
            cost[c] = UNREACHED
        for b in blocked:
            cost[b] = UNREACHED
    return Reach(start, budget, result, prev, reached, no_stop)


_scratches = threading.local()


def _scratch(n: int) -> list[int]:
    """This thread's list of ``n`` costs, every one UNREACHED (a search leaves it so)."""
    kept: dict[int, list[int]] | None = getattr(_scratches, "lists", None)
    if kept is None:
        kept = _scratches.lists = {}
    found = kept.get(n)
    if found is None:
        if len(kept) >= SCRATCHES:
            kept.clear()
        found = kept[n] = [UNREACHED] * n
    return found


def same_search(
    found: Reach,
    costs: Costs,
    blocked_then: Collection[int],
    blocked_now: Collection[int],
    *,
    stop: Collection[int] = (),
    min_one: bool = False,
    near: Sequence[Sequence[int]] | None = None,
) -> bool:
    """Whether ``found``, a search over ``costs`` with ``blocked_then`` blocked, is also the search with
    ``blocked_now`` blocked instead (the same start, budget, ``stop`` and ``min_one``, no hook): it is when a
    cell blocked only now was not reached, and a cell blocked only then cannot be entered within the budget
    from a cell the search went on from (an enemy spotted far away leaves a unit's moves as they were).
    ``near`` lists for each cell those with a step into it (a grid's neighbours); without it every cell
    reached is looked at."""
    cost, start, budget = found.cost, found.start, found.budget
    for cell in blocked_now:
        if cell not in blocked_then and cost[cell] < UNREACHED:
            return False
    for cell in blocked_then:
        if cell in blocked_now:
            continue
        for u in found.reached if near is None else near[cell]:
            if cost[u] >= UNREACHED or (u != start and u in stop):
                continue
            for v, c in steps_of(costs, u):
                if v == cell and (cost[u] + c <= budget or (u == start and min_one and budget > 0)):
                    return False  # it can be entered now (the first step is always allowed with min_one)
    return True


def _hooked_steps(
    costs: Costs, u: int, start: int, blocked: Collection[int], hook: StepHook, hook_cells: Collection[int]
) -> list[tuple[int, int]]:
    """The steps out of ``u`` with the hook's cost for those into or out of ``hook_cells`` (forbidden ones left
    out). The hook is not asked about steps into blocked cells."""
    hooked_u = u in hook_cells
    out = []
    for v, c in steps_of(costs, u):
        if hooked_u or v in hook_cells:
            if v in blocked:
                continue
            h = hook(u, v, c, u == start)
            if h is None:
                continue
            c = h
        out.append((v, c))
    return out


def path_cost(costs: Costs, path: Sequence[int]) -> int | None:
    """The static cost of walking ``path`` step by step, or None if a step is not allowed."""
    total = 0
    for a, b in itertools.pairwise(path):
        for v, c in steps_of(costs, a):
            if v == b:
                total += c
                break
        else:
            return None
    return total
