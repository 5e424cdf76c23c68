"""The benchmarks of the real thing (issue 17), each figure printed beside its target.

Run from a clone with the bench extra installed (``pip install -e '.[bench]'``):

    python benchmarks/run_all.py               # everything: about 15 minutes on a shared 2-core machine
    python benchmarks/run_all.py --quick       # everything small, well under a minute: checks it works
    python benchmarks/run_all.py --only 1,3 --profile     # some parts, with cProfile's top five

Parts: (1) whole random games of the largest scenario of every game against OpenSpiel's pure-Python
tic-tac-toe (``real_games.py``); (2) a real state update against a NumPy copy and (3) a search step on real
mid-game positions (``real_state.py``); (4) the server with concurrent games played to the end over its
websocket (``real_server.py``); (5) a computer turn with 433 units, on the map and on a doubled map
(``real_turn.py``). Each part's module says exactly what it times. These are benchmarks, not tests: a FAIL
is a figure over its target, and the command still exits 0 (it exits 1 only if a part could not run).

Parts 1 to 3 measure each game in a child process of its own (``--game``), as part 5 does: a game's figures do
not pay for the heap the games measured before it left (Antietam's search step took 0.30-0.31 ms after every
game's random games in one process, 0.25-0.26 ms in its own: docs/performance.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import real
import real_games
import real_server
import real_state
import real_turn
from grognard.rulesets import game_ids
from real import Figure, Report
from timing import table

PARTS = {
    "1": ("whole random games against OpenSpiel's tic-tac-toe", real_games.run),
    "2": ("state update and (3) search step on real mid-game positions", real_state.run),
    "4": ("the server, concurrent games played to the end", real_server.run),
    "5": ("a computer turn with 433 units", real_turn.run),
}
BY_GAME = ("1", "2")  # the parts run game by game, each game in a child process


def by_game(key: str, report: Report, args: argparse.Namespace) -> None:
    """Part ``key`` for each game in a child process (this command with ``--game``), its figures and profiles
    added to ``report``."""
    for game_id in game_ids():
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "figures.json"
            cmd = [sys.executable, __file__, "--only", key, "--game", game_id, "--pairs", str(args.pairs)]
            cmd += ["--json", str(out)] + ["--quick"] * args.quick + ["--profile"] * args.profile
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0 or not out.exists():
                raise RuntimeError(f"part {key} for {game_id} could not run:\n{done.stdout[-2000:]}{done.stderr}")
            child = json.loads(out.read_text())
        for row in child["figures"]:
            report.add(Figure(**{f.name: row[f.name] for f in dataclasses.fields(Figure)}))
        report.profiles.extend((title, text) for title, text in child["profiles"])


def machine() -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    versions = []
    for name in ("numpy", "pyspiel"):
        try:
            module = __import__(name)
            versions.append(f"{name} {getattr(module, '__version__', '?')}")
        except ImportError:
            versions.append(f"{name} missing")
    return (
        f"{datetime.datetime.now().isoformat(timespec='minutes')}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {', '.join(versions)}; load average {load}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="everything small: checks the command works")
    ap.add_argument("--profile", action="store_true", help="cProfile's top five for parts 1 and 3")
    ap.add_argument("--only", default="", help="comma-separated parts: 1,2 (2 includes 3),4,5; default all")
    ap.add_argument("--pairs", type=int, default=5, help="(1) games per scenario, each paired with the peer")
    ap.add_argument("--games", type=int, default=20, help="(4) concurrent server games (quick: 2)")
    ap.add_argument("--think", type=float, default=0.0, help="(4) a person's mean thinking time, seconds (default 0)")
    ap.add_argument("--turns", type=int, default=4, help="(5) game turns the two generals play (quick: 1)")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    ap.add_argument("--game", default="", help="(1-3) this game alone, in this process (default: each in a child)")
    args = ap.parse_args(argv)
    real.ONLY[:] = [args.game] if args.game else []
    wanted = [p.strip() for p in args.only.split(",") if p.strip()] or list(PARTS)
    wanted = ["2" if p == "3" else p for p in wanted]
    print(f"# grognard benchmarks of the real thing{' (quick)' if args.quick else ''}: {machine()}", flush=True)
    report = Report()
    broken = []
    t_all = time.perf_counter()
    for key in PARTS:
        if key not in wanted:
            continue
        title, runner = PARTS[key]
        print(f"\n## ({key}) {title}", flush=True)
        t0 = time.perf_counter()
        try:
            if key in BY_GAME and not args.game:
                by_game(key, report, args)
            else:
                runner(report, args)
        except Exception:
            traceback.print_exc()
            broken.append(key)
        print(f"  ({time.perf_counter() - t0:.0f} s)", flush=True)
    if args.game:  # a child of by_game: its parent prints the table
        write_json(args.json, report, broken)
        return 1 if broken else 0
    print(f"\n# Figures beside their targets ({time.perf_counter() - t_all:.0f} s in all; {machine()})\n")
    table(["part", "figure", "measured", "target", "", "note"], [f.cells() for f in report.figures])
    for title, text in report.profiles:
        print(f"\n### Profile: {title}\n{text}")
    write_json(args.json, report, broken)
    if broken:
        print(f"\nparts that could not run: {', '.join(broken)}", file=sys.stderr)
    return 1 if broken else 0


def write_json(path: Path | None, report: Report, broken: list[str]) -> None:
    if path is not None:
        rows = [{**dataclasses.asdict(f), "passed": f.passed} for f in report.figures]
        data = {"machine": machine(), "figures": rows, "profiles": report.profiles, "broken": broken}
        path.write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    raise SystemExit(main())
