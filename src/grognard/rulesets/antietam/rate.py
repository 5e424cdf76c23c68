"""A quick rating of a decision from a seat's view alone, for the greedy player (one ply, no search): pick up
units that have not acted, move them toward the enemy or the victory squares, plot fire, then end the phase."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from grognard.engine.decisions import Decision

from . import decisions as D
from .board import IntArray
from .ctx import Ctx

_CACHE: dict[int, tuple[Mapping[str, Any], dict[str, Any], IntArray]] = {}


def _digest(ctx: Ctx, view: Mapping[str, Any], seat: str) -> tuple[dict[str, Any], IntArray]:
    """The seat's units by id and the squares it makes for (kept for the view being rated)."""
    key = id(view)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is view:
        return hit[1], hit[2]
    state = view.get("state", view)
    grid = ctx.board.grid
    units = {u["id"]: u for u in state["units"] if u["side"] == seat}
    enemies = [u["cell"] for u in state["units"] if u["side"] != seat and u.get("square")]  # the view's own index
    goals = [grid.parse(v["square"]) for v in state["victory_squares"] if v["holder"] != seat or seat == "confederate"]
    _CACHE.clear()
    _CACHE[key] = (view, units, np.array(enemies + goals, dtype=np.int64))
    return units, _CACHE[key][2]


def quick_rate(ctx: Ctx, view: Mapping[str, Any], seat: str, d: Decision) -> int:
    board = ctx.board
    if isinstance(d, D.Plot):
        return 3 * len(d.orders)
    units, goals = _digest(ctx, view, seat)
    if isinstance(d, D.Access):
        u = units.get(d.unit)
        return 2 if u is not None and not u["acted"] and u["op"] >= 2 and not u["held"] else -1
    if isinstance(d, D.Next):
        return 1
    if isinstance(d, D.Abort):  # (Z) would undo the move it just rated best
        return -1
    if isinstance(d, D.Activate):  # §IA3.1 an activation unused is lost
        return 5
    if isinstance(d, D.Move) and len(goals):
        a, b = board.square(d.at), board.square(d.to)
        near = goals[int(board.dist[a, goals].argmin())]  # the first nearest, as min() would pick
        return 10 * (int(board.dist[a, near]) - int(board.dist[b, near]))
    return 0
