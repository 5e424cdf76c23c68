"""What a seat may know (the one place fog is decided). AMB-21 READING: a side sees its own groups in full;
an enemy group only when it stands in or next to a friendly group's hex (in contact, §8.5) or in a hex its
recon searched this turn (§9.2), and then only its symbol (mechanized oval or infantry X, §4.1, §4.5), never
its ID, designation or contents (recon reports give counts, §9.2). Plots are the plotting side's alone until
they execute; depots are their side's."""

from __future__ import annotations

from typing import Any

from grognard.engine import Decision, Turn

from . import decisions as D
from .board import Ctx
from .phases import turn_name
from .plots import parse
from .state import Group, KState
from .tables import SEATS


def seen_enemies(ctx: Ctx, state: KState, seat: str) -> list[Group]:
    near: set[int] = set()
    for g in state.side_groups(seat):
        near.add(g.cell)
        near.update(ctx.grid.neighbors(g.cell))
    near.update(r.cell for r in state.reports if r.side == seat)
    return [g for g in state.groups if g.on_map and g.side != seat and g.cell in near]


def hidden_units(ctx: Ctx, state: KState, seat: str) -> frozenset[str]:
    """Every enemy group's tag: a seat never learns an enemy's ID (only symbols where it sees them), until the
    game is over."""
    if state.over:
        return frozenset()
    return frozenset(g.tag for g in state.groups if g.side != seat)


def _own(ctx: Ctx, g: Group) -> dict[str, Any]:
    return {
        "tag": g.tag,
        "id": g.id,
        "side": g.side,
        "designation": g.designation,
        "label": g.label(),
        "symbol": "oval" if g.mechanized else "X",
        "cell": g.cell,
        "mode": g.mode,
        "supply": g.supply,
        "morale": g.morale,
        "disruption": g.disruption,
        "supplied": g.supplied,
        "units": [{"name": u.name, "weapons": dict(u.weapons)} for u in g.units],
        "arrives": g.arrives,
        # what the page's plot composer offers (§6.4-6.7): the plots of its mode and its hexes a turn
        "may_plot": list(ctx.tables.modes[g.mode].plots),
        "move": ctx.mover_limit(g),
    }


def build_view(ctx: Ctx, state: KState, seat: str | None, turn: Turn) -> dict[str, Any]:
    full = seat is None or state.over
    mine = [g for g in state.groups if g.alive and (full or g.side == seat)]
    enemies: list[dict[str, Any]] = []
    if not full:
        assert seat is not None
        enemies = [
            {"side": g.side, "symbol": "oval" if g.mechanized else "X", "cell": g.cell}
            for g in seen_enemies(ctx, state, seat)
        ]
    plots = [
        {"group": f"CG{gid}", "id": gid, "plot": text}
        for gid, text in state.plots
        if full or state.group(gid).side == seat
    ]
    depot = state.depot
    return {
        "turn": state.turn,
        "date": turn_name(state.turn),
        "night": state.turn % 2 == 0,
        "weather": state.weather,
        "phase": turn.phase,
        "last_turn": ctx.scenario.last_turn,
        "level": ctx.level,
        "groups": [_own(ctx, g) for g in mine],
        "enemies": sorted(enemies, key=lambda e: (e["cell"], e["symbol"])),
        "plots": plots,
        "committed": list(state.committed),
        "control": dict(state.control),
        "cleared_minefields": list(state.cleared),
        "depot": None
        if depot is None or not (full or depot.side == seat)
        else {"cell": depot.cell, "level": depot.quarters / 4, "side": depot.side},
        "reports": [
            {"cell": r.cell, "afv": r.afv, "artillery": r.artillery, "infantry": r.infantry}
            for r in state.reports
            if full or r.side == seat
        ],
        "air": {s: {"fighters": f, "bombers": b} for s, f, b in state.air if full or s == seat},
        "strikes": [{"target": t, "bombers": b, "escorts": e} for s, t, b, e in state.strikes if full or s == seat],
        "seats": list(SEATS),
    }


DIRECTIONS = {1: "N", 2: "NE", 3: "SE", 4: "S", 5: "SW", 6: "NW", 0: "stay"}


def describe(ctx: Ctx, d: Decision) -> str:
    """A decision in the manual's words and numbering."""
    lab = ctx.grid.label
    match d:
        case D.Plot(group=gid, plot=text):
            p = parse(ctx, text)
            if isinstance(p, Exception):
                return f"plot {text} for group {gid}"
            if p.kind == "bombard":
                return f"group {gid} bombards the hex {'-'.join(DIRECTIONS[x] for x in p.dirs)} (plot {p.text()})"
            if p.kind == "recon":
                return f"group {gid} searches the hex to the {DIRECTIONS[p.dirs[0]]} (plot {p.text()})"
            steps = [DIRECTIONS[x] for x in p.dirs]
            if p.attack_only:
                steps[-1] = f"attack {steps[-1]} without moving"
            return f"group {gid}: {', '.join(steps)} (plot {p.text()})"
        case D.RoadMove(group=gid, to=to):
            return f"group {gid} moves by road to {lab(to)}"
        case D.SetMode(group=gid, mode=mode):
            return f"group {gid} takes {mode} mode"
        case D.MoveDepot(direction=x):
            return f"the depot moves {DIRECTIONS[x]}"
        case D.NewDepot(entry=e):
            return f"a new depot on entry road {e + 1}"
        case D.Distribute():
            return "(S)UPPLY the groups within 2 hexes of the depot"
        case D.Divide(group=gid, units=units):
            return f"group {gid} divides: units {', '.join(map(str, units))} form a new group"
        case D.Transfer(group=gid, units=units):
            return f"group {gid} transfers units {', '.join(map(str, units))} to the other group in its hex"
        case D.Renumber(group=gid, number=number):
            return f"group {gid} is renumbered {number}"
        case D.EndGame():
            return "the German player ends the game"
        case D.Commit():
            return "commit the tactical plots"
        case D.Airstrike(strike=strike) if len(strike) == 3:
            return f"airstrike on {lab(strike[0])} with {strike[1]} bombers and {strike[2]} escorts (points of 4)"
        case D.EndPhase():
            return "end the phase"
    return d.text()
