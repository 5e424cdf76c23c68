"""What the boards of one map share between games (issue 17): cost rows and base sight rows worked out by one game
are read by the next, and must be the rows that game would have worked out itself."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import numpy as np
import pytest

from grognard.engine import Game
from grognard.engine.los import Observer, Sight
from grognard.engine.maps import GameMap
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general import board as board_module


def _new(scenario: str = "lauter_offensive") -> tuple[Any, Any]:
    """A new game's board (a board of its own, as every game has) and its opening state."""
    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario(scenario)), 1)
    return game.rules.ctx.board, game.state  # type: ignore[attr-defined]


def _percents(board: Any, state: Any) -> dict[int, Any]:
    """A state of each weather's movement percent of the scenario (by the turn: the weather is the turn's)."""
    found: dict[int, Any] = {}
    for turn in range(1, board.scenario.turns + 1):
        s = dataclasses.replace(state, turn=turn)
        found.setdefault(board.weather(s).move_percent, s)
    return found


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing shared yet: what the boards made here share is theirs alone."""
    monkeypatch.setattr(board_module, "_COST_ROWS", {})
    monkeypatch.setattr(board_module, "_BASE_SIGHTS", {})


@pytest.mark.usefixtures("fresh")
def test_cost_rows_a_board_reads_from_another_are_the_rows_of_its_own_terrain() -> None:
    """A first board works out every row of the scenario's map for every unit type and weather; a second board's
    tables over damaged terrain and a cut road read those rows away from the damage only: every row of theirs, row
    by row, is the row made afresh from its own terrain. The damage is a town turned to rubble (town costs less to
    enter than rubble) and a road cut elsewhere: the rows of the locations around them must not be the shared ones."""
    first, state = _new()
    weathers = _percents(first, state)
    assert len(weathers) > 1
    for s in weathers.values():
        for unit_type in first.tables.units.values():
            first.whole_costs(s, unit_type)
    board, _ = _new()
    town = next(c for c, t in enumerate(board.base_terrain) if t == "town")
    road = next(a for a, _ in sorted(board.map.edge_features["road"]) if a not in board.neighbors[town])
    compared = 0
    for s in weathers.values():
        damaged = dataclasses.replace(s, terrain=((town, "town_rubble"),), cut_roads=(road,))
        percent = board.weather(s).move_percent
        for unit_type in board.tables.units.values():
            table = board.costs(damaged, unit_type)
            assert sum(row is not None for row in table) > board.grid.size // 2  # read from the first board's
            afresh = board._full_costs(damaged, unit_type, percent)
            rows = [table.row(a) for a in range(board.grid.size)]
            assert rows == list(afresh)
            around = (town, *board.neighbors[town], road, *board.neighbors[road])
            compared += sum(afresh[a] != first._full_costs(s, unit_type, percent)[a] for a in around)
    assert compared > 0  # the damage changed rows that the first board had shared


@pytest.mark.usefixtures("fresh")
def test_rows_kept_for_every_unit_kind_alike_are_every_kind_s_row() -> None:
    """Where no step out of a location enters a class whose cost differs between unit kinds, one row is kept for
    every kind: it must be each kind's row made afresh, and each kind's kept rows its own."""
    board, state = _new()
    for s in _percents(board, state).values():
        percent = board.weather(s).move_percent
        kinds = list(board.tables.units.values())
        for unit_type in kinds:
            table = board.costs(s, unit_type)
            for a in range(0, board.grid.size, 3):
                table.row(a)
        afresh = {u.name: board._full_costs(s, u, percent) for u in kinds}
        alike_at = common_seen = 0
        for unit_type in kinds:
            own, common, alike = board._shared_rows(unit_type, percent)
            for a in range(board.grid.size):
                if own[a] is not None:
                    assert own[a] == afresh[unit_type.name][a]
                if alike[a]:
                    alike_at += 1
                    assert all(afresh[u.name][a] == afresh[unit_type.name][a] for u in kinds)
                    if common[a] is not None:
                        common_seen += 1
                        assert common[a] == afresh[unit_type.name][a]
        assert 0 < alike_at < len(kinds) * board.grid.size  # some rows are alike, not all
        assert common_seen > 0


@pytest.mark.usefixtures("fresh")
def test_cost_rows_are_shared_by_boards_of_one_map_alone_and_within_their_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Boards of one map share the lists of rows; another map's board has its own; a map keeps at most
    :data:`COST_ROW_BYTES` (estimated) of them, however many tables are asked for."""
    first, state = _new()
    board, _ = _new()
    infantry = board.tables.units["infantry"]
    assert board._shared_rows(infantry, 100)[0] is first._shared_rows(infantry, 100)[0]
    other, _ = _new("dawn_patrol")
    assert other._shared_rows(infantry, 100)[0] is not board._shared_rows(infantry, 100)[0]
    size = board.grid.size
    monkeypatch.setattr(board_module, "COST_ROW_BYTES", 5 * size * board_module.ROW_BYTES)
    third, _ = _new()
    for s in _percents(third, state).values():
        for unit_type in third.tables.units.values():
            table = third.costs(s, unit_type)
            assert table.row(size // 2) == third._full_costs(s, unit_type, third.weather(s).move_percent)[size // 2]
            for kept in board_module._COST_ROWS.values():
                assert len(kept) * size * board_module.ROW_BYTES <= board_module.COST_ROW_BYTES
    # the oldest lists went, the latest stayed (not all of them cleared): a fourth board reads the rows the third
    # left in the last two kinds' lists of the last weather
    fourth, _ = _new()
    kinds: dict[tuple[int, bool], Any] = {}  # a unit type of each kind, in the order their lists were made
    for u in third.tables.units.values():
        kinds.setdefault((max(2, u.move), u.has("armor")), u)
    last_weather = list(_percents(third, state).values())[-1]
    percent = fourth.weather(last_weather).move_percent
    for unit_type in list(kinds.values())[-2:]:
        assert fourth._shared_rows(unit_type, percent)[0] is third._shared_rows(unit_type, percent)[0]
        assert fourth.costs(last_weather, unit_type)[size // 2] is not None


@pytest.mark.usefixtures("fresh")
def test_base_sight_rows_over_their_bytes_let_the_oldest_go_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """When a map's base sight rows are full, the oldest go and the latest stay (clearing them all made a long
    run work out again the rows it was using); every row handed out is the row made afresh."""
    board, _ = _new()
    size = board.grid.size
    monkeypatch.setattr(board_module, "BASE_SIGHT_BYTES", 100 * size)
    visibility = 5
    board.base_rows(list(range(100)), visibility)
    rows = board._base()[1]
    assert len(rows) == 100
    handed = board.base_rows([100, 101], visibility)
    assert len(rows) <= 100
    assert (99, visibility) in rows and (100, visibility) in rows and (0, visibility) not in rows
    base = board.base_sight()
    afresh = Sight(board.grid, base.ground.tolist(), base.obstacle.tolist())
    eye = board.tables.sight.eye
    made = afresh.visible([Observer(c, eye, visibility) for c in (100, 101, 99)], target=eye)
    assert np.array_equal(handed[0], made[0]) and np.array_equal(handed[1], made[1])
    assert np.array_equal(board.base_rows([99], visibility)[0], made[2])


@pytest.mark.usefixtures("fresh")
def test_steps_and_cost_rows_are_shared_by_maps_of_the_same_grid_heights_and_paths_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every step of a map (from, to, path cost along it, uphill) and its cost rows are shared by the boards of maps
    with the same grid, heights, paths and terrain: a map of the same grid with one height and one road changed has
    steps and rows of its own, the steps made afresh for it."""
    monkeypatch.setattr(board_module, "_STEPS", {})
    first, state = _new()
    board, _ = _new()
    assert board._steps() is first._steps() and board.neighbors is first.neighbors
    m = board.map
    hill = next(c for c, e in enumerate(m.elevation) if e == 0 and any(m.elevation[n] > 0 for n in board.neighbors[c]))
    elevation = tuple(e + (c == hill) for c, e in enumerate(m.elevation))
    road = set(m.edge_features["road"])
    road.remove(min(road))
    edges = {**m.edge_features, "road": frozenset(road)}
    infantry = board.tables.units["infantry"]
    first.whole_costs(state, infantry)  # rows the other maps must not read
    for heights, paths in ((elevation, m.edge_features), (m.elevation, edges)):
        scenario = copy.copy(board.scenario)
        scenario.map = GameMap(m.name, m.grid, m.terrain, heights, m.cell_features, paths, m.places, m.regions)
        other = board_module.Board(scenario, board.tables)
        steps = other._steps()
        assert steps is not board._steps()
        assert all(np.array_equal(a, b) for a, b in zip(steps, other._make_steps()[0], strict=True))
        assert other._shared_rows(infantry, 100)[0] is not board._shared_rows(infantry, 100)[0]
        assert list(other.whole_costs(state, infantry)) == list(other._full_costs(state, infantry, 100))
