"""What each seat may know: the hidden-units option (§IA2.1 #5, AMB-24 reading) decided in ``view``, the events
each side sees, the text map and the words of decisions."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from grognard.rulesets.antietam import combat
from grognard.rulesets.antietam import decisions as D


def ids(view: dict[str, Any]) -> set[str]:
    return {u["id"] for u in view["units"]}


def test_hidden_units_only_sighted_enemies_appear(position: Any) -> None:
    """§IA2.1 #5 "only sighted enemy units of both sides will appear on the map": a Confederate unit 20 squares
    away is beyond every sight limit (§IA8.3: 16 at most); one next to a Union unit is seen."""
    p = position({"u_duryea_a": "5,5", "c_law_a": "6,5", "c_law_b": "30,30"})
    v = p.rules.view(p.state, "union")
    assert "c_law_a" in ids(v) and "c_law_b" not in ids(v)
    assert p.rules.hidden_units(p.state, "union") >= {"c_law_b"}
    assert "c_law_b" not in json.dumps(v)
    enemy = next(u for u in v["units"] if u["id"] == "c_law_a")
    assert "men" not in enemy and "fatigue" not in enemy  # the map shows the unit, not its state


def test_sight_depends_on_the_level_and_the_time(position: Any) -> None:
    """§IA8.3 a unit at level 3 sees 12 squares, cut to 50% at 06:00 (AMB-15): 6 squares."""
    p = position({"u_duryea_a": "5,5", "c_law_a": "12,5"}, turn=3)
    assert "c_law_a" in ids(p.rules.view(p.state, "union"))  # 7 squares at 100%
    q = position({"u_duryea_a": "5,5", "c_law_a": "12,5"}, turn=1)
    assert "c_law_a" not in ids(q.rules.view(q.state, "union"))


def test_woods_block_the_view(position: Any) -> None:
    """§IA8.3 "Woods represent a 20 foot elevation obstacle": from 31,21 the West Woods (32,21, 33,21) hide
    34,21 on the same level, while 31,21 sees as far over open ground."""
    p = position({"c_law_a": "31,21", "u_duryea_a": "34,21"}, turn=4)
    b = p.board
    assert {b.map.terrain[p.cell(c)] for c in ("32,21", "33,21")} == {"woods"}
    assert len({b.level(p.cell(c)) for c in ("31,21", "32,21", "33,21", "34,21")}) == 1
    assert "u_duryea_a" not in ids(p.rules.view(p.state, "confederate"))
    q = position({"c_law_a": "31,21", "u_duryea_a": "31,24"}, turn=4)  # three squares north, no obstacle
    assert "u_duryea_a" in ids(q.rules.view(q.state, "confederate"))


def test_non_hidden_shows_every_enemy_unit_on_the_map(position: Any) -> None:
    p = position({"u_duryea_a": "5,5", "c_law_b": "30,30"}, options={"hidden": False})
    assert "c_law_b" in ids(p.rules.view(p.state, "union"))
    assert p.rules.hidden_units(p.state, "union") == frozenset(
        s.id for s in p.board.specs if s.side == "confederate" and s.id != "c_law_b"
    )


def test_nothing_is_hidden_once_the_game_has_ended(position: Any) -> None:
    """§B7.0 "You may examine the map and look at the units of both sides when the game has ended", §IA10.0
    "access units of both sides after the game has ended": with hidden units on, the unsighted enemy and the state
    of every enemy unit (its men) are in each seat's view once the game is over, and in neither before."""
    p = position({"u_duryea_a": "5,5", "c_law_a": "6,5", "c_law_b": "30,30"})
    during = {u["id"]: u for u in p.rules.view(p.state, "union")["units"]}
    assert "c_law_b" not in during and "men" not in during["c_law_a"]
    p.state = replace(p.state, over=True)
    for seat in ("union", "confederate"):
        after = {u["id"]: u for u in p.rules.view(p.state, seat)["units"]}
        assert {"u_duryea_a", "c_law_a", "c_law_b"} <= set(after)
        assert all("men" in after[i] for i in ("u_duryea_a", "c_law_a", "c_law_b"))
        assert p.rules.hidden_units(p.state, seat) == frozenset()


def test_the_full_view_has_everything(position: Any) -> None:
    p = position({"u_duryea_a": "5,5", "c_law_b": "30,30"})
    v = p.rules.view(p.state, None)
    assert {"u_duryea_a", "c_law_b"} <= ids(v) and "losses" in v


def test_fire_events_name_the_firer_to_its_own_side_only(position: Any) -> None:
    """A shot is told in full to the firer's side, and to the target's side as casualties in a square."""
    p = position({"u_duryea_a": "5,5", "c_law_a": "6,5"})
    step = p.step()
    combat.fire(p.ctx, p.state, p.i("u_duryea_a"), p.cell("6,5"), step, False)
    for e in step.events:
        if e.seen_by is None or "confederate" in e.seen_by:
            assert "u_duryea_a" not in json.dumps(e.to_json()), e


def test_render_text_draws_the_map_and_the_seats_units(position: Any) -> None:
    """North up: the top line is y = 35 (the north edge), the first column x = 41 (the west edge)."""
    p = position({"u_duryea_a": "5,5", "c_law_b": "30,30"})
    text = p.rules.render_text(p.state, "union")
    rows = text.splitlines()[3:39]
    assert text.splitlines()[39].startswith("Type squares as x,y")
    assert len(rows) == 36 and all(len(r) == 4 + 42 for r in rows)
    assert rows[0].startswith(" 35 ") and rows[-1].startswith("  0 ")
    assert rows[35 - 5][4 + 41 - 5] == "U" and rows[35 - 30][4 + 41 - 30] != "X"
    assert p.rules.render_text(p.state, None).splitlines()[3 + 35 - 30][4 + 41 - 30] == "X"


def test_decisions_in_words(position: Any) -> None:
    """Units by what they are and where they stand, squares as the manual writes them."""
    rules = position({}).rules
    assert rules.describe(D.Move("c_law_a", "32,18", "31,18")) == "Law-A, Hood's division at 32,18 moves to 31,18"
    assert rules.describe(D.Plot(("u_i_corps_a@31,18", "u_duryea_a@30,20!"))) == (
        "I Corps-A, Hooker's artillery fires into 31,18; Duryea-A, Ricketts's division fires into and melees 30,20"
    )
    assert D.Plot(("c_law_a@31,18!",)).text() == "plot c_law_a@31,18!"


def test_v_shows_what_a_unit_of_the_seat_sees_and_nothing_of_the_enemy(position: Any) -> None:
    """V (§B3.1): the squares a unit sees, as the hidden-units rule counts them (§IA8.3); an enemy unit, seen or not,
    is refused in the words of a unit that does not exist."""
    from grognard.engine.errors import IllegalDecision

    p = position({"u_duryea_a": "5,5", "c_law_a": "6,5", "c_law_b": "30,30"})
    answer = p.rules.inspect(p.state, "union", {"kind": "sight", "unit": "u_duryea_a"})
    seen = set(answer["cells"])
    assert p.cell("6,5") in seen and p.cell("30,30") not in seen
    assert seen == {c for c in range(p.grid.size) if p.board.sees(p.cell("5,5"), c, p.state.turn) or c == p.cell("5,5")}
    words = set()
    for uid in ("c_law_a", "c_law_b", "no_such_unit"):
        with pytest.raises(IllegalDecision) as e:
            p.rules.inspect(p.state, "union", {"kind": "sight", "unit": uid})
        words.add(e.value.reason.replace(repr(uid), "UNIT"))
    assert len(words) == 1
