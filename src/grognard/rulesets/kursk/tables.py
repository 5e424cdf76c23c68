"""Objective Kursk's tables, read once from ``data/`` (every number with its manual section there)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from math import lcm
from pathlib import Path
from typing import Any

from grognard.engine.maps import GameMap, load_map, read_data

DATA = Path(__file__).parent / "data"
TERRAINS = frozenset({"clear", "woods", "gully", "town"})
SEATS = ("soviet", "german")  # §3.3: the Soviet phases come first


def frac(pair: Any) -> Fraction:
    """A ``[numerator, denominator]`` pair of the data files as an exact fraction (no floats in rules)."""
    return Fraction(int(pair[0]), int(pair[1]))


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon system of §8.1."""

    name: str
    attack: int
    defence: int
    wt: str  # AP, HE or I
    column: str  # AFV, towed or infantry
    afv: bool  # §8.1: DS > 3 is an AFV target, else SOFT


@dataclass(frozen=True, slots=True)
class Mode:
    """A mode of §6.2."""

    name: str
    mech_move: int
    inf_move: int
    defence: Fraction
    max_supply: int
    towed_guns: bool
    plots: tuple[str, ...]


FIRE_KINDS = ("offensive", "defensive", "opportunity", "bombardment")  # §8.1, §9.2, §9.5, §9.6


@dataclass(frozen=True, slots=True)
class Tables:
    map: GameMap
    weapons: dict[str, Weapon]
    modes: dict[str, Mode]
    raw: dict[str, Any]  # every other file as read, by stem (supply, combat, fire, ...)
    # every system's AS (``strength``) against AFV and SOFT targets in each kind of fire, times ``scale`` (the
    # least common denominator of them all), as whole numbers: a fire's strength is summed in integers
    scaled: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    scale: int = 1
    # what the rules ask of the map alone, worked out once (``Ctx.roads``, ``Ctx.around``)
    roads: frozenset[int] = frozenset()
    around: tuple[tuple[int, ...], ...] = ()
    within: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)  # ``Ctx.hexes_around``, as asked
    plots: dict[str, Any] = field(default_factory=dict)  # each plot text's meaning (``plots.parse``), as asked

    def __getitem__(self, name: str) -> Any:
        return self.raw[name]

    # §8.1 substitutions ----------------------------------------------------------------------------------
    def strength(self, w: Weapon, afv_target: bool, kind: str) -> Fraction:
        """A system's AS against a target class in one kind of fire, after §8.1's substitutions and the fire
        kind's halving (offensive towed guns, opportunity fire, bombardment)."""
        sub = self["weapons"]["substitute"]
        fire = self["fire"]
        if afv_target:
            base = w.attack if w.wt == "AP" else int(sub["he_vs_afv"] if w.wt == "HE" else sub["i_vs_afv"])
        elif w.column == "AFV" and kind == "offensive":  # §8.1 AFVs fire AS 6 on soft targets in offensive fire
            base = int(sub["su152_offensive_vs_soft"] if w.name == "SU-152" else sub["afv_offensive_vs_soft"])
        else:
            base = int(sub["ap_vs_soft"]) if w.wt == "AP" else w.attack
        value = Fraction(base)
        if kind == "offensive" and w.column == "towed":
            value *= frac(fire["offensive"]["towed_as_factor"])  # §8.1, §9.6
        elif kind == "opportunity":
            value *= frac(fire["opportunity"]["as_factor"])  # §8.1, §9.5
        elif kind == "bombardment":
            value *= frac(fire["bombardment"]["as_factor"])  # §8.1, §9.2
        return value

    def may_fire(self, w: Weapon, kind: str, mode: str) -> bool:
        """Which systems take part in a kind of fire (§6.2, §8.1, §9.2, §9.5)."""
        if w.column == "towed" and not self.modes[mode].towed_guns:
            return False  # §6.2, §8.1: no towed guns in mobile or road mode
        if kind == "bombardment":
            return w.name.endswith("FH")  # §9.2 only field howitzers
        if kind == "opportunity":
            return w.column in ("AFV", "towed") and w.wt in ("HE", "AP")  # §9.5, §8.1
        return True


@cache
def load_tables() -> Tables:
    raw = {p.stem: read_data(p) for p in sorted(DATA.glob("*.toml"))}
    weapons = {
        name: Weapon(
            name,
            int(w["as"]),
            int(w["ds"]),
            str(w["wt"]),
            str(w["column"]),
            int(w["ds"]) > int(raw["weapons"]["target_class"]["afv_ds_above"]),
        )
        for name, w in raw["weapons"]["system"].items()
    }
    modes = {
        name: Mode(
            name,
            int(m["mech_move"]),
            int(m["inf_move"]),
            frac(m["defence"]),
            int(m["max_supply"]),
            bool(m["towed_guns"]),
            tuple(m["plots"]),
        )
        for name, m in raw["modes"]["mode"].items()
    }
    tables = Tables(load_map(DATA / "map.json", TERRAINS), weapons, modes, raw)
    pairs = {
        (w, k): (tables.strength(weapons[w], True, k), tables.strength(weapons[w], False, k))
        for w in weapons
        for k in FIRE_KINDS
    }
    scale = lcm(*(x.denominator for pair in pairs.values() for x in pair))
    scaled = {key: (int(a * scale), int(b * scale)) for key, (a, b) in pairs.items()}
    game_map = tables.map
    grid = game_map.grid
    towns = {c for c in grid.cells() if game_map.terrain[c] == "town"}
    roads = frozenset(game_map.cell_features.get("road", frozenset()) | towns)
    around = tuple(grid.neighbors(c) for c in range(grid.size))
    return replace(tables, scaled=scaled, scale=scale, roads=roads, around=around)
