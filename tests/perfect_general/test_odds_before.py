"""Odds before committing (issue 15 item 3): a close assault's chance to win (p.30-32) and an artillery shot's
drift and splash (p.30) are in the legal decisions' info before the decision, and the terminal's '?' lists them."""

from __future__ import annotations

from grognard.ai import make_player
from grognard.ai.driver import computer_decision
from grognard.cli.terminal import _odds
from grognard.engine import Game
from grognard.engine.game import new_game
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general import decisions as D


def _random_game(seed: int) -> tuple[Game, dict]:
    game = new_game(PerfectGeneral, "simple_little_war", None, seed)
    players = {s: make_player("random", PerfectGeneral, seed * 7 + i) for i, s in enumerate(PerfectGeneral.seats)}
    return game, players


def test_the_assault_odds_shown_are_the_odds_the_assault_is_made_at() -> None:
    """p.30-32: the attacker's chance from the assault table and its modifiers, counted from the location the
    attacker assaults from; the event of the assault names the same per cent."""
    checked = 0
    for seed in range(1, 12):
        game, players = _random_game(seed)
        while not game.over and len(game.log) < 1500 and checked < 3:
            turn = game.turn()
            legal = game.legal(turn.seat)
            offered = legal.info.get("assault") or {}
            pick = next(((u, c, o) for u, by in offered.items() for c, o in by.items()), None)
            if pick is not None:
                unit, cell, odds = pick
                decision = D.Assault(unit, cell)
                assert decision in legal
                assert _odds(legal, decision) == f"  ({odds}% to win the assault)"
                events = game.apply(turn.seat, decision)
                while game.state.offer is not None:  # passing fire on the way is held: nothing changes the odds
                    events += game.apply(game.turn().seat, D.HoldFire())
                fought = [e for e in events if e.kind == "assault"]
                if fought:  # else the walk was stopped on the way (a hidden unit, a mine, a barrage)
                    assert f": {odds}%," in fought[0].text
                    checked += 1
                continue
            game.apply(*computer_decision(game, players))
        if checked >= 3:
            break
    assert checked >= 3


def test_an_artillery_plot_shows_its_drift_and_splash_before_it_is_made() -> None:
    """p.30: a shot drifts 0 to the unit's drift in hexes, each as likely; units next to the strike are hit with
    the splash chance under Random Hit."""
    game, players = _random_game(3)
    while not game.over and len(game.log) < 2000:
        turn = game.turn()
        legal = game.legal(turn.seat)
        plots = legal.info.get("plots")
        if plots:
            break
        game.apply(*computer_decision(game, players))
    assert plots
    tables = game.rules.ctx.tables
    for uid, shown in plots.items():
        ut = tables.units[game.state.unit(uid).type]
        assert shown == {"drift": ut.drift, "on_target": round(100 / (ut.drift + 1)), "splash": ut.splash}
        fam = next(f for f in legal.of_kind("plot") if f.fixed["unit"] == uid)
        words = _odds(legal, next(fam.decisions()))
        assert f"{ut.splash}% to hit each unit next to it" in words
        if ut.drift:
            assert f"{shown['on_target']}% to land where aimed, else up to {ut.drift} hexes off" in words
