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


def test_simulate_plays_to_the_end_and_the_same_seed_gives_the_same_digest(capsys) -> None:
    """`grognard simulate grande_armee SCENARIO --seed N --json` plays a game to its end (§6.0: the scenario's last
    season) with computer players, and the same seed gives the same digest and result."""
    import json

    from grognard.cli.main import main

    outs = []
    for _ in range(2):
        assert main(["simulate", "grande_armee", "3_spanish_quagmire", "--seed", "4", "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    first, second = outs
    assert first["result"] is not None and first["decisions"] > 50
    assert (first["digest"], first["result"]) == (second["digest"], second["result"])
