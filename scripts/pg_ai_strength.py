"""How strong and how fast is the Perfect General's computer general?

Plays the General (one level) against other computer players on the bundled scenarios (or those given), in
each seat, over a fixed list of seeds, and prints win rates with 95% Wilson intervals and the time the
General spends per game turn (median, 95th percentile, worst). A draw is not a win.

    python scripts/pg_ai_strength.py                       # 100 games per opponent and seat
    python scripts/pg_ai_strength.py --games 10 --scenarios simple_little_war
    python scripts/pg_ai_strength.py --general general:hard --opponents greedy

Game i of each (opponent, seat) series plays scenario i mod k with seed ``--seed + i``; the players' own
seeds derive from that seed, so a run is repeatable.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict

from grognard.ai import make_player, play_out
from grognard.ai.base import Player
from grognard.ai.strength import Timed, spread, wilson
from grognard.engine import Game
from grognard.rulesets.perfect_general import PerfectGeneral


def play(scenario: str, seed: int, general: str, opponent: str, seat: str) -> tuple[str, dict[int, list[float]]]:
    """One game; returns "win", "draw" or "loss" for the General and its [wall, CPU] seconds per game turn."""
    rules = PerfectGeneral(PerfectGeneral.load_scenario(scenario))
    game = Game(rules, seed)
    per_turn: dict[int, list[float]] = {}
    seats = PerfectGeneral.seats
    players: dict[str, Player] = {}
    for i, s in enumerate(seats):
        spec = general if s == seat else opponent
        player = make_player(spec, PerfectGeneral, seed * 7919 + i * 104729 + 1)
        players[s] = Timed(player, lambda: game.state.turn, per_turn) if s == seat else player
    play_out(game, players)
    result = game.result()
    assert result is not None
    outcome = "draw" if result.winner is None else "win" if result.winner == seat else "loss"
    return outcome, per_turn


def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="games per opponent and seat (default 100)")
    ap.add_argument("--scenarios", default="", help="comma-separated ids or paths (default: every bundled one)")
    ap.add_argument("--general", default="general", help="the General's player spec (default: general)")
    ap.add_argument("--opponents", default="random,greedy")
    ap.add_argument("--seed", type=int, default=1000, help="seed of game 0 (default 1000)")
    args = ap.parse_args(argv)

    scenarios = [s for s in args.scenarios.split(",") if s] or PerfectGeneral.scenario_ids()
    sizes = {s: PerfectGeneral.load_scenario(s).map.grid.size for s in scenarios}
    largest = max(scenarios, key=lambda s: sizes[s])
    names = {s: PerfectGeneral.load_scenario(s).info.id for s in scenarios}
    print(f"General {args.general}; scenarios: {', '.join(names.values())}; {args.games} games per opponent and seat")
    turn_times: list[list[float]] = []
    largest_times: list[list[float]] = []
    table: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: {"win": 0, "draw": 0, "loss": 0})
    by_scenario: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: {"win": 0, "draw": 0, "loss": 0})
    t0 = time.perf_counter()
    for opponent in args.opponents.split(","):
        for seat in PerfectGeneral.seats:
            for i in range(args.games):
                scenario = scenarios[i % len(scenarios)]
                outcome, per_turn = play(scenario, args.seed + i, args.general, opponent, seat)
                table[(opponent, seat)][outcome] += 1
                by_scenario[(opponent, names[scenario])][outcome] += 1
                turn_times.extend(per_turn.values())
                if scenario == largest:
                    largest_times.extend(per_turn.values())
            row = table[(opponent, seat)]
            print(
                f"  vs {opponent:<8} as {seat:<9} {row['win']:>4} won {row['draw']:>4} drawn {row['loss']:>4} lost"
                f"  ({time.perf_counter() - t0:.0f} s)",
                file=sys.stderr,
                flush=True,
            )

    print(f"\n{'opponent':<10}{'seat':<11}{'games':>6}{'won':>6}{'drawn':>7}{'lost':>6}{'win rate':>10}  95% CI")
    for opponent in args.opponents.split(","):
        total = {"win": 0, "draw": 0, "loss": 0}
        for seat in (*PerfectGeneral.seats, "both"):
            row = total if seat == "both" else table[(opponent, seat)]
            if seat != "both":
                for k in total:
                    total[k] += row[k]
            n = sum(row.values())
            lo, hi = wilson(row["win"], n)
            print(
                f"{opponent:<10}{seat:<11}{n:>6}{row['win']:>6}{row['draw']:>7}{row['loss']:>6}"
                f"{pct(row['win'] / n if n else 0):>10}  [{pct(lo)}, {pct(hi)}]"
            )
    if len(scenarios) > 1:
        print("\nby scenario (both seats):")
        for (opponent, scenario), row in sorted(by_scenario.items()):
            n = sum(row.values())
            print(f"  vs {opponent:<8} {scenario:<28} {row['win']:>4}/{n:<4} won, {row['draw']} drawn")

    def quantiles(times: list[list[float]], which: int) -> str:
        return spread([t[which] for t in times])

    print("\nGeneral's thinking time per game turn (wall clock; CPU time of this process, fairer on a busy machine):")
    print(f"  all scenarios, wall: {quantiles(turn_times, 0)}")
    print(f"  all scenarios, CPU:  {quantiles(turn_times, 1)}")
    print(f"  largest scenario ({names[largest]}, {sizes[largest]} locations), wall: {quantiles(largest_times, 0)}")
    print(f"  largest scenario ({names[largest]}, {sizes[largest]} locations), CPU:  {quantiles(largest_times, 1)}")
    print(f"wall time {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
