"""What a seat may know (the one place that decides it), decisions in words, and why an order is refused.

Under Limited View a side sees its own units, the enemy units it has spotted, and where it last saw the others
(ghosts); under Full View it sees every unit, though only spotted ones can be targeted (p.33). Mines and
barrages are seen by both (p.22, p.30). Plots stay with the side that made them. The generator, the secret
behind unit ids and the enemy's purchases never leave.
"""

from __future__ import annotations

from typing import Any

from .context import Ctx
from .phases import town_holders
from .state import SIDES, PGState, Phase, Unit, other

UNIT_VIEWS = 4096  # units whose view entry a board keeps (a few hundred bytes each)


def _units(ctx: Ctx, units: list[Unit], full: bool) -> list[dict[str, Any]]:
    """What a view says of each of ``units``: a copy of the entry kept for the unit object (a view of hundreds of
    units is built per decision, and one decision changes a few), made afresh for the others (:func:`_unit`)."""
    kept = ctx.board.unit_views
    out: list[dict[str, Any]] = []
    add = out.append
    for u in units:
        found = kept.get(2 * id(u) + full)
        add(found[1].copy() if found is not None and found[0] is u else _unit(ctx, u, full))
    return out


def _unit(ctx: Ctx, u: Unit, full: bool) -> dict[str, Any]:
    """What a view says of a unit, made afresh and kept for the unit object (by :func:`_units`)."""
    kept = ctx.board.unit_views
    key = 2 * id(u) + full
    ut = ctx.tables.units[u.type]
    out: dict[str, Any] = {
        "id": u.id,
        "type": u.type,
        "code": ut.code,
        "name": ut.name,
        "side": u.side,
        "cell": u.cell,
        "at": ctx.board.grid.label(u.cell),
        "hp": u.hp,
        "max_hp": ut.hit_points,
        "fired": u.fired,
        "moved": u.moved,
        "spotted": u.spotted,
        "has_cargo": bool(u.cargo),
    }
    if full:
        out.update(
            mp=u.mp,
            cargo=u.cargo or None,
            carried_by=u.carried_by or None,
            plotted=u.plotted,
            pinned=u.pinned,
            unloaded=u.unloaded,
            ignored=u.ignored,
            worked=u.worked,
        )
    if len(kept) >= UNIT_VIEWS:
        kept.clear()
    kept[key] = (u, out.copy())
    return out


def visible_enemies(ctx: Ctx, state: PGState, seat: str) -> list[Unit]:
    if ctx.full_view:
        return [u for u in state.units if u.side != seat]
    return [u for u in state.units if u.side != seat and u.spotted and not u.carried_by]


def build_view(ctx: Ctx, state: PGState, seat: str | None) -> dict[str, Any]:
    sc = ctx.board.scenario
    weather = ctx.board.weather(state) if state.phase is not Phase.OVER else None
    if seat is None:
        known = list(state.units)
        units = _units(ctx, known, True)
        plots = state.plots
        ghosts: list[dict[str, Any]] = []
    else:
        mine = [u for u in state.units if u.side == seat]
        theirs = visible_enemies(ctx, state, seat)
        units = _units(ctx, mine, True) + _units(ctx, theirs, ctx.full_view)
        known = mine + theirs
        plots = tuple(p for p in state.plots if p.side == seat)
        shown = {u.id for u in theirs}
        ghosts = [
            {"id": s.unit, "type": s.type, "cell": s.cell, "at": ctx.board.grid.label(s.cell), "turn": s.turn}
            for s in state.side_state(seat).memory
            if s.unit not in shown
        ]
    sides: dict[str, Any] = {}
    for s in SIDES:
        ss = state.side_state(s)
        entry: dict[str, Any] = {"score": ss.score}
        if seat is None or seat == s:
            entry.update(points=ss.points, earned=ss.earned, pool=list(ss.pool), confirming=ss.confirming)
        sides[s] = entry
    seen_state = state if seat is None else _known_state(state, known)
    holders = town_holders(seen_state, ctx)
    view: dict[str, Any] = {
        "turn": min(state.turn, sc.turns),
        "turns": sc.turns,
        "phase": state.phase.value,
        "side": state.side,
        "weather": list(sc.weather[min(state.turn, sc.turns) - 1]),
        "visibility": weather.visibility if weather else None,
        "options": {
            "kill": "partial" if ctx.partial_kill else "full",
            "hit": "random" if ctx.random_hit else "always",
            "view": "full" if ctx.full_view else "limited",
        },
        "sides": sides,
        "units": units,
        "ghosts": ghosts,
        "mines": [
            {"cell": m.cell, "at": ctx.board.grid.label(m.cell), "side": m.side, "charges": m.charges}
            for m in state.mines
        ],
        "barrages": [{"cell": b.cell, "strike": b.strike} for b in state.barrages],
        "plots": [{"unit": p.unit, "cell": p.cell, "barrage": p.barrage, "turn": p.turn} for p in plots],
        "terrain": [{"cell": c, "terrain": t} for c, t in state.terrain],
        "cut_roads": list(state.cut_roads),
        "towns": [
            {"name": t.name, "value": t.value, "cells": list(t.cells), "holder": holders[t.name] or None}
            for t in sc.towns
        ],
        "neutrals": [
            {"name": n.name, "points": n.points, "entered": n.name in state.neutrals_entered} for n in sc.neutrals
        ],
        "history": [list(h) for h in state.history],
    }
    if state.offer is not None and (seat is None or seat == _offer_seat(state)):
        o = state.offer
        view["offer"] = {
            "kind": o.kind,
            "target": o.target,
            "shooter": o.shooter
            if (seat is None or state.unit(o.shooter).side == seat or state.unit(o.shooter).spotted or ctx.full_view)
            else None,
        }
    if state.walk is not None and (seat is None or seat == state.unit(state.walk.unit).side):
        view["walk"] = {"unit": state.walk.unit, "path": list(state.walk.path), "then": state.walk.then}
    return view


def _offer_seat(state: PGState) -> str:
    assert state.offer is not None
    side = state.unit(state.offer.target).side
    return other(side) if state.offer.kind == "passing" else side


def _known_state(state: PGState, known: list[Unit]) -> PGState:
    from grognard.engine.records import replace

    return replace(state, units=tuple(known))


def hidden_units(ctx: Ctx, state: PGState, seat: str) -> frozenset[str]:
    """Enemy units ``seat`` may not know of: not spotted now and never seen (none under Full View)."""
    if ctx.full_view:
        return frozenset()
    remembered = {s.unit for s in state.side_state(seat).memory}
    return frozenset(
        u.id for u in state.units if u.side != seat and (u.carried_by or not u.spotted) and u.id not in remembered
    )
