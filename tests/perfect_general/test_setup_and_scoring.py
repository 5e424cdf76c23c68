"""Sides, buy points, placement, reinforcements, neutral countries and scoring (PG p.8-10, p.17-18)."""

from pathlib import Path

import pytest

from grognard.engine import DataError, IllegalDecision, new_game
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.scenario import scenario_from_document
from grognard.rulesets.perfect_general.state import Phase

FIELD = Path(__file__).parent / "field.json"


def fresh(**options):
    return new_game(PerfectGeneral, str(FIELD), options, seed=3)


def test_the_attacker_buys_and_places_first_then_the_defender_p17_p9():
    g = fresh()
    assert g.turn().seat == "attacker" and g.state.phase is Phase.PURCHASE
    assert g.state.side_state("attacker").points == 40 and g.state.side_state("defender").points == 30


def test_defender_is_the_side_with_fewer_buy_points_p17():
    import json

    doc = json.loads(FIELD.read_text())
    doc["buy_points"] = {"attacker": 10, "defender": 30}
    with pytest.raises(DataError, match="fewer buy points"):
        scenario_from_document(doc, "swapped")


def test_handicap_reduces_a_sides_buy_points_p17():
    g = fresh(attacker_handicap=25)
    assert g.state.side_state("attacker").points == 30


def test_buying_spends_points_and_leftover_points_ask_for_confirmation_p9_p10():
    g = fresh()
    g.apply("attacker", D.Buy("medium_tank"))
    assert g.state.side_state("attacker").points == 32
    g.apply("attacker", D.EndPurchase())
    assert g.legal("attacker").prompt.startswith("you have 32 buy points left")
    g.apply("attacker", D.ConfirmPurchase(False))
    assert g.state.phase is Phase.PURCHASE
    g.apply("attacker", D.EndPurchase())
    g.apply("attacker", D.ConfirmPurchase(True))
    assert g.state.phase is Phase.PLACEMENT


def test_cannot_buy_beyond_the_points_p17():
    g = fresh()
    for _ in range(3):
        g.apply("attacker", D.Buy("heavy_tank"))
    assert D.Buy("heavy_tank") not in g.legal("attacker")
    with pytest.raises(IllegalDecision):
        g.apply("attacker", D.Buy("heavy_tank"))


def test_placement_anywhere_in_the_region_and_pick_up_returns_to_the_pool_p10():
    g = fresh()
    g.apply("attacker", D.Buy("medium_tank"))
    g.apply("attacker", D.Buy("mine"))
    g.apply("attacker", D.EndPurchase())
    g.apply("attacker", D.ConfirmPurchase(True))
    grid = g.rules.scenario.map.grid
    legal = g.legal("attacker")
    cells = set(legal.family(D.Place("medium_tank", 0)).values())
    assert cells and all(grid.coord(c)[1] >= 7 for c in cells)  # rows 8-10: the attacker's region
    assert grid.parse("13,9") not in cells  # the sea
    g.apply("attacker", D.Place("medium_tank", grid.parse("5,9")))
    uid = g.state.units[0].id
    g.apply("attacker", D.PickUp(uid))
    assert not g.state.units and g.state.side_state("attacker").pool == ("medium_tank", "mine")
    g.apply("attacker", D.Place("mine", grid.parse("6,9")))
    assert g.state.mines and g.view("defender")["state"]["mines"]  # always visible (p.22)


def test_unit_ids_do_not_reveal_counts_or_order_p33():
    g = fresh()
    for _ in range(3):
        g.apply("attacker", D.Buy("infantry"))
    g.apply("attacker", D.EndPurchase())
    g.apply("attacker", D.ConfirmPurchase(True))
    grid = g.rules.scenario.map.grid
    for label in ("1,8", "2,8", "3,8"):
        g.apply("attacker", D.Place("infantry", grid.parse(label)))
    ids = [u.id for u in g.state.units]
    # "a" and eight hex digits from a keyed hash: no serial number for the enemy to count
    assert len(set(ids)) == 3 and all(i.startswith("a") and len(i) == 9 for i in ids)
    other = fresh()
    other.seed = 4
    assert ids != [f"a{n}" for n in range(3)]


def test_town_held_alone_scores_its_value_each_turn_contested_or_empty_scores_nothing_p17(field):
    f = field(
        [("attacker", "infantry", "9,3"), ("defender", "infantry", "12,8"), ("attacker", "infantry", "11,8")],
        phase=Phase.SECOND_FIRE,
        side="defender",
    )
    f.apply("defender", D.EndFire())
    assert f.state.side_state("attacker").score == 10  # Alpha held alone
    assert f.state.side_state("defender").score == 5  # Beta: only the defender stands in its one location
    f.set(phase=Phase.SECOND_FIRE, side="defender")
    f.edit("a2", cell=f.cell("12,8"))  # now both sides in Beta's location is impossible; contest Alpha instead
    f.edit("a2", cell=f.cell("10,3"))
    f.edit("d1", cell=f.cell("10,3"))
    f.apply("defender", D.EndFire())
    assert f.state.side_state("attacker").score == 10  # Alpha contested this turn: nothing more
    assert f.state.history == ((10, 5), (10, 5))


def test_reinforcement_points_on_fixed_turns_and_from_towns_p18(field):
    f = field(
        [("defender", "infantry", "12,8"), ("attacker", "infantry", "1,10")], phase=Phase.SECOND_FIRE, side="defender"
    )
    f.apply("defender", D.EndFire())
    # turn 2 begins: 6 fixed points for the defender and 4 earned by holding Beta at the end of turn 1
    assert f.state.turn == 2 and f.state.phase is Phase.PURCHASE and f.state.side == "defender"
    assert f.state.side_state("defender").points == 10 and f.state.region == "reinforce"


def test_entering_a_neutral_country_pauses_and_the_other_side_defends_it_p18(field):
    f = field(
        [("attacker", "medium_tank", "12,8"), ("attacker", "infantry", "1,10"), ("defender", "infantry", "1,1")],
        phase=Phase.MOVEMENT,
    )
    f.apply("attacker", D.Move("a1", f.cell("12,6")))
    st = f.state
    assert st.phase is Phase.PURCHASE and st.side == "defender" and st.side_state("defender").points == 9
    assert "Neutralia" in st.neutrals_entered
    f.apply("defender", D.Buy("bazooka"))
    f.apply("defender", D.Buy("bazooka"))
    f.apply("defender", D.Buy("bazooka"))
    f.apply("defender", D.EndPurchase())
    legal = f.legal("defender")
    cells = set(legal.family(D.Place("bazooka", 0)).values())
    country = {f.cell("12,6"), f.cell("13,6"), f.cell("14,6")}
    # inside the country; the invader at 12,6 is unseen, so its location is offered too (placing there finds it)
    assert cells == country
    f.apply("defender", D.Place("bazooka", f.cell("13,6")))
    f.apply("defender", D.Place("bazooka", f.cell("14,6")))
    f.apply("defender", D.EndPlacement())
    assert f.state.phase is Phase.MOVEMENT and f.state.side == "attacker"
    assert f.unit("a1").mp == 0 and f.unit("a2").mp == 2  # the invader stopped; the others keep their moves


def test_game_lasts_the_scenarios_turns_and_ends_with_a_result_p3_p18(field):
    f = field([("attacker", "infantry", "9,3")], phase=Phase.SECOND_FIRE, side="defender", turn=3)
    f.apply("defender", D.EndFire())
    assert f.game.over
    result = f.game.result()
    assert result.winner == "attacker" and result.scores == {"attacker": 10, "defender": 0}


def test_unspent_points_are_lost_after_confirmation_p9():
    g = fresh()
    g.apply("attacker", D.EndPurchase())
    g.apply("attacker", D.ConfirmPurchase(True))
    # nothing bought, nothing to place: on to the defender's purchase, the attacker's 40 points gone
    assert (g.state.phase, g.state.side) == (Phase.PURCHASE, "defender")
    assert g.state.side_state("attacker").points == 0


def test_greedy_placement_ends_when_the_region_is_full_p9():
    """More units bought than the set-up region holds: the greedy player ends placement (the rest are lost)
    instead of picking units up and putting them down again forever."""
    from pathlib import Path

    from grognard.ai import parse_players, play_out
    from grognard.engine import new_game
    from grognard.rulesets.perfect_general import PerfectGeneral

    path = Path(__file__).parent / "crowded_setup.json"
    game = new_game(PerfectGeneral, str(path), None, 1)
    play_out(game, parse_players("greedy,greedy", PerfectGeneral, PerfectGeneral.seats, 1), max_decisions=5000)
    assert game.over
    assert not any(e.decision.kind in ("pick_up", "pick_up_mine") for e in game.log)


def test_the_tutorials_purchase_leaves_70_of_150_points_p9():
    g = new_game(PerfectGeneral, "simple_little_war", None, seed=1)
    for t in (
        "armored_car",
        "medium_tank",
        "heavy_tank",
        "mobile_artillery",
        "infantry",
        "bazooka",
        "engineer",
        "light_artillery",
        "heavy_artillery",
        "mine",
    ):
        g.apply("attacker", D.Buy(t))
    assert g.state.side_state("attacker").points == 70
    g.apply("attacker", D.EndPurchase())
    assert g.legal("attacker").prompt.startswith("you have 70 buy points left")  # the fail-safe requester
