"""Computer players for The Perfect General, working from a seat's view only.

``quick_rate`` is the one-look rating the generic greedy player uses. The computer general lives in
``general.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.engine import Decision

from . import decisions as D
from .context import Ctx


def _units(view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {u["id"]: u for u in view["units"]}


def _town_cells(view: Mapping[str, Any], seat: str, only_not_held: bool) -> list[int]:
    out: list[int] = []
    for t in view["towns"]:
        if only_not_held and t["holder"] == seat:
            continue
        out.extend(t["cells"])
    return out


def _distance_to(ctx: Ctx, cell: int, targets: list[int]) -> int:
    grid = ctx.board.grid
    return min((grid.distance(cell, t) for t in targets), default=0)


def _chance(ctx: Ctx, firer: Mapping[str, Any], target: Mapping[str, Any]) -> int:
    t = ctx.tables
    dist = ctx.board.grid.distance(firer["cell"], target["cell"])
    row = t.hit[(t.units[firer["type"]].attack, t.units[target["type"]].defense)]
    return row[dist - 1] if 1 <= dist <= len(row) else 0


def quick_rate(ctx: Ctx, view: Mapping[str, Any], seat: str, d: Decision) -> int:
    """A cheap score of one decision from ``seat``'s view: shoot what is likely to die and worth the most,
    move towards towns not yet held, buy and place near them, end a phase when nothing better is left."""
    view = view.get("state", view)  # the game's envelope holds the ruleset's view under "state"
    units = _units(view)
    t = ctx.tables
    match d:
        case D.Buy(type=ty):
            return {
                "medium_tank": 30,
                "infantry": 26,
                "light_tank": 22,
                "bazooka": 24,
                "heavy_tank": 18,
                "armored_car": 16,
                "light_artillery": 14,
                "engineer": 8,
                "mobile_artillery": 12,
                "heavy_artillery": 10,
                "mine": 4,
            }.get(ty, 1)
        case D.ConfirmPurchase(done=done):
            return 0 if done else 1
        case D.Place(type=ty, cell=c):
            return 100 - _distance_to(ctx, c, _town_cells(view, seat, False))
        case D.EndPlacement():
            return -1000 if view["sides"][seat].get("pool") else 0
        case D.PickUp() | D.PickUpMine():
            return -2000  # never: with the region full, picking up and placing again would go round forever
        case D.Plot(cell=c, barrage=b):
            near = [u for u in units.values() if u["side"] != seat and ctx.board.grid.distance(u["cell"], c) <= 1]
            mine = [u for u in units.values() if u["side"] == seat and ctx.board.grid.distance(u["cell"], c) <= 1]
            return 10 * len(near) - 20 * len(mine) - (1 if b else 0)
        case D.Fire(unit=u, target=x) | D.ReturnFire(unit=u, target=x) | D.PassingFire(unit=u, target=x):
            if u in units and x in units:
                return _chance(ctx, units[u], units[x]) * t.units[units[x]["type"]].cost // 4 + 1
            return 1
        case D.HoldFire():
            return 2
        case D.Move(unit=u, to=c) | D.Unload(unit=u, to=c):
            if u not in units:
                return 0
            goals = _town_cells(view, seat, True) or _town_cells(view, seat, False)
            return 3 * (_distance_to(ctx, units[u]["cell"], goals) - _distance_to(ctx, c, goals))
        case D.Assault(unit=u, to=c):
            target = next((x for x in units.values() if x["cell"] == c and x["side"] != seat), None)
            if u not in units or target is None:
                return 0
            return t.assault[(units[u]["type"], target["type"])] - 55
        case D.Ignore() | D.NextUnit():
            return -1
    return 0
