"""Orders given at the same time and legality by rule, checked on the Toy Orders ruleset (tests/toy_orders.py)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grognard.ai import make_player
from grognard.ai.driver import computer_decision, play_out
from grognard.cli.main import main
from grognard.engine import IllegalDecision, MalformedDecision, new_game
from grognard.engine.rng import Dice, seed_state
from grognard.testing import run_conformance
from toy_orders import Commit, Plot, ToyOrders


def game(seed=1):
    return new_game(ToyOrders, "meeting", seed=seed)


def cells(g, *labels):
    return tuple(g.rules.scenario.map.grid.parse(x) for x in labels)


def test_both_seats_decide_at_once_and_the_rules_go_on_when_the_last_commits():
    g = game()
    turn = g.turn()
    assert turn.deciding == ("red", "blue") and turn.together
    assert g.legal("red") and g.legal("blue")
    g.apply("blue", Plot("b0", cells(g, "8,5")))  # blue first: either seat may begin
    g.apply("red", Plot("r0", cells(g, "1,2")))
    g.apply("red", Commit())
    assert g.turn().deciding == ("blue",) and not g.legal("red")
    assert g.state.turn == 1
    g.apply("blue", Commit())
    assert g.state.turn == 2 and g.turn().deciding == ("red", "blue")
    assert next(u for u in g.state.units if u.id == "r0").cell == cells(g, "1,2")[0]


def test_the_order_in_which_seats_give_their_orders_changes_nothing():
    a, b = game(), game()
    red = [Plot("r0", cells(a, "1,2", "1,3")), Plot("r1", cells(a, "2,2")), Commit()]
    blue = [Plot("b0", cells(a, "8,5", "8,4")), Commit()]
    for d in red:
        a.apply("red", d)
    for d in blue:
        a.apply("blue", d)
    for r, bl in zip(red, [*blue, None], strict=True):
        if bl is not None:
            b.apply("blue", bl)
        b.apply("red", r)
    assert a.digest() == b.digest()


def test_a_plot_is_hidden_from_the_other_seat_until_it_executes():
    g = game()
    g.apply("red", Plot("r0", cells(g, "1,2")))
    assert g.view("red")["state"]["plots"] == [{"unit": "r0", "path": list(cells(g, "1,2"))}]
    assert g.view("blue")["state"]["plots"] == []
    assert not [e for e in g.events_for("blue") if e["kind"] == "plot"]
    g.apply("red", Commit())
    assert g.view("blue")["state"]["committed"] == ["red"]  # that it committed is known; what, not
    g.apply("blue", Commit())
    assert any(e["kind"] == "moved" and e["unit"] == "r0" for e in g.events_for("red"))
    assert not any(e["kind"] == "moved" and e["unit"] == "r0" for e in g.events_for("blue"))  # out of blue's sight


@pytest.mark.parametrize(
    ("path", "rule"),
    [
        ((), "§2"),
        ((1, 2, 3, 4), "§2"),
        (("5,5",), "§2a"),
        (None, "§2"),
    ],
)
def test_a_plot_is_refused_by_the_rule_it_breaks(path, rule):
    g = game()
    path = cells(g, *path) if path and isinstance(path[0], str) else path
    before = g.digest()
    with pytest.raises(IllegalDecision) as refused:
        g.apply("red", Plot("r0", path))
    assert refused.value.rule == f"Toy Orders {rule}"
    assert g.digest() == before and not g.log


def test_water_and_a_hex_passed_twice_are_refused_by_their_rules():
    g = game()
    m = g.rules.scenario.map
    r2 = next(u for u in g.state.units if u.id == "r2")  # at 3,2, two hexes from the water at 4,3
    step = next(c for c in m.grid.neighbors(r2.cell) if any(m.terrain[n] == "water" for n in m.grid.neighbors(c)))
    water = next(n for n in m.grid.neighbors(step) if m.terrain[n] == "water")
    with pytest.raises(IllegalDecision, match="water") as refused:
        g.apply("red", Plot("r2", (step, water)))
    assert refused.value.rule == "Toy Orders §2b"
    with pytest.raises(IllegalDecision) as refused:
        g.apply("red", Plot("r0", cells(g, "1,2", "1,1")))  # back through its own hex
    assert refused.value.rule == "Toy Orders §2c"


def test_a_unit_is_plotted_once_a_turn():
    g = game()
    g.apply("red", Plot("r0", cells(g, "1,2")))
    with pytest.raises(IllegalDecision) as refused:
        g.apply("red", Plot("r0", cells(g, "2,1")))
    assert refused.value.rule == "Toy Orders §2d"


def test_the_check_lists_nothing_but_draws_only_legal_plots():
    g = game()
    legal = g.legal("red")
    family = legal.of_kind("plot")[0]
    assert not family.listed and family.hint
    dice = Dice(seed_state(9))
    for _ in range(200):
        d = family.draw(dice)
        assert d in legal and g.rules.path_refusal(g.state, g.state.units[0], d.path) is None
    page = legal.to_json()
    assert next(f for f in page["choices"] if f["kind"] == "plot")["values"] is None


def test_a_malformed_plot_is_not_an_illegal_one():
    codec = ToyOrders.decisions()
    with pytest.raises(MalformedDecision):
        codec.from_json({"kind": "plot", "unit": "r0", "path": ["north"]})
    with pytest.raises(MalformedDecision):
        codec.from_json({"kind": "plot", "unit": "r0"})
    assert codec.parse("plot r0 7/8") == Plot("r0", (7, 8))


def test_undo_is_per_seat_while_orders_are_given_at_the_same_time():
    g = game()
    g.apply("red", Plot("r0", cells(g, "1,2")))
    g.apply("blue", Plot("b0", cells(g, "8,5")))
    g.apply("blue", Plot("b1", cells(g, "7,5")))
    assert g.can_undo("red") and g.can_undo("blue")
    g.undo("red")  # red's plot goes; blue's two stay, made again in order
    assert [u for u, _ in g.state.plots] == ["b0", "b1"]
    assert [e.seat for e in g.log] == ["blue", "blue"]
    assert not g.can_undo("red")
    g.apply("red", Plot("r0", cells(g, "2,1")))
    assert dict(g.state.plots)["r0"] == cells(g, "2,1")


def test_each_seats_count_of_decisions_follows_the_log_through_undo():
    """An observation says how many decisions its seat has made (``Game.decisions_by``, counted as the log grows);
    an undo that makes other seats' orders again leaves the count right."""
    g = game()
    g.apply("red", Plot("r0", cells(g, "1,2")))
    g.apply("blue", Plot("b0", cells(g, "8,5")))
    assert (g.decisions_by("red"), g.decisions_by("blue")) == (1, 1)
    g.undo("red")
    g.apply("blue", Plot("b1", cells(g, "7,5")))
    assert (g.decisions_by("red"), g.decisions_by("blue")) == (0, 2)
    assert [sum(e.seat == s for e in g.log) for s in ("red", "blue")] == [0, 2]


def test_a_commit_is_sealed_once_the_other_seat_plots_alone():
    g = game()
    g.apply("red", Commit())
    assert g.can_undo("red")  # nobody has decided since
    g.apply("blue", Plot("b0", cells(g, "8,5")))  # blue now decides alone and knows red has committed
    assert not g.can_undo("red")
    with pytest.raises(IllegalDecision, match="another seat has decided since"):
        g.undo("red")


def test_undo_closes_when_the_orders_execute():
    g = game()
    g.apply("red", Plot("r0", cells(g, "1,2")))
    g.apply("red", Commit())
    g.apply("blue", Commit())
    assert not g.can_undo("red") and not g.can_undo("blue")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_toy_orders_passes_the_conformance_harness(seed):
    run_conformance(ToyOrders, "meeting", seed)


@settings(max_examples=6)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_any_seed_of_toy_orders_passes_the_conformance_harness(seed):
    run_conformance(ToyOrders, "meeting", seed)


def test_the_driver_asks_each_computer_seat_of_a_turn_given_at_once():
    g = game()
    players = {s: make_player("random", ToyOrders, i) for i, s in enumerate(ToyOrders.seats)}
    seen = set()
    while g.state.turn == 1:
        seat, d = computer_decision(g, players)
        seen.add(seat)
        g.apply(seat, d)
    assert seen == {"red", "blue"}
    play_out(g, players)
    assert g.over and g.result() is not None


def test_simulate_plays_it_and_its_save_replays_and_verifies(capsys, tmp_path):
    save = tmp_path / "orders.json"
    assert main(["simulate", "toy_orders", "meeting", "--seed", "4", "--players", "random,greedy", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    args = ["simulate", "toy_orders", "meeting", "--seed", "4", "--players", "random,greedy", "--json"]
    assert main([*args, "--save", str(save)]) == 0
    second = json.loads(capsys.readouterr().out)
    assert first["digest"] == second["digest"] and first["decisions"] > 0
    assert main(["replay", str(save), "--verify"]) == 0
    assert "digest matches" in capsys.readouterr().out


def test_hot_seat_in_the_terminal_passes_the_screen_between_the_seats(monkeypatch, capsys):
    g = game()
    r0 = "/".join(str(c) for c in cells(g, "1,2"))
    b0 = "/".join(str(c) for c in cells(g, "8,5"))
    lines = iter([f"plot r0 {r0}", "commit", f"plot b0 {b0}", "plot b0 99", "undo", "commit", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "toy_orders", "meeting", "--seed", "1", "--players", "red=human,blue=human"]) == 0
    out = capsys.readouterr().out
    assert "pass the screen to blue" in out
    assert "[red]" in out and "[blue]" in out
