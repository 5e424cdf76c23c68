"""What the browser needs to draw La Grande Armée's map as the original did (§2.2-2.3, §3.1, §7.0): the public map
with each power's colours, the countries and their abbreviations, the seas' names, the black arrows, the
prohibited areas of the scenario, ports and the cities' kinds and short names. All of it is public: it says
nothing of any unit. The colours and names live in ``data/display.toml``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from grognard.engine import codec
from grognard.engine.errors import DataError, nearest
from grognard.engine.maps import read_data

from .board import Board
from .scenario import COUNTRIES, LEVELS, POWERS, SEATS
from .state import Phase
from .tables import DATA


@dataclass(frozen=True, slots=True)
class PowerLook:
    name: str
    adjective: str
    background: tuple[str, ...]
    foreground: str
    border: str


@dataclass(frozen=True, slots=True)
class SideLook:
    name: str
    tint: str


@dataclass(frozen=True, slots=True)
class CountryLook:
    name: str
    short: str


@dataclass(frozen=True, slots=True)
class Display:
    powers: dict[str, PowerLook]
    sides: dict[str, SideLook]
    countries: dict[str, CountryLook]
    seas: dict[str, str]
    arrows: dict[str, str]
    abbreviations: dict[str, str]
    phases: dict[str, str]
    levels: dict[str, str]


@cache
def load_display() -> Display:
    where = "display.toml"
    display: Display = codec.decode(Display, read_data(DATA / where), where)
    for key, names, known in (
        ("powers", display.powers, POWERS),
        ("sides", display.sides, SEATS),
        ("countries", display.countries, COUNTRIES),
    ):
        for name in names:
            if name not in known:
                raise DataError(where, f"{key}.{name}", f"unknown name; {nearest(name, known)}")
        missing = sorted(set(known) - set(names))
        if missing:
            raise DataError(where, key, f"no entry for {missing[0]!r}")
    for phase in Phase:
        if phase.value not in display.phases:
            raise DataError(where, "phases", f"no name for the phase {phase.value!r}")
    for level in ("AD", *LEVELS):
        if level not in display.levels:
            raise DataError(where, "levels", f"no name for the level {level!r}")
    return display


def phase_name(phase: Phase) -> str:
    return load_display().phases[phase.value]


def side_name(seat: str) -> str:
    return load_display().sides[seat].name


def power_name(power: str) -> str:
    return load_display().powers[power].name


def public_map(board: Board) -> dict[str, Any]:
    """The scenario's public map (``grognard-map/1``'s public form) with what the page draws it by."""
    display = load_display()
    out = board.map.to_public()
    for place in out["places"]:
        cell = place["cells"][0]
        place["short"] = display.abbreviations.get(place["name"], place["name"])
        place["port"] = cell in board.ports
    seas = sorted({board.terrain[c] for c in board.sea})
    out["legend"] = {
        "powers": codec.encode(display.powers),
        "sides": codec.encode(display.sides),
        "countries": codec.encode(display.countries),
        "seas": {t: display.seas.get(t, t) for t in seas},
        "arrows": _arrows(board, display),
        "prohibited": sorted(board.prohibited),
        "rivers": sorted(board.map.edge_features),  # every edge feature of this map is a river (§5.64, §5.67)
        "types": {t: {"name": ut.name, "code": ut.code} for t, ut in board.tables.units.items()},  # §3.3
        "phases": dict(display.phases),
        "levels": dict(display.levels),
    }
    return out


def _arrows(board: Board, display: Display) -> list[dict[str, Any]]:
    """§2.3 BLACK ARROWS: each drawn in its sea area, pointing the way around Portugal to the other one."""
    if board.arrows is None:
        return []
    a, b = board.arrows
    labels = [display.arrows.get(k, k) for k in ("to_gibraltar_arrow", "to_atlantic_arrow")]
    return [{"cell": a, "towards": b, "label": labels[0]}, {"cell": b, "towards": a, "label": labels[1]}]
