"""Where the Confederate seat's points go in Battle of Antietam against a Union player: the computer general's
losses in victory points (§IA10.1: a man 1, a trooper 3, a gun 150) by the combat step that caused them (the
Union's artillery fire, its infantry fire, the melees of either side's combat phase, and the units eliminated in
a rout whose retreat is cut off, §B3.6), Hampton's brigade apart; each rout elimination's turn, square, Union-held
neighbouring squares and distance to the nearest Confederate unit; the victory squares the Union holds at the end
and the turns their holder changed (AMB-18).

    nice -n 10 python scripts/antietam_losses.py --games 20 --jobs 1
    python scripts/antietam_losses.py --seed 41 --games 40 --tune confederate.retake_reach=10 --pair base.txt
    python scripts/antietam_losses.py --games 40 --tune escape_squares=5 --json variant.jsonl

``--tune key=value`` changes the Confederate general's tuning for a trial (``section.key`` for data/general.toml's
sections, a bare key for the level's table), without touching the file. ``--pair FILE`` compares each game's
score (Union points - Confederate points) with FILE's lines ``seed score ...`` (a base's run, e.g. the strength
script's per-game lines reduced to seed and score): the mean difference with its standard error and the wins
of each. The games are the strength script's (``confederate=general`` against the opponent, same seeds).
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from grognard.ai.base import parse_players
from grognard.ai.driver import play_out
from grognard.ai.strength import play_all, series_parser
from grognard.engine.game import new_game
from grognard.rulesets.antietam import Antietam, combat, victory
from grognard.rulesets.antietam.ctx import Ctx

Job = tuple[str, str, str, int, tuple[str, ...]]  # scenario, player, opponent, seed, tuning changes
CUT_OFF = "§B3.6"  # the eliminations of combat.retreat name the rule

# the game being played in this process: the step under way and what has been booked
_now: dict[str, Any] = {"cause": "other", "rest": 0}
_book: dict[str, Any] = {}


def _points(ctx: Ctx, i: int, n: int) -> int:
    """§IA10.1 the victory points of ``n`` men, troopers or guns of unit ``i`` (rules.toml)."""
    p = ctx.rules["victory"]["points"]
    kind = ctx.board.specs[i].type
    return int(n * p["gun" if kind == "artillery" else "cavalryman" if kind == "cavalry" else "infantryman"])


def _book_loss(ctx: Ctx, i: int, cause: str, n: int) -> None:
    spec = ctx.board.specs[i]
    if spec.side != "confederate" or n <= 0:
        return
    pts = _points(ctx, i, n)
    _book["cause"][cause] += pts
    _book["arm"][f"{cause}: {spec.type}"] += pts
    if spec.brigade == "Hampton":
        _book["hampton"][cause] += pts


def _during(cause: Callable[..., str], step: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(*args: Any) -> Any:
        _now["cause"] = cause(*args)
        try:
            return step(*args)
        finally:
            _now["cause"] = "other"

    return wrapped


def _losses(take: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(ctx: Ctx, state: Any, i: int, casualties: int, guns_lost: bool, step: Any) -> Any:
        before = state.units[i].strength
        _now["rest"] = 0
        out = take(ctx, state, i, casualties, guns_lost, step)
        after = out.units[i]
        # a unit the losses eliminated: what a rout's elimination took is booked there
        lost = before - (_now["rest"] if after.cell < 0 else after.strength)
        _book_loss(ctx, i, _now["cause"], lost)
        return out

    return wrapped


def _eliminations(eliminate: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(ctx: Ctx, state: Any, i: int, step: Any, how: str) -> Any:
        u = state.units[i]
        board = ctx.board
        _now["rest"] = u.strength
        if board.specs[i].side == "confederate" and CUT_OFF in how:
            occ = ctx.occupants(state)
            around = board.neighbors[u.cell]
            friends = [
                int(board.dist[u.cell, v.cell])
                for j, v in enumerate(state.units)
                if j != i and board.sides[j] == "confederate" and v.cell >= 0
            ]
            _book["routs"].append(
                {
                    "turn": state.turn,
                    "unit": board.specs[i].name,
                    "type": board.specs[i].type,
                    "points": _points(ctx, i, u.strength),
                    "square": board.label(u.cell),
                    "union_neighbours": sum(any(board.sides[j] == "union" for j in occ.get(c, ())) for c in around),
                    "neighbours": len(around),
                    "nearest_friend": min(friends, default=99),
                    "during": _now["cause"],
                }
            )
            _book_loss(ctx, i, "eliminated in a rout", u.strength)
        return eliminate(ctx, state, i, step, how)

    return wrapped


# the combat steps wrapped (combat.py calls them by the module's names)
combat.fire_step = _during(
    lambda _c, _s, side, art, *_: f"{side} {'artillery' if art else 'infantry'} fire", combat.fire_step
)
combat.melee_phase = _during(lambda _c, _s, phasing, *_: f"melee, {phasing} combat phase", combat.melee_phase)
combat.take_losses = _losses(combat.take_losses)
combat.eliminate = _eliminations(combat.eliminate)


def _tuned(player: Any, changes: tuple[str, ...]) -> None:
    """The general's tuning with ``key=value`` changes, as new tables (the file's are shared)."""
    cfg, lv = dict(player.cfg), dict(player.lv)
    for change in changes:
        key, _, text = change.partition("=")
        value: Any = json.loads(text) if text not in ("true", "false") else text == "true"
        if "." in key:
            section, _, name = key.partition(".")
            cfg[section] = {**cfg[section], name: value}
        else:
            lv[key] = value
    player.cfg, player.lv = cfg, lv


def play(job: Job) -> dict[str, Any]:
    scenario, player, opponent, seed, changes = job
    _book.clear()
    _book.update(cause=Counter(), arm=Counter(), hampton=Counter(), routs=[], holders=[])
    game = new_game(Antietam, scenario, None, seed)
    players = parse_players(f"confederate={player},union={opponent}", Antietam, Antietam.seats, seed)
    if changes:
        _tuned(players["confederate"], changes)
    ctx = game.rules.ctx
    labels = [ctx.board.label(c) for c, _, _ in ctx.board.victory]
    seen: list[tuple[str, ...]] = [game.state.holders]

    def holders(g: Any) -> None:
        now = g.state.holders
        if now != seen[0]:
            for k, (was, who) in enumerate(zip(seen[0], now, strict=True)):
                if was != who:
                    _book["holders"].append((labels[k], g.state.turn, who))
            seen[0] = now

    play_out(game, players, progress=holders)
    result = game.result()
    assert result is not None
    scores = dict(result.scores)
    held = {ctx.board.label(c): p for c, p in victory.square_points(ctx, game.state) if p}
    return {
        "seed": seed,
        "score": int(scores["union"] - scores["confederate"]),
        "level": result.levels["confederate"],
        "cause": dict(_book["cause"]),
        "arm": dict(_book["arm"]),
        "hampton": dict(_book["hampton"]),
        "routs": _book["routs"],
        "squares": held,
        "holders": _book["holders"],
    }


def summary(games: list[dict[str, Any]]) -> list[str]:
    n = len(games)
    out = [f"{n} games, mean score {sum(g['score'] for g in games) / n:+,.0f} (Union points - Confederate points)"]

    def per_game(counts: Counter[str]) -> str:
        return ", ".join(f"{k} {v / n:,.0f}" for k, v in counts.most_common())

    out.append(
        "Confederate points lost a game, by cause: " + per_game(sum((Counter(g["cause"]) for g in games), Counter()))
    )
    out.append("... by cause and arm: " + per_game(sum((Counter(g["arm"]) for g in games), Counter())))
    hampton = [sum(g["hampton"].values()) for g in games]
    out.append(
        f"Hampton's brigade: {sum(hampton) / n:,.0f} points a game; lost whole (5,000 or more) in "
        f"{sum(h >= 5000 for h in hampton)} of {n}"
    )
    routs = [r for g in games for r in g["routs"]]
    out.append(
        f"rout eliminations (§B3.6): {len(routs) / n:.1f} a game; Union-held neighbouring squares: "
        f"{sorted(Counter(r['union_neighbours'] for r in routs).items())}; nearest Confederate unit (squares): "
        f"{sorted(Counter(min(r['nearest_friend'], 5) for r in routs).items())} (5: 5 or more)"
    )
    squares = Counter(k for g in games for k in g["squares"])
    out.append(
        f"victory squares the Union holds at the end (games): {', '.join(f'{k} {v}' for k, v in squares.most_common())}"
    )
    fell = Counter((sq, turn) for g in games for sq, turn, who in g["holders"] if who == "union")
    out.append(
        "taken by the Union (square, turn: games): " + ", ".join(f"{s} t{t}: {v}" for (s, t), v in sorted(fell.items()))
    )
    return out


def paired(games: list[dict[str, Any]], path: Path) -> str:
    """The mean score difference against a base's scores (``seed score ...`` lines), one standard error."""
    base: dict[int, tuple[int, bool]] = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].isdigit():
            base[int(parts[0])] = (int(parts[1]), " ".join(parts[2:]).startswith("Confederate"))
    both = [g for g in games if g["seed"] in base]
    if len(both) < 2:
        return f"fewer than two of the games' seeds are in {path}"
    d = [g["score"] - base[g["seed"]][0] for g in both]
    mean = sum(d) / len(d)
    se = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1) / len(d))
    wins = sum(g["level"].startswith("Confederate") for g in both)
    return (
        f"against {path} on {len(both)} seeds: mean difference {mean:+,.0f} ± {se:,.0f} (negative: better for the "
        f"Confederate), wins {wins} / {sum(base[g['seed']][1] for g in both)}, {sum(x != 0 for x in d)} games changed"
    )


def main(argv: list[str] | None = None) -> int:
    parser = series_parser(__doc__, "1_full_battle")
    parser.set_defaults(opponents="greedy")
    parser.add_argument("--tune", action="append", default=[], help="key=value or section.key=value (repeatable)")
    parser.add_argument("--json", type=Path, help="write each game's record to this file, a JSON line each")
    parser.add_argument("--pair", type=Path, help="a base's 'seed score ...' lines to compare the scores with")
    args = parser.parse_args(argv)
    jobs: list[Job] = [
        (args.scenario, args.player, args.opponents.split(",")[0], args.seed + i, tuple(args.tune))
        for i in range(args.games)
    ]
    games = play_all(play, jobs, args.jobs, lambda g: f"seed {g['seed']}: {g['level']}, score {g['score']:+}")
    if args.json:
        args.json.write_text("".join(json.dumps(g) + "\n" for g in games))
    for g in games:
        print(g["seed"], f"{g['score']:+}", g["level"])
    print("\n".join(summary(games)))
    if args.pair:
        print(paired(games, args.pair))
    return 0


if __name__ == "__main__":
    sys.exit(main())
