"""Every scenario passes the shared conformance harness: random play to the end, illegal decisions change
nothing, same-seed determinism, saves, and no seat's view names a unit hidden under the top of a stack (§3.5)."""

from __future__ import annotations

import pytest

from grognard.rulesets.grande_armee import GrandeArmee
from grognard.testing.conformance import check_random_play, run_conformance

SCENARIOS = GrandeArmee.scenario_ids()


def test_seven_scenarios() -> None:
    """§6.0: seven scenarios."""
    assert len(SCENARIOS) == 7


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_conformance(scenario: str) -> None:
    run_conformance(GrandeArmee, scenario, seed=11, max_decisions=3000)


@pytest.mark.parametrize("scenario", ["1_austrian_challenge", "3_spanish_quagmire"])
def test_greedy_play_ends_with_a_result(scenario: str) -> None:
    """§5.2: the game ends after the last season with each side's level of victory."""
    game = check_random_play(GrandeArmee, scenario, seed=5, max_decisions=3000, player="greedy")
    result = game.result()
    assert result is not None and set(result.levels) == {"french", "allied", "neutral"}
