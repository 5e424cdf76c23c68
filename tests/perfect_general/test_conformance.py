"""The shared conformance harness on The Perfect General with each rule option (issue 2 item 11; PG p.9-10
for the options). Every bundled scenario runs it too, in test_scenarios.py."""

import pytest

from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.testing import run_conformance
from grognard.testing.conformance import check_random_play


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"kill": "partial", "hit": "always"},
        {"view": "full", "player1": "defender", "attacker_handicap": 20},
    ],
    ids=["default", "partial-kill-always-hit", "full-view-handicap"],
)
def test_random_play_passes_the_harness_under_each_rule_option(options):
    run_conformance(PerfectGeneral, "simple_little_war", seed=21, options=options, max_decisions=3000)


def test_greedy_play_passes_the_harness():
    run_conformance(PerfectGeneral, "simple_little_war", seed=4, max_decisions=3000, player="greedy")


class _Crowded(PerfectGeneral):
    """The rules with an invariant that breaks as soon as a unit has moved, to see the harness catch it."""

    def check_invariants(self, state):
        return ["a unit has moved"] if any(u.moved for u in state.units) else []


def test_the_harness_checks_the_rulesets_invariants_after_every_decision():
    with pytest.raises(AssertionError, match="a unit has moved"):
        check_random_play(_Crowded, "simple_little_war", seed=21, max_decisions=3000)
