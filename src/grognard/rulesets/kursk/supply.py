"""The supply phase (§5): depots moved hex by hex from the side's entry roads, their costs by terrain and
weather, supplies to every friendly group within 2 hexes once a phase, capped by the group's mode (§6.2)."""

from __future__ import annotations

from grognard.engine.errors import IllegalDecision
from grognard.engine.events import Step
from grognard.engine.records import replace

from .board import Ctx
from .state import Depot, Group, KState


def start_quarters(ctx: Ctx) -> int:
    """§5.1: a depot starts with supply level 15 (kept in quarter points for the ¼ road costs)."""
    return 4 * int(ctx.tables["supply"]["depot"]["start_level"])


def depot_cost(ctx: Ctx, state: KState, here: int, there: int) -> int:
    """§5.1's table in quarter points: by the terrain entered and the weather, the bracketed cost from one
    road/town hex to another."""
    costs = ctx.tables["supply"]["depot_cost"]
    terrain = ctx.map.terrain[there]
    row = costs["road" if there in ctx.roads and terrain != "town" else terrain]
    rain = state.weather == "rain"
    key = "rain" if rain else "clear"
    if here in ctx.roads and there in ctx.roads and f"along_road_{key}" in row:
        key = f"along_road_{key}"
    num, den = row[key]
    return 4 * int(num) // int(den)


def entry_refusal(ctx: Ctx, state: KState, side: str, entry: int) -> IllegalDecision | None:
    roads = ctx.entries[side]
    if not 0 <= entry < len(roads):
        return IllegalDecision(f"the {side} side has {len(roads)} depot entry roads", "§5.3")
    if roads[entry] in ctx.zoc(state, side):
        return IllegalDecision("a depot may never be next to an enemy group", "§5.1")
    return None


def move_refusal(ctx: Ctx, state: KState, direction: int) -> IllegalDecision | None:
    """Why the depot may not move in ``direction`` (§5.1, §8.5), or None."""
    d = state.depot
    if d is None:
        return IllegalDecision("there is no depot: ask for a new one", "§5.3")
    if not 1 <= direction <= 6:
        return IllegalDecision("a direction is 1-6", "§5.1")
    there = ctx.grid.neighbor(d.cell, direction)
    if there < 0:
        return IllegalDecision("the depot cannot leave the map", "§5.1")
    if there in ctx.zoc(state, d.side):
        return IllegalDecision("a depot may never move next to an enemy group", "§5.1")
    rain = state.weather == "rain"
    if (
        d.side == "german"
        and rain
        and ctx.river_between(d.cell, there, True)
        and not (d.cell in ctx.roads and there in ctx.roads)
    ):
        return IllegalDecision("German depots cross no river hexside in rain but along a road", "§5.1")
    if depot_cost(ctx, state, d.cell, there) > d.quarters:
        return IllegalDecision("the depot's supply level is too low to enter that hex", "§5.1")
    return None


def new_depot(ctx: Ctx, state: KState, side: str, entry: int, step: Step) -> KState:
    """§5.3: the depot begins on its entry road; beginning there is not moving onto a town there (§11.1), or
    pressing (N) until the wanted road comes up would take every edge town on the way."""
    cell = ctx.entries[side][entry]
    step.emit("depot", f"a new depot at {ctx.label(cell)}", (side,), cell=cell, level=start_quarters(ctx) // 4)
    return replace(state, depot=Depot(side, cell, start_quarters(ctx), entry))


def move_depot(ctx: Ctx, state: KState, direction: int, step: Step) -> KState:
    d = state.depot
    assert d is not None
    there = ctx.grid.neighbor(d.cell, direction)
    left = d.quarters - depot_cost(ctx, state, d.cell, there)
    step.emit("depot", f"the depot moves to {ctx.label(there)}, level {left / 4:g}", (d.side,), cell=there)
    state = replace(state, depot=replace(d, cell=there, quarters=left))
    return ctx.enter_town(state, d.side, there, step)


def receivers(ctx: Ctx, state: KState) -> list[Group]:
    """§5.2: friendly groups within 2 hexes of the depot, not supplied yet this phase."""
    d = state.depot
    if d is None:
        return []
    radius = int(ctx.tables["supply"]["distribution"]["radius"])
    return [g for g in ctx.side_groups(state, d.side) if not g.supplied and ctx.grid.distance(g.cell, d.cell) <= radius]


def distribute(ctx: Ctx, state: KState, step: Step) -> KState:
    """§5.2: each receives the depot's level, added to what it carries (AMB-4) up to its mode's cap (§6.2)."""
    d = state.depot
    assert d is not None
    level = d.quarters // 4
    changed = {}
    for g in receivers(ctx, state):
        cap = ctx.tables.modes[g.mode].max_supply
        got = min(cap, g.supply + level)
        changed[g.id] = replace(g, supply=got, supplied=True)
        step.emit("supplied", f"{g.label()} supplied to {got}", (d.side,), group=g.tag, supply=got)
    return state.with_groups(changed)


def cap_supply(ctx: Ctx, g: Group) -> Group:
    """AMB-4: a mode with a lower cap cuts the excess (§6.2)."""
    return replace(g, supply=min(g.supply, ctx.tables.modes[g.mode].max_supply))
