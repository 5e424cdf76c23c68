"""The history report (issue 14, "History as a check"): scripts/kursk_history.py plays the general against itself
and reports the furthest German advance, the losses per side in tanks and men, and §11.2's level beside history."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_one_game_of_the_first_day_gives_every_figure() -> None:
    args = ["--games", "1", "--scenario", "first_day", "--json"]
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts/kursk_history.py"), *args], capture_output=True, text=True, check=False
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    (game,) = out["games"]
    assert game["turns"] == 4  # first_day: 5 July AM to 6 July PM
    assert 0 <= game["furthest_row"] < 32 and game["furthest_hex"]  # §1.4: 32 rows
    assert set(game["taken"]) == {"Oboyan", "Prokhorovka"}
    for side in ("german", "soviet"):
        assert game["start"][side]["afv"] > 0 and game["start"][side]["men"] > 0
        assert 0 <= game["losses"][side]["afv"] <= game["start"][side]["afv"]
        assert 0 <= game["losses"][side]["men"] <= game["start"][side]["men"]
    assert game["level"] in {row[2] for row in _levels()}  # §11.2
    summary = out["summary"]
    for figure in ("furthest_row", "german_afv", "german_men", "soviet_afv", "soviet_men", "level"):
        assert summary["history"][figure], figure
    for figure in ("german_afv", "german_men", "soviet_afv", "soviet_men", "difference", "Oboyan", "Prokhorovka"):
        assert figure in summary, figure


def _levels() -> list[list[object]]:
    import tomllib

    data = tomllib.loads((ROOT / "src/grognard/rulesets/kursk/data/victory.toml").read_text(encoding="utf-8"))
    return list(data["levels"]["rows"])
