"""La Grande Armée's computer players see only their seat (issue 12 item 3; GUIDE habit 6): the conformance
harness's fog-honesty check on every scenario, a cheating player that it catches, and a general started fresh
mid-game deciding as the one that played from the start."""

import pytest

from fog_players import assert_a_peeker_fails, assert_fresh_players_decide_as_warm_ones
from grognard.rulesets.grande_armee import GrandeArmee
from grognard.testing import check_players_see_only_their_seat


@pytest.mark.parametrize("scenario", GrandeArmee.scenario_ids())
def test_no_computer_player_decides_by_what_its_seat_cannot_know(scenario):
    """Each player at its first decision and at the first one after 60 with enemy units hidden from its seat."""
    report = check_players_see_only_their_seat(GrandeArmee, scenario, seed=1, positions=2)
    assert report.players == ["general:0", "general:1", "general:2", "greedy:1", "random:1"]
    assert report.compared == 3 * report.positions and report.positions >= len(report.players) + 4
    assert report.hidden >= 4  # enemy units under the top of a stack (§3.5)


def test_the_fog_check_goes_on_into_later_seasons():
    report = check_players_see_only_their_seat(GrandeArmee, "1_austrian_challenge", seed=2, positions=4, spacing=30)
    assert report.hidden >= 3 * len(report.players) - 2
    assert any("1806" in w for w in report.where), report.where


def test_the_fog_check_fails_a_player_that_reads_a_hidden_unit(monkeypatch):
    assert_a_peeker_fails(monkeypatch, GrandeArmee, "1_austrian_challenge")


def test_a_general_started_fresh_mid_game_decides_as_the_one_that_played():
    """Its memory (the morale it reckons the enemy's units have left, its plan, its armies' objectives) is rebuilt
    from the seat's earlier observations: a server restarted mid-game makes the same choice."""
    assert_fresh_players_decide_as_warm_ones(GrandeArmee, "1_austrian_challenge", 1, ("french", "allied"), 23, 8)
