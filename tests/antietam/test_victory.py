"""Victory (§B7, §IA10): points for the enemy's losses, the Union's squares (full "in possession", half if
possessed "in ZOC", the Confederate one), the score and the victory levels with the 5,000-casualty condition
(§IA10.2)."""

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


def _points(p: Any, square: str, state: Any = None) -> int:
    return dict(victory.square_points(p.ctx, state or p.state))[p.cell(square)]


def _held_by_union(p: Any, square: str) -> Any:
    """The position with ``square`` last entered by the Union (AMB-18 possession without a unit on it)."""
    k = [c for c, _, _ in p.board.victory].index(p.cell(square))
    holders = list(p.state.holders)
    holders[k] = "union"
    return replace(p.state, holders=tuple(holders))


def test_ia10_1_possessed_and_free_scores_full_points(position: Any) -> None:
    """§IA10.1 "In possession of square 32,7 = 4000 (2000)": a Union unit on the square, no Confederate next to
    it: the full points."""
    assert _points(position({"u_duryea_a": "32,7"}), "32,7") == 4000


def test_ia10_1_possessed_in_confederate_zoc_scores_half(position: Any) -> None:
    """§IA10.1 "(500 if in ZOC)": a square the Union possesses that lies in the Confederate zone of control (a
    Confederate unit on one of its eight squares, §B3.6) scores the parenthesised half."""
    assert _points(position({"u_duryea_a": "32,7", "c_law_a": "33,8"}), "32,7") == 2000


def test_ia10_1_a_routed_confederate_exerts_the_zoc_too(position: Any) -> None:
    """§B3.6 "The eight squares that a unit is next to is defined as its Zone of Control": routed units are not
    excepted (the ruleset's one ZOC, ``Ctx.zoc``), so a routed Confederate next to the square halves it too."""
    p = position({"u_duryea_a": "32,7", "c_law_a": ("31,6", {"routed": True})})
    assert _points(p, "32,7") == 2000


def test_ia10_1_not_possessed_with_a_union_unit_next_to_it_scores_nothing(position: Any) -> None:
    """§IA10.1: only a square "in possession" scores; a Union unit next to a square it does not possess gives
    nothing (the digest's AMB-18 half points for such a square are not the manual's: "in ZOC" is the enemy's
    ZOC wherever the manual uses it)."""
    assert _points(position({"u_duryea_a": "33,7"}), "32,7") == 0


def test_ia10_1_a_confederate_on_the_square_gives_the_union_nothing(position: Any) -> None:
    p = position({"u_duryea_a": "33,7", "c_law_a": "32,7"})
    assert _points(p, "32,7", _held_by_union(p, "32,7")) == 0


def test_ia10_1_the_last_side_to_enter_keeps_a_square(position: Any) -> None:
    """§IA10.1 possession (AMB-18): a square the Union entered last stays the Union's while no Confederate
    stands on it, with no Union unit there: full points, half once a Confederate stands next to it."""
    p = position({})
    assert _points(p, "33,1") == 0
    assert _points(p, "33,1", _held_by_union(p, "33,1")) == 10000
    near = position({"c_law_a": "34,1"})
    assert _points(near, "33,1", _held_by_union(near, "33,1")) == 5000


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
