"""Group adjustment (§4), reinforcements and levels (§12, §13), morale (§8.7), terrain and supply in combat
(§8.1, §8.4, §5.4), rain (§10.2), town control (§11.1)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from kursk_helpers import CTX, GRID, RULES, cell, group, position, step

from grognard.rulesets.kursk import adjust, combat, supply
from grognard.rulesets.kursk.execute import step_into
from grognard.rulesets.kursk.phases import begin_turn
from grognard.rulesets.kursk.rules import Kursk
from grognard.rulesets.kursk.state import Depot, Group, Unit

TANKS = {"PZ-IV": 20, "INF": 20}


def two_units(gid: int, at: str, morale: int = 80, designation: str = "TEST PANZER") -> Group:
    units = (Unit("A", (("PZ-IV", 10),)), Unit("B", (("INF", 30),)))
    return Group(gid, "german", designation, True, cell(at), units, mode="assault", supply=7, morale=morale)


def test_divide_forms_the_lowest_empty_id_with_the_same_designation_morale_and_supply() -> None:
    """§4.3."""
    state = position(two_units(5, "10,10"))
    after = adjust.divide(CTX, state, state.group(5), (1,), step(state))
    new = after.group(1)  # IDs 1-4 are empty in this position
    assert (new.designation, new.morale, new.supply, new.cell) == ("TEST PANZER", 80, 7, cell("10,10"))
    assert [u.name for u in new.units] == ["B"] and [u.name for u in after.group(5).units] == ["A"]


def test_transfer_needs_the_same_hex_and_designation_and_takes_the_lower_morale() -> None:
    """§4.4."""
    a, b = two_units(5, "10,10", morale=60), two_units(6, "10,10", morale=90)
    state = position(a, b)
    after = adjust.transfer(CTX, state, a, (0,), step(state))
    assert len(after.group(6).units) == 3 and after.group(6).morale == 60
    other = two_units(6, "10,10", designation="OTHER PZG")
    found = adjust.transfer_refusal(CTX, position(a, other), a, (0,))
    assert found is not None and found.rule == "§4.4"
    full = replace(b, units=b.units * 2)  # 4 units: 2 more would make 6
    found = adjust.transfer_refusal(CTX, position(a, full), a, (0, 1))
    assert found is not None and found.rule == "§4.4"


def test_renumber_only_to_an_empty_id_of_the_side() -> None:
    """§4.1, §4.7."""
    state = position(two_units(5, "10,10"), two_units(6, "12,12"))
    assert adjust.renumber_refusal(CTX, state, state.group(5), 6).rule == "§4.1"  # type: ignore[union-attr]
    assert adjust.renumber_refusal(CTX, state, state.group(5), 70).rule == "§4.1"  # type: ignore[union-attr]
    assert adjust.renumber_refusal(CTX, state, state.group(5), 9) is None


def test_soviet_reinforcements_come_two_turns_earlier_a_level_lower() -> None:
    """§12, §13: the 5th Guards Tank Army's turn 6 at level 3 is turn 4 at level 2 and turn 8 at level 4."""
    for level, turn in ((2, 4), (3, 6), (4, 8)):
        rules = Kursk(Kursk.load_scenario("southern_pincer"), {"level": level})
        state = rules.initial_state(1)
        assert {g.arrives for g in state.groups if g.designation == "5 GDS MECH"} == {turn}
        assert {g.arrives for g in state.groups if g.designation == "WIK SS PZG"} == {8}  # German: unchanged


def test_reinforcements_enter_at_their_entry_on_their_turn() -> None:
    """§13: a group due this turn is placed on its entry road (or the nearest road hex with room)."""
    state = RULES.initial_state(1)
    due = next(g for g in state.groups if g.arrives == 6)
    after = begin_turn(CTX, replace(state, turn=6), step(state))
    g = after.group(due.id)
    assert g.on_map and min(GRID.distance(g.cell, e) for e in due.entry) <= 2


def test_disruption_resets_and_low_morale_recovers_at_the_start_of_each_turn() -> None:
    """§8.2 disruption to zero; §8.7 morale below 50 gains 1."""
    low = replace(group(1, "german", "10,10", TANKS), morale=40, disruption=70)
    high = replace(group(2, "german", "12,10", TANKS), morale=60, disruption=30)
    state = position(low, high)
    after = begin_turn(CTX, state, step(state))
    assert (after.group(1).morale, after.group(1).disruption) == (41, 0)
    assert (after.group(2).morale, after.group(2).disruption) == (60, 0)


def test_terrain_and_mode_multiply_the_defence() -> None:
    """§6.2 static x1.5, §8.4 woods x2, a Soviet group in a minefield x2 (AMB-13: multiplied)."""
    woods = next(c for c in GRID.cells() if CTX.map.terrain[c] == "woods")
    g = group(64, "soviet", GRID.label(woods), TANKS, mode="static")
    assert combat.defence_factor(CTX, g, ()) == Fraction(3)
    mine = min(CTX.map.cell_features["minefield"])
    m = group(64, "soviet", GRID.label(mine), TANKS, mode="assault")
    assert combat.defence_factor(CTX, m, ()) == 2 * combat.defence_factor(CTX, m, (mine,))


def test_attacks_out_of_a_gully_are_halved_and_into_one_doubled() -> None:
    """§8.4."""
    gully = next(c for c in GRID.cells() if CTX.map.terrain[c] == "gully")
    plain = next(n for n in GRID.neighbors(gully) if CTX.map.terrain[n] != "gully")
    assert combat.gully_factor(CTX, gully, plain) == Fraction(1, 2)
    assert combat.gully_factor(CTX, plain, gully) == Fraction(2)


def test_the_weapon_substitutions_of_8_1() -> None:
    """AP on soft targets AS 1; AFVs AS 6 in offensive fire on soft (SU-152 10); towed guns ½ in offensive
    fire; only FH bombard, at ½; I weapons may not fire opportunity fire."""
    t = CTX.tables
    w = t.weapons
    assert t.strength(w["PZ-IV"], False, "defensive") == 1
    assert t.strength(w["PZ-IV"], False, "offensive") == 6
    assert t.strength(w["SU-152"], False, "offensive") == 10
    assert t.strength(w["88AT"], True, "offensive") == Fraction(7, 2)
    assert t.strength(w["150FH"], False, "bombardment") == Fraction(3, 2)
    assert not t.may_fire(w["150H"], "bombardment", "static")
    assert not t.may_fire(w["INF"], "opportunity", "static")
    assert not t.may_fire(w["88AT"], "defensive", "mobile")  # §6.2 no towed guns in mobile mode


def test_infantry_defends_better_against_tanks_without_infantry() -> None:
    """§8.1, AMB-10 as calibrated: I weapons' AS against AFVs times 1 + (AFV/INF - 1)/2, at most 2, when the
    attacking AFVs outnumber the attacking INF; pure tank groups face the cap."""
    assert combat.i_bonus(CTX, [group(1, "german", "1,1", {"PZ-IV": 40, "INF": 20})]) == Fraction(3, 2)
    assert combat.i_bonus(CTX, [group(1, "german", "1,1", {"PZ-IV": 24, "INF": 20})]) == Fraction(11, 10)
    assert combat.i_bonus(CTX, [group(1, "german", "1,1", {"PZ-IV": 80, "INF": 20})]) == 2
    assert combat.i_bonus(CTX, [group(1, "german", "1,1", {"PZ-IV": 40})]) == 2
    assert combat.i_bonus(CTX, [group(1, "german", "1,1", {"PZ-IV": 10, "INF": 20})]) == 1


def test_rain_disrupts_a_river_crossing_less_with_engineers() -> None:
    """§10.2, AMB-15: 90 x (100 - ENGR)/100 for each river crossed on a rain turn; nothing in clear weather."""
    a, b = sorted(CTX.map.edge_features["river"])[0]
    plain = group(1, "german", GRID.label(a), {"PZ-IV": 10}, mode="mobile")
    engineers = group(1, "german", GRID.label(a), {"PZ-IV": 10, "ENGR": 50}, mode="mobile")
    for g, expected, weather in ((plain, 90, "rain"), (engineers, 45, "rain"), (plain, 0, "clear")):
        state = position(g, weather=weather)
        after = step_into(CTX, state, g, b, step(state))
        assert after.group(1).disruption == expected and after.group(1).supply == g.supply - 1


def test_german_depots_cross_no_river_in_rain_off_the_roads() -> None:
    """§5.1."""
    a, b = next((x, y) for x, y in sorted(CTX.map.edge_features["river"]) if not (x in CTX.roads and y in CTX.roads))
    d = GRID.direction(a, b)
    state = position(depot=Depot("german", a, 60, 0), weather="rain")
    assert supply.move_refusal(CTX, state, d).rule == "§5.1"  # type: ignore[union-attr]
    assert supply.move_refusal(CTX, replace(state, weather="clear"), d) is None
    soviet = replace(state, depot=Depot("soviet", a, 60, 0))
    assert supply.move_refusal(CTX, soviet, d) is None


def test_a_town_is_held_by_the_side_that_last_entered_it() -> None:
    """§11.1: a group or a depot moving onto it; no garrison needed."""
    oboyan = CTX.map.place("Oboyan").cells[0]
    near = GRID.neighbors(oboyan)[0]
    g = group(1, "german", GRID.label(near), TANKS, mode="mobile")
    state = position(g)
    after = step_into(CTX, state, g, oboyan, step(state))
    assert after.holder("Oboyan") == "german"
    back = position(depot=Depot("soviet", near, 60, 0), control=after.control)
    d = GRID.direction(near, oboyan)
    assert supply.move_depot(CTX, back, d, step(back)).holder("Oboyan") == "soviet"


def test_a_new_depot_beginning_on_a_town_does_not_take_it() -> None:
    """§11.1 "move onto", §5.3: a depot begins on its entry road (Korocha's is the town itself); cycling (N) through
    the roads takes nothing, and the depot takes the town only by moving off and back onto it."""
    korocha = CTX.map.place("Korocha").cells[0]
    entry = CTX.entries["soviet"].index(korocha)
    g = group(1, "german", "20,10", TANKS, mode="mobile")
    held = position(g, control=tuple((t, "german" if t == "Korocha" else s) for t, s in position(g).control))
    after = supply.new_depot(CTX, held, "soviet", entry, step(held))
    assert after.depot is not None and after.depot.cell == korocha
    assert after.holder("Korocha") == "german"
