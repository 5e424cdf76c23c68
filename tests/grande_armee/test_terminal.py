"""Playing La Grande Armée in the terminal: the text map, typed decisions with areas named column,row, and the
defender's reactions (§5.65) offered to a person during the enemy's turn."""

from __future__ import annotations

import argparse

from grognard.cli.terminal import play_in_terminal
from grognard.rulesets.grande_armee import GrandeArmee
from grognard.rulesets.grande_armee.scenario import SCENARIO_DIR, read_scenario


def _play(monkeypatch, typed: list[str]) -> int:
    lines = iter(typed)

    def fake_input(prompt: str = "") -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    args = argparse.Namespace(game="grande_armee", scenario="1_austrian_challenge", seed=3, players=None, save=None)
    return play_in_terminal(args, {})


def test_terminal_play_offers_reactions_to_the_defender(monkeypatch, capsys) -> None:
    """§2.13, §5.65-5.66: during the Allied phase V, after its first attack, the French player is asked whether
    to reinforce or withdraw; Enter lets the enemy go on."""
    assert _play(monkeypatch, ["end_build", "end_movement", *[""] * 400]) == 0
    out = capsys.readouterr().out
    assert "Austrian Challenge" in out and "* capital" in out
    assert "[french] The Allied player has attacked: you may reinforce, withdraw" in out
    assert "the enemy is moving: press Enter" in out


def test_areas_are_typed_as_column_and_row_and_a_dot_silences_the_phase(monkeypatch, capsys) -> None:
    """§2.2: areas are named column,row; "build FR-M1 8,6" builds in Paris (§2.3, §5.5). A '.' lets the enemy
    finish its phase V without asking again."""
    assert _play(monkeypatch, ["build FR-M1 8,6", "move FR-M1 99,1", "end_movement", ".", "quit"]) == 0
    out = capsys.readouterr().out
    assert "FR-M1 built at Paris (8,6)" in out
    assert "'99,1' is not an area of the map" in out
    assert out.count("[french] The Allied player has attacked") == 1


def test_the_text_map_shows_terrain_units_control_and_the_held_cities() -> None:
    """§2.3, §2.4, §3.5: each area's sign (prohibited ones '#'), the top unit and the stack's size, the control of
    clear land, and who holds each capital and major city."""
    rules = GrandeArmee(read_scenario(SCENARIO_DIR / "1_austrian_challenge.json"))
    text = rules.render_text(rules.initial_state(3), "french")
    rows = {line[:3].strip(): line[5:] for line in text.splitlines() if line[:3].strip().isdigit()}
    paris = rows["6"][2 + (8 - 1) * 4 :][:4]  # even rows are shifted half an area (two characters) east
    assert paris == "*A1 "
    madrid = rows["9"][(5 - 1) * 4 :][:4]
    assert madrid.startswith("#")  # Spain is prohibited in 1805
    assert "french cities: Amsterdam, Hanover, Brussels, Frankfurt, Paris" in text
    assert "neutral cities: Königsberg, Berlin, Warsaw, Leipzig" in text
