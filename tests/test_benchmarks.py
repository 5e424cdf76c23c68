"""The benchmark command of the real thing keeps working: ``benchmarks/run_all.py --quick`` runs every part and
produces every figure beside its target. Not a timed test: the figures' values are never asserted."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_quick_run_produces_every_figure_beside_its_target(tmp_path):
    out = tmp_path / "figures.json"
    r = subprocess.run(
        [sys.executable, "benchmarks/run_all.py", "--quick", "--profile", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["broken"] == []
    figures = report["figures"]
    parts = {f["part"] for f in figures}
    assert parts == {"1 random games", "2 state update", "3 search step", "4 server", "5 computer turn"}
    targeted = [f for f in figures if f["target"] is not None]
    # the targets: per game a ratio to tic-tac-toe, an update ratio and a search step; the server's
    # three; the computer turn's three
    names = " ".join(f["name"] for f in targeted)
    for game in ("perfect_general", "grande_armee"):
        assert names.count(game) == 3, names
    assert sum(f["part"] == "4 server" for f in targeted) == 3
    assert sum(f["part"] == "5 computer turn" for f in targeted) == 3
    for f in figures:
        assert isinstance(f["value"], float | int) and f["value"] >= 0, f
    for f in targeted:
        assert f["passed"] in (True, False), f
        assert ("pass" if f["passed"] else "FAIL") in r.stdout
    # parts 1-3 measure each game in a child process: their profiles come back with their figures
    for game in ("perfect_general", "grande_armee"):
        assert f"### Profile: (1) one random game, {game}/" in r.stdout
        assert f"### Profile: (3) search steps, {game}/" in r.stdout
    # the profiles of parts 1 and 3, top five by cumulative and by own time
    games = sum(f["part"] == "3 search step" for f in targeted)  # one profile of each part for every game
    assert games >= 2
    assert r.stdout.count("### Profile: (1)") == games and r.stdout.count("### Profile: (3)") == games
    assert r.stdout.count("by own time") == 2 * games
