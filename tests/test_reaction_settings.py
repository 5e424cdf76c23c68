"""Reactions without drudgery (issue 15): a seat's reaction settings, stored with the game as that seat's
decisions, answer its reactions through the one driver, and never show to another seat."""

from __future__ import annotations

from typing import Any

import pytest

from grognard.ai import make_player
from grognard.ai.base import seat_seed
from grognard.ai.driver import computer_decision, standing_answer
from grognard.engine import Game, IllegalDecision
from grognard.engine.game import new_game
from grognard.engine.protocol import ReactionSetting
from grognard.persistence.saves import check_save, save_document
from grognard.rulesets.grande_armee import GrandeArmee
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.server.fog import seat_core

SEED = 5


def _pg_until(stop: Any, settings: list[ReactionSetting] = (), limit: int = 4000) -> tuple[Game, list[Any]]:
    """A Perfect General game with the defender a person (played by a greedy player whenever the driver leaves
    a decision to it) and the attacker a computer; runs until ``stop(game)``. Returns the game and every moment
    the person was left a reaction to answer."""
    game = new_game(PerfectGeneral, "simple_little_war", None, SEED)
    for s in settings:
        game.apply("defender", s)
    computer = {"attacker": make_player("greedy", PerfectGeneral, seat_seed(SEED, "attacker"))}
    person = {"defender": make_player("greedy", PerfectGeneral, seat_seed(SEED, "defender"))}
    asked = []
    while not game.over and not stop(game) and len(game.log) < limit:
        due = computer_decision(game, computer)
        if due is None:
            if game.rules.reaction(game.state, "defender") is not None:
                asked.append(game.rules.reaction(game.state, "defender"))
            due = computer_decision(game, person)
            assert due is not None
        game.apply(*due)
    return game, asked


def _third_turn(game: Game) -> bool:
    return game.state.turn >= 3


def test_the_best_shot_at_fifty_per_cent_answers_every_passing_fire_offer_and_asks_nothing() -> None:
    """PG p.14: passing fire at an enemy moving in sight. With "take the best shot at 50% or more" the defender
    is asked nothing; the driver fires the best shot at 50% or more and holds otherwise, as its decisions."""
    best = [ReactionSetting("passing", "best", 50), ReactionSetting("return", "best", 50)]
    game, asked = _pg_until(_third_turn, best)
    assert asked == []
    answers = [
        e.decision for e in game.log if e.seat == "defender" and e.decision.kind in ("passing_fire", "hold_fire")
    ]
    assert any(d.kind == "hold_fire" for d in answers) and any(d.kind == "passing_fire" for d in answers)


def test_by_default_a_person_is_asked_only_where_a_unit_can_fire() -> None:
    """ "Ask me" is the default; a reaction with one legal answer (hold fire, no unit able to fire) is not asked."""
    game, asked = _pg_until(_third_turn)
    assert asked and all(r.best is not None for r in asked)
    held = [e for e in game.log if e.seat == "defender" and e.decision.kind == "hold_fire"]
    assert held  # the one-answer offers were answered by the driver, logged as the defender's decisions


def test_never_ask_holds_for_the_phase_it_is_set_in_only() -> None:
    game, _ = _pg_until(lambda g: g.rules.reaction(g.state, "defender") is not None)
    phase = game.rules.reaction_phase(game.state)
    game.apply("defender", ReactionSetting("passing", "never"))
    assert game.log[-1].decision == ReactionSetting("passing", "never", 50, phase)
    assert game.setting("defender", "passing").mode == "never"
    assert standing_answer(game, "defender") == (True, game.rules.reaction(game.state, "defender").decline)
    computer = {"attacker": make_player("greedy", PerfectGeneral, seat_seed(SEED, "attacker"))}
    while game.rules.reaction_phase(game.state) == phase:
        due = computer_decision(game, computer)
        assert due is not None  # the defender is asked nothing for the rest of the attacker's movement
        game.apply(*due)
    assert game.setting("defender", "passing").mode == "ask"


def test_settings_are_private_replayed_exactly_and_do_not_block_the_other_seats_undo() -> None:
    game = new_game(PerfectGeneral, "simple_little_war", None, SEED)
    game.apply("attacker", game.legal("attacker").suggested or next(iter(game.legal("attacker"))))
    before = seat_core(game, "attacker")
    assert game.can_undo("attacker")
    game.apply("defender", ReactionSetting("passing", "best", 70))
    after = seat_core(game, "attacker")
    assert after == before  # the attacker's message, tag and all, is the same
    assert game.can_undo("attacker")  # another seat's setting is no decision of the game's
    mine = game.view("defender")["reactions"]
    assert {r["name"]: (r["mode"], r["percent"]) for r in mine}["passing"] == ("best", 70)
    assert all(r["mode"] == "ask" for r in game.view("attacker")["reactions"])
    verdict = check_save(save_document(game))
    assert verdict.ok and verdict.game is not None
    assert verdict.game.setting("defender", "passing") == ReactionSetting("passing", "best", 70)
    game.undo("attacker")
    assert game.setting("defender", "passing").percent == 70  # made again after the undo


def test_a_setting_names_a_reaction_and_a_mode_the_ruleset_offers() -> None:
    game = new_game(GrandeArmee, "1_austrian_challenge", None, SEED)
    with pytest.raises(IllegalDecision, match="no reaction 'passing'"):
        game.apply("french", ReactionSetting("passing", "ask"))
    with pytest.raises(IllegalDecision, match="one of ask, never"):
        game.apply("french", ReactionSetting("react", "best", 50))  # reinforcing has no single best shot
    with pytest.raises(IllegalDecision, match="percentage"):
        game.apply("french", ReactionSetting("react", "ask", 101))
    assert game.log == []
