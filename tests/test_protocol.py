"""The game protocol, checked on the toy ruleset: validation, undo, events, views, conformance."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grognard.engine import IllegalDecision, new_game
from grognard.engine.errors import MalformedDecision
from grognard.testing import run_conformance
from toy import EndTurn, Fire, Move, Pass, Toy


def game(seed=1):
    return new_game(Toy, "skirmish", seed=seed)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_toy_passes_the_conformance_harness(seed):
    run_conformance(Toy, "skirmish", seed)


def test_illegal_decision_names_the_problem_and_changes_nothing():
    g = game()
    before = g.digest()
    with pytest.raises(IllegalDecision, match="not possible now"):
        g.apply("red", Pass())
    with pytest.raises(IllegalDecision, match="not blue's decision"):
        g.apply("blue", EndTurn())
    with pytest.raises(IllegalDecision, match="no seat"):
        g.apply("green", EndTurn())
    with pytest.raises(IllegalDecision, match="'to' is not allowed"):
        g.apply("red", Move("r0", 47))
    assert g.digest() == before and not g.log and not g.events


def test_reaction_is_offered_to_the_target_and_resolves_before_the_shot():
    g = game()
    grid = g.rules.scenario.map.grid
    # set up: a red and a blue unit two hexes apart
    units = tuple(
        replace(u, cell=grid.parse("5,4"))
        if u.id == "r2"
        else replace(u, cell=grid.parse("6,5"))
        if u.id == "b2"
        else u
        for u in g.state.units
    )
    g.state = replace(g.state, units=units)
    g.apply("red", Fire("r2", "b2"))
    assert g.turn().seat == "blue" and g.turn().phase == "return fire"
    legal = g.legal("blue")
    assert Fire("b2", "r2") in legal and Pass() in legal
    g.apply("blue", Fire("b2", "r2"))
    rolls = [e for e in g.events if e.kind == "roll"]
    assert next(r.data["why"] for r in rolls) == "b2 fires at r2"


def test_undo_restores_until_a_die_is_rolled():
    g = game()
    first = g.digest()
    g.apply("red", Move("r0", g.legal("red").of_kind("move")[0].values()[0]))
    assert g.can_undo("red") and not g.can_undo("blue")
    g.undo("red")
    assert g.digest() == first and not g.log
    with pytest.raises(IllegalDecision):
        g.undo("red")


def test_views_hide_far_enemies_and_full_view_after_the_end():
    g = game()
    ids = {u["id"] for u in g.view("red")["state"]["units"]}
    assert ids == {"r0", "r1", "r2"}
    while not g.over:
        seat = g.turn().seat
        legal = g.legal(seat)
        g.apply(seat, EndTurn() if EndTurn() in legal else Pass())
    assert {u["id"] for u in g.view("red")["state"]["units"]} >= {"b0", "b1", "b2"}


def test_decision_text_and_json_round_trip():
    codec = Toy.decisions()
    d = Fire("r2", "b1")
    assert d.text() == "fire r2 b1"
    assert codec.parse("fire r2 b1") == d
    assert codec.from_json(d.to_json()) == d


def test_a_malformed_decision_is_told_apart_from_an_illegal_one():
    """python-chess's split: wrong kind, fields or types are malformed, before any rule is asked."""
    codec = Toy.decisions()
    with pytest.raises(MalformedDecision, match="unknown decision"):
        codec.parse("fier r2 b1")
    with pytest.raises(MalformedDecision, match="takes 2 values"):
        codec.parse("fire r2")
    with pytest.raises(MalformedDecision, match="unknown decision"):
        codec.from_json({"kind": ["fire"]})
    with pytest.raises(MalformedDecision, match="whole number"):
        codec.from_json({"kind": "move", "unit": "r1", "to": "north"})
    assert not issubclass(MalformedDecision, IllegalDecision)


@settings(max_examples=8)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_any_seed_passes_the_conformance_harness(seed):
    """Random legal play never crashes, illegal decisions change nothing, replays reproduce digests and no
    view names a unit its seat has not spotted, whatever the seed (property-based, issue 2 item 11)."""
    run_conformance(Toy, "skirmish", seed, max_decisions=300)


def test_a_seats_view_does_not_count_the_decisions_made():
    """The log's length would tell a seat how many hidden decisions (purchases, placements) the enemy made."""
    g = game()
    g.apply("red", EndTurn())
    assert "decisions" not in g.view("red") and "decisions" not in g.view("blue")
    assert g.view(None)["decisions"] == 1


def test_a_question_the_ruleset_does_not_answer_is_refused_and_changes_nothing():
    """``Game.inspect``: a question is an object with a kind; a ruleset answers only the kinds it knows."""
    g = game()
    before = g.digest()
    with pytest.raises(IllegalDecision, match="answers no question of kind 'path'"):
        g.inspect("red", {"kind": "path", "unit": "r0", "cell": 3})
    with pytest.raises(IllegalDecision, match="an object with a 'kind'"):
        g.inspect("red", ["path"])  # type: ignore[arg-type]
    with pytest.raises(IllegalDecision, match="no seat"):
        g.inspect("green", {"kind": "sight"})
    assert g.digest() == before and not g.log
