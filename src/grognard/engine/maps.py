"""Maps: the grid with terrain, elevation, cell and edge features, named places and regions.

A map file is JSON that a scenario designer can read and edit: terrain and elevation are drawn as rows of
characters, one per cell; roads are paths of cells; rivers and other hexside features are pairs of adjacent
cells; places (towns, cities, capitals) and regions (set-up zones, countries) name cells. Locations are
written in the manual's ``column,row`` numbering. :func:`load_map` checks all of it and reports the file,
the key and what is wrong.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from . import codec
from .errors import DataError, nearest
from .geometry import Grid, HexGrid, HexLayout, SquareGrid


@dataclass(frozen=True, slots=True)
class GridSpec:
    kind: Literal["hex", "square"]
    columns: int
    rows: int
    layout: HexLayout = "odd-q"
    first: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class PlaceSpec:
    name: str
    cells: tuple[str, ...]
    kind: str = "town"
    value: int = 0
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RegionSpec:
    cells: tuple[str, ...] = ()
    rect: tuple[int, int, int, int] | None = None  # first col, first row, last col, last row (inclusive)
    mask: tuple[str, ...] = ()  # rows of characters; any character but "." marks a member
    places: tuple[str, ...] = ()  # every cell of these places


@dataclass(frozen=True, slots=True)
class MapSpec:
    """The JSON form of a map file."""

    format: str
    name: str
    grid: GridSpec
    terrain_codes: dict[str, str]
    terrain: tuple[str, ...]
    elevation: tuple[str, ...] = ()
    elevation_codes: str = "0123456789"
    source: str = ""
    features: dict[str, tuple[str, ...]] = field(default_factory=dict)
    paths: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    edges: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    places: tuple[PlaceSpec, ...] = ()
    regions: dict[str, RegionSpec] = field(default_factory=dict)


MAP_FORMAT = "grognard-map/1"


@dataclass(frozen=True, slots=True)
class Place:
    """A named place: a town or city (with its victory value), a capital, an objective square."""

    name: str
    kind: str
    cells: tuple[int, ...]
    value: int = 0
    data: Mapping[str, Any] = field(default_factory=dict)


def edge_key(a: int, b: int) -> tuple[int, int]:
    """The one name of the edge (hexside) between two adjacent cells, whichever side it is seen from."""
    return (a, b) if a < b else (b, a)


class GameMap:
    """A loaded, checked map. Immutable; what changes in play (craters, rubble) lives in the game state."""

    def __init__(
        self,
        name: str,
        grid: Grid,
        terrain: tuple[str, ...],
        elevation: tuple[int, ...],
        cell_features: Mapping[str, frozenset[int]],
        edge_features: Mapping[str, frozenset[tuple[int, int]]],
        places: tuple[Place, ...],
        regions: Mapping[str, frozenset[int]],
        source: str = "",
    ) -> None:
        self.name = name
        self.grid = grid
        self.terrain = terrain
        self.elevation = elevation
        self.cell_features = dict(cell_features)
        self.edge_features = dict(edge_features)
        self.places = places
        self.regions = dict(regions)
        self.source = source
        self._place_of: dict[int, Place] = {c: p for p in places for c in p.cells}
        self._places_by_name = {p.name: p for p in places}

    def has(self, feature: str, cell: int) -> bool:
        """Whether a cell carries a feature (``"road"`` cells are those on a road path, for instance)."""
        cells = self.cell_features.get(feature)
        return cells is not None and cell in cells

    def edge_has(self, feature: str, a: int, b: int) -> bool:
        """Whether the edge between adjacent ``a`` and ``b`` carries a feature (a river hexside, a road)."""
        edges = self.edge_features.get(feature)
        return edges is not None and edge_key(a, b) in edges

    def place_at(self, cell: int) -> Place | None:
        return self._place_of.get(cell)

    def place(self, name: str) -> Place:
        try:
            return self._places_by_name[name]
        except KeyError:
            raise KeyError(f"no place {name!r} on {self.name}; {nearest(name, self._places_by_name)}") from None

    def region(self, name: str) -> frozenset[int]:
        try:
            return self.regions[name]
        except KeyError:
            raise KeyError(f"no region {name!r} on {self.name}; {nearest(name, self.regions)}") from None

    def to_public(self) -> dict[str, Any]:
        """Everything a player may know of the map (all of it): the form views and the browser use."""
        return {
            "name": self.name,
            "grid": {
                "kind": self.grid.kind,
                "columns": self.grid.columns,
                "rows": self.grid.rows,
                "layout": getattr(self.grid, "layout", None),
                "first": list(self.grid.first),
            },
            "terrain": list(self.terrain),
            "elevation": list(self.elevation),
            "features": {k: sorted(v) for k, v in sorted(self.cell_features.items())},
            "edges": {k: sorted(list(e) for e in v) for k, v in sorted(self.edge_features.items())},
            "places": [
                {"name": p.name, "kind": p.kind, "cells": list(p.cells), "value": p.value, **dict(p.data)}
                for p in self.places
            ],
            "regions": {k: sorted(v) for k, v in sorted(self.regions.items())},
        }


def make_grid(spec: GridSpec) -> Grid:
    if spec.kind == "hex":
        return HexGrid(spec.columns, spec.rows, spec.layout, spec.first)
    return SquareGrid(spec.columns, spec.rows, spec.first)


def read_data(path: Path) -> Any:
    """The JSON or TOML content of a data file, with a clear error when it does not parse."""
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(where, "", "file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise DataError(where, "", f"cannot read: {e}") from None
    if path.suffix == ".toml":
        import tomllib

        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise DataError(where, "", f"not valid TOML: {e}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(where, f"line {e.lineno} column {e.colno}", f"not valid JSON: {e.msg}") from None


def load_map(path: Path, terrain_names: Collection[str] | None = None) -> GameMap:
    """Load and check a map file; ``terrain_names`` are the terrains the ruleset knows."""
    return build_map(read_data(path), str(path), terrain_names)


def build_map(data: Any, where: str, terrain_names: Collection[str] | None = None) -> GameMap:
    """Check a map's JSON value and build the :class:`GameMap`."""
    spec: MapSpec = codec.decode(MapSpec, data, where)
    if spec.format != MAP_FORMAT:
        raise DataError(where, "format", f"expected {MAP_FORMAT!r}, found {spec.format!r}")
    try:
        grid = make_grid(spec.grid)
    except ValueError as e:
        raise DataError(where, "grid", str(e)) from None

    def cell(label: str, key: str) -> int:
        try:
            return grid.parse(label)
        except ValueError as e:
            raise DataError(where, key, str(e)) from None

    for code, name in spec.terrain_codes.items():
        if len(code) != 1:
            raise DataError(where, f"terrain_codes.{code}", "a terrain code is one character")
        if terrain_names is not None and name not in terrain_names:
            raise DataError(where, f"terrain_codes.{code}", f"unknown terrain {name!r}; {nearest(name, terrain_names)}")
    terrain = _read_grid_rows(spec.terrain, grid, where, "terrain", spec.terrain_codes)
    if spec.elevation:
        codes = {ch: i for i, ch in enumerate(spec.elevation_codes)}
        elevation = tuple(
            codes[ch] for ch in _read_grid_rows(spec.elevation, grid, where, "elevation", {c: c for c in codes})
        )
    else:
        elevation = (0,) * grid.size

    cell_features: dict[str, set[int]] = {}
    for name, labels in spec.features.items():
        cell_features.setdefault(name, set()).update(cell(lb, f"features.{name}[{i}]") for i, lb in enumerate(labels))
    edge_features: dict[str, set[tuple[int, int]]] = {}
    for name, paths in spec.paths.items():
        for p, path in enumerate(paths):
            cells = [cell(lb, f"paths.{name}[{p}][{i}]") for i, lb in enumerate(path)]
            cell_features.setdefault(name, set()).update(cells)
            for i, (a, b) in enumerate(itertools.pairwise(cells)):
                if not grid.adjacent(a, b):
                    raise DataError(
                        where,
                        f"paths.{name}[{p}][{i + 1}]",
                        f"{grid.label(b)} is not next to {grid.label(a)}: a path goes from cell to adjacent cell",
                    )
                edge_features.setdefault(name, set()).add(edge_key(a, b))
    for name, pairs in spec.edges.items():
        for i, (la, lb) in enumerate(pairs):
            a, b = cell(la, f"edges.{name}[{i}][0]"), cell(lb, f"edges.{name}[{i}][1]")
            if not grid.adjacent(a, b):
                raise DataError(
                    where, f"edges.{name}[{i}]", f"{la} and {lb} are not adjacent: an edge joins neighbours"
                )
            edge_features.setdefault(name, set()).add(edge_key(a, b))

    places = []
    seen: set[str] = set()
    for i, ps in enumerate(spec.places):
        if ps.name in seen:
            raise DataError(where, f"places[{i}].name", f"place {ps.name!r} is named twice")
        seen.add(ps.name)
        if not ps.cells:
            raise DataError(where, f"places[{i}].cells", "a place needs at least one cell")
        place_cells = tuple(cell(lb, f"places[{i}].cells[{j}]") for j, lb in enumerate(ps.cells))
        places.append(Place(ps.name, ps.kind, place_cells, ps.value, dict(ps.data)))
    by_name = {p.name: p for p in places}

    regions: dict[str, frozenset[int]] = {}
    for name, r in spec.regions.items():
        members: set[int] = {cell(lb, f"regions.{name}.cells[{j}]") for j, lb in enumerate(r.cells)}
        if r.rect is not None:
            c0, r0, c1, r1 = r.rect
            for c in range(min(c0, c1), max(c0, c1) + 1):
                for rr in range(min(r0, r1), max(r0, r1) + 1):
                    members.add(cell(f"{c},{rr}", f"regions.{name}.rect"))
        if r.mask:
            rows = _read_grid_rows(r.mask, grid, where, f"regions.{name}.mask", None)
            members.update(i for i, ch in enumerate(rows) if ch != ".")
        for pn in r.places:
            if pn not in by_name:
                raise DataError(where, f"regions.{name}.places", f"no place {pn!r}; {nearest(pn, by_name)}")
            members.update(by_name[pn].cells)
        regions[name] = frozenset(members)

    return GameMap(
        spec.name,
        grid,
        terrain,
        elevation,
        {k: frozenset(v) for k, v in cell_features.items()},
        {k: frozenset(v) for k, v in edge_features.items()},
        tuple(places),
        regions,
        spec.source,
    )


def _read_grid_rows(
    rows: Iterable[str], grid: Grid, where: str, key: str, codes: Mapping[str, str] | None
) -> tuple[str, ...]:
    """Rows of characters, one per cell, checked against the grid size and the code table."""
    rows = list(rows)
    if len(rows) != grid.rows:
        raise DataError(where, key, f"expected {grid.rows} rows, found {len(rows)}")
    out: list[str] = []
    for r, line in enumerate(rows):
        if len(line) != grid.columns:
            raise DataError(where, f"{key}[{r}]", f"expected {grid.columns} characters, found {len(line)}")
        for c, ch in enumerate(line):
            if codes is None:
                out.append(ch)
            elif ch in codes:
                out.append(codes[ch])
            else:
                raise DataError(
                    where,
                    f"{key}[{r}] column {c + grid.first[0]}",
                    f"unknown code {ch!r}; {nearest(ch, codes)}",
                )
    return tuple(out)
