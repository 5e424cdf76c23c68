"""The Perfect General in the terminal (issue 15 item 10): locations typed and listed as the map writes them,
the odds of each shot in '?', Enter taking the suggested order, and a fresh seed unless --seed is given."""

from __future__ import annotations

import argparse
import re

from grognard.cli.terminal import play_in_terminal


def _play(monkeypatch, typed: list[str], seed: int | None = 5, players: str | None = None) -> int:
    lines = iter(typed)

    def fake_input(prompt: str = "") -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    args = argparse.Namespace(
        game="perfect_general", scenario="simple_little_war", seed=seed, players=players, save=None
    )
    return play_in_terminal(args, {})


def test_locations_are_listed_and_typed_as_the_map_writes_them(monkeypatch, capsys) -> None:
    """PG p.10: a unit is placed at a location of the set-up region; the list shows 'column,row' and the same
    words are accepted back."""
    assert _play(monkeypatch, ["buy infantry", "done_buying", "confirm yes", "?", "quit"]) == 0
    out = capsys.readouterr().out
    assert "a location may be typed by its number or as column,row" in out
    placed = re.search(r"^  (place infantry (\d+,\d+))\s", out, re.M)
    assert placed, "the listing writes locations as column,row"
    assert _play(monkeypatch, ["buy infantry", "done_buying", "confirm yes", placed.group(1), "quit"]) == 0
    assert "refused" not in capsys.readouterr().out


def test_the_suggested_shot_comes_with_its_odds_and_enter_takes_it() -> None:
    """PG p.28: the best target is pre-selected; the terminal shows its chance to hit, as the page does."""
    from grognard.cli.terminal import asking
    from grognard.engine import Choice, Legal
    from grognard.engine.game import new_game
    from grognard.rulesets.perfect_general import PerfectGeneral
    from grognard.rulesets.perfect_general.decisions import Fire

    game = new_game(PerfectGeneral, "simple_little_war", None, 1)
    shot = Fire("a1", "d1")
    legal = Legal(
        "attacker", [Choice(Fire, {"unit": "a1"}, ["d1"])], suggested=shot, info={"chances": {"a1": {"d1": 40}}}
    )
    text = "\n".join(asking(game, "attacker", legal))
    assert "suggested (Enter takes it)" in text and "(40% to hit)" in text


def test_every_game_gets_fresh_dice_unless_a_seed_is_given(monkeypatch, capsys) -> None:
    """Two games without --seed differ (the seed comes from the system); with --seed they are the same."""
    import grognard.cli.terminal as terminal

    seen: list[int] = []
    real = terminal.new_game

    def spy(cls, scenario, options, s):  # type: ignore[no-untyped-def]
        seen.append(s)
        return real(cls, scenario, options, s)

    monkeypatch.setattr(terminal, "new_game", spy)
    for _ in range(2):
        _play(monkeypatch, ["quit"], seed=None)
    _play(monkeypatch, ["quit"], seed=7)
    _play(monkeypatch, ["quit"], seed=7)
    assert seen[0] != seen[1] and seen[2] == seen[3] == 7
