"""(Z) abort (§B3.3, §IA7.3, §IA7.5): "The unit you have accessed will return to its original square, facing,
and mode with its original operation points and fatigue"; and what its moves set off undone with it (§B2.0's early
release, AMB-18's holder of a victory square), while what other units were ordered meanwhile stands."""

from __future__ import annotations

from typing import Any

from grognard.rulesets.antietam import decisions as D


def play(p: Any, seat: str, *decisions: Any) -> Any:
    """``decisions`` applied in turn from ``p.state``, each checked legal first."""
    s = p.state
    for d in decisions:
        assert d in p.rules.legal(s, seat), d
        s = p.rules.apply(s, seat, d, p.step())
    return s


def test_z_returns_the_unit_to_its_square_with_its_operation_points_and_fatigue(position: Any) -> None:
    """§B3.3 (Z) "the unit returns to its original square"; §IA7.5 "Press "Z" to abort if you have made a mistake
    with the unit you are moving to put it back to its original place". It stays picked up and may move again."""
    p = position({"u_duryea_a": ("5,5", {"fatigue": 3})})
    s = play(p, "union", D.Access("u_duryea_a"))
    assert D.Abort("u_duryea_a") not in p.rules.legal(s, "union")  # nothing to abort yet
    p.state = s
    s = play(p, "union", D.Move("u_duryea_a", "5,5", "6,5"), D.Move("u_duryea_a", "6,5", "7,5"))
    assert (p.square("u_duryea_a", s), p.unit("u_duryea_a", s).op) == ("7,5", 6)
    p.state = s
    s = play(p, "union", D.Abort("u_duryea_a"))
    u = p.unit("u_duryea_a", s)
    assert (p.square("u_duryea_a", s), u.op, u.fatigue, u.moved) == ("5,5", 10, 3, False)
    assert s.accessed == p.i("u_duryea_a") and D.Move("u_duryea_a", "5,5", "5,6") in p.rules.legal(s, "union")
    assert D.Abort("u_duryea_a") not in p.rules.legal(s, "union")


def test_z_restores_mode_facing_operation_points_and_fatigue_in_the_intermediate_game(position: Any) -> None:
    """§IA7.3 (Z): square, facing, mode, operation points and fatigue as picked up, after S (mode), X (force march,
    §IA7.10), D (facing, which turns the stack, §IA7.9) and a move; the stack-mate left behind faces as it did."""
    setup = {"mode": "normal", "facing": 3}
    p = position(
        {"u_duryea_a": ("5,5", setup), "u_duryea_b": ("5,5", setup)},
        options={"game": "intermediate", "activation": False},
        turn=2,
    )
    p.state = play(p, "union", D.Access("u_duryea_a"))
    s = play(
        p,
        "union",
        D.Face("u_duryea_a", 5),
        D.Mode("u_duryea_a"),
        D.ForceMarch("u_duryea_a"),
        D.Move("u_duryea_a", "5,5", "5,6"),
    )
    a, b = p.unit("u_duryea_a", s), p.unit("u_duryea_b", s)
    assert (a.mode, a.facing, b.facing) == ("column", 5, 5) and a.fatigue > 0
    p.state = s
    s = play(p, "union", D.Abort("u_duryea_a"))
    a, b = p.unit("u_duryea_a", s), p.unit("u_duryea_b", s)
    assert (p.square("u_duryea_a", s), a.mode, a.facing, a.op, a.fatigue) == ("5,5", "normal", 3, 10, 0)
    assert b.facing == 3


def test_z_undoes_the_early_release_its_move_set_off(position: Any) -> None:
    """§B2.0 "if the enemy moves next to the above units" Porter's corps is released; a Confederate move taken back
    by Z never ended next to it, so the corps stays held (the release came of that move alone)."""
    p = position({"u_warren_a": "5,5", "c_law_a": "7,5"}, part="confederate_operations_1", turn=2)
    p.state = play(p, "confederate", D.Access("c_law_a"), D.Move("c_law_a", "7,5", "6,5"))
    assert "Porter" in p.state.released
    s = play(p, "confederate", D.Abort("c_law_a"))
    assert s.released == () and p.square("c_law_a", s) == "7,5"


def test_z_gives_a_victory_square_entered_back_to_its_holder(position: Any) -> None:
    """AMB-18 (§IA10.1): the last side to enter a victory square holds it; a step into it taken back by Z did not
    enter it."""
    p = position({"u_duryea_a": "30,18"})
    k = next(k for k, (c, _, _) in enumerate(p.board.victory) if p.board.label(c) == "31,18")  # the Dunker Church
    p.state = play(p, "union", D.Access("u_duryea_a"), D.Move("u_duryea_a", "30,18", "31,18"))
    assert p.state.holders[k] == "union"
    s = play(p, "union", D.Abort("u_duryea_a"))
    assert s.holders[k] == "confederate"


def test_z_keeps_the_plots_of_other_units_and_cancels_the_units_own(position: Any) -> None:
    """§B3.3 (Z) "cancels the actions of the unit you have currently picked up": its own plot goes with its moves;
    a plot given meanwhile to another unit (F for several units, §B3.7) is that unit's and stands."""
    p = position({"u_duryea_a": "5,5", "u_duryea_b": "6,7", "c_law_a": "7,6"})
    s = play(
        p,
        "union",
        D.Access("u_duryea_a"),
        D.Move("u_duryea_a", "5,5", "6,5"),
        D.Plot(("u_duryea_a@7,6!", "u_duryea_b@7,6")),
    )
    p.state = s
    s = play(p, "union", D.Abort("u_duryea_a"))
    a, b = p.unit("u_duryea_a", s), p.unit("u_duryea_b", s)
    assert (a.target, a.melee, b.target) == (-1, False, p.cell("7,6"))


def test_z_is_told_to_its_own_side_only_and_typed_as_z(position: Any) -> None:
    """The abort is the seat's own business (§IA2.1 #5: the enemy does not see the unit go back); at the terminal
    the manual's key Z names the unit picked up."""
    p = position({"u_duryea_a": "5,5", "c_law_a": "9,9"})
    p.state = play(p, "union", D.Access("u_duryea_a"), D.Move("u_duryea_a", "5,5", "6,5"))
    assert p.rules.decisions().parse(p.rules.typed(p.state, "union", "z")) == D.Abort("u_duryea_a")
    step = p.step()
    p.rules.apply(p.state, "union", D.Abort("u_duryea_a"), step)
    told = [e for e in step.events if e.kind == "abort"]
    assert len(told) == 1 and told[0].seen_by == ("union",)


def test_putting_the_unit_down_ends_what_z_may_undo(position: Any) -> None:
    """§B3.3 (Q) puts the unit down: picked up again, Z returns it only to where it was picked up the second time."""
    p = position({"u_duryea_a": "5,5"})
    p.state = play(
        p, "union", D.Access("u_duryea_a"), D.Move("u_duryea_a", "5,5", "6,5"), D.PutDown(), D.Access("u_duryea_a")
    )
    assert D.Abort("u_duryea_a") not in p.rules.legal(p.state, "union")
    s = play(p, "union", D.Move("u_duryea_a", "6,5", "7,5"), D.Abort("u_duryea_a"))
    assert p.square("u_duryea_a", s) == "6,5"
