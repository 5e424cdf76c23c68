"""The legal set the sequence works out after a decision (to know whether a part has work) is handed to the seat
that decides next, though storing the dice made a new state: the legal set reads no dice. Over random games, the
set handed out equals one worked out afresh (its suggestion included), and one worked out with other dice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grognard.ai import make_player
from grognard.ai.driver import computer_decision
from grognard.engine import Game
from grognard.rulesets.kursk import Kursk


@pytest.mark.parametrize(("scenario", "seed"), [("first_day", 2), ("southern_pincer", 5)])
def test_the_legal_set_reused_after_a_decision_is_the_one_worked_out_afresh(scenario: str, seed: int) -> None:
    rules = Kursk(Kursk.load_scenario(scenario))
    fresh = Kursk(Kursk.load_scenario(scenario))
    game = Game(rules, seed)
    # greedy in one seat asks for the suggested plot; random in the other goes everywhere
    players = {"soviet": make_player("greedy", Kursk, seed), "german": make_player("random", Kursk, seed + 1)}
    compared = reused = 0
    while not game.over and compared < 400:
        due = computer_decision(game, players)
        assert due is not None
        seat = due[0]
        handed = game.legal(seat)
        fresh._legal_kept.kept.clear()
        expected = fresh.legal(game.state, seat).to_json()
        assert handed.to_json() == expected, f"decision {compared + 1}: {seat}'s legal set"
        fresh._legal_kept.kept.clear()
        other_dice = replace(game.state, rng=game.state.rng ^ 0x9E3779B9)
        assert fresh.legal(other_dice, seat).to_json() == expected, f"decision {compared + 1}: the dice read"
        game.apply(*due)
        compared += 1
        # the sequence asked for the next legal set inside apply, before the dice were stored: it is kept for the
        # state the game now holds, before any seat asks
        kept = rules._legal_kept.kept.get(game.turn().seat or "")
        reused += kept is not None and kept[0] is game.state
    assert compared >= 100 and reused >= compared // 4  # many decisions reused the sequence's legal set
