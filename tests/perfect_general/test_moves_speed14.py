"""The fourteenth movement pass (issue 17): what the boards of one map share, and what a move keeps from one
location to the next, must be what a board or a state would work out afresh."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import numpy as np

from grognard.engine import Game
from grognard.engine.maps import GameMap
from grognard.rulesets.perfect_general import PerfectGeneral, moves
from grognard.rulesets.perfect_general import board as board_module
from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.state import Barrage, Phase, replaced


def _new(scenario: str = "lauter_offensive") -> tuple[Any, Any]:
    """A new game's board (a board of its own, as every game has) and its opening state."""
    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario(scenario)), 1)
    return game.rules.ctx.board, game.state  # type: ignore[attr-defined]


def _board_of(board: Any, terrain: Any = None, elevation: Any = None, edge_features: Any = None) -> Any:
    """A board of ``board``'s scenario with its map's terrain, heights or edge features changed."""
    m = board.map
    scenario = copy.copy(board.scenario)
    scenario.map = GameMap(
        m.name,
        m.grid,
        terrain or m.terrain,
        elevation or m.elevation,
        m.cell_features,
        edge_features or m.edge_features,
        m.places,
        m.regions,
    )
    return board_module.Board(scenario, board.tables)


def test_step_classes_are_shared_by_the_boards_of_one_map_alone() -> None:
    """Two games' boards of one map share its step classes and class costs; a map with one location's terrain, one
    height or one road changed has its own, and every board's are those worked out afresh for its own map."""
    first, state = _new()
    board, _ = _new()
    assert board._map_classes() is first._map_classes()
    infantry = board.tables.units["infantry"]
    first.whole_costs(state, infantry)  # classes and costs the other maps must not read
    m = board.map
    town = next(c for c, t in enumerate(m.terrain) if t == "town")
    hill = next(c for c, e in enumerate(m.elevation) if e == 0 and any(m.elevation[n] > 0 for n in board.neighbors[c]))
    road = set(m.edge_features["road"])
    road.remove(min(road))
    variants = (
        {"terrain": tuple("clear" if c == town else t for c, t in enumerate(m.terrain))},
        {"elevation": tuple(e + (c == hill) for c, e in enumerate(m.elevation))},
        {"edge_features": {**m.edge_features, "road": frozenset(road)}},
    )
    for changes in variants:
        other = _board_of(board, **changes)
        assert other._map_classes() is not board._map_classes()
        afresh = other._classes_of(other._base_ids, ())
        assert np.array_equal(other._base_classes(), afresh)
        assert not np.array_equal(afresh, board._base_classes())  # the change is one the classes show
        assert list(other._step_classes(state, listed=True)) == afresh.tolist()
        assert list(other.whole_costs(state, infantry)) == list(other._full_costs(state, infantry, 100))


def test_a_unit_in_a_heavy_barrage_s_ring_cannot_be_loaded_p30_p26d(field: Any) -> None:
    """Entering a heavy barrage's ring takes all movement (p.30): a carrier could not load a unit standing there
    with the point loading costs (p.26 d). The units to load are read once a position for every carrier, from
    the side's units and the barrages' locations."""
    f = field([("attacker", "armored_car", "4,10"), ("attacker", "infantry", "4,8")], phase=Phase.MOVEMENT)
    assert D.Load("a1", "a2") in f.legal("attacker")
    f.set(barrages=(Barrage(f.cell("4,8"), False),))
    assert D.Load("a1", "a2") not in f.legal("attacker")
    f.set(barrages=(Barrage(f.cell("4,9"), False),))  # next to it, not on it: it may be loaded
    assert D.Load("a1", "a2") in f.legal("attacker")


def test_units_found_by_id_after_replacing_some_are_the_units_of_the_tuple(field: Any) -> None:
    """``PGState.find`` indexes a unit tuple asked about twice, and ``replaced`` carries the index to the tuple it
    makes (a walk replaces its mover location after location): every unit found is the one of that id in the tuple
    asked about, after replacements, after a unit is removed (which moves the others) and for an older tuple."""
    f = field(
        [("attacker", "infantry", "4,10"), ("attacker", "medium_tank", "5,10"), ("defender", "infantry", "9,9")],
        phase=Phase.MOVEMENT,
    )
    state = f.state
    ids = [u.id for u in state.units]

    def found_all(s: Any) -> None:
        for uid in ids:
            assert s.find(uid) is next((u for u in s.units if u.id == uid), None)

    found_all(state)  # the second look at the same tuple indexes it
    older = state
    for step, uid in enumerate(["a1", "a2", "a1", "d1"]):
        state = state.with_unit(dataclasses.replace(state.unit(uid), mp=step, moved=True))
        found_all(state)
    assert state.unit("a1").mp == 2 and state.unit("d1").mp == 3
    found_all(older)
    fewer = state.without_units({"a1"})
    assert fewer.find("a1") is None
    found_all(fewer)
    after = replaced(fewer.units, dataclasses.replace(fewer.unit("d1"), hp=1))
    assert [u.id for u in after] == ["a2", "d1"] and after[1].hp == 1


def test_a_tank_s_assaults_counted_after_an_enemy_comes_into_view_are_those_listed_p30(field: Any) -> None:
    """The movement phase sizes every tank's close assaults at every decision, answering 0 at once for a tank that
    had no enemy it knew of within reach, the same tank and the same enemies: an enemy spotted next to it since, or
    another tank, must be counted as listed."""
    f = field(
        [("attacker", "medium_tank", "4,10"), ("attacker", "light_tank", "13,10"), ("defender", "infantry", "4,7")],
        phase=Phase.MOVEMENT,
    )
    ctx = f.rules.ctx
    assert moves.count_assaults(ctx, f.state, f.unit("a1")) == 0  # the infantry is not spotted: nothing known
    assert moves.count_assaults(ctx, f.state, f.unit("a1")) == 0  # answered from what the first count found
    f.edit("d1", spotted=True)
    for uid in ("a1", "a2"):
        counted = moves.count_assaults(ctx, f.state, f.unit(uid))  # counted first, as random play does
        assert counted == len(moves.assault_targets(ctx, f.state, f.unit(uid)))
    assert moves.assault_targets(ctx, f.state, f.unit("a1")) == [f.cell("4,7")]
