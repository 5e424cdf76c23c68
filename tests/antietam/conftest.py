"""Battle of Antietam's data files, read as the ruleset will read them (the ruleset itself comes later)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import grognard
from grognard.engine.maps import GameMap, load_map, read_data

DATA = Path(grognard.__file__).parent / "rulesets" / "antietam" / "data"


@pytest.fixture(scope="session")
def data() -> Any:
    """The TOML tables by file stem: ``data("combat")["weapons"]``."""
    cache: dict[str, Any] = {}

    def read(stem: str) -> Any:
        if stem not in cache:
            cache[stem] = read_data(DATA / f"{stem}.toml")
        return cache[stem]

    return read


@pytest.fixture(scope="session")
def battlefield() -> GameMap:
    """map.json, checked by the engine's loader against the terrains of the Operations Costs Table."""
    terrains = set(read_data(DATA / "terrain.toml")["move"]) - {"columns", "road_bonus"}
    return load_map(DATA / "map.json", terrains)
