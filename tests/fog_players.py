"""What the fog-honesty tests of both rulesets share: a computer player that cheats through a side channel, and
the restart check (a fresh player in a game played some decisions in decides as the warm one does)."""

from __future__ import annotations

import zlib
from typing import Any

import pytest

import grognard.testing.conformance as conformance
from grognard.ai import Observation, make_player, observe, parse_players
from grognard.ai.base import GreedyPlayer
from grognard.engine import Decision, Game, Ruleset
from grognard.engine.game import new_game
from grognard.testing import check_players_see_only_their_seat


class Peeker(GreedyPlayer):
    """Plays as the greedy player until the enemy has units its seat may not know of; then picks the legal decision
    numbered by where they stand and how strong they are, read from the game through the side channel below,
    which no observation offers."""

    kind = "peeker"
    game: Game | None = None

    def choose(self, ctx: Observation) -> Decision:
        assert self.game is not None
        state = self.game.state
        hidden = self.game.rules.hidden_units(state, ctx.seat)
        if not hidden:
            return super().choose(ctx)
        seen = repr(sorted((u for u in state.units if u.id in hidden), key=repr))  # where they are, how strong
        options = list(ctx.legal)
        return options[zlib.crc32(seen.encode()) % len(options)]


def assert_a_peeker_fails(monkeypatch: pytest.MonkeyPatch, cls: type[Ruleset[Any, Any]], scenario: str) -> None:
    """The fog-honesty check catches a player given a hidden unit: the side channel hands it the game."""

    def spy(game: Game, seat: str) -> Observation:
        Peeker.game = game
        return observe(game, seat)

    monkeypatch.setattr(conformance, "observe", spy)
    with pytest.raises(AssertionError, match=r"follows what .* cannot know"):
        check_players_see_only_their_seat(cls, scenario, seed=1, kinds={"peeker": lambda s, lv: Peeker(s, lv)})


def assert_fresh_players_decide_as_warm_ones(
    cls: type[Ruleset[Any, Any]], scenario: str, seed: int, seats: tuple[str, ...], every: int, asked: int
) -> int:
    """Generals play a seeded game; every ``every`` decisions a new general of the same kind, level and seed (a
    server restarted mid-game) is asked at the same position as the one that played so far, and must decide
    alike. Returns the positions asked (at least ``asked``)."""
    game = new_game(cls, scenario, None, seed)
    players = parse_players("general", cls, seats, seed)
    compared = 0
    while not game.over and compared < asked:
        seat = game.turn().seat
        assert seat is not None
        player = players[seat]
        if len(game.log) % every == 0 and len(game.log):
            fresh = make_player(player.name, cls, player.seed)
            warm = player.copy().choose(observe(game, seat))
            assert fresh.choose(observe(game, seat)) == warm, f"decision {len(game.log)}: the fresh general differs"
            compared += 1
        game.apply(seat, player.choose(observe(game, seat)))
    assert compared >= asked, f"only {compared} positions before the game ended"
    return compared
