"""The history report (issue 13 "History as a check"): scripts/antietam_history.py plays the computer general on
both sides at level 3 (§IA2.1 #1) and reports every figure beside history."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATS = {"min", "q1", "median", "q3", "max"}


def test_history_report_gives_every_figure_for_one_game_of_the_shortest_scenario(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts/antietam_history.py"),
            "--games",
            "1",
            "--scenarios",
            "5_ix_corps",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["level"] == 3 and out["players"] == "general,general"
    s = out["summary"]["5_ix_corps"]
    assert s["games"] == 1 and s["seeds"] == [1]
    for side in ("union", "confederate"):
        assert set(s["casualties"][side]) == STATS and set(s["guns"][side]) == STATS
        # the 13:00 start counts the morning's losses as taken (scenario.py strength): at least those
        assert s["casualties"][side]["min"] >= {"union": 9_929, "confederate": 8_563}[side]
    assert set(s["score"]) == STATS
    # §IA10.1: the eight victory squares, each held by one side (or half, in a Union ZOC) in the one game
    assert set(s["squares"]) == set(out["history"]["squares"]) and len(s["squares"]) == 8
    assert all(sum(c.values()) == 1 for c in s["squares"].values())
    assert sum(s["levels"].values()) == 1
    # §IA10.2: the level agrees with the score (the 5,000-casualty condition is met from the start here)
    level = next(iter(s["levels"]))
    score = s["score"]["median"]
    bands = {"union_major": 6000, "union_minor": 2000, "draw": -1000, "confederate_minor": -6000}
    assert level == next((k for k, lo in bands.items() if score >= lo), "confederate_major")
    h = out["history"]
    assert h["casualties"] == {"union": 12_400, "confederate": 10_320} and h["level"] == "draw"
    # the same figures as the report's tables (--report reads saved runs)
    saved = tmp_path / "ix.json"
    saved.write_text(run.stdout)
    text = subprocess.run(
        [sys.executable, str(ROOT / "scripts/antietam_history.py"), "--report", str(saved)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    row = next(line for line in text.splitlines() if line.startswith("| 5_ix_corps |"))
    assert f"{s['casualties']['union']['median']:,.0f}" in row and f"{s['score']['median']:,.0f}" in row
    assert "| history | | 12,400 | 10,320 |" in text
    assert sum(line.startswith(f"| {sq} |") for sq in h["squares"] for line in text.splitlines()) == 8
