"""The Perfect General's "done when" checks (issue 3), measured through the command line itself.

1. ``grognard simulate perfect_general SCENARIO --seed N --json --players general,general`` on every bundled
   scenario: it must reach the scenario's last turn with a result, in under two minutes of wall time.
2. ``--match`` with two generals: both halves played, sides swapped, a combined result.
3. ``--players random,random`` on the largest scenario, several seeds: under 2 s a game.

Prints a Markdown table of each check for docs/rules/perfect-general-scenarios.md. Each game runs in its own
process (the command as a user types it); the wall time and the CPU time (user + system) are measured around
that process, start-up included; for random play the game's own ``seconds`` (play only, wall clock) is the
figure checked, with the process's CPU time beside it, steadier on a shared machine.

    python scripts/pg_done_checks.py                 # everything, seed 1
    python scripts/pg_done_checks.py --seed 2 --only generals
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

from grognard.rulesets.perfect_general import PerfectGeneral

LIMIT_GENERALS = 120.0  # seconds a game, wall time
LIMIT_RANDOM = 2.0


def simulate(scenario: str, seed: int, players: str, match: bool = False) -> tuple[dict[str, Any], float, float]:
    """Run the command; returns its JSON, its wall time and its CPU time (user + system, with start-up)."""
    cmd = ["grognard", "simulate", "perfect_general", scenario, "--seed", str(seed), "--json", "--players", players]
    if match:
        cmd.append("--match")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return json.loads(done.stdout), wall, cpu


def finished(out: dict[str, Any], turns: int) -> bool:
    return out.get("result") is not None and out.get("turns") == turns


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=("generals", "match", "random"), default=None)
    ap.add_argument("--match-scenarios", default="simple_little_war,lauter_offensive")
    ap.add_argument("--random-seeds", default="1,2,3,4,5,6,7,8,9,10")
    args = ap.parse_args(argv)
    ids = PerfectGeneral.scenario_ids()
    turns = {s: PerfectGeneral.load_scenario(s).turns for s in ids}
    ok = True

    if args.only in (None, "generals"):
        print(f"\n### Every scenario, two generals, seed {args.seed}\n")
        print("| scenario | turns | decisions | result | wall s | CPU s | under 2 min |")
        print("|---|---:|---:|---|---:|---:|---|")
        for s in ids:
            out, wall, cpu = simulate(s, args.seed, "general,general")
            good = finished(out, turns[s]) and wall < LIMIT_GENERALS
            ok &= good
            res = out["result"]
            score = f"{res['scores']['attacker']}-{res['scores']['defender']} {res['winner'] or 'draw'}"
            print(
                f"| `{s}` | {out['turns']}/{turns[s]} | {out['decisions']} | {score} | {wall:.1f} | "
                f"{cpu:.1f} | {'yes' if good else '**no**'} |",
                flush=True,
            )

    if args.only in (None, "match"):
        print(f"\n### The match game, two generals, seed {args.seed}\n")
        print("| scenario | game 1 (player 1 attacks) | game 2 (player 1 defends) | combined | wall s | CPU s |")
        print("|---|---|---|---|---:|---:|")
        for s in args.match_scenarios.split(","):
            out, wall, cpu = simulate(s, args.seed, "general,general", match=True)
            games = out["games"]
            good = (
                out.get("match") is True
                and len(games) == 2
                and [g["player1_side"] for g in games] == ["attacker", "defender"]
                and all(finished(g, turns[s]) for g in games)
                and out["result"]["scores"]["player1"] == sum(g["result"]["scores"][g["player1_side"]] for g in games)
            )
            ok &= good
            halves = [
                f"{g['result']['scores']['attacker']}-{g['result']['scores']['defender']} ({g['turns']} turns)"
                for g in games
            ]
            combined = out["result"]["summary"]
            verdict = "" if good else " **wrong**"
            print(f"| `{s}` | {halves[0]} | {halves[1]} | {combined}{verdict} | {wall:.1f} | {cpu:.1f} |")

    if args.only in (None, "random"):
        largest = max(ids, key=lambda s: PerfectGeneral.load_scenario(s).map.grid.size)
        print(f"\n### Random against random on the largest scenario (`{largest}`)\n")
        print("| seed | turns | decisions | play s (wall) | process CPU s (with start-up) | play under 2 s |")
        print("|---:|---:|---:|---:|---:|---|")
        for seed in (int(x) for x in args.random_seeds.split(",")):
            out, _wall, cpu = simulate(largest, seed, "random,random")
            good = finished(out, turns[largest]) and out["seconds"] < LIMIT_RANDOM
            ok &= good
            print(
                f"| {seed} | {out['turns']} | {out['decisions']} | {out['seconds']:.2f} | {cpu:.2f} | "
                f"{'yes' if good else '**no**'} |",
                flush=True,
            )
    print("\nall checks passed" if ok else "\nSOME CHECKS FAILED", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
