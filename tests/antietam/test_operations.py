"""The operation phase's commands (§B3.1, §B3.3): picking up a unit (SPACE BAR, N), moving it (1-8), putting it
down (Q), fire and melee plots for several units at once (§B3.7, §B3.8, §IA7.13), ending the phase (C); and the
full battle's set-up (§IA2.2) and scenario file."""

from __future__ import annotations

from typing import Any

import pytest

from grognard.engine import Game
from grognard.engine.errors import DataError
from grognard.rulesets.antietam import Antietam
from grognard.rulesets.antietam import decisions as D
from grognard.rulesets.antietam.scenario import scenario_from_document


def refusal(p: Any, decision: Any, seat: str = "union", state: Any = None) -> Any:
    legal = p.rules.legal(state or p.state, seat)
    assert decision not in legal
    return p.rules.explain(state or p.state, seat, decision, legal)


def test_pick_up_move_put_down(position: Any) -> None:
    """SPACE BAR picks up a unit; 1-8 move it; Q puts it down; N goes to the next unit in OOB order."""
    p = position({"u_seymour_a": "5,5", "u_duryea_a": "8,8"})
    g = p.rules
    legal = g.legal(p.state, "union")
    assert D.Access("u_duryea_a") in legal and D.Next() in legal and D.Move("u_duryea_a", "8,8", "9,8") not in legal
    s = g.apply(p.state, "union", D.Next(), p.step())
    assert s.accessed == p.i("u_seymour_a")  # the first unit of the Union OOB
    s = g.apply(s, "union", D.Next(), p.step())
    assert s.accessed == p.i("u_duryea_a")
    assert D.Move("u_duryea_a", "8,8", "9,9") in g.legal(s, "union")
    s = g.apply(s, "union", D.PutDown(), p.step())
    assert s.accessed == -1 and D.Next() not in g.legal(s, "union")  # both were picked up this phase


def test_pick_up_refusals_name_the_rule(position: Any) -> None:
    p = position({"u_warren_a": "5,5", "c_law_a": "20,30", "u_duryea_a": ("8,8", {"op": 0})}, turn=2)
    assert refusal(p, D.Access("u_warren_a")).rule == "§B2.0"
    assert refusal(p, D.Access("c_law_a")).rule == "§B3.1"
    assert refusal(p, D.Access("u_duryea_a")).rule == "§B3.4"


def test_a_plot_for_several_units(position: Any) -> None:
    """F sets a priority square within range and sight (§IA7.13), M a melee into an adjacent square (§B3.8)."""
    p = position({"u_duryea_a": "5,5", "u_i_corps_a": "5,6", "c_law_a": "6,5", "c_law_b": "9,6"})
    plot = D.Plot(("u_duryea_a@6,5!", "u_i_corps_a@9,6"))
    assert plot in p.rules.legal(p.state, "union")
    s = p.rules.apply(p.state, "union", plot, p.step())
    a, art = p.unit("u_duryea_a", s), p.unit("u_i_corps_a", s)
    assert (a.target, a.melee, art.target, art.melee) == (p.cell("6,5"), True, p.cell("9,6"), False)
    assert D.Plot(("u_duryea_a@-",)) in p.rules.legal(s, "union")


@pytest.mark.parametrize(
    ("order", "rule"),
    [
        ("u_duryea_a@9,5", "§IA7.13"),  # RFL reaches 2 squares
        ("u_duryea_a@7,5!", "§B3.8"),  # melee only an adjacent square
        ("u_i_corps_a@6,5!", "Operations Costs Table"),  # artillery may not melee
        ("c_law_a@5,5", "§B3.3"),  # not a unit of the seat
        ("u_duryea_a:6,5", "§B3.7"),  # not an order
    ],
)
def test_plot_refusals_name_the_rule(position: Any, order: str, rule: str) -> None:
    p = position({"u_duryea_a": "5,5", "u_i_corps_a": "5,6", "c_law_a": "6,5"})
    assert refusal(p, D.Plot((order,))).rule == rule


def test_disrupted_units_lose_their_plot(position: Any) -> None:
    """§IA8.8 "A disrupted unit loses its priority fire plot"."""
    p = position({"u_duryea_a": ("5,5", {"disrupted": True}), "c_law_a": "6,5"})
    assert refusal(p, D.Plot(("u_duryea_a@6,5",))).rule == "§IA8.8"


def test_the_suggested_plot_fires_at_the_nearest_and_melees_the_adjacent(position: Any) -> None:
    p = position({"u_duryea_a": "5,5", "c_law_a": "6,5", "c_law_b": "6,6"})
    assert p.rules.legal(p.state, "union").suggested == D.Plot(("u_duryea_a@6,5!",))


def test_the_dawn_set_up_ia2_2() -> None:
    """§IA2.2 every turn-1 unit on its dawn square (units.toml), the others off the map; one to seven random fords
    on the creek (§IA1.3)."""
    rules = Antietam(Antietam.load_scenario("1_full_battle"))
    g = Game(rules, 5)
    board = rules.ctx.board
    for spec, u in zip(board.specs, g.state.units, strict=True):
        assert (board.label(u.cell) if u.cell >= 0 else "") == (spec.dawn if spec.turn == 1 else "")
    assert 1 <= len(g.state.fords) <= 7
    assert all(board.map.terrain[c] == "stream" for c in g.state.fords)


def test_a_scenario_may_move_units_and_names_its_errors() -> None:
    doc = Antietam.load_scenario("1_full_battle").document()
    moved = scenario_from_document({**doc, "positions": {"c_law_a": "33,15"}}, "<test>")
    rules = Antietam(moved)
    state = rules.initial_state(1)
    assert rules.ctx.board.label(state.units[rules.ctx.board.index["c_law_a"]].cell) == "33,15"
    with pytest.raises(DataError, match="no unit"):
        scenario_from_document({**doc, "positions": {"c_lawa": "33,15"}}, "<test>")
    with pytest.raises(DataError, match="entry region"):
        scenario_from_document({**doc, "arrivals": {"c_law_a": 3}}, "<test>")
    early = Antietam(scenario_from_document({**doc, "arrivals": {"u_hancock_a": 2}}, "<test>"))
    game = Game(early, 1)
    while game.state.turn < 2:
        seat = game.turn().seat
        assert seat is not None
        game.apply(seat, D.EndPhase())
    assert game.state.units[early.ctx.board.index["u_hancock_a"]].cell >= 0
    assert game.state.units[early.ctx.board.index["u_hancock_b"]].cell < 0
    with pytest.raises(DataError, match="turns run"):
        scenario_from_document({**doc, "last_turn": 12}, "<test>")
