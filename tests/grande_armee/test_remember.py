"""What each seat remembers of enemy units (§3.5, §5.66) is updated from the stacks a decision changed: the result
is the same as looking at every stack again, over whole random games, the rules' way and the plain way (every
unit where the seat sees it, each stack's top by the stacking order)."""

from __future__ import annotations

import pytest

from grognard.engine import Step
from grognard.rulesets.grande_armee import GrandeArmee, play
from grognard.rulesets.grande_armee.state import SEATS, LGAState, Unit
from grognard.rulesets.grande_armee.view import seen_positions

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
        assert incremental == _plain_look(rules, settled), f"decision {compared + 1}: {decision.text()}"
        new_sightings += full.sightings != settled.sightings
        compared += 1
    assert compared >= 200 and new_sightings >= 10  # the games saw units move in and out of sight


def _plain_look(rules: GrandeArmee, state: LGAState) -> LGAState:
    """Every seat's sightings of the enemy tops of every stack it sees, from every unit where it sees it."""
    ctx = rules.ctx
    seen: list[tuple[str, Unit]] = []
    for seat in SEATS:
        stacks: dict[int, list[Unit]] = {}
        for u in seen_positions(state, seat):
            if ctx.side(u) != seat:
                stacks.setdefault(u.cell, []).append(u)
        tops = [play.stack_order(ctx, units)[0] for units in stacks.values()]
        last = {s.unit: s.cell for s in state.sightings if s.seat == seat}
        seen += [(seat, top) for top in tops if last.get(top.id) != top.cell]
    return play.record_sightings(state, seen)
