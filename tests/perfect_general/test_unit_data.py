"""The unit data shown in the game (issue 15 item 9), as the manual's Appendix B would have shown it: range by
target, movement, defence, hit points, cost; the rules answer it once (``{"kind": "units"}``) for the page and
the terminal, from the same data files the rules play by."""

from __future__ import annotations

import argparse

from grognard import rulesets
from grognard.cli.terminal import play_in_terminal, unit_table
from grognard.engine.game import new_game


def _game():
    return new_game(rulesets.get("perfect_general"), "simple_little_war", None, 1)


def test_every_unit_type_has_its_row_with_the_numbers_the_rules_play_by() -> None:
    game = _game()
    data = game.inspect("attacker", {"kind": "units"})
    tables = game.rules.ctx.tables
    assert data["types"] == list(tables.units)
    rows = {t: dict(zip(data["columns"], row, strict=True)) for t, row in zip(data["types"], data["rows"], strict=True)}
    # p.19-22: an armored car moves 9; the numbers are the data files' (cost, hit points, movement)
    assert rows["armored_car"]["move"] == 9 and rows["infantry"]["cost"] == 1
    for t, u in tables.units.items():
        assert (rows[t]["unit"], rows[t]["cost"]) == (u.name, u.cost)
        if not u.has("mine"):
            assert (rows[t]["move"], rows[t]["hit points"]) == (u.move, u.hit_points)
    # p.2: an armored car reaches an armored car at six and a medium tank at one; a heavy tank 8 to 13
    assert rows["armored_car"]["AC"] == 6 and rows["armored_car"]["MT"] == 1
    assert {rows["heavy_tank"][tables.units[k].code] for k in data["types"][:-1]} == {8, 11, 13}
    # p.21: light artillery is more vulnerable than even an infantry unit (the defence column says so)
    assert rows["light_artillery"]["defence"] == "infantry, hit 125%" and rows["infantry"]["defence"] == "infantry"


def test_the_terminal_shows_the_unit_data_on_units(monkeypatch, capsys) -> None:
    typed = iter(["units", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    args = argparse.Namespace(game="perfect_general", scenario="simple_little_war", seed=5, players=None, save=None)
    assert play_in_terminal(args, {}) == 0
    out = capsys.readouterr().out
    assert "'units' shows the unit data" in out
    assert unit_table(_game(), "attacker") in out
    header = next(line for line in out.splitlines() if line.lstrip().startswith("unit "))
    assert header.split()[:4] == ["unit", "cost", "move", "hit"]
    assert header.split()[-10:] == ["IN", "EN", "BZ", "AC", "LT", "MT", "HT", "MA", "LA", "HA"]  # range by target
