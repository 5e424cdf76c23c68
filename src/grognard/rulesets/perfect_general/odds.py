"""The odds a player is shown before deciding (issue 15 item 3), from what its side knows: a close assault's
chance to win (p.30-32) and where an artillery shot may land (p.30)."""

from __future__ import annotations

from typing import Any

from grognard.engine.records import replace

from .combat import assault_odds
from .context import Ctx, own_units
from .moves import _assault_plans, can_move
from .state import PGState


def assault_chances(ctx: Ctx, state: PGState, seat: str) -> dict[str, dict[int, int]]:
    """For each unit that may close assault, the attacker's chance (per cent) to win against each known enemy it
    can reach, as the assault would be made: from the location it moves next to the enemy (p.30: higher ground
    and defensive terrain count from there). Only spotted enemies are assaulted, so nothing hidden is used."""
    out: dict[str, dict[int, int]] = {}
    for u in own_units(state, seat):
        if not (ctx.tables.units[u.type].has("assault") and not u.fired and can_move(ctx, u)):
            continue
        plans = _assault_plans(ctx, state, u)
        if plans:
            by_cell = {}
            for cell, start in plans.items():
                enemy = state.unit_at(cell)
                if enemy is not None:
                    by_cell[cell] = assault_odds(ctx, state, replace(u, cell=start), enemy)
            out[u.id] = by_cell
    return out


def plot_odds(ctx: Ctx, state: PGState, unit_types: dict[str, str]) -> dict[str, dict[str, Any]]:
    """For each artillery unit that may plot: its drift (p.30: 0 to that many hexes, each as likely, in any
    direction), the chance (per cent) it lands on the hex aimed at, and the chance a unit next to the strike is
    hit (p.30: the splash; certain under Always Hit)."""
    out: dict[str, dict[str, Any]] = {}
    for uid, utype in unit_types.items():
        ut = ctx.tables.units[utype]
        out[uid] = {
            "drift": ut.drift,
            "on_target": round(100 / (ut.drift + 1)),
            "splash": ut.splash if ctx.random_hit else 100,
        }
    return out
