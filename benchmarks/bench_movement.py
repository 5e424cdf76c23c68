"""Movement: every cell a unit can reach, ours (Dial's buckets in Python) against scipy's compiled Dijkstra.

Run: ``python benchmarks/bench_movement.py`` (needs the ``bench`` extra: ``pip install -e '.[bench]'``).

The map is 42x36 hexes with The Perfect General's costs counted in half points (PG p.22: a road "at half the
cost of movement through clear terrain"): clear 2, along a road 1, forest 12 (PG p.22: entering a wood takes
"half their movement rate"). Each repetition searches from the same 60 start cells (a side's units) with one
budget: a medium tank's 5 MP (10 half points), an armored car's 9 MP (18), and a budget that reaches the
whole map. Ours: :func:`reach` over precomputed :class:`EdgeCosts`. Peer:
``scipy.sparse.csgraph.dijkstra(csr, indices=start, limit=budget)``, one call per start, over a CSR matrix of
the same steps built once before the timing. Both find the same cells at the same costs (checked).
Target: ours at most 2 times scipy's time at the realistic budgets.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from grognard.engine.geometry import HexGrid
from grognard.engine.movement import EdgeCosts, edge_costs, reach
from timing import compare, fmt, header, table, verdict

COLUMNS, ROWS, STARTS = 42, 36, 60
CLEAR, ROAD, FOREST = 2, 1, 12
TARGET = 2.0
BUDGETS = [("medium tank, 5 MP", 10, True), ("armored car, 9 MP", 18, True), ("whole map", 10_000, False)]


def perfect_general_like(rng: np.random.Generator) -> tuple[HexGrid, EdgeCosts]:
    """Clear ground with forest clumps and a few roads drawn as straight lines between far-apart hexes."""
    grid = HexGrid(COLUMNS, ROWS, "odd-q")
    forest = set(np.flatnonzero(rng.random(grid.size) < 0.12).tolist())
    for seed in rng.choice(grid.size, 25, replace=False).tolist():
        forest.update(grid.within(seed, 1))
    road: set[tuple[int, int]] = set()
    for _ in range(6):
        a, b = (int(x) for x in rng.choice(grid.size, 2, replace=False))
        line = [c for c in grid.line(a, b) if c >= 0]
        for x, y in itertools.pairwise(line):
            if grid.adjacent(x, y):
                road.update({(x, y), (y, x)})
    forest -= {c for step in road for c in step}

    def cost(a: int, b: int, d: int) -> int:
        if (a, b) in road:
            return ROAD
        return FOREST if b in forest else CLEAR

    return grid, edge_costs(grid, cost)


def to_csr(costs: EdgeCosts) -> csr_matrix:
    rows, cols, weights = [], [], []
    for a, steps in enumerate(costs):
        for b, c in steps:
            rows.append(a)
            cols.append(b)
            weights.append(float(c))
    n = len(costs)
    return csr_matrix((np.array(weights), (np.array(rows), np.array(cols))), shape=(n, n))


def check_same(costs: EdgeCosts, csr: csr_matrix, starts: list[int], budget: int) -> int:
    """Both sides reach the same cells at the same cost; returns the cells reached per start, on average."""
    total = 0
    for s in starts:
        ours = reach(costs, s, budget)
        theirs = dijkstra(csr, indices=s, limit=budget)
        finite = np.flatnonzero(np.isfinite(theirs)).tolist()
        assert sorted(ours.reached) == finite, s
        assert all(ours.cost[c] == theirs[c] for c in finite), s
        total += len(finite)
    return total // len(starts)


def main() -> None:
    header("bench_movement: reach() from 60 units on 42x36 hexes", "scipy.sparse.csgraph.dijkstra with limit")
    rng = np.random.default_rng(1939)
    grid, costs = perfect_general_like(rng)
    csr = to_csr(costs)
    starts = [int(s) for s in rng.choice(grid.size, STARTS, replace=False)]
    rows = []
    for name, budget, targeted in BUDGETS:
        cells = check_same(costs, csr, starts, budget)

        def ours(budget: int = budget) -> None:
            for s in starts:
                reach(costs, s, budget)

        def peer(budget: int = budget) -> None:
            for s in starts:
                dijkstra(csr, indices=s, limit=budget)

        c = compare(ours, peer, reps=15)
        per_call_ours = type(c.ours)(c.ours.median / STARTS, c.ours.low / STARTS, c.ours.high / STARTS)
        per_call_peer = type(c.peer)(c.peer.median / STARTS, c.peer.low / STARTS, c.peer.high / STARTS)
        rows.append(
            [
                f"{name} (budget {budget})",
                str(cells),
                fmt(per_call_ours, "us"),
                fmt(per_call_peer, "us"),
                verdict(c.ratio, TARGET) if targeted else f"{c.ratio:.2f}x (info)",
            ]
        )
    table(["budget", "cells reached", "ours us/call median (min-max)", "scipy us/call median (min-max)", "ratio"], rows)


if __name__ == "__main__":
    main()
