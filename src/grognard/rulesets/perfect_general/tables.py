"""The Perfect General's numbers, read from the data files beside this module and checked on load."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from grognard.engine import codec
from grognard.engine.errors import DataError, nearest

DATA = Path(__file__).parent / "data"

STYLES_ATTACK = ("infantry", "armor", "none")
STYLES_DEFENSE = ("infantry", "armored_car", "armor", "none")
ROLES = frozenset(
    {
        "cargo",
        "foot",
        "engineer",
        "armor",
        "carrier",
        "assault",
        "artillery",
        "mobile_plot",
        "barrage",
        "wide_barrage",
        "mine",
    }
)


@dataclass(frozen=True, slots=True)
class UnitType:
    name: str
    code: str
    cost: int
    move: int
    hit_points: int
    damage: int
    attack: str
    defense: str
    roles: frozenset[str]
    indirect_range: int = 0
    exposure: int = 100  # per cent of the chance to be hit by direct fire (artillery, p.21)
    drift: int = 0
    splash: int = 0
    id: str = ""

    def has(self, role: str) -> bool:
        return role in self.roles


@dataclass(frozen=True, slots=True)
class TerrainType:
    cost: int | str
    prohibited: tuple[str, ...] = ()
    defensive: bool = False
    blocks_sight: bool = False
    damaged: str = ""
    no_mines: bool = False
    town: bool = False


@dataclass(frozen=True, slots=True)
class Weather:
    visibility: int
    move_percent: int
    no_direct_fire: bool = False
    no_moving_next_to_spotted: bool = False


@dataclass(frozen=True, slots=True)
class FireModifiers:
    defensive_terrain: int
    firer_higher: int
    target_higher: int
    minimum: int
    maximum: int


@dataclass(frozen=True, slots=True)
class AssaultModifiers:
    defender_defensive_location: int
    defender_has_fired: int
    attacker_over_half_damaged: int
    minimum: int
    maximum: int
    non_random_wins_above: int


@dataclass(frozen=True, slots=True)
class Sight:
    level: int
    obstacle: int
    eye: int
    barrage: int


@dataclass(frozen=True, slots=True)
class Tables:
    units: dict[str, UnitType]
    terrain: dict[str, TerrainType]
    paths: dict[str, int]  # cost of a step along each kind of path
    uphill_factor: int
    sight: Sight
    weather: dict[str, Weather]
    max_range: dict[tuple[str, str], int]  # (firer type, target type) -> hexes
    hit: dict[tuple[str, str], tuple[int, ...]]  # (attack style, defense style) -> per cent by range
    fire_mods: FireModifiers
    assault: dict[tuple[str, str], int]  # (attacker type, defender type) -> per cent
    assault_mods: AssaultModifiers
    unit_order: tuple[str, ...] = field(default=())

    def unit(self, type_id: str) -> UnitType:
        try:
            return self.units[type_id]
        except KeyError:
            raise DataError("units.toml", type_id, f"unknown unit type; {nearest(type_id, self.units)}") from None


def _read(name: str) -> dict[str, Any]:
    path = DATA / name
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise DataError(str(path), "", f"not valid TOML: {e}") from None


def _matrix(doc: dict[str, Any], where: str, key: str, rows: list[str], cols: list[str]) -> dict[tuple[str, str], int]:
    table = doc.get(key)
    if not isinstance(table, dict):
        raise DataError(where, key, "missing table")
    out = {}
    for r in rows:
        if r not in table:
            raise DataError(where, f"{key}.{r}", "missing row")
        values = table[r]
        if not isinstance(values, list) or len(values) != len(cols):
            raise DataError(where, f"{key}.{r}", f"expected {len(cols)} numbers, one per column {cols}")
        for c, v in zip(cols, values, strict=True):
            if not isinstance(v, int):
                raise DataError(where, f"{key}.{r}", f"{v!r} is not a whole number")
            out[(r, c)] = v
    extra = set(table) - set(rows)
    if extra:
        x = sorted(extra)[0]
        raise DataError(where, f"{key}.{x}", f"unknown unit type; {nearest(x, rows)}")
    return out


@cache
def load_tables() -> Tables:
    """Read and check every table; the result is shared by all games."""
    units_doc = _read("units.toml")
    units: dict[str, UnitType] = {}
    for tid, spec in units_doc.items():
        spec = dict(spec)
        spec["roles"] = spec.get("roles", [])
        u: UnitType = codec.decode(UnitType, spec, "units.toml", tid)
        bad = u.roles - ROLES
        if bad:
            raise DataError(
                "units.toml", f"{tid}.roles", f"unknown role {sorted(bad)[0]!r}; {nearest(sorted(bad)[0], ROLES)}"
            )
        if u.attack not in STYLES_ATTACK or u.defense not in STYLES_DEFENSE:
            raise DataError("units.toml", tid, "unknown attack or defense style")
        units[tid] = UnitType(**{**{f: getattr(u, f) for f in u.__dataclass_fields__}, "id": tid})
    fighting = [t for t, u in units.items() if not u.has("mine")]

    terrain_doc = _read("terrain.toml")
    paths = {k: int(v["along"]) for k, v in terrain_doc.pop("paths", {}).items()}
    movement = terrain_doc.pop("movement", {})
    sight: Sight = codec.decode(Sight, terrain_doc.pop("sight", {}), "terrain.toml", "sight")
    terrain: dict[str, TerrainType] = {}
    for name, spec in terrain_doc.items():
        t: TerrainType = codec.decode(TerrainType, spec, "terrain.toml", name)
        if isinstance(t.cost, str) and t.cost != "half_rate":
            raise DataError("terrain.toml", f"{name}.cost", "a cost is a number of half points or 'half_rate'")
        terrain[name] = t
    for name, t in terrain.items():
        if t.damaged and t.damaged not in terrain:
            raise DataError("terrain.toml", f"{name}.damaged", f"unknown terrain; {nearest(t.damaged, terrain)}")

    weather: dict[str, Weather] = {
        k: codec.decode(Weather, v, "weather.toml", k) for k, v in _read("weather.toml").items()
    }

    fire_doc = _read("fire.toml")
    cols = fire_doc["range"].pop("columns")
    if sorted(cols) != sorted(fighting):
        raise DataError("fire.toml", "range.columns", f"expected one column per unit type: {fighting}")
    max_range = _matrix({"range": fire_doc["range"]}, "fire.toml", "range", fighting, cols)
    hit: dict[tuple[str, str], tuple[int, ...]] = {}
    for attack, by_def in fire_doc["hit"].items():
        for defense, values in by_def.items():
            if attack not in STYLES_ATTACK or defense not in STYLES_DEFENSE:
                raise DataError("fire.toml", f"hit.{attack}.{defense}", "unknown style")
            hit[(attack, defense)] = tuple(int(v) for v in values)
    fire_mods: FireModifiers = codec.decode(FireModifiers, fire_doc["modifiers"], "fire.toml", "modifiers")

    assault_doc = _read("assault.toml")
    acols = assault_doc.pop("columns")
    odds = _matrix(assault_doc, "assault.toml", "odds", fighting, acols)
    assault = {(attacker, defender): v for (defender, attacker), v in odds.items()}
    assault_mods: AssaultModifiers = codec.decode(
        AssaultModifiers, assault_doc["modifiers"], "assault.toml", "modifiers"
    )

    return Tables(
        units=units,
        terrain=terrain,
        paths=paths,
        uphill_factor=int(movement.get("uphill_factor", 2)),
        sight=sight,
        weather=weather,
        max_range=max_range,
        hit=hit,
        fire_mods=fire_mods,
        assault=assault,
        assault_mods=assault_mods,
        unit_order=tuple(units),
    )
