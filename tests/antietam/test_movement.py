"""The operation phase's movement: the Operations Costs Table (§B3.4), stacking (§B3.5, §IA7.7), zones of control
(§B3.6, §IA7.6), the one square a unit may always move (§IA7.5), routed units (§B4.3) and the basic game's corps
schedule (§B2.0)."""

from __future__ import annotations

from typing import Any

import pytest

from grognard.rulesets.antietam import decisions as D
from grognard.rulesets.antietam.moves import step_refusal

# an open plain east of the creek: clear, level 3, no road, x 2-12, y 2-10


def cost(p: Any, uid: str, to: str) -> tuple[Any, int]:
    """(refusal, OP spent) of a one-square move of ``uid`` to ``to``."""
    ctx, s = p.ctx, p.state
    side = p.board.side(p.i(uid))
    return step_refusal(
        ctx, s, p.i(uid), p.cell(to), ctx.occupants(s), ctx.zoc(s, "confederate" if side == "union" else "union")
    )


def test_clear_ground_costs_2_orthogonal_and_3_diagonal(position: Any) -> None:
    """Operations Costs Table, CLEAR: INF 2 (3): "Numbers in parentheses refer to diagonal moves"."""
    p = position({"u_duryea_a": "5,5"})
    assert cost(p, "u_duryea_a", "6,5") == (None, 2)
    assert cost(p, "u_duryea_a", "6,6") == (None, 3)


@pytest.mark.parametrize(
    ("uid", "start", "to", "expected", "row"),
    [
        ("u_duryea_a", "33,18", "33,19", 5, "woods"),
        ("u_duryea_a", "33,18", "34,19", 7, "woods diagonal"),
        ("u_duryea_a", "35,6", "34,6", 6, "town"),
        ("u_duryea_a", "30,20", "30,21", 3, "cornfield"),
        ("u_davis_a", "5,5", "6,5", 1, "clear, mounted cavalry"),
        ("u_i_corps_a", "5,5", "6,6", 3, "clear, limbered artillery, diagonal"),
        ("u_i_corps_a", "33,18", "33,19", 2, "woods, limbered artillery"),
    ],
)
def test_terrain_rows_of_the_costs_table(position: Any, uid: str, start: str, to: str, expected: int, row: str) -> None:
    """Operations Costs Table by terrain and unit type (the basic game moves cavalry mounted and artillery limbered:
    AMB-3)."""
    p = position({uid: start}, turn=9)
    assert cost(p, uid, to) == (None, expected), row


def test_streams_are_prohibited_but_at_bridges_and_fords(position: Any) -> None:
    """§IA7.5 "Units may not move into streams or rivers unless a bridge or ford is present"."""
    p = position({"u_duryea_a": "20,10"})
    why, _ = cost(p, "u_duryea_a", "21,10")
    assert why is not None and why.rule == "§IA7.5"
    q = position({"u_duryea_a": "14,23"})
    assert cost(q, "u_duryea_a", "15,23")[0] is None  # Pry's Ford


def test_higher_elevation_costs_2_more(position: Any) -> None:
    """Operations Costs Table "Enter higher elevation +2" (INF): from level 2 at 4,20 up to level 3 at 3,20."""
    p = position({"u_duryea_a": "4,20"})
    assert p.board.level(p.cell("3,20")) > p.board.level(p.cell("4,20"))
    assert cost(p, "u_duryea_a", "3,20") == (None, 4)
    assert cost(p, "u_duryea_a", "5,20") == (None, 2)  # level 2 to level 2


def _road_pair(p: Any) -> tuple[str, str]:
    m, g = p.board.map, p.grid
    for a in g.cells():
        for b in g.neighbors(a):
            if (
                not g.is_diagonal(g.direction(a, b))
                and m.edge_has("road", a, b)
                and m.terrain[a] == m.terrain[b] == "clear"
                and m.elevation[a] == m.elevation[b]
            ):
                return g.label(a), g.label(b)
    raise AssertionError("no road")


def test_road_bonus_is_1_only_into_an_empty_road_square(position: Any) -> None:
    """Operations Costs Table "Road bonus 1 (P)"; §IA7.7 the road rate "only if the road square being moved onto
    does not contain another unit"."""
    a, b = _road_pair(position({}))
    p = position({"u_duryea_a": a})
    assert cost(p, "u_duryea_a", b) == (None, 1)
    q = position({"u_duryea_a": a, "u_duryea_b": b})
    assert cost(q, "u_duryea_a", b) == (None, 2)


def test_entering_an_enemy_zoc_costs_2_more(position: Any) -> None:
    """§B3.6 "This Zone of Control costs enemy units 2 extra operation points to move into"."""
    p = position({"u_duryea_a": "5,5", "c_law_a": "7,5"})
    assert cost(p, "u_duryea_a", "6,5") == (None, 4)


def test_zoc_to_zoc_needs_10_op_and_artillery_never(position: Any) -> None:
    """§B3.6 "A unit must have 10 operation points to move ZOC to ZOC. Artillery may not move ZOC to ZOC." """
    p = position({"u_duryea_a": ("6,5", {"op": 9}), "c_law_a": "7,5"})
    why, _ = cost(p, "u_duryea_a", "6,6")
    assert why is not None and why.rule == "§B3.6"
    q = position({"u_duryea_a": "6,5", "c_law_a": "7,5"})
    assert cost(q, "u_duryea_a", "6,6") == (None, 10)
    r = position({"u_i_corps_a": "6,5", "c_law_a": "7,5"})
    why, _ = cost(r, "u_i_corps_a", "6,6")
    assert why is not None and "artillery" in why.reason


def test_not_enough_op_but_one_square_always(position: Any) -> None:
    """§B3.4 a move beyond the OP left is refused; §IA7.5 "Units may always move one square ... at the cost of
    ... 10 operation points"."""
    p = position({"u_duryea_a": ("5,5", {"op": 1})})
    why, _ = cost(p, "u_duryea_a", "6,5")
    assert why is not None and why.rule == "§B3.4"
    # into the town square 34,6 diagonally (9) and into an enemy ZOC (+2): 11 OP, more than the 10 of a phase
    q = position({"u_duryea_a": "35,5", "c_law_a": "35,7"})
    assert cost(q, "u_duryea_a", "34,6") == (None, 10)
    r = position({"u_duryea_a": ("35,5", {"moved": True}), "c_law_a": "35,7"})
    why, _ = cost(r, "u_duryea_a", "34,6")
    assert why is not None and why.reason == "11 operation points needed, 10 left"


def test_stacking_two_infantry_and_one_artillery(position: Any) -> None:
    """§B3.5 "A square may have one or two infantry or cavalry units. In addition it may have one artillery unit." """
    p = position(
        {"u_duryea_a": "5,5", "u_duryea_b": "6,5", "u_hartstuf_a": "6,5", "u_i_corps_a": "6,6", "u_i_corps_b": "6,5"}
    )
    why, _ = cost(p, "u_duryea_a", "6,5")
    assert why is not None and why.rule == "§B3.5"
    why, _ = cost(p, "u_i_corps_a", "6,5")
    assert why is not None and "artillery" in why.reason
    q = position({"u_duryea_a": "5,5", "u_duryea_b": "6,5", "u_i_corps_a": "6,6"})
    assert cost(q, "u_duryea_a", "6,5")[0] is None
    assert cost(q, "u_i_corps_a", "6,5")[0] is None


def test_one_unit_in_a_town_square(position: Any) -> None:
    """§IA7.7 "Only one unit may occupy a town, ford, or bridge square." """
    p = position({"u_duryea_a": "35,6", "u_duryea_b": "34,6"})
    why, _ = cost(p, "u_duryea_a", "34,6")
    assert why is not None and "town" in why.reason


def test_no_move_onto_the_enemy(position: Any) -> None:
    """§IA7.5 "Units may not move onto enemy units"."""
    p = position({"u_duryea_a": "5,5", "c_law_a": "6,5"})
    why, _ = cost(p, "u_duryea_a", "6,5")
    assert why is not None and why.rule == "§IA7.5"


def test_routed_units_move_one_square_a_phase(position: Any) -> None:
    """§B4.3 "When routed they may move only one square per phase"."""
    p = position({"u_duryea_a": ("5,5", {"routed": True})})
    assert cost(p, "u_duryea_a", "6,5")[0] is None
    q = position({"u_duryea_a": ("5,5", {"routed": True, "moved": True})})
    why, _ = cost(q, "u_duryea_a", "6,5")
    assert why is not None and why.rule == "§B4.3"


def test_moving_spends_op_and_gains_fatigue(position: Any) -> None:
    """§B3.4 moving costs operation points; Fatigue Gain Table "Enter a square in normal mode 2"."""
    p = position({"u_duryea_a": "5,5"})
    g = p.rules
    s = g._apply(p.state, "union", D.Access("u_duryea_a"), p.step())
    legal = g.legal(s, "union")
    move = D.Move("u_duryea_a", "5,5", "6,5")
    assert move in legal
    s = g._apply(s, "union", move, p.step())
    u = p.unit("u_duryea_a", s)
    assert (p.square("u_duryea_a", s), u.op, u.fatigue, u.moved) == ("6,5", 8, 2, True)


def test_porter_is_held_until_turn_5(position: Any) -> None:
    """§B2.0 "Porter's Corps cannot move until turn five (10:00AM)"; the other units move at once."""
    early = position({"u_warren_a": "5,5", "u_duryea_a": "8,8"}, turn=4)
    why, _ = cost(early, "u_warren_a", "6,5")
    assert why is not None and why.rule == "§B2.0"
    assert cost(early, "u_duryea_a", "9,8")[0] is None
    late = position({"u_warren_a": "5,5"}, turn=5)
    assert cost(late, "u_warren_a", "6,5")[0] is None


@pytest.mark.parametrize(("uid", "turn"), [("u_griffin_a", 5), ("u_vi_corps_a", 7), ("u_davis_a", 8), ("u_cav_a", 8)])
def test_the_schedule_of_each_held_formation(position: Any, uid: str, turn: int) -> None:
    """§B2.0: Porter turn 5, Franklin turn 7, Pleasonton (with its horse artillery, §IA3.3) turn 8."""
    before = position({uid: "5,5"}, turn=turn - 1)
    assert cost(before, uid, "6,5")[0] is not None
    at = position({uid: "5,5"}, turn=turn)
    assert cost(at, uid, "6,5")[0] is None


def test_activation_off_frees_every_formation(position: Any) -> None:
    """§IA2.1 #8 (§B2.0 "set the Activation Option ... to NO"): no formation is held."""
    p = position({"u_warren_a": "5,5"}, turn=1, options={"activation": False})
    assert cost(p, "u_warren_a", "6,5")[0] is None


def test_an_enemy_moving_next_to_a_held_formation_releases_it(position: Any) -> None:
    """§B2.0 "The above limits may be changed ... if the enemy moves next to the above units"."""
    p = position({"u_warren_a": "5,5", "c_law_a": "7,5"}, part="confederate_operations_1", turn=2)
    g = p.rules
    s = g._apply(p.state, "confederate", D.Access("c_law_a"), p.step())
    s = g._apply(s, "confederate", D.Move("c_law_a", "7,5", "6,5"), p.step())
    assert "Porter" in s.released
    assert cost(position({"u_warren_a": "5,5"}, turn=2), "u_warren_a", "6,5")[0] is not None


def test_leaving_an_enemy_zoc_costs_2_more(position: Any) -> None:
    """Operations Costs Table "Enter or leave enemy ZOC +2" (INF): out of the ZOC of 7,5 from 6,5 to 5,5."""
    p = position({"u_duryea_a": "6,5", "c_law_a": "7,5"})
    assert cost(p, "u_duryea_a", "5,5") == (None, 4)


def test_a_routed_unit_stacking_onto_friends_tires_them(position: Any) -> None:
    """§IA7.7 "When routed units stack onto friendly units each unit gains five fatigue points." """
    p = position({"u_duryea_a": ("5,5", {"routed": True}), "u_duryea_b": "6,5"})
    g = p.rules
    s = g._apply(p.state, "union", D.Access("u_duryea_a"), p.step())
    s = g._apply(s, "union", D.Move("u_duryea_a", "5,5", "6,5"), p.step())
    assert p.unit("u_duryea_b", s).fatigue == 5
