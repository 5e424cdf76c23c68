"""Why The Perfect General refuses an order, by the manual's page.

Each family of legal decisions carries a check (``rules.legal`` attaches it): it accepts what the family lists
and names the rule that refuses anything else, so the same family lists, validates and explains. An order of
no family at all (a unit that has fired, is pinned, is not the seat's) is explained by :func:`absent`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from grognard.engine import Decision, IllegalDecision

from . import decisions as D
from .combat import can_fire_direct, shot_chance
from .context import Ctx
from .state import PGState, Unit

Listed = Callable[[], Collection[object]]


def _unit_cannot_fire(ctx: Ctx, state: PGState, unit: Unit) -> IllegalDecision | None:
    """Why ``unit`` may not fire directly now, whatever the target (p.28-29)."""
    if unit.fired:
        return IllegalDecision(f"{unit.id} has already fired this turn", "PG p.28 b")
    if unit.plotted:
        return IllegalDecision(f"{unit.id} plotted indirect fire this turn", "PG p.29 e")
    if unit.carried_by or unit.unloaded:
        return IllegalDecision(f"{unit.id} is transported this turn", "PG p.29 f")
    if ctx.board.weather(state).no_direct_fire:
        return IllegalDecision("units may not fire at night", "PG p.29 g")
    if not can_fire_direct(ctx, state, unit):
        return IllegalDecision(f"{unit.id} cannot fire now")
    return None


def _no_shot(ctx: Ctx, state: PGState, firer: Unit, target_id: object) -> IllegalDecision:
    """Why ``firer`` may not fire at ``target_id`` (p.28 a, c, d); the same words for a hidden unit and none."""
    target = state.find(target_id) if isinstance(target_id, str) else None
    if target is None or target.side == firer.side or not (target.spotted or ctx.full_view):
        return IllegalDecision("no spotted enemy unit there: only spotted units may be targeted", "PG p.28 d")
    if not target.spotted:
        return IllegalDecision(f"{target.id} is not spotted and cannot be targeted", "PG p.28 d, p.33")
    if shot_chance(ctx, state, firer, target) is None:
        return IllegalDecision(f"{target.id} is out of {firer.id}'s range", "PG p.28 a")
    return IllegalDecision(f"{firer.id} has no line of sight to {target.id}", "PG p.28 c")


def target(
    ctx: Ctx, state: PGState, firer: Unit, listed: Collection[object], target_id: object
) -> IllegalDecision | None:
    """Why ``firer`` may not fire (or return fire) at ``target_id``."""
    return None if target_id in listed else _no_shot(ctx, state, firer, target_id)


def passing_firer(
    ctx: Ctx, state: PGState, mover: Unit, listed: Collection[object], firer_id: object
) -> IllegalDecision | None:
    """Why ``firer_id`` may not take passing fire at the moving ``mover`` (p.28-29)."""
    if firer_id in listed:
        return None
    firer = state.find(firer_id) if isinstance(firer_id, str) else None
    if firer is None or firer.side == mover.side:
        return IllegalDecision(f"{firer_id} is not one of your units")
    return _unit_cannot_fire(ctx, state, firer) or _no_shot(ctx, state, firer, mover.id)


def move(ctx: Ctx, unit: Unit, listed: Listed, to: object) -> IllegalDecision | None:
    """Why ``unit`` may not end a move at ``to`` (p.25-26)."""
    if to in listed():
        return None
    where = ctx.board.grid.label(to) if isinstance(to, int) and 0 <= to < ctx.board.grid.size else repr(to)
    return IllegalDecision(f"{unit.id} cannot reach {where} with its movement left", "PG p.25-26")


def load(listed: Listed, cargo: object) -> IllegalDecision | None:
    """Why a carrier may not load ``cargo`` (p.26 a-d)."""
    return None if cargo in listed() else _cannot_load()


def _cannot_load() -> IllegalDecision:
    return IllegalDecision(
        "loading needs an armored car or tank without cargo that reaches, with 1 movement point to spare, a foot or "
        "artillery unit that has not moved, fired or plotted this turn",
        "PG p.26 a-d",
    )


def place(ctx: Ctx, listed: Listed, cell: object) -> IllegalDecision | None:
    """Why a unit may not be placed at ``cell`` (p.10, p.22)."""
    if cell in listed():
        return None
    where = ctx.board.grid.label(cell) if isinstance(cell, int) and 0 <= cell < ctx.board.grid.size else repr(cell)
    return IllegalDecision(f"{where} is not a free location of your region for that unit", "PG p.10, p.22")


def absent(ctx: Ctx, state: PGState, seat: str, d: Decision, default: IllegalDecision) -> IllegalDecision:
    """Why an order of no legal family is refused: the unit is not the seat's, or has no such order now."""
    uid = d.to_json().get("unit")
    if uid is None:
        return default
    unit = state.find(uid) if isinstance(uid, str) else None
    if unit is None or unit.side != seat:
        # the same words for an enemy unit, seen or hidden, and an id that names nothing: a refusal tells no more
        return IllegalDecision(f"{uid} is not one of your units")
    if isinstance(d, D.Fire | D.ReturnFire):
        return _unit_cannot_fire(ctx, state, unit) or _no_shot(ctx, state, unit, d.target)
    if isinstance(d, D.Assault):
        if not ctx.tables.units[unit.type].has("assault"):
            return IllegalDecision("only an unfired armored car or tank may close assault", "PG p.30")
        if unit.fired:
            return IllegalDecision(f"{unit.id} has fired this turn and cannot close assault", "PG p.30")
    if isinstance(d, D.Move):
        if unit.unloaded:
            return IllegalDecision(f"{unit.id} was unloaded this turn and cannot move", "PG p.27 c")
        if unit.pinned:
            return IllegalDecision(f"{unit.id} lost its movement to an artillery strike", "PG p.30")
    if isinstance(d, D.Load):
        return _cannot_load()
    return default
