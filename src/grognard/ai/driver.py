"""Playing a game to its end with computer players."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from grognard.engine import Game, GrognardError

from .base import Player, PlayerContext


class RunawayGame(GrognardError):
    """A game that did not end within its decision limit (a ruleset bug or a stuck player)."""


def play_out(
    game: Game,
    players: Mapping[str, Player],
    max_decisions: int = 200_000,
    progress: Callable[[Game], None] | None = None,
    stop_after: int | None = None,
) -> Game:
    """Let ``players`` decide for their seats until the game is over (or ``stop_after`` decisions are made)."""
    start = len(game.log)
    while True:
        turn = game.turn()
        if turn.seat is None or (stop_after is not None and len(game.log) - start >= stop_after):
            return game
        if len(game.log) - start >= max_decisions:
            raise RunawayGame(f"no end after {max_decisions} decisions (now in {turn.phase})")
        for seat in turn.optional:
            player = players.get(seat)
            if player is None:
                continue
            legal = game.legal(seat)
            if legal:
                d = player.interject(PlayerContext(seat, partial(game.view, seat), legal, game.rules))
                if d is not None:
                    game.apply(seat, d)
                    break
        else:
            seat = turn.seat
            player = players[seat]
            legal = game.legal(seat)
            decision = player.choose(PlayerContext(seat, partial(game.view, seat), legal, game.rules))
            game.apply(seat, decision)
        if progress is not None:
            progress(game)
