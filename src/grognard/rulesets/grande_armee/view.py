"""What a seat may know (the one place that decides it) and decisions in words.

A player sees all of his own units. Of the enemy he sees, in each area, the unit on top of the stack and how
many units are stacked there, except that a cavalry unit on top hides the number (§3.5). Control of every area
and every power's military points are public (§2.9, §2.14); the supply status of areas is shown for one's own
side only.
"""

from __future__ import annotations

from collections.abc import Collection
from operator import itemgetter
from typing import Any

from grognard.engine import Decision
from grognard.engine.records import replace

from . import decisions as D
from . import play
from .display import power_name
from .play import Ctx
from .state import OFF_MAP, LGAState, Unit


def _unit(ctx: Ctx, u: Unit) -> dict[str, Any]:
    ut = ctx.tables.units[u.type]
    out: dict[str, Any] = {
        "id": u.id,
        "power": u.power,
        "side": ctx.side(u),
        "type": u.type,
        "name": ut.name,
        "cell": u.cell,
        "at": ctx.board.label(u.cell) if u.cell != OFF_MAP else None,
        "morale": u.morale,
        "max_morale": ut.max_morale,
        "max_moves": ut.moves,
        "fatigue": u.fatigue,
        "moves": u.moves,
        "garrison": u.garrison,
        "supplied": u.supplied,
        "rallied": u.rallied,
        "reacted": u.reacted,
        "stack": u.stack,
    }
    if u.type == "hq":
        out["bonus"] = u.bonus
    if u.cell == OFF_MAP:
        out["available"] = u.year
    return out


def _enemy_stack(ctx: Ctx, cell: int, stack: list[Unit]) -> dict[str, Any]:
    top = stack[0]
    return {
        "cell": cell,
        "at": ctx.board.label(cell),
        "side": ctx.side(top),
        "top": {"id": top.id, "power": top.power, "type": top.type, "garrison": top.garrison},
        "count": None if top.type == "cavalry" else len(stack),  # §3.5: cavalry on top screens the stack
    }


def build_view(ctx: Ctx, state: LGAState, seat: str | None) -> dict[str, Any]:
    sc = ctx.scenario
    secret = seat is not None and seat != state.seat and bool(state.secret_control)
    stacks: dict[int, list[Unit]] = {}
    for u in seen_positions(state, seat):
        stacks.setdefault(u.cell, []).append(u)
    if seat is None:
        units = [_unit(ctx, u) for u in state.units]
        enemy: list[dict[str, Any]] = []
    else:
        units = [_unit(ctx, u) for u in state.units if ctx.side(u) == seat]
        enemy = []
        for cell in sorted(stacks):
            theirs = [u for u in stacks[cell] if ctx.side(u) != seat]
            if theirs:
                enemy.append(_enemy_stack(ctx, cell, play.stack_order(ctx, theirs)))
    vp = {
        s: {"vp": state.victory_points(s), "level": play.level(ctx, s, state.victory_points(s))}
        for s in ("french", "allied")
    }
    view: dict[str, Any] = {
        "scenario": sc.info.name,
        "year": state.year,
        "season": ctx.tables.seasons[state.season],
        "end": f"{sc.spec.end[0]} {sc.spec.end[1]}",
        "player": state.seat,
        "phase": state.phase.value,
        "attacked": state.attacked,
        "control": list(state.secret_control if secret else state.control),
        "mp": dict(state.mp),
        "powers": dict(sc.side_of),
        "victory": vp,
        "thresholds": {s: list(v) for s, v in sc.spec.victory.items()},
        "units": units,
        "enemy": enemy,
        "last_seen": _last_seen(ctx, state, seat, {s["top"]["id"] for s in enemy}),
    }
    if seat in ("french", "allied"):
        shown = (
            replace(state, units=tuple(seen_positions(state, seat)), control=state.secret_control) if secret else state
        )
        view["supplied_areas"] = sorted(play.supplied_areas(ctx, shown, seat))
    return view


def _last_seen(ctx: Ctx, state: LGAState, seat: str | None, shown: set[str]) -> list[dict[str, Any]]:
    """Where the seat last saw enemy units it does not see on top of a stack now."""
    if seat is None:
        return []
    return [
        {
            "id": s.unit,
            "type": s.type,
            "power": s.power,
            "cell": s.cell,
            "at": ctx.board.label(s.cell),
            "when": f"{ctx.tables.seasons[s.season]} {s.year}",
        }
        for s in state.sightings
        if s.seat == seat and s.unit not in shown
    ]


def seen_positions(state: LGAState, seat: str | None, cells: Collection[int] | None = None) -> list[Unit]:
    """The units on the map where ``seat`` sees them (those it sees in ``cells``, if given): top secret movement
    (§5.66) keeps the mover's units where they stood when phase V began, until the first attack."""
    units = play.on_map(state)
    if seat is None or seat == state.seat or not state.secret:
        return units if cells is None else [u for u in units if u.cell in cells]
    before = {uid: (cell, stack, garrison) for uid, cell, stack, garrison in state.secret}
    out = []
    for u in units:
        cell, stack, garrison = before.get(u.id, (u.cell, u.stack, u.garrison))
        if cell != OFF_MAP and (cells is None or cell in cells):
            out.append(replace(u, cell=cell, stack=stack, garrison=garrison) if u.id in before else u)
    return out


RANK = itemgetter(0)


def seen_tops(ctx: Ctx, state: LGAState, seats: Collection[str], cells: Collection[int]) -> list[tuple[str, Unit, int]]:
    """For each of ``seats``, the enemy units on top of the stacks it sees in ``cells``, each with the area it sees it
    in (:func:`seen_positions`), found from the stacks there and the hidden movers that stood there instead of from
    every unit (a decision changes a few areas); a hidden mover counts where it is seen only if it is on top."""
    st = play.standing(ctx, state)
    hidden, hidden_at = _secret_positions(ctx, state.secret) if state.secret else ({}, {})
    mover = state.seat  # the seat whose movers are hidden from the others (§5.66): it sees its own where they are
    side_of = ctx.scenario.side_of
    rank = play.stack_rank
    out: list[tuple[str, Unit, int]] = []
    for c in cells:
        if c == OFF_MAP:
            continue
        # the stack as each seat sees it: its units in the area, less hidden movers for the other seats, plus the
        # hidden movers that stood there as phase V began
        seen = [(rank(u.type, u.garrison, u.stack, u.id), u, u.id in hidden) for u in st.at(c)]
        for uid in hidden_at.get(c, ()):
            u = st.unit(uid)
            if u is not None and u.cell != OFF_MAP:
                _, stack, garrison = hidden[uid]
                seen.append((rank(u.type, garrison, stack, uid), u, False))
        seen.sort(key=RANK)
        for seat in seats:
            # hidden movers are seen where they stand by their own seat only (for it the stood-there entries above
            # are its own units, never an enemy top)
            for _, u, moving in seen:
                if side_of[u.power] != seat and (seat == mover or not moving):
                    out.append((seat, u, c))
                    break
    return out


def _secret_positions(
    ctx: Ctx, secret: tuple[tuple[str, int, int, bool], ...]
) -> tuple[dict[str, tuple[int, int, bool]], dict[int, list[str]]]:
    """Each hidden mover's area, stack order and garrison as phase V began, and the movers by that area, kept for
    the last phase asked about."""
    kept = ctx.board.secret
    if kept[0] is not secret:
        at: dict[int, list[str]] = {}
        for uid, cell, _, _ in secret:
            at.setdefault(cell, []).append(uid)
        kept = ctx.board.secret = (secret, {uid: (cell, stack, garrison) for uid, cell, stack, garrison in secret}, at)
    return kept[1], kept[2]


def hidden_units(ctx: Ctx, state: LGAState, seat: str) -> frozenset[str]:
    """Enemy units on the map that ``seat`` has never seen on top of a stack (§3.5)."""
    known = state.known_to(seat)
    top = {u.id for u in play.tops(ctx, state).values()}
    return frozenset(u.id for u in play.on_map(state) if ctx.side(u) != seat and u.id not in top and u.id not in known)


def describe(ctx: Ctx, d: Decision) -> str:
    """A decision in words, with the map's area names and the units' kinds (the same whatever the position: a
    server keeps these words for the whole game)."""

    where = ctx.board.where

    def unit(uid: str) -> str:
        kind = next((s.type for s in ctx.scenario.units if s.id == uid), None)
        return f"{ctx.tables.units[kind].name} {uid}" if kind and kind != "hq" else uid

    match d:
        case D.Build(unit=u, at=at):
            return f"build {unit(u)} in {where(at)}"
        case D.Rally(unit=u):
            return f"rally {unit(u)}"
        case D.Aid(power=p):
            return f"British military aid: 1 MP to {power_name(p)}"
        case D.EndBuild():
            return "end the Build/Rally phase"
        case D.Move(unit=u, to=to):
            return f"{u} moves to {where(to)}"
        case D.Garrison(unit=u):
            return f"{u} ends its move and garrisons the city"
        case D.EndUnit(unit=u):
            return f"END: {u} moves no more this season"
        case D.EndMovement():
            return "end movement and combat"
        case D.Reinforce(unit=u, to=to):
            return f"{u} reinforces {where(to)}"
        case D.Withdraw(unit=u, to=to):
            return f"{u} withdraws to {where(to)}"
        case D.SetTop(unit=u):
            return f"put {unit(u)} on top"
    return d.text().replace("_", " ")
