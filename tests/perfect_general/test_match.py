"""The match game of PG p.3 played by people (issue 15 item 11): the scenario twice, player 1 on one side and
then on the other, each player's victory points from both games added up; in the terminal (``grognard play
--match``) and in the browser (the lobby's match game, tests/browser/test_pg_words.py)."""

from __future__ import annotations

import argparse
import re
from typing import Any

import grognard.cli.terminal as terminal


def _play(monkeypatch, options: dict[str, Any], players: str | None) -> str:
    """A terminal match where each person's answer is 'this phase is done' (or hold fire, or yes, I am done)."""
    asked: list[tuple[Any, str, Any]] = []
    real_asking = terminal.asking

    def asking(game, seat, legal):
        asked.append((game, seat, legal))
        return real_asking(game, seat, legal)

    def answer(prompt: str = "") -> str:
        game, seat, legal = asked[-1]
        if seat not in game.turn().deciding:
            return ""  # a reaction: let the enemy go on
        ending = [d for d in legal if d.kind.startswith("done") or d.kind == "hold_fire" or getattr(d, "done", 0)]
        return terminal._typed(game, (ending or list(legal))[0])

    monkeypatch.setattr(terminal, "asking", asking)
    monkeypatch.setattr("builtins.input", answer)
    args = argparse.Namespace(
        game="perfect_general", scenario="simple_little_war", seed=4, players=players, save=None, match=True
    )
    assert terminal.play_in_terminal(args, options) == 0
    return "\n".join(f"[{seat}]" for _, seat, _ in asked)


def test_a_person_plays_player_1_on_each_side_in_turn_and_the_points_are_added_up_p3(monkeypatch, capsys) -> None:
    seats = _play(monkeypatch, {}, None)
    out = capsys.readouterr().out
    first, second = out.split("game 2 of 2")
    assert "game 1 of 2: player 1 plays the attacker" in first and ": player 1 plays the defender ===" in second
    # the person (player 1) is asked as the attacker in the first game and as the defender in the second
    n_first = first.count("\n[")
    asked = seats.split("\n")
    assert set(asked[:n_first]) == {"[attacker]"} and set(asked[n_first:]) == {"[defender]"}
    scores = [tuple(map(int, m)) for m in re.findall(r"attacker (\d+), defender (\d+) victory points", out)]
    assert len(scores) == 2
    (a1, d1), (a2, d2) = scores
    assert f"Match: player 1 {a1 + d2}, player 2 {d1 + a2}" in out


def test_player_1_may_begin_as_the_defender_p8(monkeypatch, capsys) -> None:
    seats = _play(monkeypatch, {"player1": "defender"}, None)
    out = capsys.readouterr().out
    assert "game 1 of 2: player 1 plays the defender" in out
    assert seats.split("\n")[0] == "[defender]"


def test_two_computers_play_a_terminal_match_without_asking_anyone(monkeypatch, capsys) -> None:
    assert _play(monkeypatch, {}, "greedy,greedy") == ""
    assert re.search(r"Match: player 1 \d+, player 2 \d+", capsys.readouterr().out)
