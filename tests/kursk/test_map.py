"""The map (§1.4, §4.5, §5.1, §5.3, §8.4, §9.4, §11.1), rebuilt from geography by scripts/kursk_map.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from grognard.engine.maps import GameMap

ROOT = Path(__file__).parents[2]

# §11.1 as printed ("Shehlgry" is Shchigry), with each town's GeoNames position (reference table).
TOWNS_11_1 = {
    "Lgov": (10000, 51.6307, 35.2775),
    "Oboyan": (10000, 51.2107, 36.2761),
    "Kursk": (25000, 51.7373, 36.1874),
    "Shchigry": (10000, 51.8756, 36.9043),
    "Belgorod": (25000, 50.6107, 36.5802),
    "Prokhorovka": (5000, 51.0374, 36.7325),
    "Sudzha": (5000, 51.1976, 35.2726),
    "Korocha": (5000, 50.8132, 37.1860),
}
# The reference's hex of each (shared/reference/objective-kursk-battlefield.md, "Places", 0-based col,row).
REFERENCE_HEX = {
    "Kursk": "15,3",
    "Shchigry": "26,1",
    "Lgov": "0,6",
    "Sudzha": "0,16",
    "Oboyan": "16,16",
    "Prokhorovka": "23,19",
    "Korocha": "30,25",
    "Belgorod": "21,29",
}
RIVERS = ["psel", "pena", "northern_donets", "lipovyi_donets", "seym"]


def projected(m: GameMap, lat: float, lon: float) -> int:
    """docs/rules/kursk.md's projection."""
    col = round((lon - 35.25) / 0.0640)
    row = round((51.90 - lat) / 0.04342 - 0.5 * (col % 2))
    return m.grid.index(col, row)


def test_31_by_32_hexes_in_flat_topped_columns(kursk_map: GameMap) -> None:
    """§1.4, §4.5: 31 wide, 32 high; keys 1 N ... 6 NW mean flat-topped hexes with north and south neighbours."""
    g = kursk_map.grid
    assert (g.columns, g.rows, g.size) == (31, 32, 992)
    assert g.kind == "hex" and getattr(g, "layout", None) == "odd-q"
    c = g.index(10, 10)
    assert [g.label(g.neighbor(c, d)) for d in range(1, 7)] == ["10,9", "11,9", "11,10", "10,11", "9,10", "9,9"]


def test_every_town_of_11_1_with_its_points(kursk_map: GameMap) -> None:
    """§11.1: the eight towns and their VPs, each where the projection and the reference put it."""
    vp = {p.name: p.value for p in kursk_map.places if p.value}
    assert vp == {name: v for name, (v, _, _) in TOWNS_11_1.items()}
    assert sum(vp.values()) == 95000
    for name, (_, lat, lon) in TOWNS_11_1.items():
        place = kursk_map.place(name)
        assert place.cells == (projected(kursk_map, lat, lon),), name
        assert kursk_map.grid.label(place.cells[0]) == REFERENCE_HEX[name], name
        assert kursk_map.terrain[place.cells[0]] == "town", name


def test_kursk_in_the_north_belgorod_in_the_south(kursk_map: GameMap) -> None:
    """§1.4: "from Kursk in the north to Belgorod in the south"."""
    kursk = kursk_map.grid.coord(kursk_map.place("Kursk").cells[0])
    belgorod = kursk_map.grid.coord(kursk_map.place("Belgorod").cells[0])
    assert kursk[1] <= 3 and belgorod[1] >= 28


def test_belgorod_starts_german_every_other_town_soviet(kursk_map: GameMap) -> None:
    """AMB-24 (docs/rules/kursk.md): Belgorod was German on 5 July, every other VP town Soviet."""
    control = {p.name: p.data["control"] for p in kursk_map.places if p.value}
    assert control.pop("Belgorod") == "german"
    assert set(control.values()) == {"soviet"}


def test_two_german_depot_roads_on_the_south_edge(kursk_map: GameMap) -> None:
    """§5.1, §5.3: German depots enter on two different roads of the south edge."""
    cells = kursk_map.region("german_depot_entry")
    assert len(cells) == 2
    for c in cells:
        assert kursk_map.grid.coord(c)[1] == 31 and kursk_map.has("road", c)


def test_five_soviet_depot_roads_on_the_east_edge(kursk_map: GameMap) -> None:
    """§5.1, §5.3: Soviet depots enter on five different roads of the east edge."""
    cells = kursk_map.region("soviet_depot_entry")
    assert len(cells) == 5
    for c in cells:
        assert kursk_map.grid.coord(c)[0] == 30 and kursk_map.has("road", c)


def test_reinforcement_entries_are_depot_roads(kursk_map: GameMap) -> None:
    """§13's entry letters: A-D Soviet roads of the east edge, E the German roads of the south edge."""
    soviet = kursk_map.region("soviet_depot_entry")
    for letter in "ABCD":
        assert len(kursk_map.region(f"entry_{letter}")) == 1
        assert kursk_map.region(f"entry_{letter}") <= soviet
    assert kursk_map.region("entry_E") == kursk_map.region("german_depot_entry")
    rows = [kursk_map.grid.coord(next(iter(kursk_map.region(f"entry_{x}"))))[1] for x in "ABCD"]
    assert rows == sorted(rows)  # lettered north to south


def sides_touch(m: GameMap, p: tuple[int, int], q: tuple[int, int]) -> bool:
    """Two hexsides share a corner: they share one cell and their other cells are neighbours."""
    common = set(p) & set(q)
    if len(common) != 1:
        return False
    (x,) = set(p) - common
    (y,) = set(q) - common
    return m.grid.adjacent(x, y)


@pytest.mark.parametrize("river", [*RIVERS, "sazhnovsky_donets", "vorskla", "korocha"])
def test_each_river_is_one_connected_chain_of_hexsides(kursk_map: GameMap, river: str) -> None:
    """§5.1, §10.2 name river hexsides: each river is one line of hexsides with no gap."""
    sides = sorted(kursk_map.edge_features[river])
    assert len(sides) >= 8
    seen, todo = {sides[0]}, [sides[0]]
    while todo:
        s = todo.pop()
        for t in sides:
            if t not in seen and sides_touch(kursk_map, s, t):
                seen.add(t)
                todo.append(t)
    assert len(seen) == len(sides), river


def test_the_five_rivers_are_rivers_the_minor_ones_streams(kursk_map: GameMap) -> None:
    """§10.2: streams turn into rivers in rain; the issue's five rivers are river hexsides."""
    river = kursk_map.edge_features["river"]
    stream = kursk_map.edge_features["stream"]
    assert river == frozenset().union(*(kursk_map.edge_features[r] for r in RIVERS))
    for s in ("sazhnovsky_donets", "vorskla", "korocha"):
        assert kursk_map.edge_features[s] <= stream


def test_rivers_pass_the_towns_on_their_banks(kursk_map: GameMap) -> None:
    """The Psel at Oboyan, the Seym at Kursk, the Donets at Belgorod: a river hexside touches the town's hex."""
    for town, river in (("Oboyan", "psel"), ("Kursk", "seym"), ("Belgorod", "northern_donets")):
        c = kursk_map.place(town).cells[0]
        assert any(c in side for side in kursk_map.edge_features[river]), town


def test_the_railway_joins_belgorod_prokhorovka_and_kursk(kursk_map: GameMap) -> None:
    rail = kursk_map.cell_features["railway"]
    for town in ("Belgorod", "Prokhorovka", "Kursk"):
        assert kursk_map.place(town).cells[0] in rail


def test_roads_join_every_vp_town(kursk_map: GameMap) -> None:
    """Road movement (§6.3) needs road/town hexes: every VP town lies on the one connected road net."""
    road = kursk_map.cell_features["road"]
    start = kursk_map.place("Belgorod").cells[0]
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        for n in kursk_map.grid.neighbors(c):
            if n in road and n not in seen and kursk_map.edge_has("road", c, n):
                seen.add(n)
                todo.append(n)
    for p in kursk_map.places:
        if p.value:
            assert p.cells[0] in seen, p.name
    assert kursk_map.region("german_depot_entry") <= seen and kursk_map.region("soviet_depot_entry") <= seen


def test_terrain_of_5_1_and_8_4(kursk_map: GameMap) -> None:
    """§5.1 and §8.4 name clear, town, woods and gully; woods are 10-15% of the map (reference)."""
    assert set(kursk_map.terrain) == {"clear", "woods", "gully", "town"}
    woods = kursk_map.terrain.count("woods")
    assert 0.09 * 992 <= woods <= 0.15 * 992


def test_minefields_lie_on_the_soviet_belts(kursk_map: GameMap) -> None:
    """§9.4: Soviet minefields, on the first, second and third belts, never in a town."""
    mines = kursk_map.cell_features["minefield"]
    belts = kursk_map.region("belt_1") | kursk_map.region("belt_2") | kursk_map.region("belt_3")
    assert mines and mines <= belts
    assert not any(kursk_map.terrain[c] == "town" for c in mines)
    assert kursk_map.place("Belgorod").cells[0] not in belts


def test_the_map_file_is_what_its_recipe_builds() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts/kursk_map.py"), "--check"], capture_output=True, text=True, check=False
    )
    assert r.returncode == 0, r.stdout + r.stderr
