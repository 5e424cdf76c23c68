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


class Position:
    """A battle set up by hand: the units named stand on their squares (``uid: "x,y"`` or ``uid: ("x,y", {field:
    value})``), every other unit is off the map; the state is at the start of phase ``part`` of turn ``turn``."""

    def __init__(
        self,
        units: dict[str, Any],
        part: str = "union_operations_1",
        turn: int = 2,
        options: dict[str, Any] | None = None,
        seed: int = 7,
    ) -> None:
        from grognard.engine.rng import seed_state
        from grognard.rulesets.antietam import Antietam
        from grognard.rulesets.antietam.state import OFF_MAP, AntietamState, Unit

        self.rules = Antietam(Antietam.load_scenario("1_full_battle"), options)
        self.ctx = self.rules.ctx
        self.board = self.ctx.board
        self.grid = self.board.grid
        made = []
        for spec in self.board.specs:
            place = units.get(spec.id)
            if place is None:
                made.append(Unit(cell=OFF_MAP, strength=spec.strength))
                continue
            square, extra = (place, {}) if isinstance(place, str) else place
            fields: dict[str, Any] = {"op": 10, "strength": spec.strength}
            fields.update(extra)
            made.append(Unit(cell=self.grid.parse(square), **fields))
        phases = list(self.ctx.rules["sequence"]["phases"])
        self.state = AntietamState(
            rng=seed_state(seed),
            turn=turn,
            part=phases.index(part),
            units=tuple(made),
            holders=("confederate",) * len(self.board.victory),
        )

    def i(self, uid: str) -> int:
        return self.board.index[uid]

    def unit(self, uid: str, state: Any = None) -> Any:
        return (state or self.state).units[self.i(uid)]

    def cell(self, square: str) -> int:
        return self.grid.parse(square)

    def square(self, uid: str, state: Any = None) -> str:
        return self.board.label(self.unit(uid, state).cell)

    def step(self) -> Any:
        from grognard.engine import Step

        return Step(self.state.rng)


@pytest.fixture
def position() -> type[Position]:
    return Position
