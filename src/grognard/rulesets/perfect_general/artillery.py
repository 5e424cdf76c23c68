"""Indirect fire (PG p.11-12, p.21-22, p.28-30): plotting, drift, strikes, barrages and terrain damage."""

from __future__ import annotations

import numpy as np

from grognard.engine.events import Step
from grognard.engine.records import replace

from .combat import destroy, hit
from .context import Ctx, own_units
from .spotting import mark_seen_acting
from .state import SIDES, Barrage, PGState, Phase, Plot, Unit
from .words import sides


def can_plot(ctx: Ctx, state: PGState, unit: Unit, phase: Phase) -> bool:
    """Mobile artillery plots in the mobile artillery plot phase, light and heavy artillery in the artillery
    plot phase (p.18-19, p.28); a carried unit cannot plot (p.27 b), nor one unloaded this turn (p.27 c)."""
    ut = ctx.tables.units[unit.type]
    if not ut.indirect_range or unit.carried_by or unit.unloaded or unit.plotted:
        return False  # one plot a turn: "plotted" is cleared when the turn ends
    if phase is Phase.MOBILE_PLOT:
        return ut.has("mobile_plot") and not unit.fired
    return not ut.has("mobile_plot")


def plot_cells(ctx: Ctx, state: PGState, unit: Unit) -> list[int]:
    """Locations ``unit`` may plot: within its indirect range and in sight of ANY friendly unit (p.11, p.28)."""
    cells: list[int] = plot_area(ctx, state, unit).tolist()
    return cells


def plot_area(ctx: Ctx, state: PGState, unit: Unit) -> np.ndarray:
    """:func:`plot_cells` as a read-only array (its length counts them without listing)."""
    board = ctx.board
    vis = board.weather(state).visibility
    return board.sight(state).seen_near(
        own_units(state, unit.side), vis, unit.cell, ctx.tables.units[unit.type].indirect_range
    )


def plot_count(ctx: Ctx, state: PGState, unit: Unit) -> int:
    """``len(plot_cells(...))`` without listing them (random play sizes every artillery unit's plot)."""
    return len(plot_area(ctx, state, unit))


def side_sight(ctx: Ctx, state: PGState, side: str) -> np.ndarray:
    """Every location some unit of ``side`` sees (read-only)."""
    return ctx.board.sight(state).seen_by(own_units(state, side), ctx.board.weather(state).visibility)


def plot(ctx: Ctx, state: PGState, step: Step, unit_id: str, cell: int, barrage: bool) -> PGState:
    """Record an indirect fire order. Light and heavy artillery fire next turn; the unit cannot fire direct
    this turn (p.29 e)."""
    u = state.unit(unit_id)
    ut = ctx.tables.units[u.type]
    when = state.turn if ut.has("mobile_plot") else state.turn + 1
    p = Plot(u.id, u.side, u.type, cell, barrage, when)
    step.emit(
        "plot",
        f"the {ut.name} at {ctx.board.grid.label(u.cell)} plots {'a barrage' if barrage else 'fire'} "
        f"on {ctx.board.grid.label(cell)}",
        (u.side,),
        unit=u.id,
        cell=cell,
        barrage=barrage,
        turn=when,
    )
    state = state.with_unit(replace(u, plotted=True))
    return replace(state, plots=(*state.plots, p))


def resolve_indirect_fire(ctx: Ctx, state: PGState, step: Step) -> PGState:
    """The indirect fire phase: every plot due this turn lands, the attacker's first (p.18-19, p.30)."""
    due = [p for p in state.plots if p.turn == state.turn]
    if not due:
        return state
    state = replace(state, plots=tuple(p for p in state.plots if p.turn != state.turn))
    for side in SIDES:
        for p in due:
            if p.side == side:
                state = _land(ctx, state, step, p)
    return state


def _land(ctx: Ctx, state: PGState, step: Step, p: Plot) -> PGState:
    t = ctx.tables
    ut = t.units[p.unit_type]
    grid = ctx.board.grid
    firer = state.find(p.unit)
    # p.30: a unit killed before resolution still fires, without barrage
    barrage = p.barrage and firer is not None and ut.has("barrage")
    cell = p.cell
    drift = 0
    if ut.drift:
        drift = step.roll(ut.drift + 1, f"drift of a {ut.name} shot", SIDES) - 1  # 0 .. drift hexes (p.30)
        if drift:
            ring = grid.ring(p.cell, drift)  # "in any direction from the original target" (p.30)
            if ring:
                cell = ring[step.roll(len(ring), "direction of the drift", SIDES) - 1]
    label = grid.label(cell)
    ctx.emit(
        step,
        "strike",
        f"{sides(p.side, ut.name)} shot lands on {label}"
        + (f" ({drift} {'hex' if drift == 1 else 'hexes'} drift from {grid.label(p.cell)})" if drift else "")
        + (" with barrage" if barrage else ""),
        SIDES,
        side=p.side,
        cell=cell,
        aimed=p.cell,
        drift=drift,
        barrage=barrage,
        unit_type=p.unit_type,
    )
    if firer is not None:
        state = state.with_unit(mark_seen_acting(ctx, state, replace(firer, fired=True)))
    # the strike location: the unit there is destroyed (p.30), a mine too (p.22)
    victim = state.unit_at(cell)
    if victim is not None:
        state = destroy(ctx, state, step, victim.id, "artillery strike")
    if state.mine_at(cell) is not None:
        state = replace(state, mines=tuple(m for m in state.mines if m.cell != cell))
        ctx.emit(step, "mine_destroyed", f"the mine at {label} is destroyed", SIDES, cell=cell)
    # next to it: hit with the splash chance under Random Hit, always otherwise; survivors cannot move
    for n in ctx.board.neighbors[cell]:
        u = state.unit_at(n)
        if u is None:
            continue
        name = t.units[u.type].name
        if ctx.random_hit:
            struck = step.chance(ut.splash, f"{name} next to the strike at {label}", SIDES)
        else:
            struck = True
        if struck:
            state = hit(ctx, state, step, u.id, ut.damage, "artillery")
        survivor = state.find(u.id)
        if survivor is not None:
            state = state.with_unit(replace(survivor, pinned=True, mp=0))
    state = damage_terrain(ctx, state, step, cell)
    if barrage:
        cells = [cell, *ctx.board.neighbors[cell]] if ut.has("wide_barrage") else [cell]
        new = [Barrage(c, c == cell) for c in cells if not any(b.cell == c for b in state.barrages)]
        state = replace(state, barrages=(*state.barrages, *new))
    return state


def damage_terrain(ctx: Ctx, state: PGState, step: Step, cell: int) -> PGState:
    """Woods to forest rubble, town to rubble, roads destroyed, bridges blown (p.23-25)."""
    board = ctx.board
    current = board.terrain(state, cell)
    becomes = ctx.tables.terrain[current].damaged
    on_road = board.map.has("road", cell) and cell not in state.cut_roads
    if becomes == "cratered" and on_road:
        becomes = "destroyed_road"
    if on_road:
        state = replace(state, cut_roads=tuple(sorted((*state.cut_roads, cell))))
    if becomes and becomes != current:
        state = set_terrain(state, cell, becomes)
        ctx.emit(
            step, "terrain", f"{board.grid.label(cell)}: {current} becomes {becomes}", SIDES, cell=cell, terrain=becomes
        )
    return state


def set_terrain(state: PGState, cell: int, terrain: str) -> PGState:
    rest = tuple(x for x in state.terrain if x[0] != cell)
    return replace(state, terrain=tuple(sorted((*rest, (cell, terrain)))))


def barrage_at(state: PGState, cell: int) -> Barrage | None:
    for b in state.barrages:
        if b.cell == cell:
            return b
    return None
