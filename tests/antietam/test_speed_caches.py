"""What the rules keep between decisions for speed (issue 17: who stands where, patched as units step; zones of
control; each unit's fire plot squares and suggested order while the enemy stands still; a unit's display in a
view; a seat's sight) answers exactly as the rules worked out afresh, after every decision of random games."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from grognard.ai import parse_players
from grognard.ai.driver import computer_decision
from grognard.engine.game import new_game
from grognard.rulesets.antietam.combat import in_reach
from grognard.rulesets.antietam.ctx import ENEMY, changed
from grognard.rulesets.antietam.plots import fire_rows
from grognard.rulesets.antietam.rules import Antietam
from grognard.rulesets.antietam.state import AntietamState, Unit


def answers(rules: Antietam, state: AntietamState, seat: str) -> tuple[Any, ...]:
    """Everything a player or a page gets of a position: the legal families (sizes, values, hints), the suggested
    plot, the seat's view and the full view."""
    legal = rules._legal(state, seat)  # built anew on the kept caches (``legal`` keeps the last set: not asked here)
    families = [(c.key, len(c), tuple(c.values()) if c.listed else None, c.hint) for c in legal.choices]
    return families, legal.suggested, rules.view(state, seat), rules.view(state, None), rules.turn(state)


@pytest.mark.parametrize(("level", "seed"), [("basic", 7), ("advanced", 8)])
def test_kept_answers_are_the_answers_worked_out_afresh(level: str, seed: int) -> None:
    game = new_game(Antietam, "5_ix_corps", {"game": level}, seed)
    players = parse_players("random,random", Antietam, Antietam.seats, seed)
    rules = game.rules
    assert isinstance(rules, Antietam)
    board, kinds = rules.ctx.board, set()
    for _ in range(240):
        seat = game.turn().seat
        if seat is None:
            break
        state = game.state
        fresh = Antietam(rules.scenario, rules.options)  # nothing kept: every answer worked out from the state
        assert answers(rules, state, seat) == answers(fresh, state, seat)
        occupants: dict[int, list[int]] = {}
        for i, u in enumerate(state.units):
            if u.cell >= 0:
                occupants.setdefault(u.cell, []).append(i)
        assert rules.ctx.occupants(state) == occupants
        for side in ENEMY:
            enemy = sorted(c for c, js in occupants.items() if board.side(js[0]) != side)
            assert rules.ctx.enemy_squares(state, side).tolist() == enemy
            around = {n for c, js in occupants.items() if board.side(js[0]) == side for n in board.grid.neighbors(c)}
            assert rules.ctx.zoc(state, side) == frozenset(around)
        ids, squares = list(rules.ctx.side_units(state, seat)), rules.ctx.enemy_squares(state, seat)
        table = fire_rows(rules.ctx, state, ids, squares)
        for k, i in enumerate(ids):  # a unit's fire squares worked out alone (as after its step) are its row
            assert fire_rows(rules.ctx, state, [i], squares).tolist() == [table[k].tolist()]
        for side in ENEMY:  # the fire steps' units with an enemy square in range and sight (kept while none moves)
            enemy = rules.ctx.enemy_squares(state, side)
            reach = {
                i
                for i in rules.ctx.side_units(state, side)
                if any(
                    int(board.seen_at[state.units[i].cell, c])
                    <= min(board.weapon_range[i], board.sight_limit(state.units[i].cell, state.turn))
                    for c in enemy.tolist()
                )
            }
            assert in_reach(rules.ctx, state, side, enemy) == reach
        due = computer_decision(game, players)
        assert due is not None
        kinds.add(due[1].kind)
        game.apply(*due)
    assert {"move", "plot", "end_phase"} <= kinds  # steps, plots and combat phases were all walked through


def test_changed_answers_as_comparing_the_tables_record_by_record() -> None:
    """``changed`` follows how a unit table was made from another (``state.made_from``) where it can: its answer
    is every unit whose record is not the same object, in order, whether a decision made one table or dozens
    (a combat phase), and a record put back as it was is not a change."""
    game = new_game(Antietam, "1_full_battle", {}, 3)
    players = parse_players("random,random", Antietam, Antietam.seats, 3)
    before, walked = game.state.units, 0
    while walked < 150 and game.turn().seat is not None:
        due = computer_decision(game, players)
        assert due is not None
        game.apply(*due)
        after = game.state.units
        assert changed(before, after) == [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a is not b]
        before, walked = after, walked + 1
    state = game.state
    u = state.units[5]
    moved = state.with_unit(5, Unit(u.cell, u.strength + 1)).with_units({7: state.units[6], 5: u})
    assert changed(state.units, moved.units) == [7]  # unit 5 is its own record again


def test_the_board_steps_are_each_square_pair_s_direction_and_numbers_the_collector_does_not_walk() -> None:
    # the directions of the board's steps are kept by number (a dict of numbers alone is not tracked by the garbage
    # collector, which walked the 11,632 pairs at every full pass): each pair of a square and a square or GONE (-1)
    # answers as the grid does, and no two pairs share a number
    board = Antietam(Antietam.load_scenario(Antietam.scenario_ids()[0])).ctx.board
    grid = board.map.grid
    assert not gc.is_tracked(board._direction)
    for a in grid.cells():
        near = board.neighbors[a]
        for b in (*near, -1, a, (a + 2) % grid.size, (a + grid.columns + 2) % grid.size):
            assert board.direction(a, b) == (grid.direction(a, b) if b in near else 0)
            assert board.adjacent(a, b) == (b in near)
