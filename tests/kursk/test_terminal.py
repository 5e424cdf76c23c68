"""Objective Kursk in the terminal: the map as text (§4.5's symbols) and every plot typed in the manual's digit
strings (§6.4-6.7: ``plot 71 B12``, ``plot 64 R4``), a refused one naming the rule it breaks."""

from __future__ import annotations

import argparse

import pytest
from kursk_helpers import CTX

from grognard.cli.terminal import play_in_terminal
from grognard.rulesets.kursk.rules import Kursk


def _play(monkeypatch: pytest.MonkeyPatch, typed: list[str]) -> int:
    """Play with ``typed`` as the person's lines (the last one quits)."""
    lines = iter(typed)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    # you take the first seat, the Soviet (§3.0: the original's computer side); the German is the greedy player
    args = argparse.Namespace(game="kursk", scenario="first_day", seed=3, players=None, save=None)
    return play_in_terminal(args, {})


def test_a_turn_is_played_in_the_terminal_with_the_manuals_plot_syntax(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """§3.3: the Soviet ends its four phases; in the tactical plot it types §6.6's bombardment ``B12`` for a
    static group with field howitzers and §6.7's recon ``r4`` (the letter in either case); a move for a static
    group (§6.4), a second plot for one group (§6.4) and a bombardment in direction 7 (§6.6) are refused with
    their rules; after ``commit`` the turn executes segment by segment (§9.0)."""
    typed = ["end_phase"] * 4 + [
        "plot 72 0321",  # static: no movement plot (§6.4)
        "plot 71 B12",  # 152FH and 203FH: bombard the hex north, then north-east (§6.6)
        "plot 71 R4",  # it has its plot (§6.4)
        "plot 64 r4",  # recon to the south (§6.7)
        "plot 65 B7",  # no direction 7 (§6.6)
        "commit",
        "quit",
    ]
    assert _play(monkeypatch, typed) == 0
    out = capsys.readouterr().out
    assert "7/5/43 AM, clear; seen by soviet" in out or "7/5/43 AM, rain; seen by soviet" in out  # the text map
    assert "group 71 plots B12" in out and "group 64 plots R4" in out
    refusals = [line for line in out.splitlines() if "refused" in line or "a bombard plot is" in line]
    assert any("static" in r and "§6.4" in r for r in refusals), refusals
    assert any("has its plot for this turn" in r and "§6.4" in r for r in refusals), refusals
    assert any("'B7'" in r and "§6.6" in r for r in refusals), refusals
    assert "segment 1: german movement and assaults" in out and "segment 4: soviet movement and assaults" in out
    assert out.index("group 64 plots R4") < out.index("segment 1: german")  # plots first, then execution


def test_the_text_map_marks_towns_minefields_and_each_sides_groups(capsys: pytest.CaptureFixture[str]) -> None:
    """§4.5: the seat's own groups with their count in the hex, enemy groups it sees in lower case, towns by
    initial (§11.1: Belgorod), minefields (§9.4) where they lie."""
    rules = Kursk(Kursk.scenario_by_id("first_day"))
    state = rules.initial_state(3)
    text = rules.render_text(state, "german")
    rows: dict[str, list[str]] = {}
    for line in text.splitlines()[1:]:
        rows.setdefault(line[:2].strip(), []).append(line)

    def hex_text(label: str) -> str:
        cell = CTX.grid.parse(label)
        col, row = cell % CTX.grid.columns, cell // CTX.grid.columns
        even, odd = rows[str(row)]
        line = even[3:] if col % 2 == 0 else odd[7:]
        return line[(col // 2) * 4 :][:3]

    assert hex_text("17,26") == ".G2"  # German groups 1 and 2
    assert hex_text("18,26") in ("ms1", ".s1")  # Soviet 72, seen next to them
    assert hex_text("21,29")[0] == "B"  # Belgorod
    mines = [c for c in CTX.map.cell_features["minefield"] if c not in CTX.towns]
    assert mines and all(hex_text(CTX.grid.label(c))[0] == "m" for c in mines)
