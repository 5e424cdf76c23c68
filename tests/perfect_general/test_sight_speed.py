"""Quicker sight and spotting answer as the lines of sight do (issue 17, speed-pg-sight): spotting after a step in
one pass over the enemy, whether the enemy sees a location read in the row kept for it, rows looked at again over
the nearby changed locations only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from grognard.ai import make_player
from grognard.ai.driver import computer_decision
from grognard.engine import Game
from grognard.engine.events import Step
from grognard.engine.records import replace
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general.context import enemy_units
from grognard.rulesets.perfect_general.spotting import in_enemy_sight, open_ground, spot_mover
from grognard.rulesets.perfect_general.state import Phase


def _positions(seed: int, decisions: int) -> Iterator[tuple[Game, Any]]:
    """The positions of a random Lauter Offensive game of ``seed`` (its first ``decisions``), with its context."""
    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario("lauter_offensive")), seed)
    players = {s: make_player("random", cls, seed) for s in cls.seats}
    ctx = game.rules.ctx  # type: ignore[attr-defined]
    for _ in range(decisions):
        due = computer_decision(game, players)  # type: ignore[arg-type]
        if due is None:
            return
        game.apply(*due)
        yield game, ctx


def _lines(ctx: Any, state: Any, a: int, b: int) -> bool:
    """Whether units in ``a`` and ``b`` see each other, straight from the line (PG p.32)."""
    board = ctx.board
    sight = board.sight(state)
    vis = board.weather(state).visibility
    return board.grid.distance(a, b) <= vis and sight.sight.clear(a, b, sight.eye, sight.eye)


def test_spotting_after_a_step_is_rules_a_and_b_by_the_lines_of_sight_p32() -> None:
    # spot_mover looks at the enemy once for three rules: each answer must be the lines' own
    compared = spotted = 0
    for i, (game, ctx) in enumerate(_positions(5, 1200)):
        if game.state.phase is not Phase.MOVEMENT or i % 3:
            continue
        # every other enemy unit unspotted, so that the mover has some to spot
        state = game.state
        hidden = [u for u in state.units if u.side != state.side and u.spotted][::2]
        state = state.with_units({u.id: replace(u, spotted=False) for u in hidden})
        for mover in [u for u in state.units if u.side == state.side and not u.carried_by][:6]:
            enemies = enemy_units(state, mover.side)
            seen = any(_lines(ctx, state, e.cell, mover.cell) for e in enemies)
            spots = {
                e.id
                for e in enemies
                if not e.spotted and open_ground(ctx, state, e.cell) and _lines(ctx, state, mover.cell, e.cell)
            }
            after, moved = spot_mover(ctx, state, Step(state.rng), mover)
            in_open = not mover.spotted and open_ground(ctx, state, mover.cell)
            assert moved.spotted == (mover.spotted or (in_open and seen))
            assert moved.spot_pending == (mover.spot_pending or seen)
            assert after.unit(mover.id) == moved
            now = {e.id for e in enemy_units(after, mover.side) if e.spotted and not state.unit(e.id).spotted}
            assert now == spots
            compared += 1
            spotted += bool(spots)
    assert compared > 300 and spotted > 10


def test_whether_the_enemy_sees_a_unit_read_in_its_kept_row_is_the_lines_own_p32() -> None:
    # SightCache.seen_known reads a unit's own row (kept for an artillery plot) when no answer is kept: sight
    # between equal eyes is symmetric, so the row says which enemy locations see it
    from_rows = 0
    for i, (game, ctx) in enumerate(_positions(3, 1500)):
        state = game.state
        board = ctx.board
        sight = board.sight(state)
        vis = board.weather(state).visibility
        if i % 5 or not sight._rows:
            continue
        for u in state.units:
            enemies = enemy_units(state, u.side)
            sight._seen_at.clear()
            watchers = board.cells_of(enemies)
            union = sight._union
            by_row = (u.cell, vis) in sight._rows and not (union is not None and union[2] == watchers)
            assert in_enemy_sight(ctx, state, u) == any(_lines(ctx, state, e.cell, u.cell) for e in enemies)
            from_rows += by_row
    assert from_rows > 200


def _memory_by_the_rule(state: Any, i: int) -> tuple[Any, ...]:
    """Side ``i``'s memory refreshed straight from the rule (p.33): each spotted enemy unit where it is now, the
    others still alive where they were last seen, by unit."""
    from grognard.rulesets.perfect_general.state import SIDES, Sighting

    now = {
        u.id: Sighting(u.id, u.type, u.cell, state.turn)
        for u in state.units
        if u.side != SIDES[i] and u.spotted and not u.carried_by
    }
    alive = {u.id for u in state.units}
    kept = [s for s in state.sides[i].memory if s.unit in alive and s.unit not in now]
    return tuple(sorted([*kept, *now.values()], key=lambda s: s.unit))


def test_a_memory_refreshed_is_the_memory_made_by_the_rule_p33() -> None:
    # remember leaves a memory as it is when every sighting it finds is the memory's own: it must be what the rule
    # makes, whether or not something changed (here also with every third spotted unit lost from sight)
    from grognard.rulesets.perfect_general.spotting import remember

    left = changed = 0
    for i, (game, _) in enumerate(_positions(4, 900)):
        if i % 3:
            continue
        for state in (
            game.state,
            game.state.with_units({u.id: replace(u, spotted=False) for u in game.state.units[::3]}),
        ):
            after = remember(state)
            for side in (0, 1):
                assert after.sides[side].memory == _memory_by_the_rule(state, side)
                if after.sides[side] is state.sides[side]:
                    left += 1
                else:
                    changed += 1
    assert left > 100 and changed > 100


def test_a_fire_part_has_work_when_a_ready_unit_has_a_target_p28() -> None:
    # has_work asks combat.targets only of the ready units with a spotted enemy unit within reach: its answer must
    # be whether any ready unit has a target at all, in positions of a random game taken as either side's fire part
    from grognard.rulesets.perfect_general.combat import targets
    from grognard.rulesets.perfect_general.context import own_units
    from grognard.rulesets.perfect_general.phases import fire_ready, has_work

    answers = {True: 0, False: 0}
    at_reach = 0  # positions whose only target is as far as its firer reaches: a bound one short would say no
    for i, (game, ctx) in enumerate(_positions(7, 1500)):
        if i % 25:
            continue
        board = ctx.board
        for side in ("attacker", "defender"):
            # as it stands (random armies seldom come within range), and in this turn and in the fog of the first
            # (sight 10) with an enemy unit moved, spotted, to each distance from the side's longest-reaching unit
            positions = [game.state]
            ready = [u for u in own_units(game.state, side) if fire_ready(ctx, game.state, u)]
            theirs = enemy_units(game.state, side)
            taken = {u.cell for u in game.state.units}
            if ready and theirs:
                firer = max(ready, key=lambda u: board.fire_reach[u.type])
                for d in range(1, board.fire_reach[firer.type] + 2):
                    for c in [c for c in board.grid.ring(firer.cell, d) if c not in taken][:1]:
                        moved = game.state.with_units({theirs[0].id: replace(theirs[0], cell=c, spotted=True)})
                        positions += [moved, replace(moved, turn=1)]
            for position in positions:
                state = replace(position, phase=Phase.FIRST_FIRE, side=side)
                found = [u for u in own_units(state, side) if fire_ready(ctx, state, u) and targets(ctx, state, u)]
                assert has_work(ctx, state) == bool(found)
                answers[bool(found)] += 1
                vis = board.weather(state).visibility
                at_reach += len(found) == 1 and all(
                    board.grid.distance(found[0].cell, state.unit(t).cell) == min(vis, board.fire_reach[found[0].type])
                    for t, _ in targets(ctx, state, found[0])
                )
    assert answers[True] > 20 and answers[False] > 20 and at_reach > 0
