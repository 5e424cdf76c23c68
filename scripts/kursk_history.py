"""Objective Kursk against history (issue 14, "History as a check"): the computer general on both sides at a level
(3 is §12's "historical" level), N games with fixed seeds, reporting the furthest German advance (the
northernmost row a German group stood on, and whether and when Oboyan or Prokhorovka fell), the losses of each side
in tanks (AFV, §8.1: DS > 3) and men (INF and ENGR squads, ten men each, §4.2), and §11.2's victory level, each
figure beside history (shared/reference/objective-kursk-battlefield.md, "What happened").

    python scripts/kursk_history.py --games 50 --jobs 2
    python scripts/kursk_history.py --games 1 --scenario first_day --json

Game i is played with seed ``--seed + i``; the players' own seeds derive from the game's, so a run is repeatable.
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
from typing import Any

from grognard.ai.base import parse_players
from grognard.ai.driver import play_out
from grognard.engine.game import Game, new_game
from grognard.rulesets.kursk import Kursk
from grognard.rulesets.kursk.state import KState
from grognard.rulesets.kursk.victory import points

SIDES = ("german", "soviet")
GOALS = ("Oboyan", "Prokhorovka")

# What happened (reference "What happened, for calibration" [S, M, W]; the Voronezh Front's tank losses as the
# docs give them). Each figure of the report is printed beside these.
HISTORY = {
    "furthest_row": "rows 19-22 by turn 14-16 (the Psel and Prokhorovka's approaches; Oboyan is row 16)",
    "Oboyan": "never taken (the spearhead stopped ~20 km short)",
    "Prokhorovka": "never taken (fought for on 12 July, turn 15)",
    "german_afv": "a few hundred written off (323 tanks and assault guns for both pincers)",
    "soviet_afv": "about 1,200-1,600 (Voronezh Front)",
    "german_men": "about 29,000 (Army Group South, 5-16 July)",
    "soviet_men": "about 74,000 (Voronezh Front)",
    "level": "near the Draw band (the reference's inference: Germans deep in the belts, no town but Belgorod)",
}


def strength(ctx: Any, state: KState) -> dict[str, dict[str, int]]:
    """Each side's surviving AFVs (§8.1 DS > 3) and men (§4.2: INF and ENGR squads of ten), groups still to arrive
    included (they are in the order of battle from the start)."""
    men = int(ctx.tables["sequence"]["groups"]["squad_men"])
    out = {s: {"afv": 0, "men": 0} for s in SIDES}
    for g in state.groups:
        if not g.alive:
            continue
        for name, n in g.counts().items():
            w = ctx.tables.weapons[name]
            if w.afv:
                out[g.side]["afv"] += n
            elif w.column == "infantry":
                out[g.side]["men"] += n * men
    return out


class Watch:
    """Follows a game decision by decision: the northernmost German row and when each goal town fell."""

    def __init__(self, game: Game) -> None:
        self.rules: Kursk = game.rules  # type: ignore[assignment]
        self.grid = self.rules.ctx.grid
        self.row = self.grid.rows
        self.row_turn = 0
        self.cell = -1
        self.taken: dict[str, int] = {}
        self.see(game)

    def see(self, game: Game) -> None:
        state: KState = game.state
        for g in state.side_groups("german"):
            _, row = self.grid.coord(g.cell)
            if row < self.row:
                self.row, self.row_turn, self.cell = row, state.turn, g.cell
        for town, side in state.control:
            if town in GOALS and side == "german" and town not in self.taken:
                self.taken[town] = state.turn


def play(job: tuple[str, int, int, str]) -> dict[str, Any]:
    """One game general against general: its figures."""
    scenario, level, seed, player = job
    start = time.perf_counter()
    game = new_game(Kursk, scenario, {"level": level}, seed)
    ctx = game.rules.ctx  # type: ignore[attr-defined]
    before = strength(ctx, game.state)
    vp0 = points(ctx, game.state)
    watch = Watch(game)
    players = parse_players(player, Kursk, Kursk.seats, seed)
    play_out(game, players, progress=watch.see)
    state: KState = game.state
    after = strength(ctx, state)
    result = game.result()
    assert result is not None
    return {
        "seed": seed,
        "turns": state.turn,
        "ended_by": state.ended_by or "last turn",
        "furthest_row": watch.row,
        "furthest_hex": ctx.label(watch.cell) if watch.cell >= 0 else "",
        "furthest_turn": watch.row_turn,
        "taken": {t: watch.taken.get(t) for t in GOALS},
        "losses": {s: {k: before[s][k] - after[s][k] for k in ("afv", "men")} for s in SIDES},
        "start": {s: before[s] for s in SIDES},
        "start_difference": vp0["soviet"] - vp0["german"],
        "difference": result.scores["soviet"] - result.scores["german"],
        "level": result.levels["german"],
        "seconds": round(time.perf_counter() - start, 1),
    }


def spread(values: Sequence[float]) -> str:
    """min / median / max of a figure over the games."""
    if not values:
        return "-"
    return f"{min(values):,.0f} / {statistics.median(values):,.0f} / {max(values):,.0f}"


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The distribution of each figure over the games, beside history."""
    n = len(games)
    rows = Counter(g["furthest_row"] for g in games)
    out: dict[str, Any] = {
        "games": n,
        "furthest_row": {"min/median/max": spread([g["furthest_row"] for g in games]), "counts": dict(rows)},
        "furthest_turn": spread([g["furthest_turn"] for g in games]),
        "levels": dict(Counter(g["level"] for g in games).most_common()),
        "difference": spread([g["difference"] for g in games]),
        "start_difference": spread([g["start_difference"] for g in games]),
        "history": HISTORY,
    }
    for town in GOALS:
        turns = [g["taken"][town] for g in games if g["taken"][town] is not None]
        out[town] = {"taken": len(turns), "turns": spread(turns)}
    for side in SIDES:
        for k in ("afv", "men"):
            out[f"{side}_{k}"] = spread([g["losses"][side][k] for g in games])
    return out


def table(s: dict[str, Any]) -> str:
    """The report as a Markdown table: figure, game (min / median / max over the games), history."""
    lines = [
        f"{s['games']} games; min / median / max over the games",
        "",
        "| figure | game | history |",
        "|---|---|---|",
        f"| furthest German row (north is 0) | {s['furthest_row']['min/median/max']} "
        f"(reached on turn {s['furthest_turn']}) | {HISTORY['furthest_row']} |",
    ]
    for town in GOALS:
        t = s[town]
        when = f", on turn {t['turns']}" if t["taken"] else ""
        lines.append(f"| {town} taken | {t['taken']} of {s['games']}{when} | {HISTORY[town]} |")
    for side in SIDES:
        lines.append(f"| {side} AFV lost | {s[f'{side}_afv']} | {HISTORY[f'{side}_afv']} |")
        lines.append(f"| {side} men lost | {s[f'{side}_men']} | {HISTORY[f'{side}_men']} |")
    levels = ", ".join(f"{k} {v}" for k, v in s["levels"].items())
    lines.append(f"| victory level (§11.2) | {levels} | {HISTORY['level']} |")
    lines.append(f"| Soviet - German VPs at the end | {s['difference']} | |")
    lines.append(f"| Soviet - German VPs at the start | {s['start_difference']} | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    parser.add_argument("--scenario", default="southern_pincer")
    parser.add_argument("--level", type=int, default=3, help="§12 level (3 is historical)")
    parser.add_argument("--players", default="general", help="player spec for both seats (default: general)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--json", action="store_true", help="print every game and the summary as JSON")
    args = parser.parse_args(argv)
    jobs = [(args.scenario, args.level, args.seed + i, args.players) for i in range(args.games)]
    t0 = time.perf_counter()
    games: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for g in pool.map(play, jobs, chunksize=1):
            games.append(g)
            print(f"  game {len(games)}/{len(jobs)} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    s = summary(games)
    s["seconds"] = round(time.perf_counter() - t0, 1)
    if args.json:
        print(json.dumps({"games": games, "summary": s}, indent=1))
    else:
        print(
            f"{args.scenario}, level {args.level}, {args.players} on both sides, seeds "
            f"{args.seed}..{args.seed + args.games - 1}, {s['seconds']} s"
        )
        print(table(s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
