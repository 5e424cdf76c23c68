"""Battle of Antietam at the terminal: every decision typed with squares as the manual writes them (x,y) and
its keys (§B3.1 SPACE BAR, §B3.3 1-8 F M N Q, §IA7.3 D S X B), read by ``Antietam.typed`` into the decisions'
text form; and ``grognard play`` taking such lines to a move and a plot."""

from __future__ import annotations

import builtins
from typing import Any

import pytest

from grognard.cli.main import main
from grognard.rulesets.antietam import decisions as D


def read(p: Any, line: str, seat: str = "union") -> Any:
    """The decision a person's line stands for, as the terminal reads it."""
    return p.rules.decisions().parse(p.rules.typed(p.state, seat, line))


def test_space_bar_picks_up_the_first_unit_in_the_square_and_u_the_next(position: Any) -> None:
    """§B3.1 SPACE BAR "picks up the unit under the cursor ... If two or more units are in the square, you will pick
    up the first unit"; §B3.3 U "Picks up the next unit in the square"."""
    p = position({"u_duryea_a": "5,5", "u_duryea_b": "5,5", "c_law_a": "9,9"})
    assert read(p, "access 5,5") == D.Access("u_duryea_a")
    p.state = p.rules.apply(p.state, "union", D.Access("u_duryea_a"), p.step())
    assert read(p, "access 5,5") == D.Access("u_duryea_b")


def test_an_enemy_square_names_no_unit(position: Any) -> None:
    """The line is read from the seat's own units only: a square of the enemy's stays as typed, and the rules refuse
    it as no unit of the seat's (§B3.1), in the words they use for any other name."""
    p = position({"u_duryea_a": "5,5", "c_law_a": "6,5"})
    assert read(p, "access 6,5") == D.Access("6,5")
    why = p.rules.legal(p.state, "union").refusal(D.Access("6,5"))
    assert why is not None and "not a unit of yours" in str(why)


def test_the_unit_picked_up_moves_by_square_or_by_the_compass_and_plots_fire_and_melee(position: Any) -> None:
    """§B3.3 (1-8) moves the unit in a direction, (F) a priority fire square, (M) melee; §IA7.3 (D) facing, (S)
    mode, (X) force march, (B) fortify: each names the unit picked up."""
    p = position({"u_duryea_a": "5,5", "c_law_a": "6,6"})
    p.state = p.rules.apply(p.state, "union", D.Access("u_duryea_a"), p.step())
    assert read(p, "move 5,6") == D.Move("u_duryea_a", "5,5", "5,6")
    assert read(p, "1") == D.Move("u_duryea_a", "5,5", "5,4")  # direction 1: y - 1
    assert read(p, "3") == D.Move("u_duryea_a", "5,5", "6,5")  # direction 3: x + 1
    assert read(p, "fire 6,6") == D.Plot(("u_duryea_a@6,6",))
    assert read(p, "melee 6,6") == D.Plot(("u_duryea_a@6,6!",))
    assert read(p, "face 4") == D.Face("u_duryea_a", 4)
    assert read(p, "s") == D.Mode("u_duryea_a")
    assert read(p, "x") == D.ForceMarch("u_duryea_a")
    assert read(p, "b") == D.Fortify("u_duryea_a")
    assert read(p, "n") == D.Next() and read(p, "c") == D.EndPhase()


def test_a_plot_names_its_units_by_their_squares(position: Any) -> None:
    p = position({"u_duryea_a": "5,5", "u_i_corps_a": "4,4", "c_law_a": "6,6"})
    assert read(p, "plot 5,5@6,6!/4,4@6,6") == D.Plot(("u_duryea_a@6,6!", "u_i_corps_a@6,6"))
    assert read(p, "plot u_duryea_a@6,6") == D.Plot(("u_duryea_a@6,6",))  # the unit's name still does


def test_grognard_play_takes_squares(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A game at the terminal: the map north up, a unit picked up by its square, moved by a key of the compass,
    then the phase ended with C."""
    from grognard import rulesets
    from grognard.engine.game import new_game

    game = new_game(rulesets.get("antietam"), "5_ix_corps", {}, 3)
    ready = game.legal("union").choices[0].hint
    unit = next(u for u in game.view("union")["state"]["units"] if u["id"] in ready and u["type"] == "infantry")
    lines = iter([f"access {unit['square']}", "7", "c", "quit"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(lines))
    argv = ["play", "antietam", "5_ix_corps", "--seed", "3", "--players", "union=human,confederate=random"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "North is up" in out and "Type squares as x,y" in out
    x, y = map(int, unit["square"].split(","))
    assert f"{unit['name']} moves {unit['square']} to {x - 1},{y}" in out
    assert "Union combat phase" in out
