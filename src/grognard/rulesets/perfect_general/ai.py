"""Computer players for The Perfect General, working from a seat's view only.

``quick_rate`` is the one-look rating the generic greedy player uses; ``perturb_hidden`` changes what a seat
cannot know, for the conformance harness's check that no computer player decides by it. The computer general
lives in ``general.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.engine import Decision
from grognard.engine.records import replace
from grognard.engine.rng import Dice, seed_state

from . import decisions as D
from .artillery import side_sight
from .context import Ctx
from .state import PGState
from .view import hidden_units


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


def perturb_hidden(ctx: Ctx, state: PGState, seat: str, dice: Dice) -> PGState:
    """``state`` with what ``seat`` may not know changed: the unit-id generator and the generator of the dice, one
    of the enemy's hidden plots aimed elsewhere (p.28: plots are secret until they land), and one of the enemy's
    unseen units (p.32) removed or moved to a free location none of ``seat``'s units sees, away from towns (whose
    holder the seat is shown). Units taking part in what is happening now (a move, a fire offer) stay."""
    new = replace(state, rng=seed_state(dice.bits32()), secret=seed_state(dice.bits32()))
    plots = [i for i, p in enumerate(state.plots) if p.side != seat]
    if plots and dice.below(2):
        i = dice.pick(plots)
        aimed = replace(state.plots[i], cell=dice.below(ctx.board.grid.size))
        new = replace(new, plots=(*state.plots[:i], aimed, *state.plots[i + 1 :]))
    busy = {state.prompt}
    if state.offer is not None:
        busy.update((state.offer.shooter, state.offer.target))
    if state.walk is not None:
        busy.update((state.walk.unit, state.walk.target))
    town = ctx.board.town_cells
    hidden = sorted(
        uid
        for uid in hidden_units(ctx, state, seat)
        if uid not in busy and not state.unit(uid).carried_by and state.unit(uid).cell not in town
    )
    if not hidden:
        return new
    unit = state.unit(dice.pick(hidden))
    moving = {unit.id, unit.cargo}  # cargo rides with its carrier
    if dice.below(2):  # removed, with its cargo and its plots
        units = tuple(u for u in new.units if u.id not in moving)
        return replace(new, units=units, plots=tuple(p for p in new.plots if p.unit not in moving))
    seen = side_sight(ctx, state, seat)
    taken = {u.cell for u in state.units} | {m.cell for m in state.mines} | {b.cell for b in state.barrages}
    ut = ctx.tables.units[unit.type]
    free = [
        c
        for c in range(ctx.board.grid.size)
        if not seen[c]
        and c not in taken
        and c not in town
        and c not in ctx.board.neutral_of
        and ctx.board.allows(state, ut, c)
    ]
    if not free:
        return new
    to = dice.pick(free)
    return replace(new, units=tuple(replace(u, cell=to) if u.id in moving else u for u in new.units))
