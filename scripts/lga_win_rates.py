"""Win rates of one computer player against others in La Grande Armée, per scenario and seat, judged by the
manual's victory levels (§5.2), with Wilson 95% confidence intervals, and the player's thinking time per full
turn (one season: its own player turn and its reactions in the enemy's).

    python scripts/lga_win_rates.py --player general --opponents random,greedy --games 15
    python scripts/lga_win_rates.py --player greedy --opponents random --games 20     # the old baseline

Every scenario is played ``--games`` times in each seat against each opponent, with seeds ``--seed`` up to
``--seed + games - 1`` (the players' own seeds derive from the game's), so a run is repeatable and 15 games a
scenario make 105 per seat. The Neutral seat has no powers at war in any scenario: only the French and the
Allied seats are measured. A draw (equal levels) is not a win.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Hashable
from concurrent.futures import ProcessPoolExecutor

from grognard.ai.base import Player, parse_players
from grognard.ai.driver import play_out
from grognard.ai.strength import Timed, spread, wilson
from grognard.engine.game import new_game
from grognard.rulesets.grande_armee import GrandeArmee

SEATS = ("french", "allied")
Job = tuple[str, str, str, str, int]  # scenario, seat, player, opponent, seed


def play(job: Job) -> tuple[Job, str, list[list[float]], float]:
    """One game: the player's outcome, its [wall, CPU] seconds per season, the game's wall time."""
    scenario, seat, player, opponent, seed = job
    start = time.perf_counter()
    game = new_game(GrandeArmee, scenario, None, seed)
    other = "allied" if seat == "french" else "french"
    spec = f"{seat}={player},{other}={opponent},neutral={opponent}"
    players: dict[str, Player] = parse_players(spec, GrandeArmee, GrandeArmee.seats, seed)
    spent: dict[Hashable, list[float]] = {}
    players[seat] = Timed(players[seat], lambda: (game.state.year, game.state.season), spent)
    play_out(game, players)
    result = game.result()
    assert result is not None
    outcome = "draw" if result.winner is None else "win" if result.winner == seat else "loss"
    return job, outcome, list(spent.values()), time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", default="general", help="the player measured (default: general)")
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--games", type=int, default=15, help="games per scenario, seat and opponent")
    parser.add_argument("--seed", type=int, default=1, help="seed of each series' first game (default 1)")
    parser.add_argument("--scenario", action="append", help="a scenario id (default: all seven)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    args = parser.parse_args(argv)
    scenarios = args.scenario or GrandeArmee.scenario_ids()
    opponents = [o for o in args.opponents.split(",") if o]
    jobs: list[Job] = [
        (sid, seat, args.player, opp, args.seed + i)
        for opp in opponents
        for sid in scenarios
        for seat in SEATS
        for i in range(args.games)
    ]
    print(
        f"{args.player} against {', '.join(opponents)}: {args.games} games per scenario, seat and opponent "
        f"(seeds {args.seed}..{args.seed + args.games - 1})"
    )
    tally: dict[tuple[str, str, str], dict[str, int]] = defaultdict(lambda: {"win": 0, "draw": 0, "loss": 0})
    seconds: dict[tuple[str, str, str], float] = defaultdict(float)
    turns: list[list[float]] = []
    t0 = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play, jobs, chunksize=1))
    else:
        results = []
        for job in jobs:
            results.append(play(job))
            done = len(results)
            if done % args.games == 0:
                print(f"  {done}/{len(jobs)} games ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    for (sid, seat, _, opp, _), outcome, spent, wall in results:
        tally[(opp, sid, seat)][outcome] += 1
        seconds[(opp, sid, seat)] += wall
        turns.extend(spent)

    for opp in opponents:
        print(f"\n### against {opp}\n")
        print("| scenario | seat | wins | draws | losses | win rate | 95% interval | s/game |")
        print("|---|---|---:|---:|---:|---:|---|---:|")
        for sid in scenarios:
            for seat in SEATS:
                row = tally[(opp, sid, seat)]
                n = sum(row.values())
                lo, hi = wilson(row["win"], n)
                print(
                    f"| {sid} | {seat} | {row['win']} | {row['draw']} | {row['loss']} | {row['win'] / n:.0%} | "
                    f"{lo:.0%}-{hi:.0%} | {seconds[(opp, sid, seat)] / n:.2f} |"
                )
    print("\n### per seat\n")
    print("| opponent | seat | games | wins | draws | losses | win rate | 95% interval |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for opp in opponents:
        for seat in (*SEATS, "both"):
            row = {"win": 0, "draw": 0, "loss": 0}
            for sid in scenarios:
                for s in SEATS if seat == "both" else (seat,):
                    for k, v in tally[(opp, sid, s)].items():
                        row[k] += v
            n = sum(row.values())
            lo, hi = wilson(row["win"], n)
            print(
                f"| {opp} | {seat} | {n} | {row['win']} | {row['draw']} | {row['loss']} | {row['win'] / n:.1%} | "
                f"{lo:.1%}-{hi:.1%} |"
            )
    print(f"\n{args.player}'s thinking time per full turn (a season: its player turn and its reactions):")
    print(f"  wall: {spread([t[0] for t in turns])}")
    print(f"  CPU:  {spread([t[1] for t in turns])}")
    print(f"run time {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
