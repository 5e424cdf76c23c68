"""The Perfect General's computer players see only their seat (issue 12 item 3; GUIDE habit 6): the conformance
harness's fog-honesty check on every scenario, a cheating player that it catches, and a general started fresh
mid-game deciding as the one that played from the start."""

import pytest

from fog_players import assert_a_peeker_fails, assert_fresh_players_decide_as_warm_ones
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.testing import check_players_see_only_their_seat


@pytest.mark.parametrize("scenario", PerfectGeneral.scenario_ids())
def test_no_computer_player_decides_by_what_its_seat_cannot_know(scenario):
    """Each player at its first decision and at the first one after 60 with enemy units hidden from its seat."""
    report = check_players_see_only_their_seat(PerfectGeneral, scenario, seed=1, positions=2)
    assert report.players == ["general:0", "general:1", "general:2", "greedy:1", "random:1"]
    assert report.compared == 3 * report.positions and report.positions >= len(report.players) + 4
    assert report.hidden >= 4  # enemy units unseen (p.32)


def test_the_fog_check_reaches_the_battle_with_units_hidden():
    """Deeper into one game: fire and movement phases with enemy units unseen (p.32), hidden plots (p.28)."""
    report = check_players_see_only_their_seat(PerfectGeneral, "simple_little_war", seed=2, positions=5, spacing=40)
    assert report.hidden >= 2 * len(report.players)
    assert any("fire" in w for w in report.where) and any("movement" in w for w in report.where), report.where


def test_the_fog_check_fails_a_player_that_reads_a_hidden_unit(monkeypatch):
    assert_a_peeker_fails(monkeypatch, PerfectGeneral, "simple_little_war")


def test_a_general_started_fresh_mid_game_decides_as_the_one_that_played():
    """Its memory (the units already ordered in a movement phase, their goals, the crossing) is rebuilt from the
    seat's earlier observations: a server restarted mid-game makes the same choice."""
    assert_fresh_players_decide_as_warm_ones(PerfectGeneral, "simple_little_war", 1, PerfectGeneral.seats, 37, 8)
