"""La Grande Armée's numbers, read from the data files beside this module and checked on load."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from grognard.engine import codec
from grognard.engine.errors import DataError, nearest
from grognard.engine.maps import read_data

DATA = Path(__file__).parent / "data"
UNIT_TYPES = ("infantry", "guard", "militia", "cavalry", "hq")


@dataclass(frozen=True, slots=True)
class UnitType:
    name: str
    code: str
    cost: int
    moves: int
    max_morale: int
    garrison: bool
    long_march: bool
    rout: bool
    zoc: bool
    control: bool
    order: int


@dataclass(frozen=True, slots=True)
class TerrainType:
    cost: int
    sea: bool = False
    prohibited: bool = False


@dataclass(frozen=True, slots=True)
class DieTable:
    """A row of results read by a die roll plus modifiers; totals off the ends read as the end columns."""

    roll: tuple[int, ...]
    results: tuple[Any, ...]

    def read(self, total: int) -> Any:
        lo, hi = self.roll[0], self.roll[-1]
        return self.results[min(max(total, lo), hi) - lo]


@dataclass(frozen=True, slots=True)
class Tables:
    units: dict[str, UnitType]
    terrain: dict[str, TerrainType]
    muster: DieTable
    muster_mods: dict[str, int]
    french_abroad_countries: tuple[str, ...]
    long_march: DieTable
    long_march_mods: dict[str, int]
    combat_attacker: DieTable
    combat_defender: DieTable
    combat_mods: dict[str, int]
    combat_fatigue: int
    withdrawn_attack_cost: int
    reinforcement: DieTable
    reinforcement_mods: dict[str, int]
    rout: DieTable
    rout_mods: dict[str, int]
    siege: DieTable
    vp: dict[str, int]
    mp: dict[str, int]
    mp_from_own_borders: tuple[str, ...]  # §5.3: powers whose MPs come only from VPs inside their borders
    rally_cost: dict[int, int]  # morale now -> MP to raise it by one
    fog_lose_all: int
    fog_lose_one: int
    zoc_exit_cost: int
    seasons: tuple[str, ...]

    def unit(self, type_id: str) -> UnitType:
        try:
            return self.units[type_id]
        except KeyError:
            raise DataError("units.toml", type_id, f"unknown unit type; {nearest(type_id, self.units)}") from None


def _read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = read_data(DATA / name)
    return data


def _die(doc: dict[str, Any], where: str, key: str) -> DieTable:
    roll = doc.get("roll")
    results = doc.get(key)
    if not isinstance(roll, list) or not isinstance(results, list) or len(roll) != len(results):
        raise DataError(where, key, "expected 'roll' and a result list of the same length")
    if roll != list(range(roll[0], roll[0] + len(roll))):
        raise DataError(where, "roll", "the columns are consecutive totals")
    return DieTable(tuple(roll), tuple(results))


def _ints(doc: dict[str, Any], where: str) -> dict[str, int]:
    out = {}
    for k, v in doc.items():
        if isinstance(v, bool) or not isinstance(v, int):
            continue
        out[k] = v
    return out


@cache
def load_tables() -> Tables:
    """Read and check every table; the result is shared by all games."""
    units: dict[str, UnitType] = {}
    for tid, spec in _read("units.toml").items():
        if tid not in UNIT_TYPES:
            raise DataError("units.toml", tid, f"unknown unit type; {nearest(tid, UNIT_TYPES)}")
        units[tid] = codec.decode(UnitType, spec, "units.toml", tid)
    missing = set(UNIT_TYPES) - set(units)
    if missing:
        raise DataError("units.toml", sorted(missing)[0], "missing unit type")
    terrain = {k: codec.decode(TerrainType, v, "terrain.toml", k) for k, v in _read("terrain.toml").items()}
    muster = _read("muster.toml")
    march = _read("long_march.toml")
    combat = _read("combat.toml")
    reactions = _read("reactions.toml")
    siege = _read("siege.toml")
    rules = _read("rules.toml")
    rally = rules["rally"]
    if [t - f for f, t in zip(rally["from"], rally["to"], strict=True)] != [1] * len(rally["from"]):
        raise DataError("rules.toml", "rally", "each rally raises morale by one")
    return Tables(
        units=units,
        terrain=terrain,
        muster=_die(muster, "muster.toml", "morale_lost"),
        muster_mods=_ints(muster["modifiers"], "muster.toml"),
        french_abroad_countries=tuple(muster["modifiers"]["french_abroad_countries"]),
        long_march=_die(march, "long_march.toml", "fatigue_added"),
        long_march_mods=_ints(march["modifiers"], "long_march.toml"),
        combat_attacker=_die(combat, "combat.toml", "attacker_loses"),
        combat_defender=_die(combat, "combat.toml", "defender_loses"),
        combat_mods=_ints(combat["modifiers"], "combat.toml"),
        combat_fatigue=int(combat["fatigue_per_attack"]),
        withdrawn_attack_cost=int(combat["withdrawn"]["attack_cost"]),
        reinforcement=_die(reactions["reinforcement"], "reactions.toml", "fails"),
        reinforcement_mods=_ints(reactions["reinforcement"]["modifiers"], "reactions.toml"),
        rout=_die(reactions["rout"], "reactions.toml", "morale_lost"),
        rout_mods=_ints(reactions["rout"]["modifiers"], "reactions.toml"),
        siege=_die(siege, "siege.toml", "morale_lost"),
        vp=_ints(rules["victory_points"], "rules.toml"),
        mp=_ints(rules["military_points"], "rules.toml"),
        mp_from_own_borders=tuple(rules["military_points"]["from_own_borders"]),
        rally_cost=dict(zip(rally["from"], rally["cost"], strict=True)),
        fog_lose_all=int(rules["fog_of_war"]["lose_all_percent"]),
        fog_lose_one=int(rules["fog_of_war"]["lose_one_percent"]),
        zoc_exit_cost=int(rules["zoc"]["exit_cost"]),
        seasons=tuple(rules["seasons"]["names"]),
    )
