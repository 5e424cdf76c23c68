"""Draw The Perfect General's maps for grognard: a small library, and the command that rebuilds the maps.

Each bundled map has a recipe in ``scripts/pg_maps/<map id>.py``: a ``build()`` function that draws the map
with :class:`MapMaker` and returns it. Run::

    python scripts/pg_mapmaker.py                 # rebuild every map into the ruleset's data/maps
    python scripts/pg_mapmaker.py heights_of_kravno --show
    python scripts/pg_mapmaker.py --check         # exit 1 if a map file differs from its recipe

Drawing works in the manual's ``column,row`` numbering (first cell 1,1 in the north-west corner; odd-q
flat-topped hexes, so the even-numbered columns stand half a hex lower). Lines between waypoints come from
the engine's own :meth:`HexGrid.line`, so every river, road and ridge drawn from waypoints is a chain of
adjacent hexes: a river drawn that way has no gaps for armour to slip through, and a road that crosses it
crosses on a bridge (a road cell on a river becomes a bridge when the map is written).
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import random
import sys
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from grognard.engine.geometry import HexGrid

ROOT = Path(__file__).resolve().parent.parent
MAP_DIR = ROOT / "src" / "grognard" / "rulesets" / "perfect_general" / "data" / "maps"
RECIPE_DIR = Path(__file__).resolve().parent / "pg_maps"

Point = tuple[int, int]  # (column, row) in the manual's numbering

# One character per terrain in the written file (only the codes a map uses are written).
CODES = {
    "clear": ".",
    "field": ":",
    "forest": "f",
    "forest_rubble": "F",
    "hill": "h",
    "ridge": "^",
    "town": "T",
    "town_rubble": "t",
    "fortification": "#",
    "rough": "r",
    "desert": "d",
    "depression": "D",
    "escarpment": "E",
    "cratered": "c",
    "destroyed_road": "%",
    "beach": "b",
    "river": "~",
    "bridge": "B",
    "blown_bridge": "X",
    "sea": "S",
    "lake": "L",
    "coast": "C",
}
WATER = frozenset({"sea", "lake", "coast"})  # nobody enters (p.24)
RIVERS = frozenset({"river", "blown_bridge"})  # armour does not enter (p.25)
OPEN = frozenset({"clear", "field", "hill"})  # what hills and ridges may be drawn over


class MapMaker:
    """A map being drawn: terrain and elevation per hex, paths, towns and regions."""

    def __init__(self, map_id: str, name: str, columns: int, rows: int, *, source: str, base: str = "clear") -> None:
        self.id = map_id
        self.name = name
        self.source = source
        self.grid = HexGrid(columns, rows, "odd-q", (1, 1))
        self.terrain = [base] * self.grid.size
        self.elevation = [0] * self.grid.size
        self.paths: dict[str, list[list[int]]] = {}
        self.towns: list[tuple[str, int, list[int]]] = []
        self.regions: dict[str, set[int]] = {}
        self.blown: set[int] = set()
        self.long_bridges: set[int] = set()

    # --- cells ---------------------------------------------------------------------------------------
    def at(self, p: Point) -> int:
        """The cell at a ``(column, row)`` point."""
        return self.grid.from_label(*p)

    def point(self, cell: int) -> Point:
        c, r = self.grid.coord(cell)
        return c + 1, r + 1

    def route(self, *points: Point) -> list[int]:
        """The chain of adjacent cells through the waypoints, each straight leg drawn with ``grid.line``."""
        out: list[int] = []
        for a, b in itertools.pairwise(points):
            for cell in self.grid.line(self.at(a), self.at(b)):
                if not out or out[-1] != cell:
                    out.append(cell)
        return out if len(points) > 1 else [self.at(points[0])]

    def disk(self, center: Point, radius: int) -> list[int]:
        return self.grid.within(self.at(center), radius)

    def blob(self, center: Point, radius: int, seed: int, ragged: float = 0.4) -> list[int]:
        """A ragged disk: the inner cells, and each cell of the rim (and just beyond) by chance."""
        rng = random.Random(seed)
        c0 = self.at(center)
        out = []
        for cell in self.grid.within(c0, radius + 1):
            d = self.grid.distance(c0, cell)
            if d < radius or (d == radius and rng.random() > ragged) or (d == radius + 1 and rng.random() < ragged / 3):
                out.append(cell)
        return out

    def rect(self, c0: int, r0: int, c1: int, r1: int) -> list[int]:
        """Every cell of columns ``c0..c1`` and rows ``r0..r1`` (inclusive)."""
        return [self.at((c, r)) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]

    def along(self, cells: Iterable[int], width: int) -> list[int]:
        """Every cell within ``width`` of any of ``cells``."""
        out: set[int] = set()
        for cell in cells:
            out.update(self.grid.within(cell, width))
        return sorted(out)

    def where(self, test: Callable[[int], bool], cells: Iterable[int] | None = None) -> list[int]:
        return [c for c in (self.grid.cells() if cells is None else cells) if test(c)]

    def land(self, cells: Iterable[int]) -> list[int]:
        """The cells someone can stand on (not sea, lake or coast)."""
        return [c for c in cells if self.terrain[c] not in WATER]

    def flood(self, seed: Point, barrier: Callable[[int], bool]) -> set[int]:
        """Every cell reachable from ``seed`` without entering a cell for which ``barrier`` is true."""
        start = self.at(seed)
        seen = {start}
        todo = deque([start])
        while todo:
            cell = todo.popleft()
            for n in self.grid.neighbors(cell):
                if n not in seen and not barrier(n):
                    seen.add(n)
                    todo.append(n)
        return seen

    def distances(self, sources: Iterable[int]) -> list[int]:
        """Steps from the nearest source cell, for every cell (the sources are 0)."""
        dist = [-1] * self.grid.size
        todo: deque[int] = deque()
        for c in sources:
            dist[c] = 0
            todo.append(c)
        while todo:
            cell = todo.popleft()
            for n in self.grid.neighbors(cell):
                if dist[n] < 0:
                    dist[n] = dist[cell] + 1
                    todo.append(n)
        return dist

    def col(self, cell: int) -> int:
        return self.point(cell)[0]

    def row(self, cell: int) -> int:
        return self.point(cell)[1]

    # --- painting ------------------------------------------------------------------------------------
    def paint(self, terrain: str, cells: Iterable[int], *, over: Iterable[str] | None = None) -> list[int]:
        """Set the terrain of cells (only of those whose terrain is in ``over``, if given); returns them."""
        if terrain not in CODES:
            raise ValueError(f"unknown terrain {terrain!r}")
        allowed = None if over is None else set(over)
        done = []
        for cell in cells:
            if allowed is None or self.terrain[cell] in allowed:
                self.terrain[cell] = terrain
                done.append(cell)
        return done

    def patches(
        self,
        terrain: str,
        spots: Iterable[tuple[Point, int]],
        seed: int,
        *,
        over: Iterable[str] | None = None,
        ragged: float = 0.4,
    ) -> list[int]:
        """Ragged patches of terrain, one per ``(centre, radius)`` spot, seeded ``seed``, ``seed + 1``..."""
        out = []
        for i, (center, radius) in enumerate(spots):
            out += self.paint(terrain, self.blob(center, radius, seed=seed + i, ragged=ragged), over=over)
        return out

    def fill_holes(self, water: str, land: str) -> list[int]:
        """Turn ``water`` cells cut off from the map's edge into ``land`` (ponds left between patches)."""
        edge = [c for c in self.grid.cells() if self.terrain[c] == water and self._on_edge(c)]
        seen = set(edge)
        todo = deque(edge)
        while todo:
            cell = todo.popleft()
            for n in self.grid.neighbors(cell):
                if n not in seen and self.terrain[n] == water:
                    seen.add(n)
                    todo.append(n)
        return self.paint(land, [c for c in self.grid.cells() if self.terrain[c] == water and c not in seen])

    def _on_edge(self, cell: int) -> bool:
        c, r = self.grid.coord(cell)
        return c in (0, self.grid.columns - 1) or r in (0, self.grid.rows - 1)

    def scatter(self, terrain: str, cells: Iterable[int], share: float, seed: int, *, over: Iterable[str] = OPEN):
        """Paint a random ``share`` of the cells."""
        rng = random.Random(seed)
        return self.paint(terrain, [c for c in cells if rng.random() < share], over=over)

    def river(self, *points: Point, terrain: str = "river") -> list[int]:
        """A river through the waypoints: a connected chain of river hexes (roads crossing it get bridges)."""
        cells = self.route(*points)
        for cell in cells:
            self.terrain[cell] = terrain
            self.elevation[cell] = 0
        return cells

    def path(self, kind: str, *points: Point, long_bridge: bool = False) -> list[int]:
        """A road, track or railroad through the waypoints; ``long_bridge``: it may cross two or more river
        hexes in a row (a wide river; otherwise a path running along a river is a mistake, and an error)."""
        cells = self.route(*points)
        self.paths.setdefault(kind, []).append(cells)
        if long_bridge:
            self.long_bridges.add(id(cells))
        return cells

    def road(self, *points: Point) -> list[int]:
        return self.path("road", *points)

    def blow_bridge(self, p: Point) -> None:
        """The crossing at ``p`` is a blown bridge: a road cell on the river that armour cannot use."""
        self.blown.add(self.at(p))

    def raise_to(self, cells: Iterable[int], height: int, terrain: str | None = "hill") -> None:
        """Lift cells to at least ``height``; open ground among them becomes ``terrain``."""
        for cell in cells:
            if self.terrain[cell] in WATER or self.terrain[cell] == "river":
                continue
            self.elevation[cell] = max(self.elevation[cell], height)
            if terrain and self.terrain[cell] in OPEN:
                self.terrain[cell] = terrain

    def hill(self, center: Point, height: int, radius: int, *, seed: int | None = None) -> None:
        """A hill of ``height`` levels stepping down to the plain over ``radius`` hexes (ragged if seeded)."""
        c0 = self.at(center)
        rng = random.Random(seed)
        for cell in self.grid.within(c0, radius):
            d = self.grid.distance(c0, cell)
            if seed is not None and d == radius and rng.random() < 0.4:
                continue
            h = height - (d * height) // (radius + 1)
            if h > 0:
                self.raise_to([cell], h)

    def ridge(self, *points: Point, height: int, flank: int = 1) -> list[int]:
        """A ridge crest through the waypoints at ``height``, its flanks stepping down one level a hex."""
        crest = self.route(*points)
        for step in range(flank, 0, -1):
            if height - step > 0:
                self.raise_to(self.along(crest, step), height - step)
        self.raise_to(crest, height, "ridge")
        for cell in crest:
            if self.terrain[cell] in OPEN | {"desert", "rough"}:
                self.terrain[cell] = "ridge"
        return crest

    def town(
        self, name: str, value: int, cells: Sequence[Point] | Sequence[int], *, terrain: str = "town"
    ) -> list[int]:
        """A town of 1-6 hexes worth ``value`` victory points a turn to the side holding it alone."""
        ids = [c if isinstance(c, int) else self.at(c) for c in cells]
        for cell in ids:
            if self.terrain[cell] in WATER | RIVERS:
                raise ValueError(f"town {name} on water at {self.grid.label(cell)}")
            self.terrain[cell] = terrain
        self.towns.append((name, value, ids))
        return ids

    def cluster(self, center: Point, size: int, directions: Sequence[int] = (4, 3, 2, 5, 6, 1)) -> list[int]:
        """``size`` hexes: the centre and its neighbours in the given direction order (1 N ... 6 NW)."""
        c0 = self.at(center)
        out = [c0]
        for d in directions:
            if len(out) >= size:
                break
            n = self.grid.neighbor(c0, d)
            if n >= 0:
                out.append(n)
        return out

    def region(self, name: str, cells: Iterable[int]) -> set[int]:
        self.regions[name] = set(cells)
        return self.regions[name]

    # --- writing -------------------------------------------------------------------------------------
    def finish(self) -> None:
        """Put bridges where paths cross rivers (blown where asked); flatten water."""
        for kind, paths in self.paths.items():
            for cells in paths:
                wet = [self.terrain[c] in RIVERS | {"bridge"} for c in cells]
                if id(cells) not in self.long_bridges and any(a and b for a, b in itertools.pairwise(wet)):
                    at = next(self.grid.label(c) for c, w in zip(cells, wet, strict=True) if w)
                    raise ValueError(
                        f"{self.id}: the {kind} from {self.grid.label(cells[0])} runs along a river near {at}"
                        " (long_bridge=True if meant)"
                    )
                for cell in cells:
                    if self.terrain[cell] in RIVERS:
                        self.terrain[cell] = "blown_bridge" if cell in self.blown else "bridge"
                    if self.terrain[cell] in WATER:
                        raise ValueError(f"{self.id}: a path runs into {self.terrain[cell]} at {self.grid.label(cell)}")
        for cell in self.blown:
            if self.terrain[cell] != "blown_bridge":
                raise ValueError(f"{self.id}: no road crosses a river at {self.grid.label(cell)} to blow")
        for cell in self.grid.cells():
            if self.terrain[cell] in WATER:
                self.elevation[cell] = 0

    def to_json(self) -> dict:
        self.finish()
        g = self.grid
        used = sorted({self.terrain[c] for c in g.cells()}, key=list(CODES).index)
        rows = ["".join(CODES[self.terrain[r * g.columns + c]] for c in range(g.columns)) for r in range(g.rows)]
        elev = ["".join(str(self.elevation[r * g.columns + c]) for c in range(g.columns)) for r in range(g.rows)]
        doc: dict = {
            "format": "grognard-map/1",
            "name": self.name,
            "source": f"{self.source} Recipe: scripts/pg_maps/{self.id}.py.",
            "grid": {"kind": "hex", "columns": g.columns, "rows": g.rows, "layout": "odd-q", "first": [1, 1]},
            "terrain_codes": {CODES[t]: t for t in used},
            "terrain": rows,
            "elevation": elev,
            "paths": {k: [[g.label(c) for c in p] for p in v] for k, v in self.paths.items() if v},
            "places": [
                {"name": n, "kind": "town", "cells": [g.label(c) for c in cells], "value": v}
                for n, v, cells in self.towns
            ],
            "regions": {k: self._region_json(v) for k, v in self.regions.items()},
        }
        return doc

    def _region_json(self, cells: set[int]) -> dict:
        if cells:
            cols = [self.col(c) for c in cells]
            rows = [self.row(c) for c in cells]
            box = (min(cols), min(rows), max(cols), max(rows))
            if len(cells) == (box[2] - box[0] + 1) * (box[3] - box[1] + 1):
                return {"rect": list(box)}
        g = self.grid
        return {
            "mask": [
                "".join("x" if r * g.columns + c in cells else "." for c in range(g.columns)) for r in range(g.rows)
            ]
        }

    def dumps(self) -> str:
        return dumps_map(self.to_json())


def dumps_map(doc: dict) -> str:
    """JSON with one terrain row, one path or one mask row per line: readable, and small diffs."""

    def inline(v: object) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))

    lines = ["{"]
    items = list(doc.items())
    for i, (key, value) in enumerate(items):
        end = "," if i < len(items) - 1 else ""
        if key in ("terrain", "elevation"):
            body = ",\n".join(f"  {inline(r)}" for r in value)
            lines.append(f" {inline(key)}: [\n{body}\n ]{end}")
        elif key == "paths":
            parts = []
            for kind, paths in value.items():
                inner = ",\n".join(f"   {inline(p)}" for p in paths)
                parts.append(f"  {inline(kind)}: [\n{inner}\n  ]")
            lines.append(f" {inline(key)}: {{\n" + ",\n".join(parts) + f"\n }}{end}")
        elif key == "places":
            body = ",\n".join(f"  {inline(p)}" for p in value)
            lines.append(f" {inline(key)}: [\n{body}\n ]{end}")
        elif key == "regions":
            parts = []
            for name, reg in value.items():
                if "mask" in reg:
                    rows = ",\n".join(f"    {inline(r)}" for r in reg["mask"])
                    parts.append(f'  {inline(name)}: {{"mask": [\n{rows}\n  ]}}')
                else:
                    parts.append(f"  {inline(name)}: {inline(reg)}")
            lines.append(f" {inline(key)}: {{\n" + ",\n".join(parts) + f"\n }}{end}")
        else:
            lines.append(f" {inline(key)}: {inline(value)}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --- the command -----------------------------------------------------------------------------------------
def recipes() -> dict[str, Path]:
    return {p.stem: p for p in sorted(RECIPE_DIR.glob("*.py")) if not p.stem.startswith("_")}


def build(map_id: str) -> MapMaker:
    path = recipes()[map_id]
    spec = importlib.util.spec_from_file_location(f"pg_maps_{map_id}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("pg_mapmaker", sys.modules[__name__])
    spec.loader.exec_module(module)
    maker: MapMaker = module.build()
    if maker.id != map_id:
        raise ValueError(f"{path} builds map {maker.id!r}, not {map_id!r}")
    return maker


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("maps", nargs="*", help="map ids (default: every recipe in scripts/pg_maps)")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a map file differs")
    ap.add_argument("--show", action="store_true", help="print each map as text after building it")
    ap.add_argument("--out", type=Path, default=MAP_DIR, help="where to write (default: the ruleset's maps)")
    args = ap.parse_args(argv)
    ids = args.maps or list(recipes())
    unknown = [m for m in ids if m not in recipes()]
    if unknown:
        ap.error(f"no recipe for {', '.join(unknown)}; known: {', '.join(recipes())}")
    stale = []
    for map_id in ids:
        text = build(map_id).dumps()
        target = args.out / f"{map_id}.json"
        if args.check:
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                stale.append(map_id)
        else:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target}")
        if args.show:
            from pg_render_map import render

            print(render(json.loads(text)))
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
