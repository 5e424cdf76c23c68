"""The legal set the sequence works out after a decision (to know whether a part has work) is handed to the seat
that decides next, though remembering what each seat saw and storing the dice made a new state: the legal set
reads neither. Over whole random games, the set handed out equals one worked out afresh, and one worked out
with the sightings and the dice changed. Worked out afresh means with nothing kept of earlier positions either:
a side's front keeps the other side's families of moves (``Front.moves``), and each seat its last reactions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grognard.rulesets.grande_armee import GrandeArmee
from grognard.rulesets.grande_armee import decisions as D
from grognard.rulesets.grande_armee.scenario import SCENARIO_DIR, read_scenario

from .conftest import RandomDecisions


@pytest.mark.parametrize(("scenario", "seed"), [("7_waterloo", 2), ("1_austrian_challenge", 4)])
def test_the_legal_set_reused_after_a_decision_is_the_one_worked_out_afresh(
    scenario: str, seed: int, random_decisions: RandomDecisions
) -> None:
    fresh = GrandeArmee(read_scenario(SCENARIO_DIR / f"{scenario}.json"))
    compared = reused = 0
    for game, seat, _ in random_decisions(scenario, seed, 400):
        rules = game.rules
        assert isinstance(rules, GrandeArmee)
        handed = game.legal(seat)
        reused += rules._legal_kept.kept.get(seat, (None, None))[1] is handed and compared > 0
        fresh._legal_kept.kept.clear()
        fresh.ctx.board.standings.clear()
        fresh._reacting.clear()
        expected = fresh.legal(game.state, seat).to_json()
        assert handed.to_json() == expected, f"decision {compared + 1}: {seat}'s legal set"
        fresh._legal_kept.kept.clear()
        fresh.ctx.board.standings.clear()
        fresh._reacting.clear()
        blind = replace(game.state, sightings=(), rng=game.state.rng ^ 0x9E3779B9)
        assert fresh.legal(blind, seat).to_json() == expected, f"decision {compared + 1}: sightings or dice read"
        compared += 1
    assert compared >= 200 and reused >= compared // 2  # most decisions reused the sequence's legal set


def test_a_kept_reaction_family_follows_who_controls_the_areas_around(position) -> None:
    """§2.13: a unit reinforces only into areas its side controls. The same unit, beside the same enemy units, loses
    a reinforcement into an area that changed hands, though its family was kept from the position before."""
    p = position(
        [
            ("FR-I1", "france", "infantry", "14,6"),
            ("AU-I1", "austria", "infantry", "15,6"),
            ("AU-I2", "austria", "infantry", "16,6"),
        ],
        control={"14,6": "french"},
    )
    p.set(attacked=True)
    before = p.rules.legal(p.state, "allied").family(D.Reinforce("AU-I2", 0))
    assert before is not None and before.values()
    to = before.values()[0]
    control = list(p.state.control)
    control[to] = "french"
    p.set(control=tuple(control))
    after = p.rules.legal(p.state, "allied").family(D.Reinforce("AU-I2", 0))
    assert after is None or to not in after.values()
