"""What each seat may know (§IA2.1 #5 hidden units), decided here and nowhere else: the view, the ids a seat
may not know of, and the words of decisions.

Hidden units (AMB-24 reading): a seat sees the enemy units standing on squares some unit of its own sees
(§IA8.3 sight over levels and obstacles, 360° in the basic game, the 90° V of §IA7.9 in the others), and every
square next to one of its units ("Hidden units will also become visible when moved adjacent to"). Of a sighted
enemy unit it sees what the map shows (name, kind, square, the rout shape), not its men or state. Once the game
is over nothing is hidden: "You may examine the map and access units of both sides after the game has ended"
(§B7.0, §IA10.0)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from grognard.engine.decisions import Decision
from grognard.engine.errors import IllegalDecision

from . import decisions as D
from . import victory
from .ctx import ENEMY, Ctx
from .moves import locked
from .phases import clock, operations_side, phase_names
from .state import AntietamState


def sighted(ctx: Ctx, state: AntietamState, seat: str) -> set[int]:
    """Indices of the enemy units ``seat`` sees now."""
    enemy = ctx.side_units(state, ENEMY[seat])
    if not ctx.options.hidden or state.over:  # §B7.0, §IA10.0 both sides open once the game has ended
        return set(enemy)
    mine = ctx.side_units(state, seat)
    facings = None if ctx.basic else [state.units[i].facing for i in mine]  # §IA7.9 the 90° view
    cells = [state.units[i].cell for i in mine]
    # kept while the seat's units stand and face as they did (a plot, a pick-up: most decisions)
    known = ctx.memo(f"sight {seat}", (state.turn, tuple(cells), facings and tuple(facings)))
    seen = known.get("seen")
    if seen is None:
        seen = known["seen"] = ctx.board.seen_from(cells, state.turn, facings)
    return {i for i in enemy if seen[state.units[i].cell]}


def hidden_units(ctx: Ctx, state: AntietamState, seat: str) -> frozenset[str]:
    if state.over:  # §B7.0, §IA10.0
        return frozenset()
    seen = sighted(ctx, state, seat)
    b = ctx.board
    return frozenset(b.spec(i).id for i in range(len(state.units)) if b.side(i) != seat and i not in seen)


def own_unit(ctx: Ctx, state: AntietamState, i: int) -> dict[str, Any]:
    """The unit display of §B3.2 / §IA7.2."""
    b = ctx.board
    u = state.units[i]
    s = b.spec(i)
    out: dict[str, Any] = {
        "id": s.id,
        "name": s.name,
        "side": s.side,
        "type": s.type,
        "division": s.division,
        "corps": s.corps,
        "square": b.label(u.cell) if u.cell >= 0 else None,
        "cell": u.cell,
        "men" if not s.artillery else "guns": u.strength,
        "weapon": s.weapon,
        "eff": s.eff,
        "fatigue": u.fatigue,
        "morale": ctx.morale(i, u),
        "op": u.op,
        "fire": b.label(u.target) if u.target >= 0 else None,
        "melee": u.melee,
        "routed": u.routed,
        "disrupted": u.disrupted,
        "ammo": u.ammo,
        "moved": u.moved,
        "acted": u.acted,
        "held": locked(ctx, state, i) or None,
        "on_map": u.cell >= 0,
        "eliminated": u.cell == -2,
    }
    if not ctx.basic:  # page 2 of the unit display (§IA7.2): "FORT:0 NORMAL CC.IN", "DIR:5 ADV:N ACT:Y"
        out.update(
            mode=u.mode,
            facing=u.facing,
            fort=u.fort,
            advance=u.advance,
            active=not locked(ctx, state, i),
            command=i not in state.out_of_command,
        )
    if ctx.has["leaders"]:  # §IA7.12 L lists any leader present
        out["leaders"] = [str(ctx.tables.leaders[k]["name"]) for k, j in enumerate(state.leaders) if j == i]
    if u.cell >= 0:
        out["terrain"] = b.terrain(state, u.cell)
        out["level"] = b.level(u.cell)
    return out


def enemy_unit(ctx: Ctx, state: AntietamState, i: int) -> dict[str, Any]:
    b = ctx.board
    u = state.units[i]
    s = b.spec(i)
    return {
        "id": s.id,
        "name": s.name,
        "side": s.side,
        "type": s.type,
        "square": b.label(u.cell),
        "cell": u.cell,
        "routed": u.routed,
    } | ({} if ctx.basic else {"mode": u.mode, "facing": u.facing})  # the map's symbols show both (§IA2.1 #9)


def inspect(ctx: Ctx, state: AntietamState, seat: str, query: Mapping[str, Any]) -> dict[str, Any]:
    """V (§B3.1, §IA7.3): the squares a unit of the seat's sees, over the levels and obstacles, all round in the
    basic game and in its 90° V with the squares next to it in the others (§IA8.3, §IA7.9): what ``sighted`` asks
    of the same unit. Any other unit is refused in the words of a unit that does not exist."""
    if query.get("kind") != "sight":
        raise IllegalDecision(f"Battle of Antietam answers questions of kind 'sight', not {query.get('kind')!r}")
    uid = query.get("unit")
    i = ctx.board.index.get(uid) if isinstance(uid, str) else None
    if i is None or ctx.board.side(i) != seat or state.units[i].cell < 0:
        raise IllegalDecision(f"{uid!r} is not a unit of yours on the map", "§B3.1")
    u = state.units[i]
    seen = ctx.board.seen_from([u.cell], state.turn, None if ctx.basic else [u.facing])
    return {"kind": "sight", "unit": uid, "cells": [int(c) for c in np.flatnonzero(seen)]}


def build_view(ctx: Ctx, state: AntietamState, seat: str | None) -> dict[str, Any]:
    b = ctx.board
    names = phase_names(ctx)
    out: dict[str, Any] = {
        "turn": state.turn,
        "time": clock(ctx, state.turn),
        "last_turn": b.scenario.spec.last_turn,
        "phase": names[state.part],
        "phasing": operations_side(ctx, state.part) or None,
        "options": {
            "level": ctx.options.level,
            "game": ctx.options.game,
            "hidden": ctx.options.hidden,
            "activation": ctx.options.activation,
            "time_limit": ctx.options.time_limit,
            # §IA2.1 #9 "Icons are automatically used for the BASIC game"
            "display": "icons" if ctx.basic else ctx.options.display,
        },
        "fords": [b.label(c) for c in state.fords],
        "released": list(state.released),
        # §IA3 the activation cycle: divisions activated, still to be offered, activations left
        "activation": {"active": list(state.active), "offer": list(state.offer), "limit": state.limit},
        "victory_squares": [
            {"square": b.label(c), "points": full, "in_zoc": half, "holder": h}
            for (c, full, half), h in zip(b.victory, state.holders, strict=True)
        ],
        "score": {"union": state.score[0], "confederate": state.score[1]},
    }
    # a unit's display is kept for its record (frozen: the same record, the same unit) while what else it shows
    # (held, in command, leaders, the fords' terrain) stays; each view gets its own copy
    shown_with = (state.turn, state.released, state.active, state.out_of_command, state.leaders, state.fords)
    known = ctx.memo("unit display", shown_with)
    sighted_as = ctx.memo("enemy unit display", ())
    units = state.units

    def own(i: int) -> dict[str, Any]:
        hit = known.get(i)
        if hit is None or hit[0] is not units[i]:
            hit = known[i] = (units[i], own_unit(ctx, state, i))
        shown = dict(hit[1])
        if "leaders" in shown:
            shown["leaders"] = list(shown["leaders"])
        return shown

    def enemy(i: int) -> dict[str, Any]:
        hit = sighted_as.get(i)
        if hit is None or hit[0] is not units[i]:
            hit = sighted_as[i] = (units[i], enemy_unit(ctx, state, i))
        return dict(hit[1])

    if seat is None or state.over:  # §B7.0, §IA10.0 "access units of both sides after the game has ended"
        out["units"] = [own(i) for i in range(len(state.units))]
        out["accessed"] = b.spec(state.accessed).id if state.accessed >= 0 else None
        out["losses"] = {"union": list(state.losses[:3]), "confederate": list(state.losses[3:])}
        return out
    seen = sighted(ctx, state, seat)
    mine = [own(i) for i in ctx.ids[seat]]
    out["units"] = mine + [enemy(i) for i in sorted(seen)]
    out["accessed"] = b.spec(state.accessed).id if state.accessed >= 0 and b.side(state.accessed) == seat else None
    return out


def result_level(ctx: Ctx, state: AntietamState) -> str:
    union, confederate = state.score
    return victory.level(ctx, union - confederate, state.losses[3] + state.losses[4])


def describe(ctx: Ctx, d: Decision) -> str:
    """A decision in words: units by what they are (brigade half and division) and the squares as x,y."""
    b = ctx.board

    def unit(uid: str) -> str:
        i = b.index.get(uid)
        return b.unit_name(i) if i is not None else uid

    match d:
        case D.Access(unit=u):
            return f"pick up {unit(u)}"
        case D.Move(unit=u, at=at, to=to):
            return f"{unit(u)} at {at} moves to {to}"
        case D.Next():
            return "the next unit (N)"
        case D.PutDown():
            return "put the unit down"
        case D.Abort(unit=u):
            return f"abort: {unit(u)} goes back as it was picked up (Z)"
        case D.EndPhase():
            return "end the operation phase: on to combat"
        case D.Plot(orders=orders):
            words = []
            for o in orders:
                uid, _, target = o.partition("@")
                if target == "-":
                    words.append(f"{unit(uid)}: no plot")
                elif target.endswith("!"):
                    words.append(f"{unit(uid)} fires into and melees {target[:-1]}")
                else:
                    words.append(f"{unit(uid)} fires into {target}")
            return "; ".join(words)
    return d.text()
