"""(5) A computer turn with 433 units: The Lauter Offensive with four times its buy points, on its own map and on
a doubled map.

Two computer generals (``general`` in both seats) play the scenario from its start for ``--turns`` game turns
through the one driver (``play_out``). A seat's computer turn is all of its decisions in one game turn, each
timed whole: the driver's loop around it (the turn, the legal decisions, the general's choice, ``Game.apply``).
Turn 1 includes buying and placing the whole force. The figure is the CPU time of the child process (the
machine is shared; the wall clock is in the note). Each variant runs in a child process of its own, so its peak
resident memory (``ru_maxrss``) is its own: Python, the engine, the board's caches and the game.

The doubled map is the Lauter Valley twice side by side: columns 57-112 repeat columns 1-56 (an even shift, so
the hex neighbours, the roads and the rivers of the copy are those of the original), with the set-up and entry
regions across both halves and the copy's towns named "<town> East". Targets (issue 17): p95 at most 1 s a
turn on the map; on the doubled map at most 1.5 s and 250 MB.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import subprocess
import sys
import time
from typing import Any

from real import Figure, Report, largest_scenario, peak_rss_mb, percentile

P95_TARGET, DOUBLED_TARGET, DOUBLED_MB = 1.0, 1.5, 250.0
BUY_FACTOR = 4


def shifted(label: str, by: int) -> str:
    c, r = label.split(",")
    return f"{int(c) + by},{r}"


def doubled_map(doc: dict[str, Any]) -> dict[str, Any]:
    """The map twice side by side (see the module's docstring)."""
    m = copy.deepcopy(doc)
    cols = m["grid"]["columns"]
    assert cols % 2 == 0, "an odd shift would change the hex neighbours of the copy"
    m["name"] += " (doubled)"
    m["grid"]["columns"] = 2 * cols
    for key in ("terrain", "elevation"):
        m[key] = [row + row for row in m.get(key, [])]
    m["features"] = {k: [row + row for row in rows] for k, rows in m.get("features", {}).items()}
    m["paths"] = {k: [*ps, *([shifted(c, cols) for c in p] for p in ps)] for k, ps in m.get("paths", {}).items()}
    m["edges"] = {
        k: [*es, *([shifted(a, cols), shifted(b, cols)] for a, b in es)] for k, es in m.get("edges", {}).items()
    }
    copies = [{**p, "name": f"{p['name']} East", "cells": [shifted(c, cols) for c in p["cells"]]} for p in m["places"]]
    m["places"] = [*m["places"], *copies]
    for region in m.get("regions", {}).values():
        cells = list(region.get("cells", ()))
        if region.get("rect"):
            c0, r0, c1, r1 = region["rect"]
            cells += [
                f"{c + cols},{r}"
                for c in range(min(c0, c1), max(c0, c1) + 1)
                for r in range(min(r0, r1), max(r0, r1) + 1)
            ]
        region["cells"] = cells + [shifted(c, cols) for c in region.get("cells", ())]
        if region.get("mask"):
            region["mask"] = [row + row for row in region["mask"]]
        if region.get("places"):
            region["places"] = [*region["places"], *(f"{p} East" for p in region["places"])]
    return m


def scenario_document(scenario: str, doubled: bool, factor: int) -> dict[str, Any]:
    from grognard.rulesets.perfect_general import PerfectGeneral

    doc = PerfectGeneral.load_scenario(scenario).document()
    doc["buy_points"] = {s: p * factor for s, p in doc["buy_points"].items()}
    if doubled:
        doc["map"] = doubled_map(doc["map"])
    return doc


class Enough(Exception):
    """Raised by the progress hook to stop a game once the turns to time have been played."""


def child(scenario: str, doubled: bool, factor: int, turns: int) -> dict[str, Any]:
    """Play the game in this process; returns each computer turn's seconds, the units and the peak memory."""
    from grognard.ai import play_out
    from grognard.engine import Game
    from grognard.rulesets.perfect_general import PerfectGeneral
    from real import players

    doc = scenario_document(scenario, doubled, factor)
    rules = PerfectGeneral(PerfectGeneral.scenario_from_document(doc, "benchmark"))
    game = Game(rules, 1)
    seated = players(PerfectGeneral, "general", 1)
    spent: dict[tuple[int, str], list[float]] = {}
    units = 0
    clock = [time.perf_counter(), time.process_time(), game.state.turn]

    def after(g: Game) -> None:
        nonlocal units
        wall, cpu = time.perf_counter(), time.process_time()
        entry = spent.setdefault((clock[2], g.log[-1].seat), [0.0, 0.0])
        entry[0] += wall - clock[0]
        entry[1] += cpu - clock[1]
        units = max(units, len(g.state.units))
        if g.state.turn > turns:
            raise Enough
        clock[:] = [time.perf_counter(), time.process_time(), g.state.turn]

    with contextlib.suppress(Enough):
        play_out(game, seated, progress=after)
    return {
        "wall": [w for w, _ in spent.values()],
        "cpu": [c for _, c in spent.values()],
        "units": units,
        "cells": rules.scenario.map.grid.size,
        "buy_points": doc["buy_points"],
        "rss_mb": peak_rss_mb(),
        "decisions": len(game.log),
    }


def run(report: Report, args: Any) -> None:
    from grognard.rulesets.perfect_general import PerfectGeneral

    scenario = largest_scenario(PerfectGeneral)  # found here: loading every scenario would swell the child's memory
    factor = 1 if args.quick else BUY_FACTOR
    turns = 1 if args.quick else args.turns
    for doubled in (False, True):
        cmd = [sys.executable, __file__, "--child", scenario, "--factor", str(factor), "--turns", str(turns)]
        if doubled:
            cmd.append("--doubled")
        t0 = time.perf_counter()
        out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        where = "doubled map" if doubled else "map"
        times = out["cpu"]
        note = (
            f"{out['units']} units, {out['cells']} cells, buy points {out['buy_points']}; {len(times)} computer "
            f"turns (game turns 1-{turns}), CPU max {max(times):.2f} s; wall p95 {percentile(out['wall'], 0.95):.2f} "
            f"s, max {max(out['wall']):.2f} s; the child ran {time.perf_counter() - t0:.0f} s"
        )
        report.add(
            Figure(
                "5 computer turn",
                f"Lauter x{factor} buy points, {where}: p95 of a computer turn (CPU)",
                percentile(times, 0.95),
                "s",
                DOUBLED_TARGET if doubled else P95_TARGET,
                note=note,
            ),
            Figure(
                "5 computer turn",
                f"Lauter x{factor} buy points, {where}: peak memory of the process",
                out["rss_mb"],
                "MB",
                DOUBLED_MB if doubled else None,
            ),
        )


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--child", required=True, help="the scenario id")
    ap.add_argument("--doubled", action="store_true")
    ap.add_argument("--factor", type=int, default=BUY_FACTOR)
    ap.add_argument("--turns", type=int, default=4)
    a = ap.parse_args()
    print(json.dumps(child(a.child, a.doubled, a.factor, a.turns)))
