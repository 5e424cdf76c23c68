"""The one driver: which seat decides next, and what its computer player decides.

``simulate``, the server, the terminal and the conformance harness all ask :func:`computer_decision`, so a
game played on the server with computer seats is the game ``simulate`` plays with the same seats and seed.
A computer's dice are reseeded before every decision from its own seed and the length of the log: what it
decides is a function of the position, so a server restarted mid-game makes the choice it would have made.

A long piece of work (a general's decision, a save document) calls :func:`pause_point` at safe points (between
units, between decisions; never inside a cache being filled): a no-op unless the process set a hook
(:func:`set_pause`). The server's computers' worker sets one that answers another game's urgent question there
(a reaction a person waits for) before the work goes on, so the reaction does not wait for the whole of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from grognard.engine import Decision, Game, GrognardError
from grognard.engine.rng import Dice, seed_state

from .base import Player, derived_seed, seat_seed
from .observation import observe

__all__ = [
    "RunawayGame",
    "asks",
    "computer_decision",
    "pause_point",
    "play_out",
    "seat_seed",
    "set_pause",
    "standing_answer",
]

_pause: Callable[[], None] | None = None  # the process's hook (set_pause), None in most processes


def pause_point() -> None:
    """A safe point in a long piece of work: every cache complete, nothing half done that other work of the
    same process (another game's decision, on the same shared ruleset) could see or change. Runs the hook the
    process set, if any; it must leave this work's game, players and results as it found them."""
    if _pause is not None:
        _pause()


def set_pause(hook: Callable[[], None] | None) -> None:
    """Set (or, with None, clear) the hook :func:`pause_point` runs."""
    global _pause
    _pause = hook


class RunawayGame(GrognardError):
    """A game that did not end within its decision limit (a ruleset bug or a stuck player)."""


def _ask(game: Game, seat: str, player: Player, main: bool, think: bool = True) -> Decision | None:
    """``player``'s decision for ``seat`` now: its reflex if it has one, else (when ``think``) what it chooses
    (``main``) or interjects."""
    # a person's reaction settings are left out of the count: changing them does not change a computer's dice
    player.dice = Dice(seed_state(derived_seed(player.seed, len(game.log) - game.settings_made)))
    ctx = observe(game, seat)
    d = player.reflex(ctx)
    if d is not None:
        player.reflexed(seat, ctx.made)
        return d
    if not think:
        raise _Thinks
    return player.choose(ctx) if main else player.interject(ctx)


class _Thinks(Exception):
    """The next computer decision is not a reflex: its player must think (``computer_decision``, ``think``)."""


def standing_answer(game: Game, seat: str) -> tuple[bool, Decision | None]:
    """Whether the reaction pending for ``seat`` is answered without asking it, and with what (None: it declines
    by letting the mover go on, La Grande Armée's way, with no decision to log).

    A reaction with one legal answer (The Perfect General's hold fire, when no unit can fire) is not asked; else
    the seat's setting for that kind answers: "never ask this phase" declines, "take the best shot at N%" fires
    the ruleset's best answer when its chance is at least N and declines otherwise, "ask me" asks.
    """
    if not game.turn().may_act(seat):
        return False, None
    reaction = game.rules.reaction(game.state, seat)
    if reaction is None:
        return False, None
    if reaction.decline is not None and len(game.legal(seat)) == 1:
        return True, reaction.decline
    setting = game.setting(seat, reaction.kind)
    if setting.mode == "never":
        return True, reaction.decline
    if setting.mode == "best":
        good = reaction.best is not None and reaction.chance is not None and reaction.chance >= setting.percent
        return True, reaction.best if good else reaction.decline
    return False, None


def asks(game: Game, seat: str) -> bool:
    """A reaction is pending for ``seat`` (a person) and its settings leave it to the person."""
    return game.rules.reaction(game.state, seat) is not None and not standing_answer(game, seat)[0]


def computer_decision(
    game: Game, players: Mapping[str, Player], order: Dice | None = None, *, think: bool = True
) -> tuple[str, Decision] | None:
    """The next decision a computer seat makes now, with its seat; None when none is due (a person decides,
    or the game is over). ``think`` False: only a standing answer or a computer's reflex (``Player.reflex``,
    asked first either way), None where a computer would have to think (a server asks its worker then).

    A person's seat (one not in ``players``) with a reaction pending that its settings answer is answered first
    (:func:`standing_answer`), logged as that seat's decision, so the server, the terminal and ``simulate``
    behave alike. Then a computer seat that may react (``Turn.optional``), so that a reaction comes before the
    mover goes on; then the seats that must decide, in seat order (orders given at the same time are hidden
    from each other, so their order carries nothing). ``order`` shuffles who is asked first (the conformance
    harness's random interleavings); the front ends leave it None.
    """
    turn = game.turn()
    if turn.seat is None:
        return None
    if not turn.optional and not turn.also and turn.seat in players and order is None:
        # one seat decides and a computer plays it (most decisions): what the loops below come to
        try:
            d = _ask(game, turn.seat, players[turn.seat], main=True, think=think)
        except _Thinks:
            return None
        return None if d is None else (turn.seat, d)
    for seat in (*turn.deciding, *turn.optional):
        if seat not in players:
            answered, answer = standing_answer(game, seat)
            if answered and answer is not None:
                return seat, answer
    optional = [s for s in turn.optional if s in players]
    deciding = [s for s in turn.deciding if s in players]
    if order is not None:
        optional = [optional[i] for i in _shuffled(len(optional), order)]
        deciding = [deciding[i] for i in _shuffled(len(deciding), order)]
    try:
        for seat in optional:
            if game.legal(seat):
                d = _ask(game, seat, players[seat], main=False, think=think)
                if d is not None:
                    return seat, d
        for seat in deciding:
            d = _ask(game, seat, players[seat], main=True, think=think)
            if d is not None:
                return seat, d
    except _Thinks:
        return None
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
