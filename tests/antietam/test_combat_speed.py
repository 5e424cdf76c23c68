"""What the combat phase keeps between fires and phases for speed (issue 17: each side's units in reach, each
square's nearest enemy square in sight) answers exactly as worked out afresh from the sight table, through random
games and when the enemy stands elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

from grognard.ai import parse_players, play_out
from grognard.ai.driver import computer_decision
from grognard.engine.events import Step
from grognard.engine.game import new_game
from grognard.engine.records import replace
from grognard.rulesets.antietam import combat, phases
from grognard.rulesets.antietam.combat import _in_reach, fire_rules, nearest_enemy
from grognard.rulesets.antietam.ctx import ENEMY, Ctx
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
            found = _in_reach(ctx, fire_rules(ctx), state, side, enemy)
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
    seen_at, seen_by = rules.ctx.board.seen_at, rules.ctx.board.seen_by
    assert seen_by is seen_at
    assert np.array_equal(seen_by.T, seen_at)


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
                assert [c for c in ctx.board.grid.cells() if ctx.in_enemy_zoc(c, side, occ)] == sorted(zone)
        due = computer_decision(game, players)
        assert due is not None
        game.apply(*due)


def four_steps(ctx: Ctx, state: AntietamState, phasing: str, step: Step) -> AntietamState:
    """The combat phase with each fire step making its own state (``fire_step``), as before the steps shared the
    records they change: the reference the phase is compared with."""
    defender = ENEMY[phasing]
    state = state.with_units({i: replace(u, fired_at=-1) for i, u in enumerate(state.units) if u.fired_at >= 0})
    ctx.tell(step, "combat", f"{phasing.capitalize()} combat phase")
    for side, artillery, defensive in ((defender, True, True), (phasing, True, False), (defender, False, True)):
        state = combat.fire_step(ctx, state, side, artillery, defensive, step)
    state = combat.fire_step(ctx, state, phasing, False, False, step)
    state = combat.melee_phase(ctx, state, phasing, step)
    return state.with_units({i: replace(u, melee=False) for i, u in enumerate(state.units) if u.melee})


@pytest.mark.parametrize(("level", "seed"), [("basic", 6), ("advanced", 7)])
def test_the_phase_s_fire_steps_sharing_their_changes_make_what_each_step_alone_makes(
    level: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the four fire steps put their changes in one state at their end: a unit's record pending from an earlier step
    # (its losses, disruption, points) is the one the later steps read, as when each step made its own state
    began: list[tuple[AntietamState, str, int]] = []

    def recorded(ctx: Ctx, state: AntietamState, phasing: str, step: Step) -> AntietamState:
        began.append((state, phasing, step.dice.state))
        return combat.combat_phase(ctx, state, phasing, step)

    monkeypatch.setattr(phases, "combat_phase", recorded)
    game = new_game(Antietam, "1_full_battle", {"game": level}, seed)
    play_out(game, parse_players("random,random", Antietam, Antietam.seats, seed), stop_after=500)
    assert len(began) > 10
    for state, phasing, rng in began:
        shared, alone = Step(rng), Step(rng)
        one = combat.combat_phase(Antietam(game.rules.scenario, game.rules.options).ctx, state, phasing, shared)
        each = four_steps(Antietam(game.rules.scenario, game.rules.options).ctx, state, phasing, alone)
        assert one == each
        assert shared.events == alone.events and shared.rng == alone.rng
