"""A quick rating of decisions from a seat's view, for the generic greedy player (``rate``).

It attacks when its unit's morale is good, marches towards the nearest enemy-held capital or major city or
enemy stack, builds and rallies when it can, and ends a phase when nothing better is left. ``perturb_hidden``
changes what a seat cannot know, for the conformance harness's check that no computer player decides by it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from grognard.engine import Decision
from grognard.engine.records import replace
from grognard.engine.rng import Dice, seed_state

from . import decisions as D
from . import play
from .play import Ctx
from .state import LGAState, Unit
from .view import hidden_units


def _derived(
    ctx: Ctx, view: Mapping[str, Any], seat: str
) -> tuple[dict[str, Any], dict[int, Any], list[int], list[int]]:
    cache = ctx.board.rate_cache  # the last view rated and what was derived from it
    if cache and cache[0] is view:
        return cast(tuple[dict[str, Any], dict[int, Any], list[int], list[int]], cache[1])
    control = view["control"]
    units = {u["id"]: u for u in view["units"]}
    enemy_cells = {s["cell"]: s for s in view["enemy"]}
    goals = [c for c in ctx.board.vp_cities if control[c] != seat] + list(enemy_cells)
    reach = _open_land(ctx)
    cache[:] = [view, (units, enemy_cells, goals, reach)]
    return units, enemy_cells, goals, reach


def _open_land(ctx: Ctx) -> list[int]:
    """For each land area of the scenario (not prohibited, §2.2), the number of the group of such areas joined to
    it by land; -1 elsewhere."""
    board = ctx.board
    out = [-1] * board.size
    for start in sorted(board.land):
        if out[start] >= 0:
            continue
        out[start] = start
        frontier = [start]
        while frontier:
            a = frontier.pop()
            for b in board.neighbors[a]:
                if b in board.land and out[b] < 0:
                    out[b] = start
                    frontier.append(b)
    return out


def quick_rate(ctx: Ctx, view: Mapping[str, Any], seat: str, d: Decision) -> int:
    view = view.get("state", view)
    board = ctx.board
    units, enemy_cells, goals, reach = _derived(ctx, view, seat)
    control = view["control"]
    match d:
        case D.Build():
            return 40
        case D.Rally():
            return 30
        case D.Aid():
            return 1
        case D.Garrison(unit=u):
            return 8 if board.kind(units[u]["cell"]) in ("capital", "major") else 2
        case D.Move(unit=u, to=to):
            unit = units.get(u)
            if unit is None:
                return 0
            if to in enemy_cells:
                return _attack_rating(ctx, units, unit, enemy_cells[to])
            if unit["power"] != "britain":  # only the British cross the sea (§2.3): aim at what is reachable by land
                goals = [g for g in goals if reach[g] == reach[unit["cell"]] >= 0]
            if not goals:
                return 0
            before = min(board.grid.distance(unit["cell"], g) for g in goals)
            after = min(board.grid.distance(to, g) for g in goals)
            bonus = 12 if board.kind(to) in ("capital", "major") and control[to] != seat else 0
            return 4 * (before - after) + bonus
        case D.EndUnit():
            return -3
        case D.Withdraw(unit=u):  # §5.65: pull weak units out of the enemy's reach
            unit = units.get(u)
            return 10 if unit is not None and unit["morale"] <= 1 and board.kind(unit["cell"]) != "capital" else -5
        case D.Reinforce(unit=u, to=to):  # strong units into a threatened friendly area
            unit = units.get(u)
            friends = [x for x in units.values() if x["cell"] == to]
            return 5 if unit is not None and unit["morale"] >= 3 and friends else -5
        case D.SetTop(unit=u):  # the strongest unit on top meets the attack (§3.5)
            unit = units.get(u)
            if unit is None:
                return 0
            here = [x for x in units.values() if x["cell"] == unit["cell"] and not x["garrison"] and x["type"] != "hq"]
            top = max(here, key=lambda x: x["stack"])
            return 6 if unit["morale"] > top["morale"] else -5
    return 0


def _attack_rating(ctx: Ctx, units: dict[str, Any], unit: Mapping[str, Any], stack: Mapping[str, Any]) -> int:
    """The combat table's expected morale losses (§5.64), the enemy's top unit taken at full morale and rested,
    our HQs in the area counted, the enemy's (unseen) not; worth more against a lone unit."""
    top = stack["top"]
    t = ctx.tables
    me = Unit(unit["id"], unit["power"], unit["type"], unit["cell"], morale=unit["morale"], fatigue=unit["fatigue"])
    them = Unit(
        top["id"],
        top["power"],
        top["type"],
        stack["cell"],
        morale=t.units[top["type"]].max_morale,
        garrison=top["garrison"],
    )
    hq = max((u["bonus"] for u in units.values() if u["cell"] == unit["cell"] and u["type"] == "hq"), default=0)
    modifier = me.morale - me.fatigue - them.morale + hq + play.situation_modifier(ctx, me, them)[0]
    lost, inflicted = play.expected_losses(ctx, modifier)
    alone = 6 if stack["count"] == 1 else 0
    return 3 * (inflicted - lost) + alone + (5 if unit["morale"] > lost / 6 + 1 else -30)


def perturb_hidden(ctx: Ctx, state: LGAState, seat: str, dice: Dice) -> LGAState:
    """``state`` with what ``seat`` may not know changed: the generator, the morale and fatigue of one enemy unit on
    the map (of the enemy, the view shows the unit on top of each stack and how many are there, §3.5), and two
    unseen enemy units under the tops of different stacks swapped (each stack keeps its size and its top)."""
    new = replace(state, rng=seed_state(dice.bits32()))
    enemy = [u for u in play.on_map(state) if ctx.side(u) not in (seat, "neutral") and u.type != "hq"]
    changed: dict[str, Unit] = {}
    if enemy:
        u = dice.pick(enemy)
        top = ctx.tables.units[u.type].max_morale
        changed[u.id] = replace(u, morale=1 + dice.below(max(1, top)), fatigue=dice.below(3))
    hidden = [state.unit(uid) for uid in sorted(hidden_units(ctx, state, seat))]
    hidden = [u for u in hidden if u.type != "hq" and u.id not in changed]
    if len(hidden) >= 2:
        a = dice.pick(hidden)
        others = [u for u in hidden if u.cell != a.cell and u.garrison == a.garrison and u.power == a.power]
        if others:
            b = dice.pick(others)
            changed[a.id] = replace(a, cell=b.cell, stack=b.stack)
            changed[b.id] = replace(b, cell=a.cell, stack=a.stack)
    return new.with_units(changed) if changed else new
