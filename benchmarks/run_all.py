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
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
import sys
import time
import traceback
from pathlib import Path

import real_games
import real_server
import real_state
import real_turn
from real import Report
from timing import table

PARTS = {
    "1": ("whole random games against OpenSpiel's tic-tac-toe", real_games.run),
    "2": ("state update and (3) search step on real mid-game positions", real_state.run),
    "4": ("the server, concurrent games played to the end", real_server.run),
    "5": ("a computer turn with 433 units", real_turn.run),
}


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
    args = ap.parse_args(argv)
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
            runner(report, args)
        except Exception:
            traceback.print_exc()
            broken.append(key)
        print(f"  ({time.perf_counter() - t0:.0f} s)", flush=True)
    print(f"\n# Figures beside their targets ({time.perf_counter() - t_all:.0f} s in all; {machine()})\n")
    table(["part", "figure", "measured", "target", "", "note"], [f.cells() for f in report.figures])
    for title, text in report.profiles:
        print(f"\n### Profile: {title}\n{text}")
    if args.json:
        rows = [{**dataclasses.asdict(f), "passed": f.passed} for f in report.figures]
        args.json.write_text(json.dumps({"machine": machine(), "figures": rows, "broken": broken}, indent=1))
    if broken:
        print(f"\nparts that could not run: {', '.join(broken)}", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
