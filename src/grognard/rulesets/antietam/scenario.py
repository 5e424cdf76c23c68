"""Battle of Antietam's scenarios: the full battle from dawn (§IA2.2) and, later, the manual's four historical
situations. A scenario file (``data/scenarios/<id>.json``, format ``grognard-antietam-scenario/1``) names its
first and last turn and may move units from their dawn squares (``positions``) or change their arrival turn
(``arrivals``); a later start may also begin in a phase of its first turn other than the first
(``first_phase``: 07:30 is the mid-turn), give units the men or guns they have left (``strength``: the
difference counts as casualties already taken) and remove units fought out of the battle (``gone``). Every
other number comes from units.toml."""

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
    first_phase: str = ""  # the phase of §IA2.3 the first turn starts in ("": the activation phase)
    strength: dict[str, int] = field(default_factory=dict)  # unit id -> men (guns) left at the start
    gone: tuple[str, ...] = ()  # units fought out before the start (all their men count as lost)


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
        tables = (("positions", self.spec.positions), ("arrivals", self.spec.arrivals))
        for key, table in (*tables, ("strength", self.spec.strength), ("gone", dict.fromkeys(self.spec.gone))):
            for uid in table:
                if uid not in ids:
                    raise DataError(where, f"{key}.{uid}", f"no unit {uid!r}; {nearest(uid, ids)}")
        by_id = {u.id: u for u in specs}
        for uid in self.spec.arrivals:
            if not by_id[uid].entry:
                raise DataError(where, f"arrivals.{uid}", "the unit has no entry region: give it a position")
        phases = load_tables().rules["sequence"]["phases"]
        first = self.spec.first_phase
        if first and first not in phases:
            raise DataError(where, "first_phase", f"no phase {first!r}; {nearest(first, phases)}")
        self.first_part = phases.index(first) if first else 0
        for uid, men in self.spec.strength.items():
            if not 0 < men <= by_id[uid].strength:
                raise DataError(where, f"strength.{uid}", f"between 1 and the OOB's {by_id[uid].strength}")
        for uid in self.spec.gone:
            if uid in self.spec.positions or uid in self.spec.strength:
                raise DataError(where, f"gone.{uid}", "a unit fought out has no square or strength")
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
        if spec.id in self.spec.gone:
            return ""
        return self.spec.positions.get(spec.id, spec.dawn if self.arrival(spec) == 1 else "")

    def start_strength(self, spec: UnitSpec) -> int:
        """Men (guns) the unit has when the scenario begins; 0 for a unit fought out (``gone``)."""
        return 0 if spec.id in self.spec.gone else self.spec.strength.get(spec.id, spec.strength)

    def arrival(self, spec: UnitSpec) -> int:
        return self.spec.arrivals.get(spec.id, spec.turn)

    def document(self) -> dict[str, Any]:
        return dict(self.data)


def read_scenario(path: Path) -> AntietamScenario:
    return AntietamScenario(read_data(path), str(path), path.stem)


def scenario_from_document(document: Mapping[str, Any], where: str) -> AntietamScenario:
    return AntietamScenario(document, where, "custom")
