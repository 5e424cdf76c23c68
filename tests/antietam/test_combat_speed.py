"""What the combat phase keeps between fires and phases for speed (issue 17: each side's units in reach, each
square's nearest enemy square in sight) answers exactly as worked out afresh from the sight table, through random
games and when the enemy stands elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

from grognard.ai import parse_players
from grognard.ai.driver import computer_decision
from grognard.engine.game import new_game
from grognard.rulesets.antietam.combat import _in_reach, _in_zoc, fire_rules, nearest_enemy, sight_rows
from grognard.rulesets.antietam.ctx import ENEMY
from grognard.rulesets.antietam.rules import Antietam
from grognard.rulesets.antietam.state import AntietamState


def afresh(rules: Antietam, state: AntietamState, side: str) -> tuple[list[list[int]], list[list[int]]]:
    """The units of ``side`` with an enemy square in range and sight (§IA8.3), artillery last, with their reach,
    worked out unit by unit from the sight table (rows: the firer's square)."""
    board, ctx = rules.ctx.board, rules.ctx
    enemy = ctx.enemy_squares(state, side).tolist()
    shooters: list[list[int]] = [[], []]
    reaches: list[list[int]] = [[], []]
    for i in ctx.side_units(state, side):
        cell = state.units[i].cell
        reach = min(board.weapon_range[i], board.sight_limit(cell, state.turn))
        if any(int(board.seen_at[cell, e]) <= reach for e in enemy):
            shooters[board.artillery[i]].append(i)
            reaches[board.artillery[i]].append(reach)
    return shooters, reaches


@pytest.mark.parametrize(("level", "seed"), [("basic", 3), ("advanced", 4)])
def test_the_units_in_reach_kept_are_those_worked_out_afresh(level: str, seed: int) -> None:
    game = new_game(Antietam, "1_full_battle", {"game": level}, seed)
    players = parse_players("random,random", Antietam, Antietam.seats, seed)
    rules = game.rules
    assert isinstance(rules, Antietam)
    ctx, walked = rules.ctx, 0
    while walked < 400 and game.turn().seat is not None:
        state = game.state
        for side in ENEMY:
            enemy = ctx.enemy_squares(state, side)
            found = _in_reach(ctx, state, side, enemy)
            assert (list(map(list, found.shooters)), list(map(list, found.reaches))) == afresh(rules, state, side)
        due = computer_decision(game, players)
        assert due is not None
        game.apply(*due)
        walked += 1
    assert state.turn > 1  # combat phases were played through


def test_the_nearest_enemy_square_is_asked_again_when_the_enemy_stands_elsewhere() -> None:
    # kept by the enemy squares' array: another array, even of the same squares, is another answer, and the answer
    # is each square's least sight distance to those squares (the sight table read by the firer's square)
    rules = Antietam(Antietam.load_scenario("1_full_battle"))
    fixed, seen_at = fire_rules(rules.ctx), rules.ctx.board.seen_at
    for squares in ([100, 400, 900], [101, 700], [100, 400, 900], [5]):
        enemy = np.array(squares, dtype=np.int64)
        got = nearest_enemy(fixed, "union", enemy)
        assert list(got) == seen_at[:, enemy].min(axis=1).tolist()
        assert nearest_enemy(fixed, "union", enemy) is got  # kept while the array is the same


def test_the_sight_rows_are_the_table_read_by_the_square_seen() -> None:
    # the nearest enemy reads the table's rows by the enemy's square: the table itself only where sight is the same
    # both ways (this map), and then it is the table the board reads
    rules = Antietam(Antietam.load_scenario("1_full_battle"))
    seen_at = rules.ctx.board.seen_at
    assert sight_rows() is seen_at
    assert np.array_equal(sight_rows().T, seen_at)


def test_a_retreat_s_enemy_zone_of_control_is_the_zone_of_the_whole_enemy() -> None:
    # a retreat asks of each square it considers whether an enemy unit stands next to it (§B3.6), rather than
    # working out the enemy's whole zone: the same answer for every square, through a random game
    game = new_game(Antietam, "1_full_battle", {}, 5)
    players = parse_players("random,random", Antietam, Antietam.seats, 5)
    rules = game.rules
    assert isinstance(rules, Antietam)
    ctx = rules.ctx
    for walked in range(600):
        if game.turn().seat is None:
            break
        if walked % 40 == 0:
            state = game.state
            occ = ctx.occupants(state)
            for side in ENEMY:
                zone = ctx.zoc(state, ENEMY[side])
                assert [c for c in ctx.board.grid.cells() if _in_zoc(ctx, occ, c, side)] == sorted(zone)
        due = computer_decision(game, players)
        assert due is not None
        game.apply(*due)
