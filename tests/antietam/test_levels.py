"""The intermediate and advanced games (§IA2.1 #4): the Union activation cycle and its limits (§IA3), modes
(§IA7.8), facing and the 90° view with flank fire (§IA7.9), force march (§IA7.10), fortification (§IA7.11), ZOC to
ZOC (§IA7.6), routed units caught in a zone of control (AMB-20) and the advance plot (§IA7.13)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from grognard.engine import Step
from grognard.rulesets.antietam import activation, combat, orders, plots
from grognard.rulesets.antietam import decisions as D
from grognard.rulesets.antietam.moves import step_refusal

INTER = {"game": "intermediate"}
ADV = {"game": "advanced"}
# an open plain east of the creek: clear, level 3, no road, x 2-12, y 2-10


def cost(p: Any, uid: str, to: str, state: Any = None) -> tuple[Any, int]:
    s = state or p.state
    side = p.board.side(p.i(uid))
    ezoc = p.ctx.zoc(s, "confederate" if side == "union" else "union")
    return step_refusal(p.ctx, s, p.i(uid), p.cell(to), p.ctx.occupants(s), ezoc)


def mods_of(p: Any, uid: str, target: str) -> dict[str, int]:
    found = combat.fire_modifiers(p.ctx, p.state, p.i(uid), p.cell(target), p.ctx.occupants(p.state), p.step(), False)
    return {m.name: m.percent for m in found}


def inf(square: str, **fields: Any) -> tuple[str, dict[str, Any]]:
    return square, {"mode": "normal", "facing": 3} | fields


# --- §IA2.1 options ---------------------------------------------------------------------------------------------
def test_the_menu_offers_the_three_games_and_the_options_of_ia2_1(position: Any) -> None:
    """§IA2.1 #4 basic / intermediate / advanced; #6 time limit; #9 icons or symbols."""
    p = position({}, options=INTER)
    specs = {o.name: o for o in p.rules.option_specs}
    assert specs["game"].choices == ("basic", "intermediate", "advanced")
    assert specs["time_limit"].choices == (0, 2, 4, 8)
    assert specs["display"].choices == ("icons", "symbols")
    view = p.rules.view(p.state, "union")
    assert view["options"]["time_limit"] == 0 and view["options"]["display"] == "icons"


@pytest.mark.parametrize("minutes", [2, 4, 8])
def test_ia2_1_6_the_time_limit_is_the_phasing_sides_for_its_operation_phase(position: Any, minutes: int) -> None:
    """§IA2.1 #6 "a time limit to how much time a player has to complete his operations phase" (AMB-25: 2, 4 or 8
    minutes): the phasing side's, keyed by the phase; C (end_phase) when it runs out; none outside an operation
    phase, and none with the option at 0."""
    from grognard.rulesets.antietam import decisions as D

    p = position({}, options={"time_limit": minutes})
    limit = p.rules.time_limit(p.state)
    assert limit is not None and (limit.seat, limit.seconds, limit.decision) == ("union", 60.0 * minutes, D.EndPhase())
    theirs = p.rules.time_limit(replace(p.state, part=p.state.part + 1))  # the Union's combat phase
    assert theirs is None
    conf = position({}, part="confederate_operations_1", options={"time_limit": minutes})
    later = conf.rules.time_limit(conf.state)
    assert later is not None and later.seat == "confederate" and later.key != limit.key
    assert position({}).rules.time_limit(position({}).state) is None


# --- §IA3 activation ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("turn", "level", "union_points", "extra"),
    [(1, 3, 0, 0), (5, 3, 0, 1), (9, 3, 0, 2), (1, 1, 0, -2), (1, 5, 0, 2), (1, 3, 3000, 1), (1, 3, 9999, 2)],
)
def test_ia3_2_activation_limit(position: Any, turn: int, level: int, union_points: int, extra: int) -> None:
    """§IA3.2 base four divisions plus a random number, more as the day wears on and the score goes up; levels
    change the number of activations (§IA2.1 #1; AMB-7 reading: random 0-2, +1 from turn 5, +2 from turn 9, +1
    per 3000 Union points up to 2, level - 3)."""
    p = position({}, turn=turn, options=INTER | {"level": level})
    state = replace(p.state, score=(union_points, 0))
    seen = {activation.activation_limit(p.ctx, state, Step(seed)) for seed in range(40)}
    assert seen == {4 + extra, 5 + extra, 6 + extra}


def test_ia3_1_the_cycle_offers_each_division_until_the_limit(position: Any) -> None:
    """§IA3.1 each Union division on the map is offered in turn, activate or bypass, until the limit."""
    p = position(
        {"u_duryea_a": inf("5,5"), "u_seymour_a": inf("6,6"), "u_gibbon_a": inf("7,7"), "c_law_a": "30,10"},
        part="activation",
        options=INTER,
    )
    rules = p.rules
    state = replace(activation.start_cycle(p.ctx, p.state, p.step()), limit=1)
    assert state.offer == ("Meade", "Ricketts", "Doubleday")  # OOB order
    legal = rules.legal(state, "union")
    assert {c.cls.kind for c in legal.choices} == {"activate", "bypass"}
    assert rules.legal(state, "confederate").choices == []  # §IA3.4 the Confederates are always active
    state = rules._apply(state, "union", D.Bypass("Meade"), p.step())
    state = rules._apply(state, "union", D.Activate("Ricketts"), p.step())
    assert state.active == ("Ricketts",) and state.offer == ()  # the limit is reached: the cycle ends


def test_ia3_3_units_not_activated_may_not_move_but_may_act(position: Any) -> None:
    """§IA3.3 "Unactivated units may not move, but may perform any other actions" (AMB-8)."""
    p = position({"u_duryea_a": inf("5,5"), "u_seymour_a": inf("5,7")}, options=INTER)
    state = replace(p.state, active=("Ricketts",))
    assert cost(p, "u_duryea_a", "6,5", state)[0] is None
    why, _ = cost(p, "u_seymour_a", "6,7", state)
    assert why is not None and why.rule == "§IA3.3"
    state = p.rules._apply(state, "union", D.Access("u_seymour_a"), p.step())
    kinds = {c.cls.kind for c in p.rules.legal(state, "union").choices if len(c)}
    assert {"mode", "face", "force_march"} <= kinds


def test_ia3_3_corps_artillery_moves_with_any_division_of_its_corps(position: Any) -> None:
    """§IA3.3 "Union Corps artillery units are activated with any division of their corps"."""
    p = position({"u_i_corps_a": ("5,5", {"mode": "limbered", "facing": 3})}, options=INTER)
    assert activation.inactive(p.ctx, p.state, p.i("u_i_corps_a")) == "corps:Hooker"
    assert activation.inactive(p.ctx, replace(p.state, active=("Meade",)), p.i("u_i_corps_a")) == ""
    assert activation.inactive(p.ctx, replace(p.state, active=("Greene",)), p.i("u_i_corps_a")) == "corps:Hooker"


def test_activation_off_activates_every_formation(position: Any) -> None:
    """§IA2.1 #8 "having every Union formation automatically activated"."""
    p = position({"u_duryea_a": inf("5,5")}, options=INTER | {"activation": False})
    assert cost(p, "u_duryea_a", "6,5")[0] is None


# --- §IA7.8 modes ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("uid", "mode", "zoc", "expected"),
    [
        ("u_duryea_a", "normal", False, 2),
        ("u_davis_a", "mounted", False, 2),
        ("u_i_corps_a", "limbered", False, 4),
        ("u_i_corps_a", "limbered", True, 8),
        ("u_cav_a", "limbered", True, 2),
    ],
)
def test_ia7_8_changing_mode_costs_the_table(position: Any, uid: str, mode: str, zoc: bool, expected: int) -> None:
    """Operations Costs Table "Change mode 2 2 4 4", "Unlimber in enemy ZOC 8", note 5 "Mode change for CAV ART
    is 2"."""
    units: dict[str, Any] = {uid: ("5,5", {"mode": mode, "facing": 3})}
    if zoc:
        units["c_law_a"] = "6,5"
    p = position(units, options=INTER | {"activation": False})
    i = p.i(uid)
    assert orders.mode_cost(p.ctx, p.state, i) == expected
    state = orders.change_mode(p.ctx, p.state, i, p.step())
    assert state.units[i].mode != mode and state.units[i].op == 10 - expected


def test_ia7_8_unlimbered_artillery_may_not_move(position: Any) -> None:
    p = position({"u_i_corps_a": ("5,5", {"mode": "unlimbered", "facing": 3})}, options=INTER | {"activation": False})
    why, _ = cost(p, "u_i_corps_a", "6,5")
    assert why is not None and why.rule == "§IA7.8"


def test_ia7_8_bridges_only_in_column_limbered_or_mounted(position: Any) -> None:
    """§IA7.8 "Units must be limbered, mounted, or in column to cross a bridge" (the Middle Bridge, 21,11)."""
    opts = INTER | {"activation": False}
    p = position({"u_duryea_a": inf("20,11")}, options=opts)
    why, _ = cost(p, "u_duryea_a", "21,11")
    assert why is not None and why.rule == "§IA7.8"
    q = position({"u_duryea_a": inf("20,11", mode="column")}, options=opts)
    assert cost(q, "u_duryea_a", "21,11")[0] is None


def test_road_bonus_only_in_column_and_column_tires_less(position: Any) -> None:
    """Operations Costs note 2 "Infantry must be in column mode to use the road bonus"; Fatigue Gain Table
    "Enter square in normal mode 2, in column 1"."""
    from tests.antietam.test_movement import _road_pair

    opts = INTER | {"activation": False}
    probe = position({}, options=opts)
    a, b = _road_pair(probe)
    normal = position({"u_duryea_a": inf(a)}, options=opts)
    column = position({"u_duryea_a": inf(a, mode="column")}, options=opts)
    assert cost(normal, "u_duryea_a", b)[1] == 2
    assert cost(column, "u_duryea_a", b)[1] == 1
    from grognard.rulesets.antietam.moves import move

    moved = move(column.ctx, column.state, column.i("u_duryea_a"), column.cell(b), 1, column.step())
    assert column.unit("u_duryea_a", moved).fatigue == 1
    moved = move(normal.ctx, normal.state, normal.i("u_duryea_a"), normal.cell(b), 2, normal.step())
    assert normal.unit("u_duryea_a", moved).fatigue == 2


@pytest.mark.parametrize(
    ("uid", "mode", "percent"),
    [
        ("u_duryea_a", "normal", 100),
        ("u_duryea_a", "column", 75),
        ("u_davis_a", "mounted", 75),
        ("u_davis_a", "dismounted", 75),
    ],
)
def test_mode_modifiers_on_fire(position: Any, uid: str, mode: str, percent: int | None) -> None:
    """MODE MODIFIERS "Infantry normal 1.00, column .75", "Cavalry mounted .75"; §IA7.8 dismounted cavalry ".75
    (horse-holders)"."""
    p = position({uid: ("5,5", {"mode": mode, "facing": 3}), "c_law_a": inf("6,5", facing=7)}, options=INTER)
    assert mods_of(p, uid, "6,5").get(mode) == percent


def test_mounted_cavalry_melees_at_150(position: Any) -> None:
    p = position(
        {"u_davis_a": ("5,5", {"mode": "mounted", "facing": 3}), "c_law_a": inf("6,5", facing=7)}, options=INTER
    )
    strength = combat.melee_strength(p.ctx, p.state, p.i("u_davis_a"), p.cell("6,5"), True)
    assert strength == 301 * 150 // 100


def test_limbered_artillery_does_not_fire(position: Any) -> None:
    """Operations Costs Table "Fire ... LIMB. ART. P"."""
    p = position(
        {"u_i_corps_a": ("5,5", {"mode": "limbered", "facing": 3}), "c_law_a": inf("6,5", facing=7)}, options=INTER
    )
    assert not combat.can_fire(p.ctx, p.state, p.i("u_i_corps_a"))
    why = plots.plot_refusal(p.ctx, p.state, "union", ("u_i_corps_a@6,5",))
    assert why is not None and why.rule == "Operations Costs Table"


# --- §IA7.9 facing ----------------------------------------------------------------------------------------------
def test_ia7_9_a_unit_fires_only_into_its_90_degree_view(position: Any) -> None:
    """§IA7.9 "A unit has a line of sight equal to 90 degree angle radiating in a V shape from the unit"."""
    p = position({"u_duryea_a": inf("5,5", facing=3), "c_law_a": inf("4,5", facing=3)}, options=INTER)
    assert not combat.in_range(p.ctx, p.state, p.i("u_duryea_a"), p.cell("4,5"))  # behind it
    assert combat.choose_target(p.ctx, p.state, p.i("u_duryea_a"), p.ctx.occupants(p.state)) == -1
    q = position({"u_duryea_a": inf("5,5", facing=7), "c_law_a": inf("4,5", facing=3)}, options=INTER)
    assert combat.in_range(q.ctx, q.state, q.i("u_duryea_a"), q.cell("4,5"))
    basic = position({"u_duryea_a": "5,5", "c_law_a": "4,5"})
    assert combat.in_range(basic.ctx, basic.state, basic.i("u_duryea_a"), basic.cell("4,5"))  # §B3.3 360°


def test_ia7_9_fire_from_outside_the_view_flanks(position: Any) -> None:
    """§IA7.9 "A unit fired at through a direction not in its line of sight is considered to be flanked": "Flank
    Modifier to Attacker = 1.50"; §IA7.8 a column is flanked from any direction."""
    facing_away = position({"u_duryea_a": inf("5,5"), "c_law_a": inf("6,5", facing=3)}, options=INTER)
    assert mods_of(facing_away, "u_duryea_a", "6,5")["flank"] == 150
    facing_us = position({"u_duryea_a": inf("5,5"), "c_law_a": inf("6,5", facing=7)}, options=INTER)
    assert "flank" not in mods_of(facing_us, "u_duryea_a", "6,5")
    column = position({"u_duryea_a": inf("5,5"), "c_law_a": inf("6,5", facing=7, mode="column")}, options=INTER)
    assert mods_of(column, "u_duryea_a", "6,5")["flank"] == 150


def test_flanked_defender_melees_at_half(position: Any) -> None:
    """ "Flank Modifier to defender = .50" in melee."""
    p = position({"u_duryea_a": inf("5,5"), "c_law_a": inf("6,5", facing=3)}, options=INTER)
    src = (p.cell("5,5"),)
    assert combat.melee_strength(p.ctx, p.state, p.i("c_law_a"), p.cell("6,5"), False, src) == 503 // 2


def test_ia7_9_moving_faces_the_square_entered_and_the_stack_shares_it(position: Any) -> None:
    """§IA7.9 "facing automatically changes during movement"; "All units in a square have the same facing"."""
    from grognard.rulesets.antietam.moves import move

    p = position({"u_duryea_a": inf("5,5"), "u_duryea_b": inf("5,6", facing=1)}, options=INTER | {"activation": False})
    state = move(p.ctx, p.state, p.i("u_duryea_a"), p.cell("5,6"), 2, p.step())
    assert p.unit("u_duryea_a", state).facing == 5 == p.unit("u_duryea_b", state).facing
    state = orders.face(p.ctx, state, p.i("u_duryea_b"), 2)
    assert p.unit("u_duryea_a", state).facing == 2


# --- §IA7.10 force march -----------------------------------------------------------------------------------------
def test_ia7_10_force_march_one_op_for_six_fatigue_not_at_40(position: Any) -> None:
    p = position({"u_duryea_a": inf("5,5", fatigue=34)}, options=INTER)
    i = p.i("u_duryea_a")
    assert orders.force_march_refusal(p.ctx, p.state, i) is None
    state = orders.force_march(p.ctx, p.state, i, p.step())
    assert (state.units[i].op, state.units[i].fatigue) == (11, 40)
    why = orders.force_march_refusal(p.ctx, state, i)
    assert why is not None and why.rule == "§IA7.10"


# --- §IA7.11 fortification ---------------------------------------------------------------------------------------
def test_ia7_11_building_is_the_advanced_game_12_op_and_20_fatigue(position: Any) -> None:
    p = position({"u_duryea_a": inf("5,5", op=12), "u_davis_a": ("6,6", {"mode": "dismounted", "op": 12})}, options=ADV)
    i = p.i("u_duryea_a")
    state = orders.fortify(p.ctx, p.state, i, p.step())
    assert (state.units[i].fort, state.units[i].op, state.units[i].fatigue) == (1, 0, 20)
    assert orders.fortify_refusal(p.ctx, p.state, p.i("u_davis_a")) is not None  # infantry only
    q = position({"u_duryea_a": inf("5,5", op=12)}, options=INTER)
    why = orders.fortify_refusal(q.ctx, q.state, q.i("u_duryea_a"))
    assert why is not None and why.rule == "§IA7.11"


def test_ia7_11_intermediate_units_with_op_left_fortify_after_the_confederate_combat(position: Any) -> None:
    """§IA7.11 "Units automatically fortify themselves when they have remaining operation points at the end of
    the combat phase of the Confederate turn in the INTERMEDIATE game" (AMB-11: 6 OP left, not in enemy ZOC)."""
    p = position(
        {"u_duryea_a": inf("5,5", op=6), "u_duryea_b": inf("5,8", op=5), "c_law_a": inf("12,2", op=10)},
        options=INTER,
    )
    state = orders.auto_fortify(p.ctx, p.state, p.step())
    assert [p.unit(u, state).fort for u in ("u_duryea_a", "u_duryea_b", "c_law_a")] == [1, 0, 1]


def test_fortification_cuts_casualties_10_percent_a_level_and_stays_behind(position: Any) -> None:
    """ "Fortification = levelX.10" (AMB-13: 10% fewer casualties a level); it is lost on leaving (AMB-11)."""
    from grognard.rulesets.antietam.moves import move

    p = position({"u_duryea_a": inf("5,5"), "c_law_a": inf("6,5", facing=7, fort=3)}, options=INTER)
    assert mods_of(p, "u_duryea_a", "6,5")["fortification 3"] == 70
    state = move(p.ctx, p.state, p.i("c_law_a"), p.cell("7,5"), 2, p.step())
    assert p.unit("c_law_a", state).fort == 0


# --- §IA7.6, AMB-20, §IA7.13 -------------------------------------------------------------------------------------
def test_ia7_6_zoc_to_zoc_costs_8_more_and_only_as_a_first_move(position: Any) -> None:
    """Operations Costs Table "Move ZOC to ZOC +8"; §IA7.6 "allowed if no other movement has been made"."""
    opts = INTER | {"activation": False}
    p = position({"u_duryea_a": inf("5,5", op=12), "c_law_a": inf("6,6")}, options=opts)
    assert cost(p, "u_duryea_a", "5,6") == (None, 2 + 2 + 8)
    moved = replace(
        p.state,
        units=tuple(replace(u, moved=True) if k == p.i("u_duryea_a") else u for k, u in enumerate(p.state.units)),
    )
    why, _ = cost(p, "u_duryea_a", "5,6", moved)
    assert why is not None and why.rule == "§IA7.6"


def test_ia7_6_artillery_may_not_move_zoc_to_zoc_and_is_told_so(position: Any) -> None:
    """Operations Costs Table "Move ZOC to ZOC ... P P": prohibited to artillery, limbered or not; the refusal says
    so (it read as a stream's "but at a bridge or ford")."""
    opts = INTER | {"activation": False}
    p = position({"u_i_corps_b": ("5,5", {"mode": "limbered", "op": 20}), "c_law_a": inf("6,6")}, options=opts)
    why, _ = cost(p, "u_i_corps_b", "5,6")
    assert why is not None and why.rule == "§IA7.6" and "artillery may not move ZOC to ZOC" in str(why)
    assert cost(p, "u_i_corps_b", "4,5")[0] is None  # leaving the zone of control is allowed


def test_amb20_routed_units_caught_in_a_zoc_lose_10_percent_and_stop(position: Any) -> None:
    """§IA7.6 "Routed units forced to retreat through an enemy ZOC suffer losses and stop their retreat" (AMB-20:
    10% of the men, at least 10); the basic game eliminates them (§B3.6)."""
    units = {
        "u_duryea_a": inf("5,5", routed=True),
        "c_law_a": inf("7,5"),
        "c_law_b": inf("5,3"),
        "c_wofford_a": inf("3,5"),
        "c_wofford_b": inf("5,7"),
    }
    p = position(units, options=INTER)
    state = combat.retreat(p.ctx, p.state, p.i("u_duryea_a"), 4, p.step(), until_clear=False)
    u = p.unit("u_duryea_a", state)
    assert u.cell >= 0 and u.strength == 501 - 50
    basic = position({k: v[0] for k, v in units.items()} | {"u_duryea_a": ("5,5", {"routed": True})})
    state = combat.retreat(basic.ctx, basic.state, basic.i("u_duryea_a"), 4, basic.step(), until_clear=False)
    assert basic.unit("u_duryea_a", state).cell < 0


def test_ia7_13_only_units_plotted_to_advance_advance(position: Any) -> None:
    """§IA7.13 "plotting melee will automatically plot advance" (``!``); ``!.`` toggles it back to N; §IA8.7 only
    plotted units advance."""
    p = position({"u_duryea_a": inf("5,5"), "c_law_a": inf("6,5", facing=7)}, options=INTER | {"activation": False})
    s1 = plots.apply_plot(p.ctx, p.state, "union", ("u_duryea_a@6,5!",), p.step())
    s2 = plots.apply_plot(p.ctx, p.state, "union", ("u_duryea_a@6,5!.",), p.step())
    assert p.unit("u_duryea_a", s1).advance and not p.unit("u_duryea_a", s2).advance
    empty1 = replace(s1, units=tuple(replace(u, cell=-1) if k == p.i("c_law_a") else u for k, u in enumerate(s1.units)))
    empty2 = replace(s2, units=tuple(replace(u, cell=-1) if k == p.i("c_law_a") else u for k, u in enumerate(s2.units)))
    i = p.i("u_duryea_a")
    assert p.square("u_duryea_a", combat.advance(p.ctx, empty1, p.cell("6,5"), [i], p.step())) == "6,5"
    assert p.square("u_duryea_a", combat.advance(p.ctx, empty2, p.cell("6,5"), [i], p.step())) == "5,5"
    basic = position({"u_duryea_a": "5,5", "c_law_a": "6,5"})
    why = plots.plot_refusal(basic.ctx, basic.state, "union", ("u_duryea_a@6,5!.",))
    assert why is not None and why.rule == "§B4.2"


# --- §IA4 command control, §IA7.12 leaders (advanced game) -------------------------------------------------------
def _with_leaders(p: Any, **at: str) -> Any:
    """The state with each named leader riding with the given unit (the others nowhere)."""
    names = [str(lead["name"]) for lead in p.ctx.tables.leaders]
    return replace(p.state, leaders=tuple(p.i(at[n]) if n in at else -1 for n in names))


def test_ia4_1_infantry_traces_to_its_division_leader(position: Any) -> None:
    """§IA4.1 "Union units within four square of their divisional leaders" (Confederates six); "also in command
    control if within one square of their corps commander"; §IA4.4 out of command: five operation points."""
    from grognard.rulesets.antietam import leaders
    from grognard.rulesets.antietam.moves import full_allowance

    p = position({"u_seymour_a": inf("5,5"), "u_seymour_b": inf("9,5"), "u_magilton_a": inf("10,5")}, options=ADV)
    state = _with_leaders(p, Meade="u_seymour_a", Hooker="u_seymour_a")
    state = leaders.command_control(p.ctx, state, p.step())
    assert p.i("u_seymour_b") not in state.out_of_command  # 4 squares
    assert p.i("u_magilton_a") in state.out_of_command  # 5 squares
    assert full_allowance(p.ctx, state, p.i("u_magilton_a")) == 5
    near_corps = _with_leaders(p, Meade="u_seymour_a", Hooker="u_seymour_b")
    assert p.i("u_magilton_a") not in leaders.command_control(p.ctx, near_corps, p.step()).out_of_command


def test_ia4_2_union_division_leaders_trace_six_squares_to_their_corps(position: Any) -> None:
    """§IA4.2 "divisional commanders must be within six squares of their appropriate corps commanders for the
    Union" (AMB-9: out with him goes his division, but for units next to the corps leader)."""
    from grognard.rulesets.antietam import leaders

    p = position({"u_seymour_a": inf("5,5"), "u_seymour_b": inf("5,6"), "u_duryea_a": inf("12,5")}, options=ADV)
    state = _with_leaders(p, Meade="u_seymour_a", Hooker="u_duryea_a")
    out = leaders.command_control(p.ctx, state, p.step()).out_of_command
    assert p.i("u_seymour_a") in out and p.i("u_seymour_b") in out


def test_ia4_3_cavalry_and_confederate_artillery_are_always_in_command(position: Any) -> None:
    from grognard.rulesets.antietam import leaders

    p = position({"u_davis_a": "5,5", "c_long_a": ("30,10", {"mode": "unlimbered"}), "c_evans_a": "30,5"}, options=ADV)
    state = _with_leaders(p)
    assert leaders.command_control(p.ctx, state, p.step()).out_of_command == ()


def test_ia4_4_out_of_command_units_do_not_rally_recover_or_resupply(position: Any) -> None:
    from grognard.rulesets.antietam.phases import recover

    p = position({"u_seymour_a": inf("5,5", routed=True, disrupted=True, ammo=False)}, options=ADV)
    state = replace(p.state, out_of_command=(p.i("u_seymour_a"),))
    for seed in range(10):
        u = p.unit("u_seymour_a", recover(p.ctx, state, Step(seed), turn_start=True))
        assert u.routed and u.disrupted and not u.ammo


def test_ia7_12_leader_bonus_adds_to_the_casualties(position: Any) -> None:
    """§IA7.12 "A leader with a bonus of 20 will increase casualties, inflicted by the unit it is with by 20%"
    (AMB-14: brigade + division + corps bonuses add; advanced game only)."""
    p = position({"u_seymour_a": inf("5,5"), "c_law_a": inf("6,5", facing=7)}, options=ADV)
    p.state = _with_leaders(p, Meade="u_seymour_a")
    brigade = p.board.spec(p.i("u_seymour_a")).brigade_bonus
    assert mods_of(p, "u_seymour_a", "6,5")["leader bonus"] == 100 + brigade + 16
    q = position({"u_seymour_a": inf("5,5"), "c_law_a": inf("6,5", facing=7)}, options=INTER)
    assert "leader bonus" not in mods_of(q, "u_seymour_a", "6,5")


def test_ia7_12_transfer_within_the_formation(position: Any) -> None:
    """§IA7.12 "Divisional and Corps commanders may be transferred to any unit within their formation"."""
    from grognard.rulesets.antietam import leaders

    p = position({"u_seymour_a": inf("5,5"), "u_seymour_b": inf("9,9"), "u_duryea_a": inf("6,6")}, options=ADV)
    state = replace(_with_leaders(p, Meade="u_seymour_a"), accessed=p.i("u_seymour_a"))
    assert leaders.transfer_refusal(p.ctx, state, "Meade", "u_seymour_b") is None
    why = leaders.transfer_refusal(p.ctx, state, "Meade", "u_duryea_a")  # Ricketts's division
    assert why is not None and why.rule == "§IA7.12"
    state = p.rules._apply(state, "union", D.Transfer("Meade", "u_seymour_b"), p.step())
    assert leaders.riding(p.ctx, state, p.i("u_seymour_b")) == [p.ctx.leader_index["Meade"]]


def test_ia7_12_a_fallen_leader_costs_fatigue_bonus_and_points(position: Any) -> None:
    """§IA7.12 wound checks for the brigade leader and each leader with the unit (AMB-12: 50 x casualties / men
    %), "When a leader dies, the unit it is attached to gains five fatigue points"; §IA10.1 "Brigade leader 100",
    "Division leader 300" to the enemy; the replacements have no bonus."""
    from grognard.rulesets.antietam import leaders, victory

    p = position({"u_seymour_a": inf("5,5")}, options=ADV)
    state = _with_leaders(p, Meade="u_seymour_a")
    i = p.i("u_seymour_a")
    assert leaders.bonus(p.ctx, state, i) == p.board.spec(i).brigade_bonus + 16 > 16
    hit = leaders.wound_checks(p.ctx, state, i, casualties=500, men=250, step=p.step())  # 100%
    assert hit.fallen == ("brigade:union:Seymour", "Meade") and hit.units[i].fatigue == 10
    assert leaders.bonus(p.ctx, hit, i) == 0
    assert victory.points(p.ctx, hit)[1] - victory.points(p.ctx, state)[1] == 100 + 300
    none = leaders.wound_checks(p.ctx, state, i, casualties=0, men=250, step=p.step())
    assert none.fallen == ()
    basic = position({"u_seymour_a": "5,5"})
    assert leaders.leader_points(basic.ctx, replace(basic.state, fallen=("Meade",)), "confederate") == 0


@pytest.mark.parametrize(
    ("dead", "zoc", "percent"), [(False, False, 80), (True, False, 60), (False, True, 60), (True, True, 40)]
)
def test_ia5_1_disruption_recovery_by_the_brigade_leader(position: Any, dead: bool, zoc: bool, percent: int) -> None:
    """DISRUPTION RECOVERY TABLE: brigade leader alive and not in enemy ZOC 80%, dead or in ZOC 60%, dead and in
    ZOC 40% (advanced game)."""
    from grognard.rulesets.antietam.phases import recover

    units = {"u_seymour_a": inf("5,5", disrupted=True)} | ({"c_law_a": inf("6,5")} if zoc else {})
    p = position(units, options=ADV)
    state = replace(p.state, fallen=("brigade:union:Seymour",) if dead else ())
    step = Step(1)
    recover(p.ctx, state, step, turn_start=False)
    roll = next(e for e in step.events if e.kind == "roll" and "recovers from disruption" in e.data["why"])
    assert roll.data["percent"] == percent


@pytest.mark.parametrize(("distance", "expected"), [(0, None), (1, None), (2, 90), (4, 50), (6, 10), (7, 0), (9, 0)])
def test_ammo_eligibility_by_range_to_the_division_leader(position: Any, distance: int, expected: int | None) -> None:
    """AMMO ELIGIBILITY TABLE (advanced game): "Auto - Resupply" at 0-1 squares, 90/70/50/30/10% at 2-6, none from
    7; cavalry, cavalry artillery, Confederate artillery and Evans 50%."""
    from grognard.rulesets.antietam import leaders

    p = position(
        {"u_seymour_a": inf("5,5"), "u_seymour_b": inf(f"{5 + distance},5"), "u_davis_a": "20,30"}, options=ADV
    )
    state = _with_leaders(p, Meade="u_seymour_a")
    assert leaders.ammo_eligibility(p.ctx, state, p.i("u_seymour_b" if distance else "u_seymour_a")) == expected
    assert leaders.ammo_eligibility(p.ctx, state, p.i("u_davis_a")) == 50


def test_cox_replaces_burnside_with_his_own_bonus(position: Any) -> None:
    """IX Corps chart note: "Although Cox was not a divisional commander, he was first in line to command the
    corps" (Burnside 20, Cox 19)."""
    from grognard.rulesets.antietam import leaders

    p = position({"u_fairchild_b": inf("5,5")}, options=ADV)
    state = _with_leaders(p, Burnside="u_fairchild_b")
    i = p.i("u_fairchild_b")
    brigade = p.board.spec(p.i("u_fairchild_a")).brigade_bonus
    assert leaders.bonus(p.ctx, state, i) == brigade + 20
    hit = leaders.wound_checks(p.ctx, state, i, casualties=500, men=250, step=p.step())  # 100%: both fall
    assert hit.fallen == ("brigade:union:Fairchild", "Burnside")
    assert leaders.bonus(p.ctx, hit, i) == 19 and "Cox" in leaders.commanders(p.ctx, hit)


def test_ia5_4_no_resupply_far_from_the_division_leader(position: Any) -> None:
    """§IA5.4 resupply per the tables: seven squares or more from the division leader, no ammunition; at one square
    it comes at once (advanced game)."""
    from grognard.rulesets.antietam.phases import recover

    p = position(
        {"u_seymour_a": inf("2,5"), "u_seymour_b": inf("9,5", ammo=False), "u_magilton_a": inf("3,5", ammo=False)},
        options=ADV,
    )
    state = _with_leaders(p, Meade="u_seymour_a")
    for seed in range(10):
        after = recover(p.ctx, state, Step(seed), turn_start=True)
        assert not p.unit("u_seymour_b", after).ammo and p.unit("u_magilton_a", after).ammo


def test_hidden_units_are_sighted_in_the_90_degree_view_and_next_to_a_unit(position: Any) -> None:
    """§IA2.1 #5 hidden units with §IA7.9 "Facing determines a unit's line of sight": an enemy behind a unit is not
    sighted (the basic game sees all round), one next to it is ("visible when moved adjacent to")."""
    from grognard.rulesets.antietam.view import hidden_units

    units = {"u_seymour_a": inf("8,5", facing=3), "c_law_a": inf("5,5"), "c_law_b": inf("7,5")}
    p = position(units, options=INTER)
    hidden = hidden_units(p.ctx, p.state, "union")
    assert "c_law_a" in hidden and "c_law_b" not in hidden
    basic = position({k: v[0] for k, v in units.items()})
    assert not {"c_law_a", "c_law_b"} & hidden_units(basic.ctx, basic.state, "union")


def test_ia2_3_the_sequence_asks_the_union_to_activate_then_goes_to_operations(position: Any) -> None:
    """§IA2.3 phase 1 "Activation Phase" asks the Union (intermediate and advanced games, §IA3.1); once the cycle
    ends, on through command control (advanced), recovery and reinforcements to the Union operation phase; the
    basic game goes straight to the operations."""
    from grognard.rulesets.antietam import Antietam

    for game in ("intermediate", "advanced"):
        rules = Antietam(Antietam.load_scenario("1_full_battle"), {"game": game})
        state = rules.initial_state(3)
        assert rules.turn(state).seat == "union" and "Activation" in rules.turn(state).phase
        assert state.offer and state.limit >= 2
        while state.offer:
            step = Step(state.rng)
            state = rules.apply(state, "union", D.Bypass(state.offer[0]), step)
        assert "Union 1st Operations" in rules.turn(state).phase
        assert state.active == ()
        if game == "advanced":
            assert state.leaders and all(-1 <= j < len(state.units) for j in state.leaders)
    basic = Antietam(Antietam.load_scenario("1_full_battle"))
    assert "Union 1st Operations" in basic.turn(basic.initial_state(3)).phase


def test_ia7_12_the_chain_of_command_corps_to_division_to_brigade(position: Any) -> None:
    """§IA7.12 "A corps commander that is wounded will be replaced by one of the divisional commanders in his
    corps. That divisional commander will be replaced by a brigade leader of his division. ... Brigade commanders
    promoted to command a division act as divisional commanders" (reading: the first on the map in OOB order; each
    brings his own bonus; the promoted brigade leader leaves his brigade, which gets no new leader)."""
    from grognard.rulesets.antietam import leaders

    units = {"u_seymour_a": inf("5,5"), "u_seymour_b": inf("5,6"), "u_magilton_a": inf("6,6")}
    units |= {"u_magilton_b": inf("6,5"), "u_duryea_a": inf("8,8")}
    p = position(units, options=ADV)
    state = _with_leaders(p, Hooker="u_seymour_b", Meade="u_seymour_a", Ricketts="u_duryea_a")
    hit = leaders.wound_checks(p.ctx, state, p.i("u_seymour_b"), casualties=500, men=250, step=p.step())
    assert hit.fallen == ("brigade:union:Seymour", "Hooker")
    held = dict(zip((str(lead["name"]) for lead in p.ctx.tables.leaders), leaders.commanders(p.ctx, hit), strict=True))
    # Meade, first of the I Corps's divisions on the map, takes the corps and stays with his unit; Seymour's
    # brigade leader is down, so Magilton, the division's next brigade leader, takes Meade's division
    assert held["Hooker"] == "Meade" and held["Meade"] == "brigade:union:Magilton" and held["Ricketts"] == "Ricketts"
    k = p.ctx.leader_index
    assert hit.leaders[k["Hooker"]] == p.i("u_seymour_a") and hit.leaders[k["Meade"]] == p.i("u_magilton_a")
    assert leaders.bonus(p.ctx, hit, p.i("u_seymour_a")) == 16  # Meade's own bonus; Seymour is down
    assert leaders.bonus(p.ctx, hit, p.i("u_magilton_a")) == 7  # Magilton acts as a divisional commander
    assert leaders.bonus(p.ctx, hit, p.i("u_magilton_b")) == 0  # ... and is no longer with his brigade
    assert not leaders.brigade_leader_alive(p.ctx, hit, p.i("u_magilton_b"))


def test_ia7_12_a_promoted_leader_can_fall_and_the_chain_moves_again(position: Any) -> None:
    """§IA7.12 the chain "must be updated when a leader is wounded": a promoted commander is checked like any other
    leader with the unit, and when he falls the next in line takes his command; a command with no one left on the
    map stays empty (its units out of command control, §IA4) until a brigade leader of the division arrives."""
    from grognard.rulesets.antietam import leaders

    p = position({"u_seymour_a": inf("5,5"), "u_magilton_a": inf("6,6")}, options=ADV)
    state = _with_leaders(p, Hooker="u_seymour_a", Meade="u_seymour_a")
    step = p.step()
    once = leaders.wound_checks(p.ctx, state, p.i("u_seymour_a"), casualties=500, men=250, step=step)
    k = p.ctx.leader_index
    assert once.fallen == ("brigade:union:Seymour", "Hooker", "Meade")  # Meade took the corps and fell with it
    held = leaders.commanders(p.ctx, once)
    # the corps went to Meade's division's commander, Magilton; Meade's division has no brigade leader left on
    # the map (Anderson's brigade has not arrived): the command is empty
    assert held[k["Hooker"]] == "brigade:union:Magilton" and held[k["Meade"]] == ""
    assert once.leaders[k["Meade"]] == -1
    twice = leaders.wound_checks(p.ctx, once, p.i("u_magilton_a"), casualties=500, men=250, step=step)
    assert twice.fallen[-1] == "brigade:union:Magilton" and leaders.commanders(p.ctx, twice)[k["Hooker"]] == ""
    # Anderson's brigade comes onto the map: the command control phase gives him Meade's division
    arrived = twice.with_unit(p.i("u_anderson_a"), replace(p.unit("u_anderson_a"), cell=p.cell("7,7")))
    after = leaders.command_control(p.ctx, arrived, step)
    held = leaders.commanders(p.ctx, after)
    assert held[k["Hooker"]] == "brigade:union:Anderson" and held[k["Meade"]] == ""


def test_ia10_1_leader_points_by_the_rank_the_oob_prints(position: Any) -> None:
    """§IA10.1 "300 pts per division leader lost", "500 pts per Union Corps leader lost", "100 pts per brigade
    leader lost": a leader lost while acting in a higher command is priced at his own rank (reading); Cox, printed
    in the IX Corps's column, at a corps leader's."""
    from grognard.rulesets.antietam import leaders

    p = position({}, options=ADV)
    for fallen, points in [(("Meade",), 300), (("Cox",), 500), (("brigade:union:Magilton",), 100)]:
        assert leaders.leader_points(p.ctx, replace(p.state, fallen=fallen), "confederate") == points


@pytest.mark.parametrize(("version", "turn", "held"), [("c64", 3, True), ("ibm", 2, True), ("ibm", 3, False)])
def test_b2_0_the_ibm_version_holds_the_cavalry_until_turn_3(
    position: Any, version: str, turn: int, held: bool
) -> None:
    """§B2.0 "Pleasanton's Division until turn eight (1:00 PM) ... In the IBM version, Union cavalry unit may not
    be activated until turn 3" (AMB-6: the IBM rule as the option ``version = ibm``, its turn 3 in place of 8)."""
    from grognard.rulesets.antietam.moves import locked

    p = position({"u_davis_a": "5,5"}, turn=turn, options={"version": version})
    assert (locked(p.ctx, p.state, p.i("u_davis_a")) == "Pleasonton") is held


@pytest.mark.parametrize(("version", "turn", "offered"), [("c64", 1, True), ("ibm", 2, False), ("ibm", 3, True)])
def test_ia3_2_the_ibm_version_offers_the_cavalry_from_turn_3(
    position: Any, version: str, turn: int, offered: bool
) -> None:
    """§IA3.2 "In the IBM version, Union cavalry units may not be activated until turn 3": the activation cycle
    does not offer Pleasonton's division before turn 3 (the other versions only count it in the limit)."""
    p = position({"u_davis_a": "5,5", "u_seymour_a": inf("6,6")}, turn=turn, options=INTER | {"version": version})
    offer = activation.divisions_on_map(p.ctx, p.state)
    assert offer == (("Meade", "Pleasonton") if offered else ("Meade",))
