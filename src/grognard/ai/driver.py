"""The one driver: which seat decides next, and what its computer player decides.

``simulate``, the server, the terminal and the conformance harness all ask :func:`computer_decision`, so a
game played on the server with computer seats is the game ``simulate`` plays with the same seats and seed.
A computer's dice are reseeded before every decision from its own seed and the length of the log: what it
decides is a function of the position, so a server restarted mid-game makes the choice it would have made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from grognard.engine import Decision, Game, GrognardError
from grognard.engine.rng import Dice, seed_state

from .base import Player, derived_seed, seat_seed
from .observation import observe

__all__ = ["RunawayGame", "computer_decision", "play_out", "seat_seed"]


class RunawayGame(GrognardError):
    """A game that did not end within its decision limit (a ruleset bug or a stuck player)."""


def _ask(game: Game, seat: str, player: Player, main: bool) -> Decision | None:
    player.dice = Dice(seed_state(derived_seed(player.seed, len(game.log))))
    ctx = observe(game, seat)
    return player.choose(ctx) if main else player.interject(ctx)


def computer_decision(
    game: Game, players: Mapping[str, Player], order: Dice | None = None
) -> tuple[str, Decision] | None:
    """The next decision a computer seat makes now, with its seat; None when none is due (a person decides,
    or the game is over).

    A seat that may react (``Turn.optional``) is asked first, so that a reaction comes before the mover goes
    on; then the seats that must decide, in seat order (orders given at the same time are hidden from each
    other, so their order carries nothing). ``order`` shuffles who is asked first (the conformance harness's
    random interleavings); the front ends leave it None.
    """
    turn = game.turn()
    if turn.seat is None:
        return None
    optional = [s for s in turn.optional if s in players]
    deciding = [s for s in turn.deciding if s in players]
    if order is not None:
        optional = [optional[i] for i in _shuffled(len(optional), order)]
        deciding = [deciding[i] for i in _shuffled(len(deciding), order)]
    for seat in optional:
        if game.legal(seat):
            d = _ask(game, seat, players[seat], main=False)
            if d is not None:
                return seat, d
    for seat in deciding:
        d = _ask(game, seat, players[seat], main=True)
        if d is not None:
            return seat, d
    return None


def _shuffled(n: int, dice: Dice) -> list[int]:
    out = list(range(n))
    for i in range(n - 1, 0, -1):
        j = dice.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def play_out(
    game: Game,
    players: Mapping[str, Player],
    max_decisions: int = 200_000,
    progress: Callable[[Game], None] | None = None,
    stop_after: int | None = None,
) -> Game:
    """Let ``players`` decide for their seats until the game is over (or ``stop_after`` decisions are made)."""
    start = len(game.log)
    while not game.over:
        if stop_after is not None and len(game.log) - start >= stop_after:
            break
        if len(game.log) - start >= max_decisions:
            raise RunawayGame(f"no end after {max_decisions} decisions (now in {game.turn().phase})")
        due = computer_decision(game, players)
        if due is None:
            raise RunawayGame(f"no computer player decides for {', '.join(game.turn().deciding)}")
        game.apply(*due)
        if progress is not None:
            progress(game)
    return game
