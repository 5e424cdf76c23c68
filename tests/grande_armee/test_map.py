"""The map of Europe (LGA §2.2-2.5, §7.0), checked against the reference geography."""

from __future__ import annotations

from pathlib import Path

import pytest

from grognard.engine.maps import GameMap, load_map
from grognard.rulesets.grande_armee.scenario import COUNTRIES

MAP = Path(__file__).parents[2] / "src/grognard/rulesets/grande_armee/data/map.json"
SEAS = {"atlantic", "north_sea", "baltic", "mediterranean"}

# shared/reference/la-grande-armee-geography.md: name, country, latitude, longitude, coastal
CITIES = [
    ("Paris", "france", 48.86, 2.35, False),
    ("Madrid", "spain", 40.42, -3.70, False),
    ("Vienna", "austria", 48.21, 16.37, False),
    ("Berlin", "prussia", 52.52, 13.40, False),
    ("London", "britain", 51.51, -0.13, True),
    ("St. Petersburg", "russia", 59.94, 30.31, True),
    ("Moscow", "russia", 55.76, 37.62, False),
    ("Amsterdam", "holland", 52.37, 4.90, True),
    ("Brussels", None, 50.85, 4.35, False),
    ("Budapest", "austria", 47.50, 19.04, False),
    ("Copenhagen", "denmark", 55.68, 12.57, True),
    ("Frankfurt", "rhine", 50.11, 8.68, False),
    ("Geneva", "switzerland", 46.20, 6.14, False),
    ("Gibraltar", "britain", 36.14, -5.35, True),
    ("Hanover", None, 52.37, 9.73, False),
    ("Innsbruck", None, 47.27, 11.39, False),
    ("Kiev", "russia", 50.45, 30.52, False),
    ("Königsberg", "prussia", 54.71, 20.51, True),
    ("Lisbon", "portugal", 38.72, -9.14, True),
    ("Leipzig", "rhine", 51.34, 12.37, False),
    ("Milan", "italy", 45.46, 9.19, False),
    ("Munich", "rhine", 48.14, 11.58, False),
    ("Portsmouth", "britain", 50.82, -1.09, True),
    ("Prague", "austria", 50.08, 14.44, False),
    ("Stockholm", "sweden", 59.33, 18.07, True),
    ("Stuttgart", "rhine", 48.78, 9.18, False),
    ("Turin", "italy", 45.07, 7.69, False),
    ("Warsaw", None, 52.23, 21.01, False),
]
CAPITALS = {
    "Paris": "france",
    "Madrid": "spain",
    "Vienna": "austria",
    "Berlin": "prussia",
    "London": "britain",
    "St. Petersburg": "russia",
    "Moscow": "russia",
}


@pytest.fixture(scope="module")
def europe() -> GameMap:
    return load_map(MAP)


def projected(europe: GameMap, lat: float, lon: float) -> int:
    """The area the projection of docs/rules/grande-armee.md gives a place."""
    row = round((60 - lat) / 2.45)  # 0-based
    col = round((lon + 9.5) / 1.7 - 0.5 * (row & 1))
    return europe.grid.index(min(max(col, 0), 29), min(max(row, 0), 9))


def country_of(europe: GameMap, cell: int) -> str | None:
    found = [c for c in COUNTRIES if cell in europe.region(c)]
    assert len(found) <= 1, found
    return found[0] if found else None


def test_300_areas_in_10_rows_of_30(europe: GameMap) -> None:
    """§2.2: ten rows and thirty columns, 300 areas."""
    assert (europe.grid.rows, europe.grid.columns, europe.grid.size) == (10, 30, 300)


def test_every_named_city_where_the_reference_puts_it(europe: GameMap) -> None:
    """§2.3, §7.0: the 7 capitals and 21 major cities, each within one area of its projected position."""
    kinds = {p.name: p.kind for p in europe.places}
    assert sorted(n for n, k in kinds.items() if k == "capital") == sorted(CAPITALS)
    assert len([k for k in kinds.values() if k == "major"]) == 21
    for name, _, lat, lon, _ in CITIES:
        cell = europe.place(name).cells[0]
        assert europe.grid.distance(cell, projected(europe, lat, lon)) <= 1, name


def test_capitals_and_cities_in_their_countries(europe: GameMap) -> None:
    """§7.0: each capital lies in its major power; the glossary's major cities in theirs."""
    for name, country in CAPITALS.items():
        assert country_of(europe, europe.place(name).cells[0]) == country, name
    for name, country, *_ in CITIES:
        if country is not None:
            assert country_of(europe, europe.place(name).cells[0]) == country, name


def test_ports_touch_the_sea_and_inland_cities_do_not(europe: GameMap) -> None:
    """§2.3 PORTS: cities along the coast that touch the ocean."""
    for name, _, _, _, coastal in CITIES:
        cell = europe.place(name).cells[0]
        touches = any(europe.terrain[n] in SEAS for n in europe.grid.neighbors(cell))
        assert touches == coastal, name


def test_every_land_area_in_exactly_one_country_and_no_sea_in_any(europe: GameMap) -> None:
    """§2.4: every land area belongs to a country (and so has a controller at start); sea and prohibited none."""
    for cell in europe.grid.cells():
        land = europe.terrain[cell] in {"clear", "forest", "mountain", "marsh"}
        assert (country_of(europe, cell) is not None) == land, europe.grid.label(cell)


def test_hinterland_is_column_30_and_moscow_is_not_in_it(europe: GameMap) -> None:
    """§2.5: the Russian Hinterland is column 30; Moscow is not part of it."""
    hinterland = europe.region("hinterland")
    assert hinterland and all(europe.grid.label(c).startswith("30,") for c in hinterland)
    assert hinterland <= europe.region("russia")
    assert europe.place("Moscow").cells[0] not in hinterland


def test_four_sea_areas_and_the_black_arrows(europe: GameMap) -> None:
    """§2.3: the Atlantic, North Sea, Baltic and Mediterranean; To Gibr north of Lisbon, To Atl in the SW corner."""
    assert set(europe.terrain) >= SEAS
    (gibr,) = europe.cell_features["to_gibraltar_arrow"]
    (atl,) = europe.cell_features["to_atlantic_arrow"]
    assert europe.terrain[gibr] == europe.terrain[atl] == "atlantic"
    lisbon = europe.place("Lisbon").cells[0]
    assert europe.grid.coord(gibr)[1] < europe.grid.coord(lisbon)[1]
    assert europe.grid.label(atl) == "1,10"
    assert atl in europe.grid.neighbors(europe.place("Gibraltar").cells[0])


def test_britain_is_an_island(europe: GameMap) -> None:
    """§2.3 SEA AREA: Britain is reached from the continent only by sea."""
    britain = europe.region("britain") - set(europe.place("Gibraltar").cells)
    for cell in britain:
        for n in europe.grid.neighbors(cell):
            assert n in britain or europe.terrain[n] in SEAS | {"prohibited"}, europe.grid.label(n)


def test_rivers_lie_between_land_areas(europe: GameMap) -> None:
    """§5.64, §5.67: rivers are hexsides; each joins two land areas."""
    assert {"rhine", "danube", "elbe", "oder", "vistula", "niemen", "po", "ebro", "tagus"} <= set(europe.edge_features)
    for edges in europe.edge_features.values():
        for a, b in edges:
            assert europe.terrain[a] not in SEAS and europe.terrain[b] not in SEAS


DOC = Path(__file__).parents[2] / "docs/rules/grande-armee.md"


def test_the_rules_document_places_every_city_where_the_map_does(europe: GameMap) -> None:
    """Issue 5 asks the rules document to say where each capital and city sits and why: its table names the area
    of every capital and major city (§7.0) as the map has it, and each "projected" area it cites is the one the
    projection gives (clamped to the map); its list of minor cities (§2.3) matches the map's."""
    import re

    doc = DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([^|]+?) \| (\d+,\d+) \| [^|]+ \| ([^|]+) \|$", doc, re.M)
    named = {name: area for name, area, _ in rows}
    assert sorted(named) == sorted(n for n, *_ in CITIES)
    coords = {n: (lat, lon) for n, _, lat, lon, _ in CITIES}
    for name, area, why in rows:
        assert europe.grid.label(europe.place(name).cells[0]) == area, name
        where = europe.grid.label(projected(europe, *coords[name]))
        cited = re.match(r"projected(?: (\d+,\d+))?", why)
        assert cited is not None, name
        assert (cited.group(1) or area) == where, name
    minors = re.search(r"Minor cities \(black circles.*?\n\n", doc, re.S)
    assert minors is not None
    listed = dict(re.findall(r"([A-Z][a-z]+)\s+(\d+,\d+)", minors.group(0)))
    on_map = {p.name: europe.grid.label(p.cells[0]) for p in europe.places if p.kind == "minor"}
    assert listed == on_map


def test_the_rule_checklist_names_code_and_tests_that_exist() -> None:
    """docs/rules/grande-armee.md's rule checklist: every module attribute, data file and test it names exists, so
    that the table a reviewer reads stays true."""
    import importlib
    import re

    doc = DOC.read_text(encoding="utf-8")
    section = doc[doc.index("## Rule checklist") : doc.index("## The map")]
    rows = [line for line in section.splitlines() if re.match(r"^\| \d", line)]
    assert len(rows) > 60
    package = "grognard.rulesets.grande_armee"
    ruleset = MAP.parent.parent
    here = Path(__file__).parent
    for row in rows:
        _, _, code, tests = (cell.strip() for cell in row.strip().strip("|").split("|"))
        for ref in re.findall(r"`([^`]+)`", code):
            if ref.startswith("data/"):
                assert (ruleset / ref).exists(), ref
                continue
            module, *attrs = ref.split(".")
            obj = importlib.import_module(f"{package}.{module}")
            for attr in attrs:
                obj = getattr(obj, attr)
        for ref in tests.split(", "):
            file, name = ref.split("::")
            source = (here / f"test_{file}.py").read_text(encoding="utf-8")
            assert f"def test_{name}(" in source, ref
