"""Battle of Antietam's numbers, read from the data files beside this module (each number carries its source
there) into one frozen value the rules consult."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from grognard.engine.errors import DataError
from grognard.engine.maps import GameMap, load_map, read_data

DATA = Path(__file__).parent / "data"
SEATS = ("union", "confederate")
TERRAINS = ("clear", "town", "woods", "cornfield", "river", "stream", "ford", "bridge")


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """One row of an order of battle (units.toml): what never changes in play."""

    id: str
    name: str
    side: str
    type: str  # infantry, cavalry, artillery
    strength: int  # men, or guns for artillery (§IA1.5)
    weapon: str
    eff: int
    brigade: str
    division: str
    corps: str
    turn: int  # turn of arrival; 1 = on the map at dawn
    earliest_turn: int
    entry: str  # the map region a reinforcement enters by
    dawn: str  # the square at 06:00 (turn-1 units)
    horse_artillery: bool = False
    brigade_bonus: int = 0  # the brigade leader's bonus, printed on the brigade's A row (§IA7.12)

    @property
    def artillery(self) -> bool:
        return self.type == "artillery"


@dataclass(frozen=True, slots=True)
class Weapon:
    code: str
    name: str
    artillery: bool
    casualties: tuple[int, ...]  # per range band of Tables.bands


@dataclass(frozen=True, slots=True)
class Tables:
    rules: dict[str, Any]
    terrain: dict[str, Any]
    combat: dict[str, Any]
    recovery: dict[str, Any]
    weapons: dict[str, Weapon]
    bands: tuple[tuple[int, int], ...]
    units: tuple[UnitSpec, ...]
    leaders: tuple[dict[str, Any], ...]
    # the Operations Costs Table by (row, column) and (terrain, column, diagonal), as the methods below read it
    # (the rules ask for costs tens of thousands of times a game)
    costs: dict[tuple[str, str], int | None]
    moves: dict[tuple[str, str, bool], int | None]
    # each weapon's casualties by distance, 0 to the table's last band (read from ``weapons`` and ``bands``)
    by_distance: dict[str, tuple[int, ...]]

    # --- Operations Costs Table ---------------------------------------------------------------------------
    def move_cost(self, terrain: str, column: str, diagonal: bool) -> int | None:
        """The cost to enter ``terrain`` (None: "P", prohibited)."""
        return self.moves[terrain, column, diagonal]

    def road_cost(self, column: str, diagonal: bool) -> int | None:
        return self.moves["road_bonus", column, diagonal]

    def cost(self, action: str, column: str) -> int | None:
        """A surcharge or action cost of the table (None: "P" or "N/A")."""
        return self.costs[action, column]

    def weapon_range(self, code: str) -> int:
        """The longest range at which the weapon inflicts casualties (the table's last band above 0)."""
        w = self.weapons[code]
        return max((hi for (_, hi), c in zip(self.bands, w.casualties, strict=True) if c > 0), default=0)

    def base_casualties(self, code: str, distance: int) -> int:
        """WEAPON/RANGE CASUALTY TABLE: men lost per 100 men (small arms) or per gun (artillery)."""
        row = self.by_distance[code]
        return row[distance] if 0 <= distance < len(row) else 0


def _by_distance(weapon: Weapon, bands: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """The weapon's casualties at each distance from 0 to the last band's end (0 where no band covers it)."""
    out = [0] * (max(hi for _, hi in bands) + 1)
    for d in range(len(out)):
        out[d] = next((int(c) for (lo, hi), c in zip(bands, weapon.casualties, strict=True) if lo <= d <= hi), 0)
    return tuple(out)


def _cell(table: dict[str, Any], row: str, column: str, diagonal: bool) -> int | None:
    value = table[row][table["columns"].index(column)]
    if value == "P":
        return None
    pair = value[1 if diagonal else 0]
    return pair if isinstance(pair, int) else None


def _costs(terrain: dict[str, Any]) -> dict[tuple[str, str], int | None]:
    """The surcharges and action costs by (row, column) (None: "P" or "N/A")."""
    table = terrain["costs"]
    return {
        (row, column): value if isinstance(value, int) else None
        for row, values in table.items()
        if row not in ("columns", "notes") and isinstance(values, list)
        for column, value in zip(table["columns"], values, strict=True)
    }


def _moves(terrain: dict[str, Any]) -> dict[tuple[str, str, bool], int | None]:
    """The costs to enter each terrain (and the road bonus) by (row, column, diagonal) (None: prohibited)."""
    table = terrain["move"]
    return {
        (row, column, diagonal): _cell(table, row, column, diagonal)
        for row, values in table.items()
        if row != "columns" and isinstance(values, list)
        for column in table["columns"]
        for diagonal in (False, True)
    }


def _units(raw: dict[str, Any]) -> tuple[UnitSpec, ...]:
    out = []
    for side in ("confederate", "union"):
        for u in raw[side]["units"]:
            out.append(
                UnitSpec(
                    id=u["id"],
                    name=u["name"],
                    side=side,
                    type=u["type"],
                    strength=u.get("guns", u.get("men", 0)),
                    weapon=u["weapon"],
                    eff=u["eff"],
                    brigade=u.get("brigade", ""),
                    division=u.get("division", ""),
                    corps=u.get("corps", ""),
                    turn=u["turn"],
                    earliest_turn=u.get("earliest_turn", u["turn"]),
                    entry=u.get("entry", ""),
                    dawn=u.get("dawn", ""),
                    horse_artillery=u.get("horse_artillery", False),
                    brigade_bonus=u.get("brigade_bonus", 0),
                )
            )
    # Union first: the seat order of the sequence of play (§IA2.3), and the OOB order within each side
    return tuple(sorted(out, key=lambda s: s.side != "union"))


@cache
def load_tables() -> Tables:
    rules = read_data(DATA / "rules.toml")
    terrain = read_data(DATA / "terrain.toml")
    combat = read_data(DATA / "combat.toml")
    recovery = read_data(DATA / "recovery.toml")
    units_raw = read_data(DATA / "units.toml")
    raw_weapons = {k: v for k, v in combat["weapons"].items() if k != "ranges"}
    weapons = {k: Weapon(k, v["name"], v["artillery"], tuple(v["casualties"])) for k, v in raw_weapons.items()}
    bands = tuple((lo, hi) for lo, hi in combat["weapons"]["ranges"])
    units = _units(units_raw)
    for u in units:
        if u.weapon not in weapons:
            raise DataError(str(DATA / "units.toml"), u.id, f"weapon {u.weapon!r} is not in combat.toml")
    leaders = tuple(units_raw["leaders"])
    by_distance = {k: _by_distance(w, bands) for k, w in weapons.items()}
    return Tables(
        rules, terrain, combat, recovery, weapons, bands, units, leaders, _costs(terrain), _moves(terrain), by_distance
    )


@cache
def load_battlefield() -> GameMap:
    return load_map(DATA / "map.json", TERRAINS)
