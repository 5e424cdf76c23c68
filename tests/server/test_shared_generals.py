"""Generals that share one ruleset (``Facts.rules`` for a ``Ruleset.shareable`` ruleset, as the games of a
server's worker do) decide exactly as generals with rulesets of their own: the shared caches are keyed by what
they were derived from, so nothing one seat believes reaches another's decisions."""

from __future__ import annotations

import pytest

from grognard.ai import Player, make_player
from grognard.ai.driver import computer_decision, seat_seed, set_pause
from grognard.engine import Game
from grognard.rulesets.perfect_general import PerfectGeneral

SCENARIO = "simple_little_war"
STEPS = 120  # decisions per game: buying, placing and the first moves and fire of both sides


def _generals(seed: int) -> dict[str, Player]:
    return {s: make_player("general", PerfectGeneral, seat_seed(seed, s)) for s in PerfectGeneral.seats}


def _play_interleaved(seeds: tuple[int, ...]) -> tuple[list[str], list[dict[str, Player]]]:
    """Games of one ruleset, their generals deciding in turns (game 1, game 2, game 1...)."""
    rules = PerfectGeneral(PerfectGeneral.scenario_by_id(SCENARIO))
    games = [Game(rules, s) for s in seeds]
    players = [_generals(s) for s in seeds]
    for _ in range(STEPS):
        for game, seats in zip(games, players, strict=True):
            due = computer_decision(game, seats)
            if due is not None:
                game.apply(*due)
    return [g.digest() for g in games], players


def test_generals_on_one_shared_ruleset_decide_as_generals_on_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    shared, players = _play_interleaved((3, 4))
    own = {id(p._rules[1]) for seats in players for p in seats.values() if p._rules is not None}
    assert len(own) == 1, "the four generals of one scenario and options share one ruleset"

    monkeypatch.setattr(PerfectGeneral, "shareable", False)
    alone = [_play_interleaved((s,))[0][0] for s in (3, 4)]
    assert shared == alone


def test_a_generals_decision_interrupted_at_its_safe_points_by_another_games_decides_as_alone() -> None:
    """The computers' worker answers another game's urgent question at a safe point of a general's decision in
    progress (``pause_point``, server/computers.py): here, at every safe point of game 1's generals, game 2
    makes its next decision (its generals' own safe points answer nothing, as in the worker). Both games make
    the decisions they make when played alone, one after the other."""
    rules = PerfectGeneral(PerfectGeneral.scenario_by_id(SCENARIO))
    first, second = Game(rules, 3), Game(rules, 4)
    players = _generals(3), _generals(4)
    inside = 0

    def pause() -> None:
        nonlocal inside
        if len(second.log) >= STEPS:
            return
        set_pause(None)
        try:
            due = computer_decision(second, players[1])
            if due is not None:
                second.apply(*due)
                inside += 1
        finally:
            set_pause(pause)

    set_pause(pause)
    try:
        for _ in range(STEPS):
            due = computer_decision(first, players[0])
            if due is not None:
                first.apply(*due)
    finally:
        set_pause(None)
    assert inside > 20, "game 2 decided at safe points of game 1's generals"
    alone = [Game(PerfectGeneral(PerfectGeneral.scenario_by_id(SCENARIO)), s) for s in (3, 4)]
    for game, steps, seed in zip(alone, (STEPS, len(second.log)), (3, 4), strict=True):
        seats = _generals(seed)
        for _ in range(steps):
            due = computer_decision(game, seats)
            if due is not None:
                game.apply(*due)
    assert [first.digest(), second.digest()] == [g.digest() for g in alone]
