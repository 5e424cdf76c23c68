"""Win rates of Objective Kursk's computer general against other players, per seat, judged by the manual's victory
levels (§11.2: a win is a marginal, substantive or decisive victory of the player's side; a draw is not a win),
with Wilson 95% confidence intervals, the distribution of victory levels, the turn the game ended on (the German
may end it at any time, §3.5), and the general's thinking time for all of its side's orders in a turn.

    nice -n 5 python scripts/kursk_strength.py --opponents random,greedy --games 100 --jobs 1
    nice -n 5 python scripts/kursk_strength.py --seats soviet --opponents patient --games 25
    python scripts/kursk_strength.py --player general:hard --opponents greedy --games 20 --level 2

The random German ends the game when it draws ``end_game`` (§3.5), usually on the first turn, leaving the start
position's Soviet Substantive victory: the opponent ``patient`` is the random player that never ends the game, to
see the Soviet general in a whole game. Each seat is played ``--games`` times against each opponent with seeds
``--seed`` .. ``--seed + games - 1`` (the players' own seeds derive from the game's), so a run is repeatable.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Hashable

from grognard.ai.base import Player, RandomPlayer, parse_players, seat_seed
from grognard.ai.driver import play_out
from grognard.ai.observation import Observation
from grognard.ai.strength import Timed, outcome_cells, outcome_of, play_all, series_parser, spread
from grognard.engine import Decision
from grognard.engine.game import new_game
from grognard.rulesets.kursk import Kursk
from grognard.rulesets.kursk.decisions import EndGame, EndPhase

SEATS = ("german", "soviet")
Job = tuple[str, int, str, str, str, int]  # scenario, solitaire level, seat, player, opponent, seed


class Patient(RandomPlayer):
    """Random play that never ends the game (§3.5): it ends the phase instead."""

    def choose(self, ctx: Observation) -> Decision:
        d = super().choose(ctx)
        return EndPhase() if isinstance(d, EndGame) else d


def play(job: Job) -> tuple[Job, str, str, int, list[list[float]], float]:
    """One game: the player's outcome, the victory level, the last turn played, its [wall, CPU] seconds per turn
    (all of its side's orders in the turn), and the game's wall time."""
    scenario, level, seat, player, opponent, seed = job
    start = time.perf_counter()
    game = new_game(Kursk, scenario, {"level": level}, seed)
    other = "soviet" if seat == "german" else "german"
    spec = f"{seat}={player},{other}={'random' if opponent == 'patient' else opponent}"
    players: dict[str, Player] = parse_players(spec, Kursk, Kursk.seats, seed)
    if opponent == "patient":
        players[other] = Patient(seat_seed(seed, other))
    spent: dict[Hashable, list[float]] = {}
    players[seat] = Timed(players[seat], lambda: game.state.turn, spent)
    play_out(game, players)
    result = game.result()
    assert result is not None
    outcome = outcome_of(result, seat)
    return job, outcome, result.levels[seat], game.state.turn, list(spent.values()), time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = series_parser(__doc__, "southern_pincer")
    parser.add_argument("--level", type=int, default=3, help="the solitaire level (§12), 3 historical")
    parser.add_argument("--seats", default=",".join(SEATS))
    args = parser.parse_args(argv)
    opponents = [o for o in args.opponents.split(",") if o]
    seats = [s for s in args.seats.split(",") if s]
    jobs: list[Job] = [
        (args.scenario, args.level, seat, args.player, opp, args.seed + i)
        for opp in opponents
        for seat in seats
        for i in range(args.games)
    ]
    print(
        f"{args.player} against {', '.join(opponents)} in {args.scenario} at level {args.level}: {args.games} games "
        f"per seat and opponent (seeds {args.seed}..{args.seed + args.games - 1})"
    )
    t0 = time.perf_counter()
    results = play_all(play, jobs, args.jobs)
    tally: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    levels: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    ends: dict[tuple[str, str], list[int]] = defaultdict(list)
    walls: dict[tuple[str, str], float] = defaultdict(float)
    turns: list[list[float]] = []
    for (_, _, seat, _, opp, _), outcome, level, last, spent, wall in results:
        tally[(opp, seat)][outcome] += 1
        levels[(opp, seat)][level] += 1
        ends[(opp, seat)].append(last)
        walls[(opp, seat)] += wall
        turns.extend(spent)
    print(
        "\n| opponent | seat | games | wins | draws | losses | win rate | 95% interval | levels | end turn | s/game |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|---|---:|---:|")
    for opp in opponents:
        for seat in seats:
            n = len(ends[(opp, seat)])
            print(
                f"| {opp} | {seat} | {outcome_cells(tally[(opp, seat)], levels[(opp, seat)])} | "
                f"{statistics.median(ends[(opp, seat)]):g} | {walls[(opp, seat)] / n:.1f} |"
            )
    print(f"\n{args.player}'s orders per turn, wall: {spread([w for w, _ in turns])}")
    print(f"{args.player}'s orders per turn, CPU: {spread([c for _, c in turns])}")
    print(f"{len(results)} games in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
