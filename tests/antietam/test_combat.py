"""The combat phase (§B4, §IA8): the Weapon/Range Casualty Table with each modifier of the charts alone, losses
to a stack (§IA7.7), artillery losses (§IA8.2), disruption (§IA8.8), ammunition (§IA8.9), morale and rout
(§IA8.6), retreats (§IA8.5, §B3.6), melee (§IA8.4) and advances (§B4.2)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from grognard.rulesets.antietam import combat
from grognard.rulesets.antietam.combat import Modifier, product


def mods_of(p: Any, uid: str, target: str, out_of_ammo: bool = False) -> dict[str, int]:
    step = p.step()
    found = combat.fire_modifiers(p.ctx, p.state, p.i(uid), p.cell(target), p.ctx.occupants(p.state), step, out_of_ammo)
    return {m.name: m.percent for m in found}


def fire_event(p: Any, uid: str, target: str, defensive: bool = False) -> tuple[Any, dict[str, Any]]:
    step = p.step()
    state = combat.fire(p.ctx, p.state, p.i(uid), p.cell(target), step, defensive)
    event = next(e for e in step.events if e.kind == "fire")
    return state, dict(event.data) | {"events": step.events}


BASE = {"u_duryea_a": "5,5", "c_law_a": "6,5"}


def test_casualties_are_the_table_times_every_modifier(position: Any) -> None:
    """§IA8.2: RFL at range 1 is 4 men a 100 men (Weapon/Range Casualty Table) times the modifiers."""
    p = position(BASE)
    _, e = fire_event(p, "u_duryea_a", "6,5")
    assert e["base"] == 4 and e["strength"] == 501
    mods = [Modifier(n, v) for n, v in e["modifiers"]]
    assert e["casualties"] == product(4 * 501, mods, 100)
    assert p.unit("c_law_a", _).strength == 503 - e["casualties"]


def test_the_baseline_has_no_terrain_elevation_or_mode_effect(position: Any) -> None:
    p = position(BASE)
    mods = mods_of(p, "u_duryea_a", "6,5")
    assert mods["terrain clear"] == 100
    assert "higher elevation" not in mods and "routed" not in mods and "ran out of ammo" not in mods
    assert mods["battle time"] == 100 and mods["fatigue"] == 100 and mods["level 3"] == 100


@pytest.mark.parametrize(
    ("firer", "target", "row", "percent"),
    [
        ("33,18", "33,19", "terrain woods", 80),
        ("35,6", "34,6", "terrain town", 70),
        ("30,20", "30,21", "terrain cornfield", 100),
    ],
)
def test_terrain_modifier_of_the_defenders_square(
    position: Any, firer: str, target: str, row: str, percent: int
) -> None:
    """FIRE AND MELEE STRENGTH/CASUALTY TERRAIN MODIFIERS: woods .80, town .70, cornfield 1.00 (fire)."""
    p = position({"u_duryea_a": firer, "c_law_a": target})
    assert mods_of(p, "u_duryea_a", target)[row] == percent


def test_higher_elevation_modifier(position: Any) -> None:
    """ "Higher Elevation .90": the defender stands above the firer (4,20 is level 2, 3,20 level 3)."""
    up = position({"u_duryea_a": "4,20", "c_law_a": "3,20"})
    assert mods_of(up, "u_duryea_a", "3,20")["higher elevation"] == 90
    down = position({"u_duryea_a": "3,20", "c_law_a": "4,20"})
    assert "higher elevation" not in mods_of(down, "u_duryea_a", "4,20")


def test_routed_firer_modifier(position: Any) -> None:
    """MODE MODIFIERS "Routed ALL .75" (fire)."""
    p = position({"u_duryea_a": ("5,5", {"routed": True}), "c_law_a": "6,5"})
    assert mods_of(p, "u_duryea_a", "6,5")["routed"] == 75


@pytest.mark.parametrize(("men", "percent"), [(650, 100), (770, 110), (2000, 125), (530, 90), (100, 75)])
def test_density_modifier(position: Any, men: int, percent: int) -> None:
    """ "1% more or less casualties per 12 men more or less than 650 men in square. No more or less than 25%." """
    p = position({"c_law_a": ("6,5", {"strength": men})})
    assert combat.density(p.ctx, p.state, p.cell("6,5"), p.ctx.occupants(p.state)) == percent


def test_density_counts_every_unit_of_the_square_but_guns(position: Any) -> None:
    p = position({"c_law_a": ("6,5", {"strength": 400}), "c_law_b": ("6,5", {"strength": 370}), "c_long_a": "6,5"})
    assert combat.density(p.ctx, p.state, p.cell("6,5"), p.ctx.occupants(p.state)) == 110


def test_random_modifier_is_50_to_150(position: Any) -> None:
    """ "Random Modifier = + or - 50% (.5 to 1.5)", a logged roll."""
    seen = set()
    for seed in range(40):
        p = position(BASE, seed=seed)
        seen.add(mods_of(p, "u_duryea_a", "6,5")["random"])
    assert min(seen) >= 50 and max(seen) <= 150 and len(seen) > 20


@pytest.mark.parametrize(("op", "percent"), [(10, 100), (12, 120), (7, 70), (3, 50), (0, 50)])
def test_battle_time_modifier(position: Any, op: int, percent: int) -> None:
    """ "Battle time Modifier = (OP remaining)/10 ... A unit is assumed to always have at least five operation
    points remaining." """
    p = position({"u_duryea_a": ("5,5", {"op": op}), "c_law_a": "6,5"})
    assert mods_of(p, "u_duryea_a", "6,5")["battle time"] == percent


def test_fatigue_modifier(position: Any) -> None:
    """§IA8.10 "fatigue has a proportional effect on fire strength": 30 fatigue fires at 70%."""
    p = position({"u_duryea_a": ("5,5", {"fatigue": 30}), "c_law_a": "6,5"})
    assert mods_of(p, "u_duryea_a", "6,5")["fatigue"] == 70


def test_level_modifier(position: Any) -> None:
    """§IA2.1 #1: level 5 favours the Union (AMB-7 reading: Union casualties x1.2, Confederate x0.8)."""
    p = position({"u_duryea_a": "5,5", "c_law_a": "6,5"}, options={"level": 5})
    assert mods_of(p, "u_duryea_a", "6,5")["level 5"] == 120
    assert mods_of(p, "c_law_a", "5,5")["level 5"] == 80


def test_ammunition_runs_out_and_cuts_that_fire(position: Any) -> None:
    """§IA8.9 a 7% chance each time infantry fires (10% artillery); that fire's casualties "greatly reduced"
    (AMB-13: x0.25); then the unit has no ammunition."""
    p = position(BASE)
    assert mods_of(p, "u_duryea_a", "6,5", out_of_ammo=True)["ran out of ammo"] == 25
    state, e = fire_event(p, "u_duryea_a", "6,5")
    roll = next(x for x in e["events"] if x.kind == "roll" and "ammunition" in x.data["why"])
    assert roll.data["percent"] == 7
    assert p.unit("u_duryea_a", state).ammo is (not roll.data["success"])
    art = position({"u_i_corps_a": "5,5", "c_law_a": "6,5"})
    _, e = fire_event(art, "u_i_corps_a", "6,5")
    roll = next(x for x in e["events"] if x.kind == "roll" and "ammunition" in x.data["why"])
    assert roll.data["percent"] == 10


def test_fire_spends_its_op_offensive_needs_them_defensive_down_to_zero(position: Any) -> None:
    """Operations Costs Table "Fire (per fire phase) 2" (4 unlimbered artillery); AMB-22."""
    p = position({"u_duryea_a": ("5,5", {"op": 1}), "c_law_a": ("6,5", {"op": 1})})
    s = combat.fire_step(p.ctx, p.state, "union", False, False, p.step())
    assert p.unit("c_law_a", s).strength == 503  # the Union unit had no OP to fire offensively
    s = combat.fire_step(p.ctx, p.state, "confederate", False, True, p.step())
    assert p.unit("c_law_a", s).op == 0 and p.unit("c_law_a", s).fired_at == p.cell("5,5")


def test_moved_artillery_does_not_fire_that_phase(position: Any) -> None:
    """§B3.4 "If you move an artillery unit, it may not fire until the next phase." """
    p = position({"u_i_corps_a": ("5,5", {"moved": True}), "c_law_a": "7,5"})
    s = combat.fire_step(p.ctx, p.state, "union", True, False, p.step())
    assert p.unit("c_law_a", s).strength == 503
    q = position({"u_i_corps_a": "5,5", "c_law_a": "7,5"})
    s = combat.fire_step(q.ctx, q.state, "union", True, False, q.step())
    assert q.unit("c_law_a", s).strength < 503


def test_disrupted_and_unsupplied_units_do_not_fire(position: Any) -> None:
    """§IA8.8 "It may not fire except for defensive melee fire"; §IA8.9 "Units without ammo may not fire"."""
    for extra in ({"disrupted": True}, {"ammo": False}):
        p = position({"u_duryea_a": ("5,5", extra), "c_law_a": "6,5"})
        s = combat.fire_step(p.ctx, p.state, "union", False, False, p.step())
        assert p.unit("c_law_a", s).strength == 503


def test_fire_at_the_closest_enemy_ties_to_lowest_x_then_y(position: Any) -> None:
    """§B3.7 "A unit will fire at the closest enemy unit it can see" (ties AMB-21); a priority square first."""
    p = position({"u_duryea_a": "5,5", "c_law_a": "6,6", "c_law_b": "4,6", "c_wofford_a": "5,7"})
    occ = p.ctx.occupants(p.state)
    assert p.board.label(combat.choose_target(p.ctx, p.state, p.i("u_duryea_a"), occ)) == "4,6"
    q = position({"u_duryea_a": ("5,5", {"target": p.cell("5,7")}), "c_law_a": "6,6", "c_wofford_a": "5,7"})
    assert q.board.label(combat.choose_target(q.ctx, q.state, q.i("u_duryea_a"), q.ctx.occupants(q.state))) == "5,7"


def test_a_stack_shares_casualties_one_unit_three_times_the_others(position: Any) -> None:
    """§IA7.7 "one of the defending units receiving 3 times the casualties of the others"."""
    p = position({"c_law_a": "6,5", "c_law_b": "6,5"})
    s = combat.distribute(p.ctx, p.state, p.cell("6,5"), 100, False, 1, p.step(), melee=False)
    lost = sorted([503 - p.unit("c_law_a", s).strength, 351 - p.unit("c_law_b", s).strength])
    assert lost == [25, 75]


def test_artillery_takes_losses_only_alone_or_from_artillery(position: Any) -> None:
    """§IA7.7 "Artillery only takes losses if in a square alone or fired upon by another artillery unit"; §IA8.2
    guns are lost only to artillery, infantry fire gives a lone battery fatigue (AMB-13: 1 per 2 points)."""
    stacked = position({"c_law_a": "6,5", "c_long_a": "6,5"})
    s = combat.distribute(stacked.ctx, stacked.state, stacked.cell("6,5"), 40, False, 1, stacked.step(), melee=False)
    assert stacked.unit("c_long_a", s) == stacked.unit("c_long_a")
    alone = position({"c_long_a": "6,5"})
    s = combat.distribute(alone.ctx, alone.state, alone.cell("6,5"), 40, False, 1, alone.step(), melee=False)
    assert (alone.unit("c_long_a", s).strength, alone.unit("c_long_a", s).fatigue) == (17, 20)
    s = combat.distribute(alone.ctx, alone.state, alone.cell("6,5"), 40, True, 2, alone.step(), melee=False)
    assert alone.unit("c_long_a", s).strength == 15  # 40 points: 2 guns


@pytest.mark.parametrize(("casualties", "percent"), [(50, 20), (100, 40), (300, 100)])
def test_disruption_chance_is_40_percent_a_100_casualties(position: Any, casualties: int, percent: int) -> None:
    """§IA8.8 "about a 40% chance of becoming disrupted per 100 casualties" (AMB-23)."""
    p = position({"c_law_a": ("6,5", {"strength": 900})})
    step = p.step()
    combat.take_losses(p.ctx, p.state, p.i("c_law_a"), casualties, False, step)
    roll = next(e for e in step.events if e.kind == "roll" and "disrupted" in e.data["why"])
    assert roll.data["percent"] == percent


def test_fatigue_from_losses(position: Any) -> None:
    """Fatigue Gain Table: 1 a 2 men lost; 600 men 1 a 3, 900 men 1 a 4.5 (AMB-19)."""
    ctx = position({}).ctx
    assert combat.fatigue_for_losses(ctx, 400, 20) == 10
    assert combat.fatigue_for_losses(ctx, 600, 30) == 10
    assert combat.fatigue_for_losses(ctx, 900, 45) == 10
    assert combat.fatigue_for_losses(ctx, 2000, 50) == 10


def test_fewer_than_80_men_rout_and_retreat_four_squares_to_the_rear(position: Any) -> None:
    """§IA8.6 "Units with less than 80 men will automatically rout when they take losses. When a unit routs it
    retreats four squares", toward the Confederate rear (§IA8.5, the corner 41,0)."""
    p = position({"c_law_a": ("10,10", {"strength": 90})})
    s = combat.take_losses(p.ctx, p.state, p.i("c_law_a"), 20, False, p.step())
    u = p.unit("c_law_a", s)
    assert u.routed and u.strength == 70
    assert p.grid.distance(p.cell("10,10"), u.cell) == 4
    assert p.board.dist[u.cell, p.cell("41,0")] < p.board.dist[p.cell("10,10"), p.cell("41,0")]


def test_low_morale_gives_a_40_percent_chance_to_rout(position: Any) -> None:
    """§IA8.6 "A unit with a morale of less than 15 has a 40% chance of routing"; morale = Eff - fatigue."""
    p = position({"c_law_a": ("10,10", {"fatigue": 90})})
    step = p.step()
    combat.take_losses(p.ctx, p.state, p.i("c_law_a"), 5, False, step)
    roll = next(e for e in step.events if e.kind == "roll" and "routs" in e.data["why"])
    assert roll.data["percent"] == 40
    fresh = position({"c_law_a": "10,10"})
    step = fresh.step()
    combat.take_losses(fresh.ctx, fresh.state, fresh.i("c_law_a"), 5, False, step)
    assert not any(e.kind == "roll" and "routs" in e.data["why"] for e in step.events)


def test_routed_unit_forced_into_an_enemy_zoc_is_eliminated(position: Any) -> None:
    """§B3.6 "Routed units are eliminated if forced to retreat into an enemy Zone of Control." """
    ring = {
        "u_duryea_a": "12,8",
        "u_duryea_b": "12,12",
        "u_hartstuf_a": "8,12",
        "u_hartstuf_b": "8,8",
        "u_gibbon_a": "10,8",
        "u_gibbon_b": "12,10",
        "u_patrick_a": "10,12",
        "u_patrick_b": "8,10",
    }
    p = position({"c_law_a": ("10,10", {"strength": 90}), **ring})
    s = combat.take_losses(p.ctx, p.state, p.i("c_law_a"), 20, False, p.step())
    assert p.unit("c_law_a", s).cell == -2
    assert s.losses[3] == 90  # the 20 lost and the 70 left


def test_melee_results_table_rows(position: Any) -> None:
    """MELEE COMBAT RESULTS TABLE by differential ((attacker - defender) / 50)."""
    ctx = position({}).ctx
    assert combat.melee_row(ctx, -7)["attacker_plus"] == 150
    assert combat.melee_row(ctx, -5)["attacker_retreat"] == 50
    assert combat.melee_row(ctx, 0)["defender_retreat"] == 40
    assert combat.melee_row(ctx, 12)["defender_plus"] == 50
    assert combat.melee_row(ctx, 13)["defender_plus"] == 100


def test_a_strong_melee_drives_the_defender_off_and_the_attackers_advance(position: Any) -> None:
    """§IA8.4 the plotted units that fired into the square melee it; the defender's extra defensive fire comes
    first; §B4.2 the attackers advance into the square the defender leaves."""
    target = position({}).grid.parse("11,10")
    attackers = {
        "u_hartstuf_a": ("10,10", {"melee": True, "target": target, "fired_at": target, "op": 8}),
        "u_hartstuf_b": ("10,10", {"melee": True, "target": target, "fired_at": target, "op": 8}),
    }
    p = position({**attackers, "c_grigsby_a": "11,10"}, part="union_combat_1")
    step = p.step()
    s = combat.melee_phase(p.ctx, p.state, "union", step)
    assert any(e.kind == "fire" and e.data["unit"] == "c_grigsby_a" for e in step.events)  # defensive melee fire
    assert any(e.kind == "melee" for e in step.events)
    assert p.square("c_grigsby_a", s) != "11,10"
    assert {p.square("u_hartstuf_a", s), p.square("u_hartstuf_b", s)} == {"11,10"}
    assert p.unit("u_hartstuf_a", s).op == 6  # "Melee attack 2"


def test_melee_needs_the_op_and_a_fire_into_the_square(position: Any) -> None:
    """§IA8.4 "Units must have enough operation points to fire and melee the same square"; §IA7.13 "a unit will
    melee only if it has also fired at the square it intends to melee"."""
    target = position({}).grid.parse("11,10")
    for extra in ({"op": 1, "fired_at": target}, {"op": 8, "fired_at": -1}):
        p = position({"u_hartstuf_a": ("10,10", {"melee": True, "target": target, **extra}), "c_grigsby_a": "11,10"})
        step = p.step()
        combat.melee_phase(p.ctx, p.state, "union", step)
        assert not any(e.kind == "melee" for e in step.events)


def test_a_whole_combat_phase_runs_the_six_steps_in_order(position: Any) -> None:
    """§B4.1: defensive artillery, offensive artillery, defensive, offensive, defensive melee fire, melee."""
    p = position({"u_i_corps_a": "5,5", "u_duryea_a": "6,5", "c_long_a": "8,5", "c_law_a": "7,5"})
    step = p.step()
    combat.combat_phase(p.ctx, p.state, "union", step)
    order = [e.data["unit"] for e in step.events if e.kind == "fire"]
    assert order[:2] == ["c_long_a", "u_i_corps_a"]
    assert order.index("c_law_a") < order.index("u_duryea_a")


def test_melee_strength_modifiers(position: Any) -> None:
    """MODE MODIFIERS "Routed .50" (melee); §IA8.9 without ammo a unit melees at reduced strength (AMB-13
    reading, x0.25); a gun counts as 20 men (AMB-13 reading)."""
    p = position({"u_duryea_a": "5,5", "c_long_a": "6,5"})
    ctx, s = p.ctx, p.state
    assert combat.melee_strength(ctx, s, p.i("u_duryea_a"), p.cell("6,5"), True) == 501
    routed = s.with_unit(p.i("u_duryea_a"), replace(p.unit("u_duryea_a"), routed=True))
    assert combat.melee_strength(ctx, routed, p.i("u_duryea_a"), p.cell("6,5"), True) == 250
    dry = s.with_unit(p.i("u_duryea_a"), replace(p.unit("u_duryea_a"), ammo=False))
    assert combat.melee_strength(ctx, dry, p.i("u_duryea_a"), p.cell("6,5"), True) == 125
    assert combat.melee_strength(ctx, s, p.i("c_long_a"), p.cell("6,5"), False) == 340


def test_melee_terrain_modifiers(position: Any) -> None:
    """TERRAIN MODIFIERS, melee column: "Higher Elevation .90" (defender above), "Bridge/Ford .80*" with "* attacker
    on bridge/ford" (Pry's Ford, 15,23)."""
    up = position({"u_duryea_a": "4,20"})
    assert combat.melee_strength(up.ctx, up.state, up.i("u_duryea_a"), up.cell("3,20"), True) == 501 * 90 // 100
    ford = position({"u_duryea_a": "15,23"})
    assert ford.board.terrain(ford.state, ford.cell("15,23")) == "ford"
    assert combat.melee_strength(ford.ctx, ford.state, ford.i("u_duryea_a"), ford.cell("16,23"), True) == 400


def test_friends_retreated_onto_gain_five_fatigue(position: Any) -> None:
    """§IA8.5 "Friendly units retreated onto gain five fatigue points": a rout from 10,10 toward 41,0 enters 11,9."""
    p = position({"c_law_a": ("10,10", {"strength": 90}), "c_law_b": "11,9"})
    s = combat.take_losses(p.ctx, p.state, p.i("c_law_a"), 20, False, p.step())
    assert p.square("c_law_a", s) != "10,10"
    assert p.unit("c_law_b", s).fatigue == 5


def test_artillery_over_75_fatigue_retreats_from_a_melee(position: Any) -> None:
    """§IA8.5 "Unlimbered artillery is forced to retreat when it gains over 75% fatigue in melee": a battery at 80
    fatigue always leaves the square a weak attack hits; a fresh one often holds it."""
    target = position({}).grid.parse("11,10")
    attack = {"u_anderson_a": ("10,10", {"melee": True, "target": target, "fired_at": target, "op": 8})}
    stayed = {0: 0, 80: 0}
    meleed = {0: 0, 80: 0}
    for fatigue in stayed:
        for seed in range(16):
            p = position({**attack, "c_long_a": ("11,10", {"fatigue": fatigue})}, part="union_combat_1", seed=seed)
            step = p.step()
            s = combat.melee_phase(p.ctx, p.state, "union", step)
            if any(e.kind == "melee" for e in step.events):  # the defensive melee fire may stop the attack
                meleed[fatigue] += 1
                stayed[fatigue] += p.unit("c_long_a", s).cell == p.cell("11,10")
    assert meleed[80] > 0 and stayed[80] == 0 and stayed[0] > 0
