"""The Perfect General's scenarios: a map, buy points, set-up regions, weather by turn, reinforcements,
towns that earn reinforcement points, neutral countries. Loaded from JSON and checked.

A scenario file (``data/scenarios/<id>.json``)::

    {
      "format": "grognard-pg-scenario/1",
      "name": "A Simple Little War",
      "summary": "one line for the list",
      "description": "the long description, several paragraphs",
      "map": "simple_little_war",          # data/maps/<name>.json, or a whole map object
      "turns": 7,
      "buy_points": {"attacker": 150, "defender": 120},
      "setup": {"attacker": "attacker_setup", "defender": "defender_setup"},   # map region names
      "weather": ["clear", "clear", "fog", ["night", "mud"], ...],            # one entry per turn
      "reinforcements": [{"turn": 4, "side": "defender", "points": 30}],
      "reinforcement_regions": {"defender": "defender_entry"},               # default: the set-up region
      "reinforcement_towns": [{"town": "Pinsk", "points": 10, "turns": [2, 4, 6]}],
      "neutral_countries": [{"name": "Ruritania", "region": "ruritania", "points": 60}],
      "units": ["infantry", ...]            # optional: the unit types on sale (default: all)
    }

Towns are the map's places of kind ``"town"``; their ``value`` is what holding them alone at the end of a
turn scores (p.17). The defender is the side with fewer buy points (p.17).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grognard.engine import codec
from grognard.engine.errors import DataError, nearest
from grognard.engine.maps import GameMap, build_map, read_data
from grognard.engine.protocol import Scenario, ScenarioInfo

from .tables import Tables, load_tables

SCENARIO_FORMAT = "grognard-pg-scenario/1"
SIDES = ("attacker", "defender")
SCENARIO_DIR = Path(__file__).parent / "data" / "scenarios"
MAP_DIR = Path(__file__).parent / "data" / "maps"


@dataclass(frozen=True, slots=True)
class FixedReinforcement:
    turn: int
    side: str
    points: int


@dataclass(frozen=True, slots=True)
class TownReinforcement:
    town: str
    points: int
    turns: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NeutralSpec:
    name: str
    region: str
    points: int


@dataclass(frozen=True, slots=True)
class ScenarioSpec:
    format: str
    name: str
    map: Any
    turns: int
    buy_points: dict[str, int]
    setup: dict[str, str]
    summary: str = ""
    description: str = ""
    weather: tuple[str | tuple[str, ...], ...] = ()
    reinforcements: tuple[FixedReinforcement, ...] = ()
    reinforcement_regions: dict[str, str] = field(default_factory=dict)
    reinforcement_towns: tuple[TownReinforcement, ...] = ()
    neutral_countries: tuple[NeutralSpec, ...] = ()
    units: tuple[str, ...] = ()
    source: str = ""


@dataclass(frozen=True, slots=True)
class NeutralCountry:
    name: str
    cells: frozenset[int]
    points: int


class PGScenario(Scenario):
    """A checked scenario with its map."""

    def __init__(self, sid: str, spec: ScenarioSpec, game_map: GameMap, doc: Mapping[str, Any], where: str) -> None:
        self.id = sid
        self.spec = spec
        self.map = game_map
        self._doc = dict(doc)
        self.user_file = False
        tables = load_tables()
        self.turns = spec.turns
        self.buy_points = dict(spec.buy_points)
        self.defender = "defender"
        self.attacker = "attacker"
        self.setup = {s: game_map.region(spec.setup[s]) for s in SIDES}
        self.reinforce_regions = {s: game_map.region(spec.reinforcement_regions.get(s, spec.setup[s])) for s in SIDES}
        self.weather: tuple[tuple[str, ...], ...] = tuple(
            (w,) if isinstance(w, str) else tuple(w) for w in (spec.weather or ("clear",) * spec.turns)
        )
        self.towns = tuple(p for p in game_map.places if p.kind == "town")
        self.neutrals = tuple(
            NeutralCountry(n.name, game_map.region(n.region), n.points) for n in spec.neutral_countries
        )
        self.on_sale = spec.units or tables.unit_order
        self.info = ScenarioInfo(
            sid,
            spec.name,
            spec.summary,
            spec.description,
            spec.turns,
            {
                "map": game_map.name,
                "buy_points": dict(spec.buy_points),
                "towns": {p.name: p.value for p in self.towns},
                "weather": [list(w) for w in self.weather],
            },
        )
        self._check(where, tables)

    def _check(self, where: str, tables: Tables) -> None:
        spec = self.spec
        if spec.turns < 1:
            raise DataError(where, "turns", "a scenario lasts at least one turn")
        if len(self.weather) != spec.turns:
            raise DataError(where, "weather", f"give one entry per turn: {spec.turns}, found {len(self.weather)}")
        for i, conditions in enumerate(self.weather):
            for w in conditions:
                if w not in tables.weather:
                    raise DataError(where, f"weather[{i}]", f"unknown weather {w!r}; {nearest(w, tables.weather)}")
        for s in SIDES:
            if s not in spec.buy_points:
                raise DataError(where, f"buy_points.{s}", "missing")
        if spec.buy_points["defender"] > spec.buy_points["attacker"]:
            raise DataError(where, "buy_points", "the defender is the side with fewer buy points (PG p.17): swap them")
        for i, r in enumerate(spec.reinforcements):
            if r.side not in SIDES:
                raise DataError(where, f"reinforcements[{i}].side", f"{r.side!r}; {nearest(r.side, SIDES)}")
            if not 1 <= r.turn <= spec.turns:
                raise DataError(where, f"reinforcements[{i}].turn", f"turn {r.turn} is not in 1..{spec.turns}")
        town_names = {p.name for p in self.towns}
        for i, t in enumerate(spec.reinforcement_towns):
            if t.town not in town_names:
                raise DataError(
                    where, f"reinforcement_towns[{i}].town", f"no town {t.town!r}; {nearest(t.town, town_names)}"
                )
        for i, u in enumerate(self.on_sale):
            if u not in tables.units:
                raise DataError(where, f"units[{i}]", f"unknown unit type {u!r}; {nearest(u, tables.units)}")
        for s in SIDES:
            if not self.setup[s]:
                raise DataError(where, f"setup.{s}", "the set-up region is empty")
            bad = [c for c in self.setup[s] if any(c in n.cells for n in self.neutrals)]
            if bad:
                raise DataError(where, f"setup.{s}", f"{self.map.grid.label(bad[0])} lies in a neutral country")

    def document(self) -> dict[str, Any]:
        doc = dict(self._doc)
        if isinstance(doc.get("map"), str):
            doc["map"] = read_data(MAP_DIR / f"{doc['map']}.json")
        return doc


def read_scenario(path: Path, sid: str | None = None) -> PGScenario:
    data = read_data(path)
    scenario = scenario_from_document(data, str(path), sid or path.stem, map_dir=path.parent.parent / "maps")
    if path.parent.resolve() != SCENARIO_DIR.resolve():
        scenario.user_file = True
    return scenario


def scenario_from_document(
    doc: Mapping[str, Any], where: str, sid: str = "custom", map_dir: Path = MAP_DIR
) -> PGScenario:
    spec: ScenarioSpec = codec.decode(ScenarioSpec, doc, where)
    if spec.format != SCENARIO_FORMAT:
        raise DataError(where, "format", f"expected {SCENARIO_FORMAT!r}, found {spec.format!r}")
    terrain_names = set(load_tables().terrain)
    if isinstance(spec.map, str):
        # a name among the files of those folders, never a path: a save's document cannot reach other files
        folder = next((d for d in (map_dir, MAP_DIR) if spec.map in {p.stem for p in d.glob("*.json")}), None)
        if folder is None:
            raise DataError(
                where, "map", f"no map file {spec.map[:80]!r} beside the scenario nor among the bundled maps"
            )
        path = folder / f"{spec.map}.json"
        game_map = build_map(read_data(path), str(path), terrain_names)
    elif isinstance(spec.map, dict):
        game_map = build_map(spec.map, f"{where}: map", terrain_names)
    else:
        raise DataError(where, "map", "give a map name or a whole map")
    for kind in game_map.edge_features:
        if kind not in load_tables().paths:
            raise DataError(where, "map", f"unknown path kind {kind!r}; {nearest(kind, load_tables().paths)}")
    try:
        return PGScenario(sid, spec, game_map, doc, where)
    except KeyError as e:
        raise DataError(where, "", str(e).strip('"')) from None


def scenario_json(scenario: PGScenario) -> str:
    return json.dumps(scenario.document(), indent=1)
