"""Win rates of one computer player against another in La Grande Armée, per scenario and seat, judged by the
manual's victory levels (§5.2), with Wilson 95% confidence intervals.

    python scripts/lga_win_rates.py --player greedy --opponent random --games 20

Seeds are 1..N for every scenario and seat, so a run is repeatable. A draw (equal levels) counts as no win.
"""

from __future__ import annotations

import argparse
import math
import time

from grognard.ai.base import parse_players
from grognard.ai.driver import play_out
from grognard.engine.game import new_game
from grognard.rulesets.grande_armee import GrandeArmee


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", default="greedy")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--games", type=int, default=20, help="games per scenario and seat")
    parser.add_argument("--scenario", action="append", help="a scenario id (default: all seven)")
    args = parser.parse_args()
    scenarios = args.scenario or GrandeArmee.scenario_ids()
    print(f"{args.player} against {args.opponent}, {args.games} games per scenario and seat (seeds 1..{args.games})")
    print()
    print("| scenario | seat | wins | draws | losses | win rate | 95% interval | s/game |")
    print("|---|---|---:|---:|---:|---:|---|---:|")
    total_wins = total = 0
    for sid in scenarios:
        for seat in ("french", "allied"):
            other = "allied" if seat == "french" else "french"
            spec = f"{seat}={args.player},{other}={args.opponent},neutral={args.opponent}"
            wins = draws = 0
            start = time.perf_counter()
            for seed in range(1, args.games + 1):
                game = new_game(GrandeArmee, sid, None, seed)
                play_out(game, parse_players(spec, GrandeArmee, GrandeArmee.seats, seed))
                result = game.result()
                assert result is not None
                wins += result.winner == seat
                draws += result.winner is None
            seconds = (time.perf_counter() - start) / args.games
            lo, hi = wilson(wins, args.games)
            losses = args.games - wins - draws
            print(
                f"| {sid} | {seat} | {wins} | {draws} | {losses} | {wins / args.games:.0%} | "
                f"{lo:.0%}-{hi:.0%} | {seconds:.2f} |",
                flush=True,
            )
            total_wins += wins
            total += args.games
    lo, hi = wilson(total_wins, total)
    print(f"\nAll: {total_wins}/{total} wins, {total_wins / total:.0%} (95% interval {lo:.0%}-{hi:.0%})")


if __name__ == "__main__":
    main()
