"""Victory (§11): towns held (§11.1), each surviving weapon's AS + DS, and the levels of §11.2."""

from __future__ import annotations

from grognard.engine.protocol import Result

from .board import Ctx
from .state import KState


def points(ctx: Ctx, state: KState) -> dict[str, int]:
    """§11.1: town VPs by the side that last entered each town, plus AS + DS for every surviving weapon (groups
    still to arrive survive too)."""
    t = ctx.tables
    towns = t["victory"]["towns"]
    vp = {"german": 0, "soviet": 0}
    for town, side in state.control:
        vp[side] += int(towns[town])
    for g in state.groups:
        if g.alive:
            for name, n in g.counts().items():
                w = t.weapons[name]
                vp[g.side] += n * (w.attack + w.defence)
    return vp


def level(ctx: Ctx, difference: int) -> str:
    """§11.2: Soviet VPs minus German VPs against the table (AMB-16: 120000 is Soviet substantive)."""
    for lo, hi, name in ctx.tables["victory"]["levels"]["rows"]:
        if (lo == -1 or difference >= lo) and (hi == -1 or difference <= hi):
            return str(name)
    raise AssertionError("the §11.2 table covers every difference")


def result(ctx: Ctx, state: KState) -> Result:
    vp = points(ctx, state)
    name = level(ctx, vp["soviet"] - vp["german"])
    winner = "german" if name.startswith("German") else "soviet" if name.startswith("Soviet") else None
    summary = f"{name}: Soviet {vp['soviet']} VPs, German {vp['german']} VPs (difference {vp['soviet'] - vp['german']})"
    return Result(winner, {"german": name, "soviet": name}, vp, summary)
