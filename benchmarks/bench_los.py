"""Line of sight: a full visibility refresh of 300 units, ours against tcod's symmetric shadowcasting.

Run: ``python benchmarks/bench_los.py`` (needs the ``bench`` extra: ``pip install -e '.[bench]'``).

Ours: :meth:`Sight.visible` for 300 Antietam-like observers on a 42x36 square map with elevation levels of
45 ft, woods 20 ft, towns 30 ft and cornfields 6 ft (BA 8.3), eyes and targets 5 ft (units), sight range 4,
8, 12 or 16 squares by the observer's level (BA 8.3) and a 90-degree facing V (BA 7.9); then the same units
looking all around (tcod always looks all around, so this is the like-for-like case).
Peer: ``tcod.map.compute_fov`` with ``FOV_SYMMETRIC_SHADOWCAST`` from the same 300 positions with the same
radii on a flat, fully transparent map of the same size (tcod has no heights; this is the fastest it gets).
Target: ours at most 10 times tcod's time. A hex case (300 units, range 25 as in The Perfect General's clear
weather, PG p.32, all around, 42x36 hexes) is reported for information.
"""

from __future__ import annotations

import numpy as np
import tcod

from grognard.engine import los
from grognard.engine.geometry import Grid, HexGrid, SquareGrid
from grognard.engine.los import Observer, Sight
from timing import Timing, compare, fmt, header, table, time_alone, verdict

COLUMNS, ROWS, UNITS = 42, 36, 300
LEVEL_FEET, WOODS, TOWN, CORN, UNIT = 45, 20, 30, 6, 5
TARGET = 10.0


def smooth_field(rng: np.random.Generator, passes: int = 4) -> np.ndarray:
    """Random noise averaged with its neighbours a few times: hills and clumps rather than salt and pepper."""
    f = rng.normal(size=(ROWS, COLUMNS))
    for _ in range(passes):
        f = (f + np.roll(f, 1, 0) + np.roll(f, -1, 0) + np.roll(f, 1, 1) + np.roll(f, -1, 1)) / 5
    return f


def antietam_like(rng: np.random.Generator) -> tuple[SquareGrid, np.ndarray, np.ndarray, np.ndarray]:
    """A square map with levels 1-4 and woods, towns and cornfields in clumps."""
    grid = SquareGrid(COLUMNS, ROWS)
    hills = smooth_field(rng)
    level = 1 + np.searchsorted(np.quantile(hills, [0.35, 0.65, 0.88]), hills).ravel()
    cover = smooth_field(rng).ravel()
    obstacle = np.zeros(grid.size, dtype=np.int64)
    obstacle[cover > np.quantile(cover, 0.75)] = WOODS
    obstacle[(cover < np.quantile(cover, 0.10))] = CORN
    obstacle[rng.random(grid.size) < 0.03] = TOWN
    ground = (level - 1) * LEVEL_FEET
    return grid, level, ground, obstacle


def tcod_refresh(observers: list[Observer], grid: Grid, radius_of: dict[int, int]) -> int:
    """Fields of view from every observer's square on a flat transparent map; returns the cells seen."""
    transparent = np.ones((ROWS, COLUMNS), dtype=np.bool_, order="C")
    seen = 0
    for o in observers:
        col, row = grid.coord(o.cell)
        fov = tcod.map.compute_fov(
            transparent,
            (row, col),
            radius=radius_of[o.cell],
            light_walls=True,
            algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST,
        )
        seen += int(fov.sum())
    return seen


def first_refresh(sight: Sight, observers: list[Observer], target: int) -> Timing:
    """A refresh that also builds the line tables (what the first turn of a game pays)."""

    def run() -> None:
        los._line_table.cache_clear()
        los._cone_mask.cache_clear()
        sight.visible(observers, target)

    return time_alone(run, reps=5, warmup=0)


def main() -> None:
    header("bench_los: full visibility refresh, 300 units on 42x36", "tcod.map.compute_fov FOV_SYMMETRIC_SHADOWCAST")
    rng = np.random.default_rng(1862)
    grid, level, ground, obstacle = antietam_like(rng)
    cells = rng.choice(grid.size, UNITS, replace=False)
    observers = [Observer(int(c), UNIT, 4 * int(level[c]), int(rng.integers(1, 9))) for c in cells]
    radius_of = {o.cell: o.range for o in observers}
    sight = Sight(grid, ground.tolist(), obstacle.tolist())
    flat = Sight(grid, [0] * grid.size, [0] * grid.size)

    antietam = compare(lambda: sight.visible(observers, UNIT), lambda: tcod_refresh(observers, grid, radius_of))
    around = [Observer(o.cell, o.eye, o.range) for o in observers]  # the same units, no facing: every direction
    around_cmp = compare(lambda: sight.visible(around, UNIT), lambda: tcod_refresh(around, grid, radius_of))
    flat_cmp = compare(lambda: flat.visible(observers, UNIT), lambda: tcod_refresh(observers, grid, radius_of))
    first = first_refresh(sight, observers, UNIT)
    seen_ours = int(sight.visible(observers, UNIT).sum())
    seen_flat = int(flat.visible(observers, UNIT).sum())
    seen_tcod = tcod_refresh(observers, grid, radius_of)

    hexes = HexGrid(COLUMNS, ROWS, "odd-q")
    hex_hills = 1 + np.searchsorted(np.quantile(smooth_field(rng), [0.5, 0.8]), smooth_field(rng)).ravel()
    hex_forest = np.where(smooth_field(rng).ravel() > 0.3, 1000, 0)  # PG p.22: forest blocks vision
    hex_sight = Sight(hexes, hex_hills.tolist(), hex_forest.tolist())
    hex_observers = [Observer(int(c), 1, 25) for c in cells]
    hex_radius = dict.fromkeys((o.cell for o in hex_observers), 25)
    hex_cmp = compare(
        lambda: hex_sight.visible(hex_observers, 1), lambda: tcod_refresh(hex_observers, grid, hex_radius), reps=7
    )

    rows = [
        [
            "Antietam squares, terrain, facing V",
            fmt(antietam.ours),
            fmt(antietam.peer),
            verdict(antietam.ratio, TARGET),
            f"{seen_ours} / {seen_tcod}",
        ],
        [
            "same squares and terrain, all around",
            fmt(around_cmp.ours),
            fmt(around_cmp.peer),
            verdict(around_cmp.ratio, TARGET),
            f"{int(sight.visible(around, UNIT).sum())}",
        ],
        ["same observers, flat map", fmt(flat_cmp.ours), fmt(flat_cmp.peer), f"{flat_cmp.ratio:.2f}x", f"{seen_flat}"],
        ["first refresh (builds line tables)", fmt(first), "", "", ""],
        [
            "hex, range 25, all around (info)",
            fmt(hex_cmp.ours),
            fmt(hex_cmp.peer),
            f"{hex_cmp.ratio:.2f}x",
            f"{int(hex_sight.visible(hex_observers, 1).sum())}",
        ],
    ]
    table(["case", "ours ms median (min-max)", "tcod ms median (min-max)", "ratio", "cells seen ours / tcod"], rows)


if __name__ == "__main__":
    main()
