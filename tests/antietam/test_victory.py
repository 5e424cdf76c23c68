"""Victory (§B7, §IA10): points for the enemy's losses, the Union's squares (full "in possession", half "if in
ZOC", AMB-18), the score and the victory levels with the 5,000-casualty condition (§IA10.2)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from grognard.rulesets.antietam import victory


def test_loss_points_1_a_man_3_a_trooper_150_a_gun(position: Any) -> None:
    """§B7.1 "1 pt per Infantryman lost, 3pts per Cavalryman lost, 150 pts per Artillery Gun lost"."""
    ctx = position({}).ctx
    assert victory.loss_points(ctx, (100, 10, 2)) == 100 + 30 + 300


def test_each_side_scores_the_enemys_losses(position: Any) -> None:
    p = position({})
    s = replace(p.state, losses=(1000, 0, 1, 2000, 100, 0))
    union, confederate = victory.points(p.ctx, s)
    assert confederate == 1000 + 150
    assert union == 2000 + 300


def test_squares_full_when_held_half_when_in_union_zoc(position: Any) -> None:
    """§B7.1 "In possession of square 32,7 = 4000 (2000)": a Union unit on it; half when the square is free of
    Confederates and next to a Union unit; nothing with a Confederate on it."""
    held = position({"u_duryea_a": "32,7"})
    assert dict(victory.square_points(held.ctx, held.state))[held.cell("32,7")] == 4000
    near = position({"u_duryea_a": "33,7"})
    assert dict(victory.square_points(near.ctx, near.state))[near.cell("32,7")] == 2000
    contested = position({"u_duryea_a": "33,7", "c_law_a": "32,7"})
    assert dict(victory.square_points(contested.ctx, contested.state))[contested.cell("32,7")] == 0


def test_the_last_side_to_enter_keeps_a_square(position: Any) -> None:
    """AMB-18: a square the Union entered last stays the Union's while no Confederate stands on it."""
    p = position({})
    k = [c for c, _, _ in p.board.victory].index(p.cell("33,1"))
    holders = list(p.state.holders)
    holders[k] = "union"
    s = replace(p.state, holders=tuple(holders))
    assert dict(victory.square_points(p.ctx, s))[p.cell("33,1")] == 10000


@pytest.mark.parametrize(
    ("score", "casualties", "level"),
    [
        (6000, 5000, "union_major"),
        (5999, 5000, "union_minor"),
        (2000, 5000, "union_minor"),
        (1999, 5000, "draw"),
        (-1000, 5000, "draw"),
        (-1001, 5000, "confederate_minor"),
        (-6000, 5000, "confederate_minor"),
        (-6001, 5000, "confederate_major"),
        (9000, 4999, "confederate_minor"),
        (0, 100, "confederate_minor"),
        (-9000, 100, "confederate_major"),
    ],
)
def test_victory_levels_and_the_5000_casualties(position: Any, score: int, casualties: int, level: str) -> None:
    """§B7.2 the levels; "The Union may attain a major or minor victory only if he has inflicted at least 5000
    casualties on the Confederates. If he doesn't ... the Confederates automatically win at least a Minor
    Victory." """
    assert victory.level(position({}).ctx, score, casualties) == level


def test_the_result_names_the_level_and_both_scores(position: Any) -> None:
    p = position({})
    s = replace(p.state, over=True, score=(20000, 9000), losses=(8000, 0, 6, 6000, 0, 0))
    r = p.rules.result(s)
    assert r is not None
    assert r.winner == "union" and r.levels["union"] == "Union major victory"
    assert dict(r.scores) == {"union": 20000, "confederate": 9000}
