"""Quick judgement for the greedy player and the plot suggested on the page, from a seat's view only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.engine import Decision

from . import decisions as D
from .board import Ctx

# Where each side's spearheads and reserves head (§11.1's towns): Oboyan and Prokhorovka for both.
GOALS = ("Oboyan", "Prokhorovka")


def _goal_cells(ctx: Ctx) -> list[int]:
    return [ctx.map.place(n).cells[0] for n in GOALS]


def suggest_plot(ctx: Ctx, view: Mapping[str, Any], gid: int) -> str | None:
    """A plot for the group: an adjacent seen enemy to attack, else a step toward the nearer goal."""
    g = next((x for x in view["groups"] if x["id"] == gid), None)
    if g is None:
        return None
    grid = ctx.grid
    here = int(g["cell"])
    enemies = {int(e["cell"]) for e in view["enemies"]}
    if g["mode"] == "static":
        for d in range(1, 7):
            n = grid.neighbor(here, d)
            if n in enemies:
                return f"R{d}"
        return None
    if g["mode"] not in ("assault", "mobile"):
        return None
    for d in range(1, 7):
        if grid.neighbor(here, d) in enemies:
            return f"{d}"
    if g["side"] == "soviet":
        return "0"
    goal = min(_goal_cells(ctx), key=lambda c: grid.distance(here, c))
    best = min(
        (d for d in range(1, 7) if grid.neighbor(here, d) >= 0),
        key=lambda d: grid.distance(grid.neighbor(here, d), goal),
    )
    return str(best)


def rate(ctx: Ctx, view: Mapping[str, Any], seat: str, d: Decision) -> int:
    """Higher is better: supply the groups, plot every group, move the German toward the goals."""
    view = view.get("state", view)
    match d:
        case D.Distribute():
            return 50
        case D.Plot():
            return 20
        case D.NewDepot():
            return 5 if view.get("depot") is None else -5
        case D.MoveDepot(direction=x):
            # toward the front: the German north, the Soviet west
            return 3 if (seat == "german" and x in (1, 2, 6)) or (seat == "soviet" and x in (5, 6)) else -1
        case D.SetMode(mode=mode):
            if seat == "german":
                return 4 if mode == "assault" else -2
            return 4 if mode == "static" else -2
        case D.EndGame():
            return -100
        case D.EndPhase() | D.Commit():
            return 0
    return -1
