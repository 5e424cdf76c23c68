"""Objective Kursk's scenarios: 5 July 1943 AM with §3.2's historical set-up, to the 15 July PM turn (§3.5).

A scenario file (``data/scenarios/<id>.json``, format ``grognard-kursk-scenario/1``) names its first and last
turn; the forces are always §13's, built from ``oob.toml`` and ``divisions.toml`` (§14).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grognard.engine.errors import DataError
from grognard.engine.maps import read_data
from grognard.engine.protocol import Scenario, ScenarioInfo

from .state import OFF_MAP, Group, Unit
from .tables import DATA, Tables

SCENARIO_FORMAT = "grognard-kursk-scenario/1"
SCENARIO_DIR = DATA / "scenarios"


@dataclass(frozen=True, slots=True)
class KurskScenario(Scenario):
    info: ScenarioInfo
    doc: Mapping[str, Any]
    last_turn: int

    def document(self) -> dict[str, Any]:
        return dict(self.doc)


def scenario_from_document(doc: Mapping[str, Any], where: str) -> KurskScenario:
    if doc.get("format") != SCENARIO_FORMAT:
        raise DataError(where, "format", f"expected {SCENARIO_FORMAT!r}, found {doc.get('format')!r}")
    last = doc.get("last_turn")
    if not isinstance(last, int) or not 1 <= last <= 22:
        raise DataError(where, "last_turn", "a whole number of turns from 1 to 22 (5 July AM to 15 July PM, §3.5)")
    info = ScenarioInfo(
        str(doc.get("id", "custom")),
        str(doc.get("name", "")),
        str(doc.get("summary", "")),
        str(doc.get("description", "")),
        last,
    )
    return KurskScenario(info, dict(doc), last)


def read_scenario(path: Path) -> KurskScenario:
    return scenario_from_document(read_data(path), str(path))


def scaled(count: int, strength: int) -> int:
    """§14's footnotes: a count at ``strength`` per cent, halves rounded up (docs/rules/kursk.md)."""
    return (count * strength + 50) // 100


def soviet_arrival(listed: int, level: int, tables: Tables) -> int:
    """§12: Soviet reinforcements 2 turns earlier per level below 3, later per level above; never before turn 1."""
    lv = tables["levels"]
    shift = int(lv["reinforcements"]["turns_per_level"]) * (int(lv["levels"]["historical"]) - level)
    return max(int(lv["reinforcements"]["earliest_turn"]), listed - shift)


def order_of_battle(tables: Tables, level: int) -> tuple[Group, ...]:
    """Every group of §13 with §14's contents: at its start hex on turn 1, or waiting for its arrival turn."""
    grid = tables.map.grid
    oob, divs = tables["oob"], tables["divisions"]
    words = tables["sequence"]["groups"]["mechanized_words"]
    start_mode = tables["supply"].get("start_mode", {})
    groups: list[Group] = []
    for div in oob["division"]:
        template = divs["templates"][div["template"]]
        groups_of = divs["templates"][template.get("same_as", div["template"])]["groups"]
        morale = int(divs["standard"][template["type"]][0])  # §14 morale of the division's type
        designation = str(div["designation"])
        mech = any(w in designation.split() for w in words)  # §4.1
        side = str(div["side"])
        arrives = int(div.get("arrives", 1))
        if side == "soviet" and "arrives" in div:
            arrives = soviet_arrival(arrives, level, tables)
        entry = tuple(sorted(tables.map.region(f"entry_{div['entry']}"))) if "entry" in div else ()
        for i, gid in enumerate(div["groups"]):
            units = tuple(
                Unit(
                    str(u["name"]),
                    tuple(
                        (w, scaled(int(n), int(div["strength"])))
                        for w, n in u["weapons"].items()
                        if scaled(int(n), int(div["strength"])) > 0
                    ),
                )
                for u in groups_of[i]
            )
            cell = grid.parse(div["start"][i]) if "start" in div and arrives <= 1 else OFF_MAP
            mode = str(start_mode.get(side if cell != OFF_MAP else "reinforcement", "static"))
            groups.append(
                Group(
                    int(gid),
                    side,
                    designation,
                    mech,
                    cell,
                    tuple(u for u in units if u.weapons),
                    mode=mode,
                    supply=tables.modes[mode].max_supply,
                    morale=morale,
                    arrives=arrives,
                    entry=entry,
                )
            )
    return tuple(sorted(groups, key=lambda g: g.id))
