"""La Grande Armée's computer general: it plays every scenario to the end at every level, repeats itself with
the same seed, and decides from its seat's view only."""

from __future__ import annotations

import pytest

from grognard.ai import make_player, play_out
from grognard.engine.game import new_game
from grognard.rulesets.grande_armee import GrandeArmee

SCENARIOS = GrandeArmee.scenario_ids()


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_plays_every_scenario_to_the_end_at_every_level(scenario, level):
    game = new_game(GrandeArmee, scenario, None, 3)
    players = {
        "french": make_player(f"general:{level}", GrandeArmee, 11),
        "allied": make_player(f"general:{level}", GrandeArmee, 12),
        "neutral": make_player("random", GrandeArmee, 13),
    }
    play_out(game, players)
    result = game.result()
    assert result is not None and set(result.levels) >= {"french", "allied"}
