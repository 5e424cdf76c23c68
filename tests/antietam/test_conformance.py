"""The full battle passes the shared conformance harness: random play to the end (§IA10.0: after the eleventh
turn), illegal decisions change nothing, same-seed determinism, saves, and no seat's view, legal decisions or
events name an enemy unit it has not sighted (§IA2.1 #5 hidden units, on by default)."""

from __future__ import annotations

import json

import pytest

from grognard import rulesets
from grognard.rulesets.antietam import Antietam
from grognard.testing.conformance import run_conformance


def test_registered_with_its_scenario_and_options() -> None:
    info = rulesets.get("antietam").describe_game()
    assert info["scenarios"][0]["id"] == "1_full_battle"  # the four situations: test_scenarios.py
    options = {"level", "game", "hidden", "time_limit", "activation", "display", "version"}
    assert {o["name"] for o in info["options"]} == options


def test_conformance_full_battle() -> None:
    run_conformance(Antietam, "1_full_battle", seed=11, max_decisions=20_000)


@pytest.mark.parametrize("game", ["intermediate", "advanced"])
def test_conformance_full_battle_at_each_level_of_rules(game: str) -> None:
    """§IA2.1 #4: random play reaches the end with the activation cycle, modes, facing, force march and
    fortification (and in the advanced game command control and leaders)."""
    run_conformance(Antietam, "1_full_battle", seed=11, options={"game": game}, max_decisions=20_000)


def test_simulate_plays_to_the_end_and_the_same_seed_gives_the_same_digest(capsys) -> None:  # type: ignore[no-untyped-def]
    """`grognard simulate antietam 1_full_battle --seed N --json` plays the battle to its end; same seed, same
    digest and result."""
    from grognard.cli.main import main

    outs = []
    for _ in range(2):
        argv = ["simulate", "antietam", "1_full_battle", "--seed", "4", "--players", "random,random", "--json"]
        assert main(argv) == 0
        outs.append(json.loads(capsys.readouterr().out))
    first, second = outs
    assert first["result"] is not None and first["decisions"] > 50
    assert (first["digest"], first["result"]) == (second["digest"], second["result"])
