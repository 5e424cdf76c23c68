"""Battle of Antietam played against history (issue 13 "History as a check"): the computer general on both sides
at level 3 (§IA2.1 #1, the historical level), ``--games`` games per scenario with fixed seeds, and per scenario the
distribution of each side's casualties, who holds each victory square at the end, the score and the victory
levels (§IA10.2), beside the historical figures.

    nice -n 5 python scripts/antietam_history.py --games 10 --jobs 1
    python scripts/antietam_history.py --games 1 --scenarios 5_ix_corps --json > ix.json
    python scripts/antietam_history.py --report ix.json full.json    # runs made apart, reported together
    nice -n 10 python scripts/antietam_history.py --games 50 --games-out g.jsonl  # each game kept as it ends
    python scripts/antietam_history.py --from-games g.jsonl          # the report of the games a cut-off run kept

Game ``i`` of a scenario has seed ``--seed + i`` (the players' own seeds derive from it), so a run is repeatable;
the games are played seed by seed across the scenarios, so a run stopped early has about as many games of each.
Casualties are the whole day's: a scenario starting later counts the losses its set-up takes as already suffered
(``scenario.py`` ``strength``), so every scenario compares with the day's totals.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from grognard.ai.base import parse_players
from grognard.ai.driver import play_out
from grognard.engine.game import new_game
from grognard.rulesets.antietam import Antietam
from grognard.rulesets.antietam.victory import LEVEL_NAMES, square_points

SCENARIOS = ("1_full_battle", "2_hooker", "3_xii_corps", "4_ii_corps", "5_ix_corps")
HOLDS = ("union", "union_half", "confederate")  # §IA10.1: full points, half (in the Confederate ZOC), none

# History, from shared/reference/antietam-battlefield.md "(d) History for calibration" (Official Records via NPS
# and HistoryNet; the ground at nightfall; the game's points applied to history).
HISTORY: dict[str, Any] = {
    "casualties": {"union": 12_400, "confederate": 10_320},
    # nightfall: the Union held the Burnside Bridge and the bluff west of it and had entered the three squares
    # east of the creek; the Confederates kept the church, the Piper farm line, Sharpsburg and the ridge south of it
    "squares": {
        "17,2": "union",
        "18,9": "union",
        "21,14": "union",
        "25,3": "union",
        "31,18": "confederate",
        "28,11": "confederate",
        "32,7": "confederate",
        "33,1": "confederate",
    },
    "score": 1_900,  # Union ≈ 10,300 + 1,000 + 3,000, Confederate ≈ 12,400 (advanced game's leader points: +1,200)
    "level": "draw",
}

Job = tuple[str, int, str, str]  # scenario, seed, game (basic / intermediate / advanced), players


def play(job: Job) -> dict[str, Any]:
    """One game to its end: casualties, squares, score and level."""
    scenario, seed, complexity, spec = job
    start = time.perf_counter()
    game = new_game(Antietam, scenario, {"level": 3, "game": complexity}, seed)
    play_out(game, parse_players(spec, Antietam, Antietam.seats, seed))
    rules = game.rules
    assert isinstance(rules, Antietam)
    state, ctx = game.state, rules.ctx
    result = game.result()
    assert result is not None
    board = ctx.board
    squares = {}
    for (cell, got), (_, full, _) in zip(square_points(ctx, state), board.victory, strict=True):
        squares[board.label(cell)] = "union" if got == full else "union_half" if got else "confederate"
    level = next(k for k, words in LEVEL_NAMES.items() if words == result.levels["union"])
    losses = state.losses
    return {
        "scenario": scenario,
        "seed": seed,
        "casualties": {"union": losses[0] + losses[1], "confederate": losses[3] + losses[4]},
        "guns": {"union": losses[2], "confederate": losses[5]},
        "squares": squares,
        "score": state.score[0] - state.score[1],
        "level": level,
        "seconds": round(time.perf_counter() - start, 1),
    }


def quartiles(xs: Sequence[int]) -> dict[str, float]:
    """Min, lower quartile, median, upper quartile and max (the quartiles by the inclusive method)."""
    s = sorted(xs)
    q = statistics.quantiles(s, n=4, method="inclusive") if len(s) > 1 else [s[0]] * 3
    return {"min": s[0], "q1": q[0], "median": q[1], "q3": q[2], "max": s[-1]}


def summarise(games: list[dict[str, Any]]) -> dict[str, Any]:
    """One scenario's games as distributions."""
    squares: dict[str, dict[str, int]] = {}
    for g in games:
        for label, holder in g["squares"].items():
            squares.setdefault(label, dict.fromkeys(HOLDS, 0))[holder] += 1
    levels = Counter(g["level"] for g in games)
    return {
        "games": len(games),
        "seeds": [g["seed"] for g in games],
        "casualties": {s: quartiles([g["casualties"][s] for g in games]) for s in ("union", "confederate")},
        "guns": {s: quartiles([g["guns"][s] for g in games]) for s in ("union", "confederate")},
        "squares": squares,
        "score": quartiles([g["score"] for g in games]),
        "levels": {k: levels[k] for k in LEVEL_NAMES if levels[k]},
        "seconds": quartiles([g["seconds"] for g in games]),
    }


def spread_text(q: dict[str, float]) -> str:
    return f"{q['median']:,.0f} ({q['q1']:,.0f}-{q['q3']:,.0f}; {q['min']:,.0f}-{q['max']:,.0f})"


def report(summary: dict[str, dict[str, Any]], place_names: dict[str, str]) -> str:
    """The report as Markdown tables: per scenario the figures, and who holds each square beside history."""
    h = HISTORY
    lines = [
        "Medians with quartiles and the range in brackets; casualties are men (infantry and cavalry) for the day.",
        "",
        "| scenario | games | Union casualties | Confederate casualties | Union guns lost | Confederate guns lost "
        "| score | levels |",
        "|---|---:|---|---|---|---|---|---|",
    ]
    for name, s in summary.items():
        levels = ", ".join(f"{LEVEL_NAMES[k]} {n}" for k, n in s["levels"].items())
        lines.append(
            f"| {name} | {s['games']} | {spread_text(s['casualties']['union'])} | "
            f"{spread_text(s['casualties']['confederate'])} | {spread_text(s['guns']['union'])} | "
            f"{spread_text(s['guns']['confederate'])} | {spread_text(s['score'])} | {levels} |"
        )
    lines.append(
        f"| history | | {h['casualties']['union']:,} | {h['casualties']['confederate']:,} | | | "
        f"≈ +{h['score']:,} | {LEVEL_NAMES[h['level']]} |"
    )
    lines += [
        "",
        "Victory squares at the end: games the Union held free / held in the Confederate ZOC (half) / did not hold.",
        "",
    ]
    lines.append("| square | place | history | " + " | ".join(summary) + " |")
    lines.append("|---|---|---|" + "---|" * len(summary))
    for label, holder in h["squares"].items():
        cells = []
        for s in summary.values():
            c = s["squares"].get(label, {})
            cells.append(" / ".join(str(c.get(k, 0)) for k in HOLDS))
        lines.append(f"| {label} | {place_names.get(label, '')} | {holder} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def place_names() -> dict[str, str]:
    """The victory squares' names by their x,y (the map's places)."""
    board = Antietam(Antietam.load_scenario(SCENARIOS[0])).ctx.board
    return {board.label(p.cells[0]): p.name for p in board.map.places if p.kind == "victory"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10, help="games per scenario")
    parser.add_argument("--seed", type=int, default=1, help="seed of each scenario's first game (default 1)")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated (default: all five)")
    parser.add_argument("--game", default="basic", choices=("basic", "intermediate", "advanced"))
    parser.add_argument("--players", default="general,general", help="Union,Confederate (default: the general)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--report", nargs="+", metavar="FILE", help="print the report of earlier --json runs")
    parser.add_argument("--games-out", metavar="FILE", help="append each game to FILE (JSON lines) as it ends")
    parser.add_argument("--from-games", nargs="+", metavar="FILE", help="print the report of --games-out files")
    args = parser.parse_args(argv)
    if args.from_games:  # a long run's games, however far it got
        kept = [json.loads(line) for f in args.from_games for line in Path(f).read_text().splitlines() if line]
        names = [sc for sc in SCENARIOS if any(g["scenario"] == sc for g in kept)]
        print(report({sc: summarise([g for g in kept if g["scenario"] == sc]) for sc in names}, place_names()))
        return 0
    if args.report:  # runs made one scenario at a time, reported together
        runs = [json.loads(Path(f).read_text()) for f in args.report]
        merged = {name: s for run in runs for name, s in run["summary"].items()}
        print(report(merged, place_names()))
        return 0
    scenarios = [s for s in args.scenarios.split(",") if s]
    jobs: list[Job] = [(sc, args.seed + i, args.game, args.players) for i in range(args.games) for sc in scenarios]
    t0 = time.perf_counter()
    games: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for g in pool.map(play, jobs, chunksize=1):
            games.append(g)
            if args.games_out:
                with open(args.games_out, "a") as sink:
                    sink.write(json.dumps(g) + "\n")
            print(f"  {len(games)}/{len(jobs)} games ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    summary = {sc: summarise([g for g in games if g["scenario"] == sc]) for sc in scenarios}
    if args.json:
        out = {
            "level": 3,
            "game": args.game,
            "players": args.players,
            "summary": summary,
            "history": HISTORY,
            "seconds": round(time.perf_counter() - t0, 1),
        }
        print(json.dumps(out, indent=1))
        return 0
    print(
        f"Antietam at level 3, {args.game} game, {args.players} (Union,Confederate): {args.games} games a scenario, "
        f"seeds {args.seed}..{args.seed + args.games - 1}, {time.perf_counter() - t0:.0f} s\n"
    )
    print(report(summary, place_names()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
