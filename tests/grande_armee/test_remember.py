"""What each seat remembers of enemy units (§3.5, §5.66) is updated from the stacks a decision changed: the result
is the same as looking at every stack again, over whole random games."""

from __future__ import annotations

import pytest

from grognard.engine import Step
from grognard.rulesets.grande_armee import GrandeArmee

from .conftest import RandomDecisions


@pytest.mark.parametrize(("scenario", "seed"), [("7_waterloo", 3), ("1_austrian_challenge", 5)])
def test_sightings_updated_from_changed_stacks_equal_a_full_look_3_5_5_66(
    scenario: str, seed: int, random_decisions: RandomDecisions
) -> None:
    compared = new_sightings = 0
    for game, seat, decision in random_decisions(scenario, seed, 600):
        rules = game.rules
        assert isinstance(rules, GrandeArmee)
        before = game.state
        step = Step(before.rng)
        settled = rules.sequence.settle(rules._apply(before, seat, decision, step), step)
        full = rules._remember(settled)  # every stack looked at again
        incremental = rules.apply(before, seat, decision, Step(before.rng))
        assert incremental == full, f"decision {compared + 1}: {decision.text()}"
        new_sightings += full.sightings != settled.sightings
        compared += 1
    assert compared >= 200 and new_sightings >= 10  # the games saw units move in and out of sight
