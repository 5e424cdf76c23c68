"""What each phase asks the player, in the manual's words, and what the player is shown with it: military points,
the cost of each build and rally (§5.5), moves left (§5.61), the combat modifiers a player can know before
attacking (§5.64) and the chance of a reinforcement arriving (§5.67).

Everything here goes to the deciding seat only (``Legal.info``) and is built from what that seat may know: its
own units, the map, and the top unit of an enemy stack, which it sees (§3.5). The defender's morale, fatigue
and HQ are not known to the attacker, so they are named, not counted.
"""

from __future__ import annotations

from typing import Any

from .display import power_name, side_name
from .play import Ctx, can_attack, hq_bonus, occupied, situation_modifier, top_unit
from .state import LGAState, Unit


def military_points(ctx: Ctx, state: LGAState, seat: str) -> str:
    return ", ".join(f"{power_name(p)} {state.points(p)} MP" for p in ctx.powers(seat))


def build_prompt(ctx: Ctx, state: LGAState, seat: str, aid: bool) -> str:
    """§5.5: the Build/Rally menu (BUILD RALLY SCROLL END), with British military aid first if Britain is active."""
    text = f"Build and rally: {military_points(ctx, state, seat)}"
    return text + (". Britain may give military aid" if aid else "")


def build_label(ctx: Ctx, unit: Unit) -> str:
    """A unit offered under BUILD: its kind, its ID (§3.4) and its cost (§3.3)."""
    ut = ctx.tables.units[unit.type]
    return f"{ut.name} {unit.id} ({ut.cost} MP)"


def build_info(ctx: Ctx, state: LGAState, seat: str, buildable: list[Unit], rally: list[str]) -> dict[str, Any]:
    """The MPs of each power, the cost of each unit offered for building and of each rally (§5.5)."""
    units = ctx.tables.units
    return {
        "mp": {p: state.points(p) for p in ctx.powers(seat)},
        "build_cost": {u.id: units[u.type].cost for u in buildable},
        "rally_cost": {uid: ctx.tables.rally_cost[state.unit(uid).morale] for uid in rally},
    }


def move_prompt(state: LGAState) -> str:
    first = "" if state.attacked else " (unseen by the enemy until your first attack, §5.66)"
    return f"Move your units area by area; entering an enemy-held area attacks it{first}"


def move_info(ctx: Ctx, state: LGAState, seat: str, movers: list[Unit], enemy: str) -> dict[str, Any]:
    """Moves left per unit, and for each attack a unit may make now the modifiers its player knows (§5.64)."""
    board = ctx.board
    enemy_cells = occupied(ctx, state, enemy)
    attacks: dict[str, dict[int, dict[str, Any]]] = {}
    for u in movers:
        if not can_attack(ctx, u):
            continue
        for cell in board.neighbors[u.cell]:
            if cell in enemy_cells:
                defender = top_unit(ctx, state, cell)
                assert defender is not None
                attacks.setdefault(u.id, {})[cell] = known_odds(ctx, state, u, defender)
    return {"moves": {u.id: u.moves for u in movers}, "attacks": attacks}


def known_odds(ctx: Ctx, state: LGAState, attacker: Unit, defender: Unit) -> dict[str, Any]:
    """§5.64 as the attacker can reckon it: his unit's morale and fatigue, his HQ in its area, and what the ground,
    a river and the defending top unit's kind give; the defender's morale, fatigue and HQ are unknown to him.
    ``fresh`` is the total modifier against that kind of unit at full morale, unfatigued and without an HQ, and
    ``results`` the combat result of each face of the die at that total."""
    t = ctx.tables
    mods: list[tuple[str, int]] = [("morale", attacker.morale)]
    if attacker.fatigue:
        mods.append(("fatigue", -attacker.fatigue))
    hq = hq_bonus(ctx, state, attacker.cell, ctx.side(attacker))
    if hq:
        mods.append(("HQ", hq))
    # the situation without the one modifier that needs the defender's morale (cavalry against lower morale)
    fresh_defender = _fresh(ctx, defender)
    _, notes = situation_modifier(ctx, attacker, fresh_defender)
    for name in notes:
        if name != "cavalry_vs_lower_morale":
            mods.append((name.replace("_", " "), t.combat_mods[name]))
    known = sum(v for _, v in mods)
    unknown = ["defender's morale", "defender's fatigue", "defender's HQ"]
    if attacker.type == "cavalry" and not defender.garrison:
        unknown.append("cavalry against lower morale (+2)")
    fresh = known - fresh_defender.morale
    if attacker.type == "cavalry" and not defender.garrison and attacker.morale > fresh_defender.morale:
        fresh += t.combat_mods["cavalry_vs_lower_morale"]
    return {
        "defender": {"type": defender.type, "power": defender.power, "garrison": defender.garrison},
        "mods": [[name, value] for name, value in mods],
        "known": known,
        "unknown": unknown,
        "fresh": fresh,
        "results": [combat_result(ctx, roll + fresh) for roll in range(1, 7)],
    }


def _fresh(ctx: Ctx, defender: Unit) -> Unit:
    from dataclasses import replace

    return replace(defender, morale=ctx.tables.units[defender.type].max_morale, fatigue=0)


def combat_result(ctx: Ctx, total: int) -> str:
    """The Combat Results Table's entry at a total (A#, S1, D#), read from the table (§5.64)."""
    a = ctx.tables.combat_attacker.read(total)
    d = ctx.tables.combat_defender.read(total)
    if a and d:
        return f"S{min(a, d)}"
    return f"A{a}" if a else f"D{d}"


def reaction_prompt(ctx: Ctx, state: LGAState) -> str:
    mover = side_name(state.seat)
    return (
        f"The {mover} player has attacked: you may reinforce, withdraw or change the unit on top of a stack, "
        "once per unit this season (§5.65)"
    )


def reaction_info(ctx: Ctx, state: LGAState, units: list[Unit]) -> dict[str, Any]:
    """The chance (in sixths) that each unit would arrive if it reinforced (§5.67: die + morale + modifier)."""
    t = ctx.tables
    arrive: dict[str, int] = {}
    for u in units:
        total = u.morale + t.reinforcement_mods.get(u.type, 0)
        arrive[u.id] = sum(0 if t.reinforcement.read(roll + total) else 1 for roll in range(1, 7))
    return {"arrive_in_6": arrive}
