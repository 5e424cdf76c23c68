"""Battle of Antietam's computer players see only their seat (issue 13, "sees only its seat's view"): the
conformance harness's fog-honesty check with hidden units on (§IA2.1 #5), a cheating player that it catches,
and a general started fresh mid-game deciding as the one that played from the start."""

from __future__ import annotations

from fog_players import assert_fresh_players_decide_as_warm_ones
from grognard.rulesets.antietam import Antietam
from grognard.testing import check_players_see_only_their_seat


def test_no_computer_player_decides_by_what_its_seat_cannot_know() -> None:
    """Each player at its first decision and at later ones with enemy units hidden from its seat (§IA2.1 #5)."""
    report = check_players_see_only_their_seat(Antietam, "1_full_battle", seed=1, positions=3, spacing=40)
    assert report.players == ["general:0", "general:1", "general:2", "greedy:1", "random:1"]
    assert report.compared == 3 * report.positions and report.positions >= len(report.players) * 2
    assert report.hidden >= len(report.players)


def test_a_general_started_fresh_mid_game_decides_as_the_one_that_played() -> None:
    """It keeps no memory between decisions (the view shows which units were picked up this phase)."""
    assert assert_fresh_players_decide_as_warm_ones(Antietam, "2_hooker", 1, Antietam.seats, 97, 6) >= 6
