"""Objective Kursk's data files, read as they are written (the ruleset that will load them comes next)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grognard.engine.maps import GameMap, load_map

DATA = Path(__file__).parents[2] / "src/grognard/rulesets/kursk/data"


@pytest.fixture(scope="session")
def kursk_map() -> GameMap:
    return load_map(DATA / "map.json", {"clear", "woods", "gully", "town"})
