"""Objective Kursk's data files, read as they are written (the ruleset that will load them comes next)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grognard.engine.maps import GameMap, load_map

sys.path.insert(0, str(Path(__file__).parent))  # kursk_helpers, the rule tests' positions

DATA = Path(__file__).parents[2] / "src/grognard/rulesets/kursk/data"


@pytest.fixture(scope="session")
def kursk_map() -> GameMap:
    return load_map(DATA / "map.json", {"clear", "woods", "gully", "town"})
