"""The battlefield (map.json): the manual's grid, victory squares and entry squares, and a creek that is crossed
only at its bridges and fords."""

from __future__ import annotations

import subprocess
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path

from grognard.engine.maps import GameMap

ROOT = Path(__file__).resolve().parents[2]

# §IA10.1 (and §B7.1), as printed: "In possession of square"
VICTORY_PRINTED = """
17,2  =  1000 (500 if in ZOC)
18,9  =  1000 (500)
21,14 =  1000 (500)
31,18 =  1000 (500)
25,3  =  1000 (500)
28,11 =  2000 (1000)
32,7  =  4000 (2000)
33,1  = 10000 (5000)
"""


def _victory_printed() -> dict[str, tuple[int, int]]:
    out = {}
    for line in VICTORY_PRINTED.strip().splitlines():
        square, rest = (s.strip() for s in line.split("="))
        full, half = rest.split("(")
        out[square] = (int(full), int(half.split()[0].rstrip(")")))
    return out


def _labels(m: GameMap, cells: object) -> set[str]:
    return {m.grid.label(c) for c in cells}  # type: ignore[attr-defined]


def test_grid_is_42_by_36_squares_ia1_3(battlefield: GameMap) -> None:
    """§IA1.3 "The map is situated on a 42 X 36 square grid", numbered x,y from 0 (0,18 and 17,0 exist)."""
    g = battlefield.grid
    assert (g.kind, g.columns, g.rows, g.first) == ("square", 42, 36, (0, 0))
    assert g.parse("0,18") >= 0 and g.parse("17,0") >= 0 and g.parse("41,35") == g.size - 1


def test_victory_squares_where_the_manual_puts_them_ia10_1(battlefield: GameMap) -> None:
    """§IA10.1: every victory square, its points and its points "if in ZOC", and no other victory square."""
    printed = _victory_printed()
    places = [p for p in battlefield.places if p.kind == "victory"]
    got = {battlefield.grid.label(p.cells[0]): (p.value, p.data["in_zoc"]) for p in places}
    assert all(len(p.cells) == 1 for p in places)
    assert got == printed


def test_victory_squares_stand_on_land(battlefield: GameMap) -> None:
    """A square the Union must hold can be entered: none is creek or river; Sharpsburg's (32,7) is town."""
    for p in battlefield.places:
        if p.kind == "victory":
            assert battlefield.terrain[p.cells[0]] not in ("stream", "river"), p.name
    assert battlefield.terrain[battlefield.grid.parse("32,7")] == "town"


def test_entry_squares_of_the_orders_of_battle_ia6_0(battlefield: GameMap) -> None:
    """OOB notes (§IA6.0): Confederate turn 2 on 17,0; Union turn 2 on 0,18 to 0,20, turn 3 on 0,25 to 0,32."""
    assert _labels(battlefield, battlefield.region("confederate_entry_turn_2")) == {"17,0"}
    assert _labels(battlefield, battlefield.region("union_entry_turn_2")) == {"0,18", "0,19", "0,20"}
    assert _labels(battlefield, battlefield.region("union_entry_turn_3")) == {f"0,{y}" for y in range(25, 33)}


def test_turn_9_entry_is_the_road_from_33_1_to_32_4(battlefield: GameMap) -> None:
    """ "Turn 9 reinforcements appear on the road from 33,1 to 32,4": road squares linked orthogonally from one end
    to the other, and nothing else."""
    g = battlefield.grid
    cells = set(battlefield.region("confederate_entry_turn_9"))
    start, end = g.parse("33,1"), g.parse("32,4")
    assert start in cells and end in cells
    assert all(battlefield.has("road", c) for c in cells)
    # a chain: every square but the ends has exactly two neighbours in the region, linked by road edges
    for c in cells:
        links = [d for d in cells if d != c and g.distance(c, d) == 1 and battlefield.edge_has("road", c, d)]
        assert len(links) == (1 if c in (start, end) else 2), g.label(c)


def test_rear_corners_ia8_5(battlefield: GameMap) -> None:
    """§IA8.5: the Confederate rear is the upper right corner, the Union's the lower left (row 0 drawn on top)."""
    assert _labels(battlefield, battlefield.region("confederate_rear")) == {"41,0"}
    assert _labels(battlefield, battlefield.region("union_rear")) == {"0,35"}


def test_terrain_types_of_ia1_3(battlefield: GameMap) -> None:
    """§IA1.3: clear, town, woods, cornfields, fords, roads, streams, rivers and bridges all appear."""
    assert set(battlefield.terrain) == {"clear", "town", "woods", "cornfield", "ford", "stream", "river", "bridge"}
    assert battlefield.has("road", battlefield.grid.parse("32,7"))


def test_four_elevation_levels_ia8_3(battlefield: GameMap) -> None:
    """§IA8.3 "There are four elevation levels"; the creek runs in the lowest."""
    assert set(battlefield.elevation) == {1, 2, 3, 4}
    creek = battlefield.region("creek")
    assert {battlefield.elevation[c] for c in creek} == {1}


def _components(m: GameMap, passable: Callable[[int], bool]) -> dict[int, int]:
    """Connected areas for a unit moving in any of the 8 directions through passable squares."""
    comp: dict[int, int] = {}
    for start in range(m.grid.size):
        if start in comp or not passable(start):
            continue
        comp[start] = start
        todo = deque([start])
        while todo:
            c = todo.popleft()
            for n in m.grid.neighbors(c):
                if n not in comp and passable(n):
                    comp[n] = start
                    todo.append(n)
    return comp


def test_creek_is_crossed_only_at_bridges_and_fords_ia7_5(battlefield: GameMap) -> None:
    """§IA7.5 "Units may not move into streams or rivers unless a bridge or ford is present": without its bridges
    and fords the creek cuts the map in two (no diagonal step slips through it, AMB-27); each bridge and each ford
    alone joins the two banks."""
    m, g = battlefield, battlefield.grid
    crossings = [c for c in range(g.size) if m.terrain[c] in ("bridge", "ford")]
    east, west = g.parse("15,18"), g.parse("32,7")  # the Pry House and Sharpsburg

    def land(open_: set[int]) -> Callable[[int], bool]:
        return lambda c: m.terrain[c] not in ("stream", "river", "bridge", "ford") or c in open_

    closed = _components(m, land(set()))
    assert closed[east] != closed[west]
    assert len({closed[c] for c in closed}) == 2  # two banks, no island
    for c in crossings:
        assert _components(m, land({c}))[east] == _components(m, land({c}))[west], g.label(c)


def test_three_bridges_and_two_historical_fords_ia1_3(battlefield: GameMap) -> None:
    """§IA1.3 "two historical" fords (the random ones are laid at set-up); the three bridges of the battle."""
    m = battlefield
    bridges = [m.grid.label(c) for c in range(m.grid.size) if m.terrain[c] == "bridge"]
    fords = [m.grid.label(c) for c in range(m.grid.size) if m.terrain[c] == "ford"]
    assert sorted(bridges) == ["15,25", "21,11", "24,3"]
    assert len(fords) == 2
    assert {p.name for p in m.places if p.kind == "bridge"} == {
        "Upper (Hitt) Bridge",
        "Middle Bridge",
        "Burnside (Rohrbach, Lower) Bridge",
    }
    creek = m.region("creek")
    assert all(m.grid.parse(b) in creek for b in bridges + fords)


def test_creek_runs_edge_to_edge(battlefield: GameMap) -> None:
    """Antietam Creek enters at the north edge and leaves at the south edge in one orthogonal chain."""
    m, g = battlefield, battlefield.grid
    creek = set(m.region("creek"))
    rows = {g.coord(c)[1] for c in creek}
    assert 0 in rows and g.rows - 1 in rows
    comp = _components(m, lambda c: c in creek)
    assert len(set(comp.values())) == 1


def test_roads_link_orthogonally_and_cross_water_on_bridges(battlefield: GameMap) -> None:
    """AMB-27 / Operations Costs note 2 (the road bonus is never diagonal): every road link is orthogonal; a road
    meets the creek only on a bridge; the three pikes reach Sharpsburg's square."""
    m, g = battlefield, battlefield.grid
    for a, b in m.edge_features["road"]:
        dx, dy = g.vector(a, b)
        assert abs(dx) + abs(dy) == 1, (g.label(a), g.label(b))
    for c in m.cell_features["road"]:
        assert m.terrain[c] not in ("stream", "river", "ford"), g.label(c)
    bridges = {c for c in range(g.size) if m.terrain[c] == "bridge"}
    assert bridges <= m.cell_features["road"]


def test_named_features_of_the_battlefield(battlefield: GameMap) -> None:
    """The places the issue names are drawn with their terrain."""
    m, g = battlefield, battlefield.grid
    kinds = {p.name: p for p in m.places}
    for name, terrain in [
        ("West Woods", "woods"),
        ("East Woods", "woods"),
        ("North Woods", "woods"),
        ("Miller's Cornfield", "cornfield"),
        ("Sharpsburg", "town"),
    ]:
        assert {m.terrain[c] for c in kinds[name].cells} == {terrain}, name
    assert g.label(kinds["Dunker Church"].cells[0]) == "31,18"
    assert all(m.has("road", c) for c in m.region("sunken_road"))
    assert any(t == "river" for t in m.terrain)  # the Potomac's bend


def test_map_file_matches_its_recipe() -> None:
    """map.json is what scripts/antietam_map.py draws (rerun the script after changing the recipe)."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "antietam_map.py"), "--check"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
