"""The shared conformance harness on The Perfect General with each rule option (issue 2 item 11; PG p.9-10
for the options). Every bundled scenario runs it too, in test_scenarios.py."""

import pytest

from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.testing import run_conformance


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
