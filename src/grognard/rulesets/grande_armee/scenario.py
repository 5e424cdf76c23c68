"""La Grande Armée's scenarios (§6.0): dates, powers at war and their military points, victory levels, control
at start, prohibited areas, forces with their positions, leaders, units buildable by year, special rules.

A scenario file (``data/scenarios/<id>.json``, format ``grognard-lga-scenario/1``) names the map beside it
(``data/map.json``) implicitly; see the bundled files for the full layout.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grognard.engine import codec
from grognard.engine.errors import DataError, nearest
from grognard.engine.maps import GameMap, build_map, read_data
from grognard.engine.protocol import Scenario, ScenarioInfo

from .tables import UNIT_TYPES, load_tables

SCENARIO_FORMAT = "grognard-lga-scenario/1"
DATA = Path(__file__).parent / "data"
SCENARIO_DIR = DATA / "scenarios"
MAP_FILE = DATA / "map.json"
SEATS = ("french", "allied", "neutral")
POWERS = ("france", "spain", "austria", "prussia", "russia", "britain")
COUNTRIES = (
    "france",
    "spain",
    "portugal",
    "britain",
    "holland",
    "rhine",
    "switzerland",
    "italy",
    "austria",
    "prussia",
    "denmark",
    "sweden",
    "russia",
)
LEVELS = ("SD", "TD", "TV", "SV", "AV")  # §5.2, lowest to highest; below SD is Absolute Defeat ("AD")


@dataclass(frozen=True, slots=True)
class PowerSpec:
    side: str
    mp: int = 0


@dataclass(frozen=True, slots=True)
class LeaderSpec:
    power: str
    bonus: int


@dataclass(frozen=True, slots=True)
class ForceSpec:
    power: str
    at: str
    units: dict[str, int]
    hqs: tuple[str, ...] = ()
    note: str = ""
    garrison: str = ""  # the type of the one unit of the force that holds its city as a garrison at start (§3.6)


@dataclass(frozen=True, slots=True)
class BuildableSpec:
    power: str
    year: int
    units: dict[str, int]


@dataclass(frozen=True, slots=True)
class ProhibitSpec:
    """A country's areas left out of a scenario (§2.2), from a column eastwards, but for the areas kept."""

    country: str
    from_column: int = 1
    keep: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ScenarioSpec:
    format: str
    number: int
    name: str
    start: tuple[str, int]
    end: tuple[str, int]
    powers: dict[str, PowerSpec]
    victory: dict[str, tuple[int, ...]]
    control: dict[str, tuple[str, ...]]
    leaders: dict[str, LeaderSpec]
    forces: tuple[ForceSpec, ...]
    summary: str = ""
    situation: str = ""
    aftermath: str = ""
    source: str = ""
    control_areas: dict[str, tuple[str, ...]] = field(default_factory=dict)
    prohibited: tuple[ProhibitSpec, ...] = ()
    buildable: tuple[BuildableSpec, ...] = ()
    special: dict[str, tuple[str, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StartUnit:
    """A unit of the scenario: on the map at start (``cell``) or buildable from ``year`` (``cell`` -1)."""

    id: str
    power: str
    type: str
    cell: int
    year: int = 0
    bonus: int = 0
    garrison: bool = False


POWER_CODES = {"france": "FR", "spain": "SP", "austria": "AU", "prussia": "PR", "russia": "RU", "britain": "GB"}


class LGAScenario(Scenario):
    """A checked scenario with its map."""

    def __init__(self, sid: str, spec: ScenarioSpec, game_map: GameMap, doc: Mapping[str, Any], where: str) -> None:
        self.id = sid
        self.spec = spec
        self.map = game_map
        self._doc = dict(doc)
        self.seasons = load_tables().seasons
        self._check(where)
        self.start = (spec.start[1], self.seasons.index(spec.start[0]))
        self.end = (spec.end[1], self.seasons.index(spec.end[0]))
        self.side_of = {p: s.side for p, s in spec.powers.items()}
        self.prohibited = self._prohibited()
        self.control = self._control()
        self.units = self._units()
        turns = (self.end[0] - self.start[0]) * 4 + self.end[1] - self.start[1] + 1
        self.info = ScenarioInfo(
            sid,
            spec.name,
            spec.summary,
            f"{spec.situation}\n\nAftermath: {spec.aftermath}",
            turns,
            {
                "number": spec.number,
                "start": f"{spec.start[0]} {spec.start[1]}",
                "end": f"{spec.end[0]} {spec.end[1]}",
                "powers": {p: {"side": s.side, "mp": s.mp} for p, s in spec.powers.items()},
                "victory": {s: dict(zip(LEVELS, v, strict=True)) for s, v in spec.victory.items()},
            },
        )

    def _check(self, where: str) -> None:
        spec = self.spec
        for key in ("start", "end"):
            season = getattr(spec, key)[0]
            if season not in self.seasons:
                raise DataError(where, key, f"unknown season {season!r}; {nearest(season, self.seasons)}")
        for p, ps in spec.powers.items():
            if p not in POWERS:
                raise DataError(where, f"powers.{p}", f"unknown major power; {nearest(p, POWERS)}")
            if ps.side not in ("french", "allied"):
                raise DataError(where, f"powers.{p}.side", "a power at war is french or allied")
        for side in ("french", "allied"):
            v = spec.victory.get(side, ())
            if len(v) != len(LEVELS) or list(v) != sorted(v):
                raise DataError(where, f"victory.{side}", f"give the rising thresholds {LEVELS}")
        seen: set[str] = set()
        for side, countries in spec.control.items():
            if side not in SEATS:
                raise DataError(where, f"control.{side}", f"unknown side; {nearest(side, SEATS)}")
            for c in countries:
                if c not in COUNTRIES:
                    raise DataError(where, f"control.{side}", f"unknown country {c!r}; {nearest(c, COUNTRIES)}")
                seen.add(c)
        if set(COUNTRIES) - seen:
            raise DataError(where, "control", f"no controller for {sorted(set(COUNTRIES) - seen)}")
        for name, leader in spec.leaders.items():
            if leader.power not in spec.powers:
                raise DataError(where, f"leaders.{name}.power", f"{leader.power!r} is not at war here")
        for i, f in enumerate(spec.forces):
            if f.power not in spec.powers:
                raise DataError(where, f"forces[{i}].power", f"{f.power!r} is not at war here")
            for t in f.units:
                if t not in UNIT_TYPES:
                    raise DataError(where, f"forces[{i}].units.{t}", f"unknown unit type; {nearest(t, UNIT_TYPES)}")
            for h in f.hqs:
                if h not in spec.leaders:
                    raise DataError(where, f"forces[{i}].hqs", f"no leader {h!r}; {nearest(h, spec.leaders)}")

    def _cell(self, label: str, key: str) -> int:
        try:
            return self.map.grid.parse(label)
        except ValueError as e:
            raise DataError(self.id, key, str(e)) from None

    def _prohibited(self) -> frozenset[int]:
        grid = self.map.grid
        out = {c for c in grid.cells() if self.map.terrain[c] == "prohibited"}
        for i, p in enumerate(self.spec.prohibited):
            if p.country not in COUNTRIES:
                raise DataError(self.id, f"prohibited[{i}].country", f"{p.country!r}; {nearest(p.country, COUNTRIES)}")
            kept = {self._cell(label, f"prohibited[{i}].keep") for label in p.keep}
            out |= {c for c in self.map.region(p.country) if grid.coord(c)[0] + 1 >= p.from_column and c not in kept}
        return frozenset(out)

    def _control(self) -> tuple[str, ...]:
        """Who controls each area at start (§2.4): "" for sea and prohibited areas."""
        owner: dict[int, str] = {}
        for side, countries in self.spec.control.items():
            for country in countries:
                for c in self.map.region(country):
                    owner[c] = side
        for side, labels in self.spec.control_areas.items():
            for label in labels:
                owner[self._cell(label, f"control_areas.{side}")] = side
        return tuple("" if c in self.prohibited else owner.get(c, "") for c in self.map.grid.cells())

    def _units(self) -> tuple[StartUnit, ...]:
        counters: dict[tuple[str, str], int] = {}
        out: list[StartUnit] = []

        def make(power: str, type_: str, cell: int, year: int, garrison: bool = False) -> None:
            n = counters[(power, type_)] = counters.get((power, type_), 0) + 1
            code = load_tables().units[type_].code
            out.append(StartUnit(f"{POWER_CODES[power]}-{code}{n}", power, type_, cell, year, garrison=garrison))

        for i, f in enumerate(self.spec.forces):
            cell = self._cell(f.at, f"forces[{i}].at")
            if self.control[cell] != self.side_of[f.power]:
                raise DataError(self.id, f"forces[{i}].at", f"{f.at} is not controlled by the {self.side_of[f.power]}")
            if f.garrison:
                self._check_garrison(f, cell, f"forces[{i}].garrison")
            for type_ in UNIT_TYPES:
                for k in range(f.units.get(type_, 0)):
                    make(f.power, type_, cell, 0, garrison=k == 0 and type_ == f.garrison)
            for h in f.hqs:
                out.append(StartUnit(h, f.power, "hq", cell, 0, self.spec.leaders[h].bonus))
        for b in self.spec.buildable:
            for type_ in UNIT_TYPES:
                for _ in range(b.units.get(type_, 0)):
                    make(b.power, type_, -1, b.year)
        return tuple(out)

    def _check_garrison(self, force: ForceSpec, cell: int, key: str) -> None:
        """§3.6: a garrison is an infantry, guard/artillery or militia unit in a city."""
        if not any(cell in p.cells for p in self.map.places):
            raise DataError(self.id, key, f"{force.at} is not a city: only a city has a garrison")
        if force.units.get(force.garrison, 0) < 1:
            raise DataError(self.id, key, f"the force has no {force.garrison!r} unit to garrison {force.at}")
        if not load_tables().units[force.garrison].garrison:
            raise DataError(self.id, key, f"a {force.garrison} unit cannot garrison a city (§3.6)")

    def document(self) -> dict[str, Any]:
        doc = dict(self._doc)
        doc.setdefault("map", read_data(MAP_FILE))
        return doc


def read_scenario(path: Path) -> LGAScenario:
    scenario = scenario_from_document(read_data(path), str(path), path.stem)
    scenario.user_file = path.parent.resolve() != SCENARIO_DIR.resolve()
    return scenario


def scenario_from_document(doc: Mapping[str, Any], where: str, sid: str = "custom") -> LGAScenario:
    spec: ScenarioSpec = codec.decode(ScenarioSpec, {k: v for k, v in doc.items() if k != "map"}, where)
    if spec.format != SCENARIO_FORMAT:
        raise DataError(where, "format", f"expected {SCENARIO_FORMAT!r}, found {spec.format!r}")
    terrain_names = set(load_tables().terrain)
    if isinstance(doc.get("map"), dict):
        game_map = build_map(doc["map"], f"{where}: map", terrain_names)
    else:
        game_map = build_map(read_data(MAP_FILE), str(MAP_FILE), terrain_names)
    try:
        return LGAScenario(sid, spec, game_map, doc, where)
    except KeyError as e:
        raise DataError(where, "", str(e).strip('"')) from None
