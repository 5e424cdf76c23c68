"""Modes (§6.2) and road movement (§6.3), carried out at once in the side's own plot & road movement phase."""

from __future__ import annotations

from collections import deque

from grognard.engine.errors import IllegalDecision
from grognard.engine.events import Step
from grognard.engine.records import replace

from .board import Ctx
from .state import Group, KState
from .supply import cap_supply


def mode_refusal(ctx: Ctx, state: KState, g: Group, mode: object) -> IllegalDecision | None:
    """Why ``g`` may not take ``mode`` now (§6.2), or None."""
    if not isinstance(mode, str) or mode not in ctx.tables.modes:
        return IllegalDecision(f"the modes are {', '.join(ctx.tables.modes)}", "§6.2")
    if not g.on_map:
        return IllegalDecision("only groups on the map", "§6.1")
    if g.road_moved:
        return IllegalDecision(f"{g.label()} moved by road this turn and stays in road mode (reading)", "§6.3")
    if g.mode_set:
        return IllegalDecision(f"{g.label()}'s mode was set this phase (reading)", "§6.2")
    if mode == g.mode:
        return IllegalDecision(f"{g.label()} is in {mode} mode already", "§6.2")
    if mode == "road":
        rm = ctx.tables["modes"]["road_mode"]
        if g.cell not in ctx.roads:
            return IllegalDecision("road mode only on a road or town hex", "§6.2")
        if rm["german_not_on_minefield"] and g.side == "german" and ctx.minefield(state, g.cell):
            return IllegalDecision("German groups take no road mode on a minefield hex", "§6.2")
        if g.cell in ctx.zoc(state, g.side):
            return IllegalDecision("no road mode next to an enemy group", "§6.2")
    return None


def set_mode(ctx: Ctx, state: KState, g: Group, mode: str, step: Step) -> KState:
    step.emit("mode", f"{g.label()} takes {mode} mode", (g.side,), group=g.tag, mode=mode)
    return state.with_group(cap_supply(ctx, replace(g, mode=mode, mode_set=True)))


def road_reach(ctx: Ctx, state: KState, g: Group) -> dict[int, list[int]]:
    """§6.3: every hex ``g`` may reach by road now, with its path: road and town hexes only, never next to an
    enemy group, German groups never into a minefield; a hex a move (24 mechanized, 6 infantry, §6.2) and a
    supply point (§5.4, AMB-20) each; it ends in a hex with room (two groups, §9.3)."""
    if g.mode != "road" or g.road_moved or not g.on_map:
        return {}
    limit = min(ctx.mover_limit(g), g.supply)
    zoc = ctx.zoc(state, g.side)
    roads, around = ctx.roads, ctx.around
    german = g.side == "german"
    paths: dict[int, list[int]] = {g.cell: []}
    queue = deque([g.cell])
    while queue:
        here = queue.popleft()
        if len(paths[here]) >= limit:
            continue
        for n in around[here]:
            if n in paths or n not in roads or n in zoc:
                continue
            if german and ctx.minefield(state, n):
                continue
            paths[n] = [*paths[here], n]
            queue.append(n)
    full = ctx.placed(state).full(g.side)
    return {c: p for c, p in paths.items() if c != g.cell and c not in full}


def road_refusal(ctx: Ctx, state: KState, g: Group, to: object) -> IllegalDecision | None:
    if g.mode != "road":
        return IllegalDecision("only groups in road mode move by road", "§6.3")
    if g.road_moved:
        return IllegalDecision(f"{g.label()} has moved by road this turn", "§6.3")
    if not isinstance(to, int) or to not in road_reach(ctx, state, g):
        return IllegalDecision(
            "not reachable by road: road and town hexes only, never next to an enemy group, "
            "within the move and the supply carried",
            "§6.3",
        )
    return None


def road_move(ctx: Ctx, state: KState, g: Group, to: int, step: Step) -> KState:
    """The move is made at once and seen (AMB-18: it happens in the mover's own phase)."""
    path = road_reach(ctx, state, g)[to]
    step.reveal()
    state = state.with_group(replace(g, cell=to, supply=g.supply - len(path), road_moved=True))
    for c in path:
        state = ctx.enter_town(state, g.side, c, step)
    step.emit("road_move", f"{g.label()} moves by road to {ctx.label(to)}", (g.side,), group=g.tag, path=path)
    return state
