"""The match game of a ruleset that has one (``Ruleset.match_option``; The Perfect General p.3): the same scenario
twice, player 1 taking one seat in the first game and the other in the second, each player's victory points from
both games added up."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from grognard.engine import Game, GrognardError, Ruleset

# plays one game: (players per seat as "seat=kind,...", options, seed) -> the game and its thinking time
PlayOne = Callable[[str, dict[str, Any], int], tuple[Game, float]]
Outcome = Callable[[Game, float], dict[str, Any]]


def match_sides(cls: type[Ruleset[Any, Any]], options: Mapping[str, Any]) -> tuple[str, str]:
    """Player 1's seat in the first game (the match option as given, else its default) and in the second."""
    option = cls.match_option
    if option is None or len(cls.seats) != 2:
        raise GrognardError(f"{cls.name} has no match game")
    default = next(o.default for o in cls.option_specs if o.name == option)
    first = str(options.get(option, default))
    return first, next(s for s in cls.seats if s != first)


def match_players(players: str | None, sides: tuple[str, str]) -> tuple[str, str]:
    """Player 1's and player 2's kinds from ``--players``: ``seat=kind,...`` names them by their seat in the
    first game, ``kind,kind`` in order; greedy where not given."""
    parts = [p.strip() for p in (players or "greedy,greedy").split(",") if p.strip()]
    if any("=" in p for p in parts):
        by_seat = dict(p.split("=", 1) for p in parts)
        return by_seat.get(sides[0], "greedy"), by_seat.get(sides[1], "greedy")
    one, two = (parts * 2)[:2]
    return one, two


def play_match(
    cls: type[Ruleset[Any, Any]],
    players: str | None,
    options: dict[str, Any],
    seed: int,
    play_one: PlayOne,
    outcome: Outcome,
) -> dict[str, Any]:
    """Play both games (the second with seed + 1) and return their outcomes with the match's result."""
    sides = match_sides(cls, options)  # refuses a game without a match game
    option = cls.match_option
    assert option is not None
    p1, p2 = match_players(players, sides)
    games = []
    totals = {"player1": 0, "player2": 0}
    for half, (side1, side2) in enumerate((sides, sides[::-1])):
        game, seconds = play_one(f"{side1}={p1},{side2}={p2}", {**options, option: side1}, seed + half)
        out = outcome(game, seconds)
        scores = out["result"]["scores"]
        totals["player1"] += scores[side1]
        totals["player2"] += scores[side2]
        out["player1_side"] = side1
        games.append(out)
    winner = max(totals, key=lambda p: totals[p]) if totals["player1"] != totals["player2"] else None
    summary = f"Match: player 1 {totals['player1']}, player 2 {totals['player2']}: " + (
        f"{winner.replace('player', 'player ')} wins the match" if winner else "the match is drawn"
    )
    return {
        "game": cls.id,
        "scenario": games[0]["scenario"],
        "seed": seed,
        "match": True,
        "turns": games[0]["turns"],
        "decisions": sum(g["decisions"] for g in games),
        "games": games,
        "result": {
            "winner": winner,
            "scores": totals,
            "levels": {p: ("victory" if p == winner else "defeat") if winner else "draw" for p in totals},
            "summary": summary,
        },
        "digest": games[-1]["digest"],
    }
