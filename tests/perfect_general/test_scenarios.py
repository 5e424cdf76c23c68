"""The bundled Perfect General scenarios and maps: they load, they cover what the manual promises, and their
geography works (set-up regions a side can use, towns both sides can reach in time, rivers that armour crosses
only at bridges, maps that their recipes in scripts/pg_maps rebuild exactly), and each plays to its end and
passes the shared conformance harness with random play."""

from __future__ import annotations

import heapq
import json
import math
import sys
from collections import deque
from functools import cache
from pathlib import Path

import pytest

from grognard.engine.game import new_game
from grognard.engine.maps import GameMap
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general.scenario import MAP_DIR, SCENARIO_DIR, PGScenario, read_scenario
from grognard.rulesets.perfect_general.tables import Tables, UnitType, load_tables
from grognard.testing import run_conformance
from grognard.testing.conformance import check_random_play

ROOT = Path(__file__).resolve().parents[2]
IDS = sorted(p.stem for p in SCENARIO_DIR.glob("*.json"))
WATER = {"sea", "lake", "coast"}


@cache
def scenario(sid: str) -> PGScenario:
    return read_scenario(SCENARIO_DIR / f"{sid}.json")


def all_scenarios() -> list[PGScenario]:
    return [scenario(s) for s in IDS]


@cache
def maps() -> dict[str, GameMap]:
    return {s.spec.map: s.map for s in all_scenarios()}


def terrain_ok(tables: Tables, terrain: str, armor: bool) -> bool:
    t = tables.terrain[terrain]
    return "all" not in t.prohibited and not (armor and "armor" in t.prohibited)


def min_cost(tables: Tables, s: PGScenario, armor: bool | None = None) -> int:
    costs = [tables.units[u].cost for u in s.on_sale if armor is None or tables.units[u].has("armor") == armor]
    return min(costs) if costs else 0


def turns_to_reach(tables: Tables, m: GameMap, unit: UnitType, starts: frozenset[int]) -> list[float]:
    """For every cell, the first turn in which ``unit`` can stand there, setting out from any of ``starts``.

    Exact for the map's static movement costs (terrain, roads along the road, uphill doubled, prohibited
    terrain, a unit's right to move one location a turn), ignoring weather and the enemy: a Dijkstra search on
    (turn, points spent this turn), which orders arrivals the way a unit would prefer them.
    """
    budget = 2 * unit.move
    armor = unit.has("armor")
    grid = m.grid
    best: list[tuple[int, int] | None] = [None] * grid.size
    heap = [(1, 0, c) for c in starts]
    for c in starts:
        best[c] = (1, 0)
    heapq.heapify(heap)
    while heap:
        turn, spent, a = heapq.heappop(heap)
        if best[a] != (turn, spent):
            continue
        for b in grid.neighbors(a):
            tb = m.terrain[b]
            if not terrain_ok(tables, tb, armor):
                continue
            t = tables.terrain[tb]
            cost = t.cost if isinstance(t.cost, int) else max(2, unit.move)  # half the rate, in half points
            along = [v for k, v in tables.paths.items() if m.edge_has(k, a, b)]
            if along:
                cost = min(along)
            if m.elevation[b] > m.elevation[a]:
                cost *= tables.uphill_factor
            label = (turn, spent + cost) if spent + cost <= budget else (turn + 1, min(cost, budget))
            if best[b] is None or label < best[b]:
                best[b] = label
                heapq.heappush(heap, (*label, b))
    return [math.inf if x is None else x[0] for x in best]


def movers(tables: Tables, s: PGScenario) -> list[UnitType]:
    """The fastest foot unit and the fastest armoured unit on sale."""
    units = [tables.units[u] for u in s.on_sale if not tables.units[u].has("mine")]
    out = []
    for armor in (False, True):
        kind = [u for u in units if u.has("armor") == armor and u.move > 0]
        if kind:
            out.append(max(kind, key=lambda u: u.move))
    return out


def components(m: GameMap, passable: set[int]) -> dict[int, int]:
    """A component number for every passable cell."""
    comp: dict[int, int] = {}
    for start in sorted(passable):
        if start in comp:
            continue
        comp[start] = start
        todo = deque([start])
        while todo:
            a = todo.popleft()
            for b in m.grid.neighbors(a):
                if b in passable and b not in comp:
                    comp[b] = start
                    todo.append(b)
    return comp


# --- the set ------------------------------------------------------------------------------------------------
def test_fourteen_scenarios_on_twelve_maps():
    assert len(IDS) >= 14, IDS
    assert len(maps()) >= 12, sorted(maps())
    assert {p.stem for p in MAP_DIR.glob("*.json")} == set(maps()), "every bundled map is used by a scenario"


def test_the_promised_kinds_are_all_there():
    tables = load_tables()
    ss = all_scenarios()

    def some(pred) -> list[str]:
        return [s.id for s in ss if pred(s)]

    def terrains(s: PGScenario) -> set[str]:
        return set(s.map.terrain)

    assert some(lambda s: s.neutrals), "a neutral country"
    assert some(lambda s: s.spec.reinforcement_towns), "reinforcement points from towns"
    assert some(lambda s: s.spec.reinforcements), "fixed reinforcements"
    assert some(lambda s: {r.side for r in s.spec.reinforcements} == {"attacker", "defender"}), "for both sides"
    for w in ("fog", "night", "mud", "storm"):
        assert some(lambda s, w=w: any(w in turn for turn in s.weather)), w
    assert some(lambda s: sum("fog" in turn for turn in s.weather) * 2 > s.turns), "a battle fought mostly in fog"
    assert some(lambda s: {"beach", "sea"} <= terrains(s)), "a beach invasion"
    on_beach = some(
        lambda s: sum(s.map.terrain[c] == "beach" for c in s.setup["attacker"]) * 2 > len(s.setup["attacker"])
    )
    assert on_beach, "an invasion: the attacker sets up on the beaches"
    assert some(lambda s: "desert" in terrains(s) and s.map.terrain.count("desert") > s.map.grid.size // 3)
    assert some(lambda s: s.map.terrain.count("forest") > s.map.grid.size // 3), "a heavily forested map"
    assert some(lambda s: max(s.map.elevation) >= 3 and "ridge" in terrains(s)), "hills and ridges"
    assert some(lambda s: "blown_bridge" in terrains(s) and "engineer" in s.on_sale), "a river to bridge"
    assert some(lambda s: set(s.on_sale) <= {u for u, t in tables.units.items() if t.has("foot")}), "infantry only"
    largest = max(ss, key=lambda s: (s.map.grid.size, sum(s.buy_points.values())))
    assert largest.map.grid.columns >= 48 and largest.turns >= 15, "a large battle on the largest map"
    assert sum(largest.buy_points.values()) == max(sum(s.buy_points.values()) for s in ss), "with the largest armies"


def test_a_simple_little_war_is_the_tutorial():
    s = scenario("simple_little_war")
    assert s.spec.name == "A Simple Little War"
    assert s.turns == 7
    assert s.buy_points["attacker"] == 150 and s.buy_points["defender"] < 150
    assert {t.name for t in s.towns} == {"Konigsberg", "Pinsk", "Moscow"}
    rows = {side: [s.map.grid.coord(c)[1] for c in s.setup[side]] for side in ("attacker", "defender")}
    assert min(rows["attacker"]) > max(rows["defender"]), "the attacker sets up south of the red line"
    konigsberg, pinsk, moscow = (s.map.place(n) for n in ("Konigsberg", "Pinsk", "Moscow"))
    assert set(pinsk.cells) <= s.setup["attacker"] and set(moscow.cells) <= s.setup["attacker"]
    assert set(konigsberg.cells) <= s.setup["defender"]
    assert s.map.terrain.count("bridge") >= 2 and "river" in s.map.terrain


# --- each scenario ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sid", IDS)
def test_scenario_text(sid):
    s = scenario(sid)
    assert s.spec.summary and "\n" not in s.spec.summary and len(s.spec.summary) <= 120
    assert len([p for p in s.spec.description.split("\n\n") if p.strip()]) >= 3, "several paragraphs"
    assert "grognard" in s.spec.source
    assert s.map.source
    assert s.buy_points["defender"] < s.buy_points["attacker"]


@pytest.mark.parametrize("sid", IDS)
def test_setup_regions_can_hold_the_forces(sid):
    tables = load_tables()
    s = scenario(sid)
    m = s.map
    a, d = s.setup["attacker"], s.setup["defender"]
    assert not a & d, "set-up regions overlap"
    for side, cells in s.setup.items():
        bad = [m.grid.label(c) for c in cells if not terrain_ok(tables, m.terrain[c], armor=False)]
        assert not bad, f"{side} sets up on water at {bad[:5]}"
        foot_cells = len(cells)
        armor_cells = sum(terrain_ok(tables, m.terrain[c], armor=True) for c in cells)
        assert foot_cells >= s.buy_points[side] / min_cost(tables, s), f"{side}: {foot_cells} cells"
        if min_cost(tables, s, armor=True):
            assert armor_cells >= s.buy_points[side] / min_cost(tables, s, armor=True), f"{side}: armour cells"
    for n in s.neutrals:
        assert not n.cells & (a | d)
        assert all(terrain_ok(tables, m.terrain[c], armor=False) for c in n.cells if m.terrain[c] != "sea")
        land = [c for c in n.cells if terrain_ok(tables, m.terrain[c], armor=False)]
        assert len(land) >= n.points / min_cost(tables, s), n.name
        assert any(set(t.cells) <= n.cells for t in s.towns), f"{n.name} has a town worth entering"
    for side, region in s.reinforce_regions.items():
        waves: dict[int, int] = {}
        for r in s.spec.reinforcements:
            if r.side == side:
                waves[r.turn] = waves.get(r.turn, 0) + r.points
        land = [c for c in region if terrain_ok(tables, m.terrain[c], armor=False)]
        assert len(land) == len(region), f"{side} reinforces onto water"
        assert len(land) >= max(waves.values(), default=0) / min_cost(tables, s), f"{side} reinforcement region"
        assert not region & s.setup["defender" if side == "attacker" else "attacker"], "reinforcing among the enemy"


@pytest.mark.parametrize("sid", IDS)
def test_both_sides_can_reach_the_towns_in_time(sid):
    """Every town can be reached by the attacker in time to score, and the defender can reach every town."""
    tables = load_tables()
    s = scenario(sid)
    kinds = movers(tables, s)
    for side in ("attacker", "defender"):
        best = [min(x) for x in zip(*(turns_to_reach(tables, s.map, u, s.setup[side]) for u in kinds), strict=True)]
        for town in s.towns:
            first = min(best[c] for c in town.cells)
            if side == "attacker":
                assert first <= s.turns - 1, f"the attacker reaches {town.name} only in turn {first}"
            else:
                assert first < math.inf, f"the defender cannot reach {town.name}"


@pytest.mark.parametrize("sid", IDS)
def test_the_whole_map_can_be_shown(sid):
    """``grognard show``'s text: a line per row, a character per location, every terrain with its own character."""
    game = new_game(PerfectGeneral, sid, None, 1)
    grid = scenario(sid).map.grid
    lines = game.rules.render_text(game.state, None).splitlines()
    rows = lines[2 : 2 + grid.rows]
    assert [int(line[:3]) for line in rows] == list(range(1, grid.rows + 1))
    assert all(len(line) == 4 + grid.columns for line in rows)
    assert not any("?" in line[4:] for line in rows), "a terrain without a character"


OPENING_TURNS = 3


def opening(sid: str, folder: Path) -> str:
    """The scenario cut to its first OPENING_TURNS turns (weather, reinforcements and town reinforcements
    cut with it), written to ``folder`` as a user's scenario file; returns its path."""
    doc = json.loads((SCENARIO_DIR / f"{sid}.json").read_text(encoding="utf-8"))
    n = min(doc["turns"], OPENING_TURNS)
    doc["turns"] = n
    if "weather" in doc:
        doc["weather"] = doc["weather"][:n]
    doc["reinforcements"] = [r for r in doc.get("reinforcements", []) if r["turn"] <= n]
    towns = [dict(t, turns=[x for x in t["turns"] if x <= n]) for t in doc.get("reinforcement_towns", [])]
    doc["reinforcement_towns"] = [t for t in towns if t["turns"]]
    path = folder / f"{sid}_opening.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("sid", IDS)
def test_scenario_plays_to_its_end(sid):
    """Random play of the whole scenario, every turn of it, ends with a result."""
    game = check_random_play(PerfectGeneral, sid, seed=1, max_decisions=20_000)
    assert game.state.turn == scenario(sid).turns


@pytest.mark.parametrize("sid", IDS)
def test_scenario_opening_passes_conformance_with_random_play(sid, tmp_path):
    """The whole harness (random play ends, illegal decisions change nothing, same seed same game, saves replay,
    views hide) on the scenario's opening turns: every decision is checked, so the whole length of every
    scenario would take minutes; the test above plays each one to its end."""
    run_conformance(PerfectGeneral, opening(sid, tmp_path), seed=1, max_decisions=5_000)


# --- each map -----------------------------------------------------------------------------------------------
def map_ids() -> list[str]:
    return sorted(p.stem for p in MAP_DIR.glob("*.json"))


@pytest.mark.parametrize("mid", map_ids())
def test_map_is_coherent(mid):
    m = maps()[mid]
    for c in m.grid.cells():
        t, h = m.terrain[c], m.elevation[c]
        assert 0 <= h <= 3, f"{m.grid.label(c)} stands {h} high"
        if t in ("hill", "ridge"):
            assert h >= 1, f"{t} at {m.grid.label(c)} is flat"
        if t in WATER | {"river", "bridge", "blown_bridge"}:
            assert h == 0, f"{t} at {m.grid.label(c)} is not at sea level"
    towns = [p for p in m.places if p.kind == "town"]
    assert len(towns) >= 3
    path_cells = set().union(*(m.cell_features.get(k, frozenset()) for k in ("road", "track", "railroad")))
    for town in towns:
        assert 1 <= len(town.cells) <= 6 and 5 <= town.value <= 30, town.name
        assert all(m.terrain[c] in ("town", "town_rubble") for c in town.cells), town.name
        near = {n for c in town.cells for n in (c, *m.grid.neighbors(c))}
        assert near & path_cells, f"no road or track reaches {town.name}"
    for c in path_cells:
        assert m.terrain[c] not in WATER | {"river"}, f"a path runs through {m.terrain[c]} at {m.grid.label(c)}"


@pytest.mark.parametrize("mid", map_ids())
def test_rivers_stop_armour_except_at_bridges(mid):
    """Blocking every bridge, the banks of each bridge fall apart: no gap in the river lets armour round it."""
    tables = load_tables()
    m = maps()[mid]
    bridges = {c for c in m.grid.cells() if m.terrain[c] == "bridge"}
    road_cells = set().union(*(m.cell_features.get(k, frozenset()) for k in ("road", "track", "railroad")))
    assert bridges <= road_cells, "a bridge carries a road, track or railroad"
    open_ground = {c for c in m.grid.cells() if terrain_ok(tables, m.terrain[c], armor=True)} - bridges
    comp = components(m, open_ground)
    groups: dict[int, list[int]] = {}
    for c, g in components(m, bridges).items():
        groups.setdefault(g, []).append(c)
    for span in groups.values():
        banks = {comp[n] for c in span for n in m.grid.neighbors(c) if n in open_ground}
        assert len(banks) >= 2, f"armour can go round the bridge at {m.grid.label(span[0])}"


def test_maps_are_what_their_recipes_draw():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import pg_mapmaker
    finally:
        sys.path.pop(0)
    assert set(pg_mapmaker.recipes()) == set(map_ids())
    for mid in map_ids():
        text = (MAP_DIR / f"{mid}.json").read_text(encoding="utf-8")
        assert pg_mapmaker.build(mid).dumps() == text, f"{mid}.json differs from scripts/pg_maps/{mid}.py"
