"""The match game (PG p.3): the same scenario twice, sides swapped, and a combined result."""

from __future__ import annotations

from typing import Any


def play_match(cls: Any, args: Any, options: dict[str, Any], simulate: Any, outcome: Any) -> dict[str, Any]:
    """Play the match: player 1 takes the side ``player1`` names in the first game and the other side in the
    second; each player's victory points from both games are added up."""
    first_side = options.get("player1", "attacker")
    players = args.players or "greedy,greedy"
    parts = [p.strip() for p in players.split(",")]
    if any("=" in p for p in parts):
        by_seat = dict(p.split("=", 1) for p in parts)
        p1, p2 = (
            by_seat.get(first_side, "greedy"),
            by_seat.get("defender" if first_side == "attacker" else "attacker", "greedy"),
        )
    else:
        p1, p2 = (parts * 2)[:2]
    games = []
    totals = {"player1": 0, "player2": 0}
    for half, side1 in enumerate((first_side, "defender" if first_side == "attacker" else "attacker")):
        side2 = "defender" if side1 == "attacker" else "attacker"
        args.players = f"{side1}={p1},{side2}={p2}"
        game, seconds = simulate(args, {**options, "player1": side1}, args.seed + half)
        out = outcome(game, seconds)
        scores = out["result"]["scores"]
        totals["player1"] += scores[side1]
        totals["player2"] += scores[side2]
        out["player1_side"] = side1
        games.append(out)
    winner = (
        "player1"
        if totals["player1"] > totals["player2"]
        else "player2"
        if totals["player2"] > totals["player1"]
        else None
    )
    summary = f"Match: player 1 {totals['player1']}, player 2 {totals['player2']}: " + (
        f"{winner.replace('player', 'player ')} wins the match" if winner else "the match is drawn"
    )
    return {
        "game": cls.id,
        "scenario": games[0]["scenario"],
        "seed": args.seed,
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
