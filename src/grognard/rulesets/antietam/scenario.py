"""Battle of Antietam's scenarios: the full battle from dawn (§IA2.2) and, later, the manual's four historical
situations. A scenario file (``data/scenarios/<id>.json``, format ``grognard-antietam-scenario/1``) names its
first and last turn and may move units from their dawn squares (``positions``) or change their arrival turn
(``arrivals``); every other number comes from units.toml."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grognard.engine import codec
from grognard.engine.errors import DataError, nearest
from grognard.engine.maps import read_data
from grognard.engine.protocol import Scenario, ScenarioInfo

from .tables import DATA, UnitSpec, load_battlefield, load_tables

SCENARIO_FORMAT = "grognard-antietam-scenario/1"
SCENARIO_DIR = DATA / "scenarios"


@dataclass(frozen=True, slots=True)
class ScenarioSpec:
    format: str
    name: str
    first_turn: int
    last_turn: int
    summary: str = ""
    history: str = ""
    aftermath: str = ""
    positions: dict[str, str] = field(default_factory=dict)  # unit id -> square, instead of its dawn square
    arrivals: dict[str, int] = field(default_factory=dict)  # unit id -> turn, for units with an entry region


class AntietamScenario(Scenario):
    def __init__(self, data: Mapping[str, Any], where: str, scenario_id: str) -> None:
        self.data = dict(data)
        self.spec: ScenarioSpec = codec.decode(ScenarioSpec, self.data, where)
        if self.spec.format != SCENARIO_FORMAT:
            raise DataError(where, "format", f"expected {SCENARIO_FORMAT!r}, found {self.spec.format!r}")
        turns = load_tables().rules["game"]["turns"]
        if not 1 <= self.spec.first_turn <= self.spec.last_turn <= turns:
            raise DataError(where, "first_turn", f"turns run from 1 to {turns} (§IA1.3)")
        specs = load_tables().units
        ids = {u.id for u in specs}
        grid = load_battlefield().grid
        for key, table in (("positions", self.spec.positions), ("arrivals", self.spec.arrivals)):
            for uid in table:
                if uid not in ids:
                    raise DataError(where, f"{key}.{uid}", f"no unit {uid!r}; {nearest(uid, ids)}")
        by_id = {u.id: u for u in specs}
        for uid in self.spec.arrivals:
            if not by_id[uid].entry:
                raise DataError(where, f"arrivals.{uid}", "the unit has no entry region: give it a position")
        for uid, square in self.spec.positions.items():
            try:
                grid.parse(square)
            except ValueError as e:
                raise DataError(where, f"positions.{uid}", str(e)) from None
        self.units: tuple[UnitSpec, ...] = specs
        self.info = ScenarioInfo(
            id=scenario_id,
            name=self.spec.name,
            summary=self.spec.summary,
            description="\n\n".join(t for t in (self.spec.history, self.spec.aftermath) if t),
            turns=self.spec.last_turn - self.spec.first_turn + 1,
        )

    def start_square(self, spec: UnitSpec) -> str:
        """Where the unit stands when the scenario begins ("" off the map: it arrives by its entry region)."""
        return self.spec.positions.get(spec.id, spec.dawn if self.arrival(spec) == 1 else "")

    def arrival(self, spec: UnitSpec) -> int:
        return self.spec.arrivals.get(spec.id, spec.turn)

    def document(self) -> dict[str, Any]:
        return dict(self.data)


def read_scenario(path: Path) -> AntietamScenario:
    return AntietamScenario(read_data(path), str(path), path.stem)


def scenario_from_document(document: Mapping[str, Any], where: str) -> AntietamScenario:
    return AntietamScenario(document, where, "custom")
