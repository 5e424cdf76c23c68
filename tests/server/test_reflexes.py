"""A computer's reflexes (``Player.reflex``): decisions made from the legal decisions alone, which the server makes
in its own process while a person waits, instead of asking its computers' worker (``Session._computer_due``).

The game is the one ``simulate`` plays, and the worker's general, told of the reflexes the server made
(``computers._sync``), stays in step: it never relives the game to rebuild its memory."""

from __future__ import annotations

from typing import Any

import pytest

from grognard.ai import Player, parse_players
from grognard.ai.driver import computer_decision
from grognard.engine import Game
from grognard.engine.game import new_game
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general.general import General
from grognard.server import computers
from grognard.server.computers import _Replica, reacting

SCENARIO = "simple_little_war"
SEED = 5
DECISIONS = 700  # the purchases, placements and the first turns' moves and fire, with offers of passing fire


def _players(kind: str, *seats: str) -> dict[str, Player]:
    return parse_players(kind, PerfectGeneral, seats, SEED)


def _alone() -> Game:
    """The game the one driver plays with one set of players (``simulate``'s)."""
    game = new_game(PerfectGeneral, SCENARIO, None, SEED)
    players = _players("random,general", "attacker", "defender")
    while not game.over and len(game.log) < DECISIONS:
        due = computer_decision(game, players)
        assert due is not None
        game.apply(*due)
    return game


def _split(notes: bool) -> tuple[Game, int, int]:
    """The same game with the defender's general split as on a server: its reactions tried as reflexes first by
    the server's own player (``think=False``), everything else asked of a replica (``computers._next``, which
    syncs the decisions since, noting the server's reflexes unless ``notes`` is False). The game, the reflexes
    the server made, and how many earlier observations the replica's general relived."""
    game = new_game(PerfectGeneral, SCENARIO, None, SEED)
    person = _players("random", "attacker")
    server = _players("general", "defender")
    replica = _Replica(new_game(PerfectGeneral, SCENARIO, None, SEED), _players("general", "defender"))
    computers._replicas["reflex-test"] = replica
    relived = [0]
    recall = General.recall

    def counted(self: General, obs: Any) -> None:
        relived[0] += self is replica.players["defender"]
        recall(self, obs)

    at, reflexes = 0, 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(General, "recall", counted)
        if not notes:
            mp.setattr(Player, "reflexed", lambda self, seat, made: None)
        try:
            while not game.over and len(game.log) < DECISIONS:
                due = None if game.turn().may_act("defender") else computer_decision(game, person)
                if due is None and reacting(game, ["defender"]):
                    due = computer_decision(game, server, think=False)
                    reflexes += due is not None
                if due is not None:
                    game.apply(*due)
                    continue
                tail = [(e.seat, e.decision.to_json()) for e in game.log[at:]]
                made = computers._next("reflex-test", False, at, tail, urgent=reacting(game, ["defender"]))
                assert made, "the general decides when no person does"
                for seat, data in made:
                    game.apply(seat, PerfectGeneral.decisions().from_json(data, "answer"))
                at = len(game.log)
        finally:
            computers._replicas.pop("reflex-test", None)
    return game, reflexes, relived[0]


def test_a_reflex_is_made_only_from_the_legal_decisions_and_think_false_gives_nothing_else() -> None:
    game = new_game(PerfectGeneral, SCENARIO, None, SEED)
    players = _players("random,general", "attacker", "defender")
    reflexes = thoughts = 0
    while not game.over and len(game.log) < DECISIONS:
        quick = computer_decision(game, _players("random,general", "attacker", "defender"), think=False)
        due = computer_decision(game, players)
        assert due is not None
        if quick is not None:
            assert quick == due  # the decision the player's thinking makes there
            reflexes += due[0] == "defender"
        elif due[0] == "defender":
            thoughts += 1
        game.apply(*due)
    assert reflexes > 20 and thoughts > 20


def test_the_servers_reflexes_leave_the_game_and_the_workers_general_as_they_would_be() -> None:
    alone = _alone()
    game, reflexes, relived = _split(notes=True)
    assert reflexes > 20, "passing fire declined from the offer's chances, made by the server"
    assert game.digest() == alone.digest() and [e.decision for e in game.log] == [e.decision for e in alone.log]
    assert relived == 0, "the worker's general is told of the server's reflexes: it never relives the game"


def test_a_worker_not_told_of_the_reflexes_relives_the_game_to_the_same_decisions() -> None:
    """Why the worker notes them: without, its general is out of step after each reflex and relives every earlier
    observation (a whole replay of the game) before its next decision, which is still the same."""
    game, _, relived = _split(notes=False)
    assert game.digest() == _alone().digest()
    assert relived > 100
