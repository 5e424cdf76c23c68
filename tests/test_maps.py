"""Map files: what a valid one builds, and errors that name the file, the key and the nearest valid name."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from grognard.engine.errors import DataError
from grognard.engine.maps import MAP_FORMAT, build_map, edge_key, load_map

TERRAINS = {"clear", "forest", "water"}
WHERE = "maps/test.json"


def document() -> dict[str, Any]:
    """A 5x4 odd-q map numbered from 1,1 as the manuals number locations."""
    return {
        "format": MAP_FORMAT,
        "name": "Test Field",
        "source": "made for the tests",
        "grid": {"kind": "hex", "columns": 5, "rows": 4, "layout": "odd-q", "first": [1, 1]},
        "terrain_codes": {".": "clear", "f": "forest", "w": "water"},
        "terrain": [".....", "..f..", ".ff..", "....w"],
        "elevation": ["00000", "01100", "01210", "00000"],
        "features": {"bridge": ["2,2"]},
        "paths": {"road": [["1,1", "2,1", "3,2", "4,2"]]},
        "edges": {"river": [["1,1", "1,2"], ["2,1", "2,2"]]},
        "places": [
            {"name": "Sharpsburg", "cells": ["3,3", "4,3"], "kind": "town", "value": 10},
            {"name": "Dunker Church", "cells": ["2,4"], "kind": "objective"},
        ],
        "regions": {
            "union": {"rect": [1, 1, 2, 2]},
            "north": {"mask": ["xx...", ".....", ".....", "....."]},
            "towns": {"places": ["Sharpsburg"], "cells": ["5,4"]},
        },
    }


def failure(doc: dict[str, Any], terrains: set[str] | None = TERRAINS) -> DataError:
    with pytest.raises(DataError) as info:
        build_map(doc, WHERE, terrains)
    assert info.value.where == WHERE and str(info.value).startswith(f"{WHERE}: ")
    return info.value


def changed(path: str, value: Any) -> dict[str, Any]:
    """The document with the value at a dotted path (list indexes as numbers) replaced."""
    doc = copy.deepcopy(document())
    keys = path.split(".")
    target: Any = doc
    for k in keys[:-1]:
        target = target[int(k)] if isinstance(target, list) else target[k]
    last = keys[-1]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return doc


def test_a_valid_map_builds_its_grid_terrain_features_places_and_regions():
    m = build_map(document(), WHERE, TERRAINS)
    g = m.grid
    assert (g.kind, g.columns, g.rows, g.first) == ("hex", 5, 4, (1, 1))
    assert m.terrain[g.parse("3,2")] == "forest" and m.terrain[g.parse("5,4")] == "water"
    assert m.elevation[g.parse("3,3")] == 2 and m.elevation[g.parse("1,1")] == 0
    assert m.has("bridge", g.parse("2,2")) and not m.has("bridge", g.parse("1,1"))
    road = [g.parse(x) for x in ("1,1", "2,1", "3,2", "4,2")]
    assert all(m.has("road", c) for c in road)
    assert m.edge_has("road", road[2], road[1]) and not m.edge_has("road", road[0], road[2])
    assert m.edge_has("river", g.parse("1,2"), g.parse("1,1"))
    assert edge_key(7, 3) == edge_key(3, 7) == (3, 7)
    town = m.place("Sharpsburg")
    assert town.value == 10 and m.place_at(g.parse("4,3")) is town and m.place_at(g.parse("1,1")) is None
    assert m.region("union") == {g.parse(x) for x in ("1,1", "2,1", "1,2", "2,2")}
    assert m.region("north") == {g.parse("1,1"), g.parse("2,1")}
    assert m.region("towns") == {*town.cells, g.parse("5,4")}
    public = json.loads(json.dumps(m.to_public()))
    assert public["grid"]["layout"] == "odd-q" and public["places"][0]["name"] == "Sharpsburg"


def test_a_map_without_elevation_is_level():
    doc = document()
    del doc["elevation"]
    assert set(build_map(doc, WHERE).elevation) == {0}


def test_a_square_map_builds():
    doc = document()
    doc["grid"] = {"kind": "square", "columns": 5, "rows": 4, "first": [1, 1]}
    doc["paths"] = {"road": [["1,1", "2,2", "3,3"]]}  # diagonal steps are adjacent on squares
    assert build_map(doc, WHERE).grid.kind == "square"


@pytest.mark.parametrize(
    ("doc", "key", "message"),
    [
        ({**document(), "terain": []}, "terain", "unknown key 'terain'; did you mean 'terrain'?"),
        (changed("grid.kind", "hexagon"), "grid.kind", "did you mean 'hex'?"),
        (changed("grid.layout", "odd-x"), "grid.layout", "'odd-x' is not allowed"),
        (changed("format", "grognard-map/0"), "format", "expected 'grognard-map/1'"),
        (changed("grid.columns", 0), "grid", "at least one column"),
        (changed("terrain", [".....", "....."]), "terrain", "expected 4 rows, found 2"),
        (changed("terrain.2", ".ff."), "terrain[2]", "expected 5 characters, found 4"),
        (changed("terrain.1", "..F.."), "terrain[1] column 3", "unknown code 'F'; valid: '.', 'f', 'w'"),
        (changed("terrain_codes.f", "forrest"), "terrain_codes.f", "unknown terrain 'forrest'; did you mean 'forest'?"),
        (changed("terrain_codes", {"ff": "forest"}), "terrain_codes.ff", "a terrain code is one character"),
        (changed("elevation.3", "0000a"), "elevation[3] column 5", "unknown code 'a'"),
        (changed("paths.road.0.2", "4,3"), "paths.road[0][2]", "4,3 is not next to 2,1"),
        (changed("edges.river.1", ["2,1", "4,1"]), "edges.river[1]", "2,1 and 4,1 are not adjacent"),
        (changed("places.1.name", "Sharpsburg"), "places[1].name", "place 'Sharpsburg' is named twice"),
        (changed("places.1.cells", []), "places[1].cells", "a place needs at least one cell"),
        (changed("places.0.cells", ["3,3", "6,1"]), "places[0].cells[1]", "6,1 is off the 5x4 map (1,1 to 5,4)"),
        (changed("features.bridge", ["2;2"]), "features.bridge[0]", "'2;2' is not a location"),
        (changed("regions.towns.places", ["Sharpsberg"]), "regions.towns.places", "did you mean 'Sharpsburg'?"),
        (changed("regions.union.rect", [0, 1, 2, 2]), "regions.union.rect", "0,1 is off the 5x4 map"),
        (changed("regions.north.mask", ["xx..."]), "regions.north.mask", "expected 4 rows, found 1"),
        (changed("places.0.value", "ten"), "places[0].value", "expected a whole number"),
    ],
)
def test_map_errors_name_the_file_the_key_and_the_nearest_name(doc, key, message):
    e = failure(doc)
    assert e.key == key
    assert message in e.problem


def test_place_and_region_lookups_suggest_the_nearest_name():
    m = build_map(document(), WHERE, TERRAINS)
    with pytest.raises(KeyError, match="did you mean 'Dunker Church'"):
        m.place("Dunker Curch")
    with pytest.raises(KeyError, match="no region 'unoin'"):
        m.region("unoin")


def test_load_map_reads_json_and_toml_files(tmp_path: Path):
    path = tmp_path / "field.json"
    path.write_text(json.dumps(document()), encoding="utf-8")
    assert load_map(path, TERRAINS).name == "Test Field"
    toml = tmp_path / "field.toml"
    toml.write_text('format = "grognard-map/1"\nname = "T"\nterrain = ["."]\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"field\.toml: grid: missing required key 'grid'"):
        load_map(toml)


def test_load_map_names_the_file_when_it_is_missing_or_not_json(tmp_path: Path):
    with pytest.raises(DataError, match=r"nowhere\.json: file not found"):
        load_map(tmp_path / "nowhere.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "grognard-map/1",\n  "name": }', encoding="utf-8")
    with pytest.raises(DataError, match=r"bad\.json: line 2 column 11: not valid JSON"):
        load_map(bad)
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("name = \n", encoding="utf-8")
    with pytest.raises(DataError, match=r"bad\.toml: not valid TOML"):
        load_map(bad_toml)
