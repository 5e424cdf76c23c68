"""The tactical execution & combat phase (§9): segment order, assault, retreat, advance, minefields,
opportunity fire; supply (§5), modes (§6.2-6.3), weather (§10) and victory (§11)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from kursk_helpers import CTX, GRID, cell, group, position, step

from grognard.engine.events import Event
from grognard.rulesets.kursk import supply
from grognard.rulesets.kursk.execute import execute
from grognard.rulesets.kursk.phases import begin_turn
from grognard.rulesets.kursk.roads import mode_refusal, road_reach
from grognard.rulesets.kursk.state import Depot, KState
from grognard.rulesets.kursk.victory import level, points

TANKS = {"PZ-IV": 60, "PZ-VI": 20, "INF": 100}
RIFLES = {"INF": 60, "45AT": 4}


def run(state: KState, plots: list[tuple[int, str]]) -> tuple[KState, list[Event]]:
    s = step(state)
    after = execute(CTX, replace(state, plots=tuple(plots)), s)
    return after, s.events


def test_each_segment_moves_the_germans_then_the_soviets() -> None:
    """§9.0: segment 1 German movement, German attacks, Soviet movement, Soviet attacks; then segment 2."""
    ger = group(1, "german", "10,10", TANKS, mode="mobile")
    sov = group(64, "soviet", "20,10", RIFLES, mech=False, mode="mobile")
    _, events = run(position(ger, sov), [(1, "01"), (64, "1")])
    moves = [e.data["group"] for e in events if e.kind == "moved"]
    assert moves == ["CG64", "CG1"]  # the Soviet's segment 1 before the German's segment 2
    _, events = run(position(ger, sov), [(1, "1"), (64, "1")])
    assert [e.data["group"] for e in events if e.kind == "moved"] == ["CG1", "CG64"]


def test_an_assault_that_breaks_the_defender_makes_it_retreat_and_the_attacker_advance() -> None:
    """§8.3, §9.7: disruption above morale and the attacker's at most 80: retreat, supply 0, mobile mode;
    §9.8 the attacker advances into the hex."""
    target = GRID.neighbor(cell("10,10"), 1)
    ger = group(1, "german", "10,10", TANKS, mode="assault")
    sov = replace(group(64, "soviet", GRID.label(target), RIFLES, mech=False, mode="static"), morale=5)
    after, events = run(position(ger, sov), [(1, "1")])
    s = after.group(64)
    assert s.alive and s.cell != target and (s.supply, s.mode) == (0, "mobile")
    assert after.group(1).cell == target
    assert [e.kind for e in events].index("assault") < [e.kind for e in events].index("retreat")


def test_an_s_plot_attacks_without_advancing() -> None:
    """§6.5: "attack ... but not to move or advance"."""
    target = GRID.neighbor(cell("10,10"), 1)
    ger = group(1, "german", "10,10", TANKS, mode="assault")
    sov = replace(group(64, "soviet", GRID.label(target), RIFLES, mech=False), morale=5)
    after, _ = run(position(ger, sov), [(1, "1S")])
    assert after.group(1).cell == cell("10,10")
    assert after.group(64).cell != target


def test_a_defender_that_cannot_retreat_is_destroyed() -> None:
    """§9.7: "If the defending CG(s) are unable to retreat, then they will be destroyed": a corner hex whose
    only other neighbour is in the attacker's ZOC."""
    ger = group(1, "german", "1,0", TANKS, mode="assault")
    sov = replace(group(64, "soviet", "0,0", RIFLES, mech=False), morale=5)
    d = GRID.direction(cell("1,0"), cell("0,0"))
    after, events = run(position(ger, sov), [(1, str(d))])
    assert all(g.id != 64 for g in after.groups)
    assert any(e.kind == "destroyed" for e in events)


def test_a_german_group_leaving_a_minefield_may_destroy_it_with_engineers() -> None:
    """§9.4: the chance is (50 + ENGR)/180; with 130 engineer squads it is certain, and the minefield is gone."""
    mine = min(CTX.map.cell_features["minefield"])
    ger = group(1, "german", GRID.label(mine), {"ENGR": 130, "PZ-IV": 10}, mode="assault")
    after, events = run(position(ger), [(1, "0")])
    assert mine in after.cleared
    assert any(e.kind == "roll" and e.data.get("percent") == 100 for e in events)


def test_a_minefield_attacks_a_german_group_that_fails_to_clear_it() -> None:
    """§9.4, §8.1: strength 80, every target DS 4: casualties and disruption."""
    mine = min(CTX.map.cell_features["minefield"])
    ger = group(1, "german", GRID.label(mine), {"PZ-IV": 50, "INF": 100}, mode="assault")
    for seed in range(20):
        state = replace(position(ger), rng=seed * 7919 + 1)
        after, events = run(state, [(1, "0")])
        if mine not in after.cleared:
            assert any(e.kind == "minefield" for e in events)
            assert after.group(1).disruption > 0
            return
    raise AssertionError("the minefield was cleared 20 times at 27%")


def test_opportunity_fire_on_a_move_from_one_enemy_zoc_to_another() -> None:
    """§8.5, §9.5: a static enemy adjacent to both hexes fires, spending a supply point (§5.4)."""
    s_cell = cell("10,10")
    a, b = GRID.neighbor(s_cell, 1), GRID.neighbor(s_cell, 2)
    ger = group(1, "german", GRID.label(a), TANKS, mode="mobile")
    sov = group(64, "soviet", "10,10", {"76AT": 30, "INF": 20}, mech=False, mode="static", supply=10)
    after, events = run(position(ger, sov), [(1, str(GRID.direction(a, b)))])
    assert any(e.kind == "opportunity_fire" for e in events)
    assert after.group(64).supply == 9
    assert after.group(1).cell == b


def test_no_move_into_a_hex_holding_two_friendly_groups() -> None:
    """§9.3: the rest of the plot is aborted."""
    there = GRID.neighbor(cell("10,10"), 1)
    mover = group(1, "german", "10,10", TANKS, mode="mobile")
    full = [group(i, "german", GRID.label(there), TANKS, mode="static") for i in (2, 3)]
    after, events = run(position(mover, *full), [(1, "11")])
    assert after.group(1).cell == cell("10,10")
    assert any(e.kind == "aborted" for e in events)


# --- §5 supply -------------------------------------------------------------------------------------------
def test_depot_costs_by_terrain_and_weather() -> None:
    """§5.1: clear 1, along a road ¼, in rain 4 (road to road 1), a gully in rain 16 (quarter points)."""
    state = position()
    road = sorted(CTX.map.cell_features["road"])
    a = road[0]
    b = next(n for n in GRID.neighbors(a) if n in CTX.roads)
    off = next(n for n in GRID.neighbors(a) if n not in CTX.roads and CTX.map.terrain[n] == "clear")
    assert supply.depot_cost(CTX, state, a, b) == 1
    assert supply.depot_cost(CTX, state, a, off) == 4
    rain = replace(state, weather="rain")
    assert supply.depot_cost(CTX, rain, a, b) == 4 and supply.depot_cost(CTX, rain, a, off) == 16
    gully = next(c for c in GRID.cells() if CTX.map.terrain[c] == "gully" and c not in CTX.roads)
    near = GRID.neighbors(gully)[0]
    assert supply.depot_cost(CTX, rain, near, gully) == 64


def test_a_depot_supplies_groups_within_2_hexes_once_up_to_their_mode_cap() -> None:
    """§5.1 level 15, §5.2 within 2 hexes, added (AMB-4) up to the cap of §6.2 (assault 18, mobile 12)."""
    near = group(1, "german", "10,12", TANKS, mode="assault", supply=10)
    mobile = group(2, "german", "10,11", TANKS, mode="mobile", supply=0)
    far = group(3, "german", "10,14", TANKS, mode="assault", supply=0)
    state = position(near, mobile, far, depot=Depot("german", cell("10,10"), 60, 0))
    after = supply.distribute(CTX, state, step(state))
    assert [after.group(i).supply for i in (1, 2, 3)] == [18, 12, 0]
    assert supply.receivers(CTX, after) == []  # once a phase


def test_a_depot_never_moves_next_to_an_enemy_group() -> None:
    """§5.1, §8.5."""
    enemy = group(64, "soviet", "10,8", RIFLES, mech=False)
    state = position(enemy, depot=Depot("german", cell("10,10"), 60, 0))
    found = supply.move_refusal(CTX, state, 1)
    assert found is not None and found.rule == "§5.1"


# --- §6.2-6.3 modes and road movement --------------------------------------------------------------------
def test_road_mode_only_on_a_road_and_never_next_to_an_enemy() -> None:
    """§6.2."""
    road = sorted(CTX.map.cell_features["road"])[0]
    off = next(c for c in GRID.cells() if c not in CTX.roads)
    g = group(1, "german", GRID.label(road), TANKS)
    assert mode_refusal(CTX, position(g), g, "road") is None
    h = group(1, "german", GRID.label(off), TANKS)
    assert mode_refusal(CTX, position(h), h, "road").rule == "§6.2"  # type: ignore[union-attr]
    enemy = group(64, "soviet", GRID.label(GRID.neighbors(road)[0]), RIFLES)
    assert mode_refusal(CTX, position(g, enemy), g, "road").rule == "§6.2"  # type: ignore[union-attr]


def test_road_movement_stays_on_roads_within_six_hexes_for_infantry() -> None:
    """§6.2 road move: infantry 6, mechanized 24; §6.3 road and town hexes only."""
    start = CTX.map.place("Oboyan").cells[0]
    inf = group(1, "german", GRID.label(start), RIFLES, mech=False, mode="road", supply=24)
    reach = road_reach(CTX, position(inf), inf)
    assert reach and all(c in CTX.roads for c in reach)
    assert max(len(p) for p in reach.values()) == 6
    tank = replace(inf, mechanized=True)
    assert max(len(p) for p in road_reach(CTX, position(tank), tank).values()) > 6


# --- §10 weather, §11 victory ------------------------------------------------------------------------------
def test_rain_comes_about_one_turn_in_ten() -> None:
    """§10.1: "a 10% chance that it will rain each game turn"."""
    rain = 0
    for seed in range(300):
        state = replace(position(), rng=seed * 104729 + 3)
        rain += begin_turn(CTX, state, step(state)).weather == "rain"
    assert 12 <= rain <= 50


def test_victory_levels_of_11_2_at_their_bounds() -> None:
    assert level(CTX, 20000) == "German Decisive"
    assert level(CTX, 20001) == "German Substantive"
    assert level(CTX, 80000) == "Draw"
    assert level(CTX, 120000) == "Soviet Substantive"  # AMB-16
    assert level(CTX, 120001) == "Soviet Decisive"


def test_weapons_score_their_as_plus_ds() -> None:
    """§11.1: "PZ-VI - 18 VPs (9 + 9) 88AT - 8 VPs (7 + 1)"."""
    state = position(group(1, "german", "10,10", {"PZ-VI": 1, "88AT": 1}))
    towns = sum(int(CTX.tables["victory"]["towns"][t]) for t, s in state.control if s == "german")
    assert points(CTX, state)["german"] == towns + 26


def test_an_assault_out_of_a_minefield_is_an_attempt_to_leave_it() -> None:
    """§9.4 "whenever a German CG attempts to LEAVE a minefield hex": the clearing roll comes before the assault."""
    mine = min(CTX.map.cell_features["minefield"])
    target = next(n for n in GRID.neighbors(mine))
    ger = group(1, "german", GRID.label(mine), {"PZ-IV": 50, "INF": 50}, mode="assault")
    sov = group(64, "soviet", GRID.label(target), RIFLES, mech=False)
    _, events = run(position(ger, sov), [(1, str(GRID.direction(mine, target)))])
    kinds = [e.data.get("why", e.kind) for e in events]
    clearing = next(i for i, k in enumerate(kinds) if "clear the minefield" in str(k))
    assert clearing < kinds.index("assault")


def test_bombardment_is_field_howitzers_at_half_strength_halved_again_at_night() -> None:
    """§6.6, §9.2: the FH systems fire at ½ AS (a supply point, §5.4), halved at night; the target hex's
    enemy groups take casualties and disruption and lose a morale point (§8.7, reading)."""
    target = GRID.neighbor(cell("10,10"), 1)
    arty = group(64, "soviet", "10,10", {"152FH": 40, "122H": 40}, mech=False, mode="static", supply=5)
    ger = group(1, "german", GRID.label(target), {"INF": 100}, mode="assault")
    after, _ = run(position(arty, ger), [(64, "B1")])
    assert after.group(64).supply == 4
    assert after.group(1).disruption > 0 and after.group(1).morale == 79
    day = CTX.tables.strength(CTX.tables.weapons["152FH"], False, "bombardment")
    assert day == Fraction(3, 2)  # §9.2: ½ of AS 3
    assert not CTX.tables.may_fire(CTX.tables.weapons["122H"], "bombardment", "static")
    night, _ = run(position(arty, ger, turn=2), [(64, "B1")])
    assert night.group(1).disruption < after.group(1).disruption  # the same dice, half the strength
