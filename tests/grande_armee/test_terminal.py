"""Playing La Grande Armée in the terminal: the text map, typed decisions, and the defender's reactions
(§5.65) offered to a person during the enemy's turn."""

from __future__ import annotations

import argparse

from grognard.cli.terminal import play_in_terminal


def test_terminal_play_offers_reactions_to_the_defender(monkeypatch, capsys) -> None:
    """§2.13, §5.65-5.66: during the Allied phase V, after its first attack, the French player is asked whether
    to reinforce or withdraw; Enter lets the enemy go on."""
    typed = iter(["end_build", "end_movement", *[""] * 400])

    def fake_input(prompt: str = "") -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    args = argparse.Namespace(game="grande_armee", scenario="1_austrian_challenge", seed=3, players=None, save=None)
    assert play_in_terminal(args, {}) == 0
    out = capsys.readouterr().out
    assert "Austrian Challenge" in out and "* capital" in out
    assert "[french] The Allied player has attacked: you may reinforce, withdraw" in out
    assert "the enemy is moving: press Enter" in out
