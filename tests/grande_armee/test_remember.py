"""What each seat remembers of enemy units (§3.5, §5.66) is updated from the stacks a decision changed: the result
is the same as looking at every stack again, over whole random games."""

from __future__ import annotations

import pytest

from grognard.ai import make_player
from grognard.ai.driver import computer_decision
from grognard.engine import Game, Step
from grognard.rulesets.grande_armee import GrandeArmee
from grognard.rulesets.grande_armee.scenario import SCENARIO_DIR, read_scenario


@pytest.mark.parametrize(("scenario", "seed"), [("7_waterloo", 3), ("1_austrian_challenge", 5)])
def test_sightings_updated_from_changed_stacks_equal_a_full_look_3_5_5_66(scenario: str, seed: int) -> None:
    rules = GrandeArmee(read_scenario(SCENARIO_DIR / f"{scenario}.json"))
    game = Game(rules, seed)
    players = {s: make_player("random", GrandeArmee, seed + i) for i, s in enumerate(rules.seats)}
    compared = new_sightings = 0
    while not game.over and compared < 600:
        due = computer_decision(game, players)
        assert due is not None
        seat, decision = due
        before = game.state
        step = Step(before.rng)
        settled = rules.sequence.settle(rules._apply(before, seat, decision, step), step)
        full = rules._remember(settled)  # every stack looked at again
        incremental = rules.apply(before, seat, decision, Step(before.rng))
        assert incremental == full, f"decision {compared + 1}: {decision.text()}"
        new_sightings += full.sightings != settled.sightings
        compared += 1
        game.apply(seat, decision)
    assert compared >= 200 and new_sightings >= 10  # the games saw units move in and out of sight
