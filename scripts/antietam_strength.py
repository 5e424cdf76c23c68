"""Win rates of Battle of Antietam's computer general against other players, per seat, judged by the manual's
victory levels (§IA10.2: a win is a minor or major victory of the player's side; a draw is not a win), with Wilson
95% confidence intervals, the distribution of victory levels, and the general's thinking time per operation phase.

    python scripts/antietam_strength.py --opponents random,greedy --games 100 --jobs 1
    python scripts/antietam_strength.py --player general:hard --opponents greedy --games 20 --scenario 4_ii_corps
    nice -n 5 python scripts/antietam_strength.py --seats union --opponents greedy,random --games 8 --jobs 1
    python scripts/antietam_strength.py --opponents greedy,random --games 30 --seats confederate

Each seat is played ``--games`` times against each opponent with seeds ``--seed`` .. ``--seed + games - 1`` (the
players' own seeds derive from the game's), so a run is repeatable.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Hashable
from typing import Any

from grognard.ai.base import Player, parse_players
from grognard.ai.driver import play_out
from grognard.ai.strength import Timed, outcome_cells, outcome_of, play_all, series_parser, spread
from grognard.engine.game import new_game
from grognard.rulesets.antietam import Antietam

SEATS = ("union", "confederate")
Job = tuple[str, str, str, str, int]  # scenario, seat, player, opponent, seed


def play(job: Job) -> tuple[Job, str, str, list[list[float]], float, int]:
    """One game: the player's outcome, the victory level, its [wall, CPU] seconds per operation phase, wall time,
    the score (Union points - Confederate points, §IA10.2)."""
    scenario, seat, player, opponent, seed = job
    start = time.perf_counter()
    game = new_game(Antietam, scenario, None, seed)
    other = "confederate" if seat == "union" else "union"
    players: dict[str, Player] = parse_players(f"{seat}={player},{other}={opponent}", Antietam, Antietam.seats, seed)
    spent: dict[Hashable, list[float]] = {}
    timed = Timed(players[seat], lambda: (game.state.turn, game.state.part), spent)
    players[seat] = timed
    play_out(game, players)
    result = game.result()
    assert result is not None
    outcome = outcome_of(result, seat)
    scores = dict(result.scores)
    score = int(scores["union"] - scores["confederate"])
    return job, outcome, result.levels[seat], list(spent.values()), time.perf_counter() - start, score


def main(argv: list[str] | None = None) -> int:
    parser = series_parser(__doc__, "1_full_battle")
    parser.add_argument("--seats", default=",".join(SEATS), help="the seats measured, comma-separated (default both)")
    args = parser.parse_args(argv)
    opponents = [o for o in args.opponents.split(",") if o]
    seats = [s for s in args.seats.split(",") if s]
    jobs: list[Job] = [
        (args.scenario, seat, args.player, opp, args.seed + i)
        for opp in opponents
        for seat in seats
        for i in range(args.games)
    ]
    print(
        f"{args.player} against {', '.join(opponents)} in {args.scenario}: {args.games} games per seat and opponent "
        f"(seeds {args.seed}..{args.seed + args.games - 1})"
    )

    def each(r: Any) -> str:
        (_, seat, _, opp, seed), outcome, level, _, wall, score = r
        return f"{seat} against {opp}, seed {seed}: {outcome}, {level}, score {score:+}, {wall:.0f} s"

    results = play_all(play, jobs, args.jobs, each)
    tally: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    levels: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    walls: dict[tuple[str, str], float] = defaultdict(float)
    phases: list[list[float]] = []
    for (_, seat, _, opp, _), outcome, level, spent, wall, _ in results:
        tally[(opp, seat)][outcome] += 1
        levels[(opp, seat)][level] += 1
        walls[(opp, seat)] += wall
        phases.extend(spent)
    print("\n| opponent | seat | games | wins | draws | losses | win rate | 95% interval | levels | s/game |")
    print("|---|---|---:|---:|---:|---:|---:|---|---|---:|")
    for opp in opponents:
        for seat in seats:
            n = sum(tally[(opp, seat)].values())
            print(
                f"| {opp} | {seat} | {outcome_cells(tally[(opp, seat)], levels[(opp, seat)])} | "
                f"{walls[(opp, seat)] / n:.1f} |"
            )
    print(f"\n{args.player}'s thinking per operation phase, wall: {spread([w for w, _ in phases])}")
    print(f"{args.player}'s thinking per operation phase, CPU: {spread([c for _, c in phases])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
