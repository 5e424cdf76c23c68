"""Questions a side asks without deciding (``Ruleset.inspect``): the path of a move before it is made (p.14,
p.26: smart moves take the fastest path) and a unit's line of sight (p.32-33), from what the side knows only."""

import pytest

from grognard.engine import IllegalDecision
from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.state import Phase


def labels(f, cells):
    return [f.grid.label(c) for c in cells]


def test_the_previewed_path_is_the_one_the_move_takes_along_the_road_p14(field):
    f = field([("attacker", "medium_tank", "4,10"), ("attacker", "infantry", "13,10")], phase=Phase.MOVEMENT)
    answer = f.game.inspect("attacker", {"kind": "path", "unit": "a1", "cell": f.cell("4,6")})
    assert labels(f, answer["path"]) == ["4,10", "4,9", "4,8", "4,7", "4,6"]  # four road steps, the cheapest way
    events = f.apply("attacker", D.Move("a1", f.cell("4,6")))
    walked = [events[0].data["frm"]] + [e.data["to"] for e in events if e.kind == "move"]
    assert walked == answer["path"]  # location by location, as the preview showed


def test_the_path_ignores_an_enemy_the_side_has_not_seen_as_the_move_does(field):
    """A hidden enemy on the road is no part of the answer: the path is searched on the field as the attacker
    knows it, so the question tells nothing of where unseen units stand (the move then bumps into it)."""
    f = field(
        [("attacker", "medium_tank", "4,10"), ("defender", "infantry", "4,8"), ("attacker", "infantry", "13,10")],
        phase=Phase.MOVEMENT,
    )
    alone = field([("attacker", "medium_tank", "4,10"), ("attacker", "infantry", "13,10")], phase=Phase.MOVEMENT)
    query = {"kind": "path", "unit": "a1", "cell": f.cell("4,6")}
    assert f.game.inspect("attacker", query) == alone.game.inspect("attacker", query)


def test_line_of_sight_is_every_location_the_unit_sees_p32(field):
    f = field([("attacker", "infantry", "4,10"), ("defender", "infantry", "13,2")], phase=Phase.MOVEMENT)
    answer = f.game.inspect("attacker", {"kind": "sight", "unit": "a1"})
    sight = f.rules.ctx.board.sight(f.state)
    visibility = f.rules.ctx.board.weather(f.state).visibility
    expected = [c for c in range(f.grid.size) if sight.sees(f.cell("4,10"), c, visibility)]
    assert answer["cells"] == expected
    assert f.cell("4,10") in answer["cells"] and len(answer["cells"]) < f.grid.size


@pytest.mark.parametrize(
    "query",
    [
        {"kind": "path", "unit": "d1", "cell": 0},  # an enemy unit: the same answer as for no unit at all
        {"kind": "sight", "unit": "d1"},
        {"kind": "sight", "unit": "nobody"},
        {"kind": "path", "unit": "a1", "cell": -3},
        {"kind": "path", "unit": "a1", "cell": "4,6"},
        {"kind": "odds", "unit": "a1"},
    ],
)
def test_questions_about_enemy_units_or_off_the_map_are_refused_alike(field, query):
    f = field([("attacker", "medium_tank", "4,10"), ("defender", "infantry", "13,2")], phase=Phase.MOVEMENT)
    before = f.game.digest()
    with pytest.raises(IllegalDecision) as refused:
        f.game.inspect("attacker", query)
    assert f.game.digest() == before
    if query["unit"] in ("d1", "nobody"):
        assert str(refused.value) == "a question names one of your own units on the map: 'unit'"


def test_an_unreachable_location_has_no_path(field):
    f = field([("attacker", "infantry", "4,10")], phase=Phase.MOVEMENT)
    with pytest.raises(IllegalDecision, match="cannot reach 13,2"):
        f.game.inspect("attacker", {"kind": "path", "unit": "a1", "cell": f.cell("13,2")})
