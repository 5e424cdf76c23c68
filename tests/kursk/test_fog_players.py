"""Objective Kursk's computer players see only their seat (issue 14, "It sees only its seat's view"): the
conformance harness's fog-honesty check on every player kind and level, with ``Kursk.perturb_hidden`` changing
what the seat may not know (the other side's hidden plots and airstrikes, unseen enemy groups), and a general
that plots the same whatever the other side has plotted in secret (§6.4: plots are hidden until they execute)."""

from __future__ import annotations

import zlib
from dataclasses import replace

import pytest

import grognard.testing.conformance as conformance
from grognard.ai import Observation, make_player, observe
from grognard.ai.base import GreedyPlayer
from grognard.ai.driver import computer_decision
from grognard.engine import Decision, Game, new_game
from grognard.engine.rng import Dice
from grognard.rulesets.kursk import Kursk
from grognard.rulesets.kursk.decisions import Commit
from grognard.rulesets.kursk.rules import PLOT_PART
from grognard.testing import check_players_see_only_their_seat


def test_no_computer_player_decides_by_what_its_seat_cannot_know() -> None:
    """Each player kind and level, both seats, at its first decision and at later ones (§6.4, AMB-21)."""
    report = check_players_see_only_their_seat(Kursk, "first_day", seed=1, positions=4, spacing=40)
    assert report.players == ["general:0", "general:1", "general:2", "greedy:1", "random:1"]
    assert report.compared == 3 * report.positions and report.positions >= len(report.players) * 3
    assert report.hidden == report.positions  # every enemy group's ID is hidden until the game is over


class Peeker(GreedyPlayer):
    """The greedy player, but picks the legal decision numbered by the enemy groups its seat does not see (where
    they are, their supply and mode), read from the game through a side channel no observation offers."""

    kind = "peeker"
    game: Game | None = None

    def choose(self, ctx: Observation) -> Decision:
        assert self.game is not None
        state = self.game.state
        hidden = [(g.cell, g.supply, g.mode) for g in state.groups if g.side != ctx.seat and g.alive]
        options = list(ctx.legal)
        return options[zlib.crc32(repr(hidden).encode()) % len(options)]


def test_the_check_catches_a_player_that_reads_hidden_enemy_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    def spy(game: Game, seat: str) -> Observation:
        Peeker.game = game
        return observe(game, seat)

    monkeypatch.setattr(conformance, "observe", spy)
    with pytest.raises(AssertionError, match=r"follows what .* cannot know"):
        check_players_see_only_their_seat(Kursk, "first_day", seed=1, kinds={"peeker": lambda s, lv: Peeker(s, lv)})


def test_perturb_hidden_changes_only_what_the_seat_cannot_see() -> None:
    """The hook removes an unseen enemy group or changes one, leaves the seat's view and legal decisions alone."""
    game = new_game(Kursk, "southern_pincer", seed=2)
    for seat in Kursk.seats:
        other = game.rules.perturb_hidden(game.state, seat, Dice(5))
        assert other.groups != game.state.groups
        assert game.rules.view(other, seat) == game.rules.view(game.state, seat)


def _plots_of(game: Game, seat: str, general: object) -> list[Decision]:
    """The general's plot-phase orders for ``seat`` until it commits."""
    out: list[Decision] = []
    while True:
        d = general.copy().choose(observe(game, seat))  # type: ignore[attr-defined]
        out.append(d)
        game.apply(seat, d)
        if isinstance(d, Commit):
            return out


def test_the_general_never_reads_the_other_sides_hidden_plots() -> None:
    """§6.4: each side's plots are secret until they execute. The other side plots (and commits) first; the
    general then gives the same orders as in a copy of the game where those plots were never given."""
    for seed, first in ((3, "german"), (4, "soviet")):
        game = new_game(Kursk, "southern_pincer", seed=seed)
        players = {s: make_player("general", Kursk, seed) for s in Kursk.seats}
        for _ in range(2):  # the second turn's plot phase: the armies are in contact
            while game.state.part != PLOT_PART:
                due = computer_decision(game, players)
                assert due is not None
                game.apply(*due)
            if game.state.turn == 1:
                while game.state.part == PLOT_PART:
                    due = computer_decision(game, players)
                    assert due is not None
                    game.apply(*due)
        seat = "soviet" if first == "german" else "german"
        _plots_of(game, first, players[first])
        hidden = [p for p in game.state.plots if game.state.group(p[0]).side == first]
        assert hidden and game.state.committed == (first,)
        blank = replace(game.state, plots=(), committed=())
        twin = Game.restore(game.rules, game.seed, blank, game.log, game.events, game.event_counts, None)
        assert twin.view(seat) != game.view(seat)  # only in what the seat is told: the other side committed
        assert _plots_of(game, seat, players[seat]) == _plots_of(twin, seat, players[seat])
