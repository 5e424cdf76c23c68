"""Battle of Antietam's computer general (issue 13, "Computer general, both sides"): declared by the ruleset, its
three levels play differently, each side plays its side's plan, and an operation phase takes well under 2 s."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from grognard.ai.base import parse_players
from grognard.ai.driver import play_out
from grognard.ai.observation import observe
from grognard.engine.game import new_game
from grognard.rulesets.antietam import Antietam
from grognard.rulesets.antietam import decisions as D
from grognard.rulesets.antietam.board import Board
from grognard.rulesets.antietam.general import General, Picture


def _phase(scenario: str, seat: str, level: int, seed: int = 3) -> tuple[list[str], float]:
    """The general's decisions through its seat's first operation phase, and the CPU seconds it thought."""
    game = new_game(Antietam, scenario, None, seed)
    other = {s: parse_players("random,random", Antietam, Antietam.seats, seed)[s] for s in Antietam.seats}
    general = General(seed, level)
    made: list[str] = []
    thinking = 0.0
    while game.turn().seat is not None:
        seat_now = game.turn().seat
        assert seat_now is not None
        if seat_now == seat:
            t0 = time.process_time()
            d = general.choose(observe(game, seat))
            thinking += time.process_time() - t0
            made.append(d.text())
            game.apply(seat, d)
            if isinstance(d, D.EndPhase):
                return made, thinking
        else:
            game.apply(seat_now, other[seat_now].choose(observe(game, seat_now)))
    return made, thinking


def test_declared_as_the_rulesets_computer_player_with_three_levels() -> None:
    assert set(Antietam.computer_players()) == {"general"}
    assert General().levels == ("easy", "normal", "hard")


def test_the_levels_play_differently() -> None:
    """``easy`` marches each unit on the nearest enemy and only fires; ``normal`` and ``hard`` keep the corps
    together, wait for support before entering a zone of control (§B3.6) and plot melees."""
    phases = {lv: _phase("4_ii_corps", "union", lv)[0] for lv in (0, 1, 2)}
    assert phases[0] != phases[1] and phases[1] != phases[2]
    assert not any("!" in d for d in phases[0] if d.startswith("plot"))


def test_the_confederate_holds_its_line_and_the_union_advances() -> None:
    """The Confederate's units in contact or on a victory square stay put; the Union moves toward the enemy."""
    confederate, _ = _phase("4_ii_corps", "confederate", 1)
    union, _ = _phase("4_ii_corps", "union", 1)
    moves_c = sum(d.startswith("move") for d in confederate)
    moves_u = sum(d.startswith("move") for d in union)
    assert moves_u > moves_c
    for held in ("c_rodes_a", "c_gbanderson_a"):  # D. H. Hill's brigades in the Sunken Road, the enemy near
        assert not any(d.startswith(f"move {held} ") for d in confederate)


def test_an_operation_phase_is_thought_within_two_seconds() -> None:
    """Issue 13: a full operation phase within 2 s at the 95th percentile; here the busiest, the Union's 09:00, in
    CPU seconds (the general's thinking and the ruleset's legal decisions it reads; a shared machine's wall clock
    runs several times slower under load, docs/ai/antietam.md "Speed")."""
    _, seconds = _phase("4_ii_corps", "union", 2)
    assert seconds < 2.0


def test_the_general_beats_random_play_from_both_seats() -> None:
    """One seeded game a seat: the general's side wins (§IA10.2). The Union in the 13:00 situation (four turns);
    the Confederate in the full battle (at 13:00 the morning's casualties already pass the 5,000 of §IA10.2)."""
    for seat, scenario in (("union", "5_ix_corps"), ("confederate", "1_full_battle")):
        other = "confederate" if seat == "union" else "union"
        game = new_game(Antietam, scenario, None, 2)
        play_out(game, parse_players(f"{seat}=general,{other}=random", Antietam, Antietam.seats, 2))
        result = game.result()
        assert result is not None and result.winner == seat, result.summary


def test_a_computer_union_activates_by_the_basic_schedule() -> None:
    """§IA3.2 "When the computer plays the Union, it will follow the restrictions placed on the Union player in
    the BASIC game (see 2.0)": at 06:00 of the intermediate game it bypasses Porter's division (turn 5) and
    Pleasonton's (turn 8), activates Hooker's, in the fight, and bypasses a rear division while the divisions
    still offered can use the activations left."""
    game = new_game(Antietam, "1_full_battle", {"game": "intermediate"}, 1)
    game.state = replace(game.state, offer=("Sykes", "Pleasonton", "Meade", "Sedgwick", "Rodman"), limit=2)
    general = General(1, 1)
    answers: list[str] = []
    while game.turn().seat == "union" and observe(game, "union").legal.of_kind("activate"):
        d = general.choose(observe(game, "union"))
        assert isinstance(d, D.Activate | D.Bypass)
        answers.append(d.text())
        game.apply("union", d)
    assert answers == ["bypass Sykes", "bypass Pleasonton", "activate Meade", "bypass Sedgwick", "activate Rodman"]


# a Confederate unit ready to act, for the positions below
_READY_CONFEDERATE = {"side": "confederate", "fatigue": 0, "morale": 90, "op": 10, "held": None, "acted": False}


def _picture(seat: str, units: list[dict[str, object]]) -> tuple[Picture, Board]:
    """A seat's picture of a made-up view on the real map: the units given, no fords, the victory squares."""
    board = Antietam(Antietam.load_scenario("1_full_battle")).ctx.board
    view: dict[str, Any] = {
        "units": [{"on_map": True, "routed": False, "corps": "", "division": "x", **u} for u in units],
        "fords": [],
        "victory_squares": [],
        "turn": 1,
        "last_turn": 11,
        "phase": "confederate_operations_1",
    }
    for u in view["units"]:
        u["cell"] = board.grid.parse(str(u["square"]))
    return Picture(board, view, seat), board


def test_fire_pays_at_guns_for_batteries_and_at_men_for_the_rest() -> None:
    """§IA8.2 guns are lost only to artillery fire; §IA7.7 infantry fire strikes a square's artillery only when it
    is alone there: the general's batteries prefer squares with guns, its infantry squares with men."""
    pic, board = _picture(
        "union",
        [
            {"id": "guns", "side": "confederate", "type": "artillery", "square": "30,5"},
            {"id": "men", "side": "confederate", "type": "infantry", "square": "30,7"},
        ],
    )
    guns, men = board.grid.parse("30,5"), board.grid.parse("30,7")
    assert pic.pays(guns, gunner=True) and not pic.pays(guns, gunner=False)
    assert pic.pays(men, gunner=False) and not pic.pays(men, gunner=True)


def test_batteries_and_cavalry_pull_back_from_melee_reach() -> None:
    """A gun is 150 points and a trooper 3 (§IA10.1): at normal a battery alone with an enemy two squares away walks
    to its rear to rally out of reach, a Confederate cavalry unit rides off to a square farther from the enemy;
    an infantry unit holds (the battery's only infantry stands next to the enemy, where it may not step: no cover
    for it); at easy the battery stays to fire."""
    pic, _ = _picture(
        "confederate",
        [
            {**_READY_CONFEDERATE, "id": "c_long_a", "type": "artillery", "square": "30,5"},
            {**_READY_CONFEDERATE, "id": "c_flee_a", "type": "cavalry", "square": "30,6"},
            {**_READY_CONFEDERATE, "id": "c_law_a", "type": "infantry", "square": "29,5"},
            {"id": "u", "side": "union", "type": "infantry", "square": "28,5"},
        ],
    )
    normal, easy = General(1, 1), General(1, 0)
    assert normal._goal(pic, pic.by_id["c_long_a"]) == (pic.rear, 0)
    ride = normal._goal(pic, pic.by_id["c_flee_a"])
    far = pic.enemy_distances()
    assert ride is not None and int(far[ride[0]]) > int(far[pic.by_id["c_flee_a"]["cell"]])
    assert normal._goal(pic, pic.by_id["c_law_a"]) is None
    assert easy._goal(pic, pic.by_id["c_long_a"]) != (pic.rear, 0)


def test_the_union_strikes_batteries_first_then_routed_units() -> None:
    """The Union closes with the enemy unit that pays best within its reach: a battery (its guns are lost in melee,
    §IA8.2, 150 points each, §IA10.1) before infantry at the same distance; a routed unit (a retreat into a zone of
    control eliminates it, §B3.6) before fresh infantry."""
    enemy = {"side": "confederate"}
    pic, board = _picture(
        "union",
        [
            {**enemy, "id": "c_rodes_a", "type": "infantry", "square": "20,10"},
            {**enemy, "id": "c_long_a", "type": "artillery", "square": "20,14"},
        ],
    )
    at = board.grid.parse("20,12")
    assert pic.strike_target(at, 4) == board.grid.parse("20,14")
    pic, board = _picture(
        "union",
        [
            {**enemy, "id": "c_rodes_a", "type": "infantry", "square": "20,10"},
            {**enemy, "id": "c_gbanderson_a", "type": "infantry", "square": "20,14", "routed": True},
        ],
    )
    assert pic.strike_target(at, 4) == board.grid.parse("20,14")
    assert pic.strike_target(at, 1) is None


def test_the_union_melees_by_the_strength_it_can_count() -> None:
    """§IA8.4: the Union melees a square when the men of its units next to it that can melee (not routed, with the
    OP to fire and melee) match the defenders' men as the order of battle lists them (Rodes' A: 352 men); a routed
    or spent friend next to the square does not count."""
    own = {"side": "union", "fatigue": 0, "morale": 90, "held": None, "acted": False, "disrupted": False}
    enemy: dict[str, object] = {"id": "c_rodes_a", "side": "confederate", "type": "infantry", "square": "20,10"}
    general = General(1, 1)

    def melees(men: int, friend: dict[str, object] | None = None) -> bool:
        units: list[dict[str, object]] = [
            enemy,
            {**own, "id": "u_a", "type": "infantry", "square": "20,11", "men": men, "op": 10},
        ]
        if friend is not None:
            units.append({**own, "id": "u_b", "type": "infantry", "square": "21,10", "men": 100, "op": 10, **friend})
        pic, board = _picture("union", units)
        return bool(general._melee(pic, pic.by_id["u_a"], board.grid.parse("20,10")))

    assert melees(400) and not melees(300)
    assert melees(300, {})
    assert not melees(300, {"routed": True}) and not melees(300, {"op": 3})


def test_the_confederate_fires_where_the_casualty_table_pays_most_in_points() -> None:
    """WEAPON/RANGE CASUALTY TABLE with §IA10.1's points: a Confederate battery (6 lb. smoothbore: 8 a gun at range
    1, 2 at range 3) is worth more against guns at range 3 (150 points a gun, lost only to artillery, §IA8.2) than
    against men at range 1; an infantry unit (rifles: 2 a hundred men at range 2) fires at men rather than at a
    lone battery as near that it can only tire (§IA7.7)."""
    pic, board = _picture(
        "confederate",
        [
            {**_READY_CONFEDERATE, "id": "c_long_a", "type": "artillery", "square": "30,20"},
            {**_READY_CONFEDERATE, "id": "c_law_a", "type": "infantry", "square": "30,19"},
            {"id": "u_guns", "side": "union", "type": "artillery", "square": "30,17"},
            {"id": "u_men", "side": "union", "type": "infantry", "square": "30,21"},
        ],
    )
    guns, men = board.grid.parse("30,17"), board.grid.parse("30,21")
    general = General(1, 1)
    battery, infantry = pic.by_id["c_long_a"], pic.by_id["c_law_a"]
    assert int(board.dist[battery["cell"], guns]) == 3 and int(board.dist[battery["cell"], men]) == 1
    assert int(board.dist[infantry["cell"], guns]) == int(board.dist[infantry["cell"], men]) == 2
    assert general._confederate_fire_value(pic, battery, guns) > general._confederate_fire_value(pic, battery, men)
    assert general._confederate_fire_value(pic, infantry, men) > general._confederate_fire_value(pic, infantry, guns)


def test_the_confederate_retakes_a_lost_victory_square_within_reach() -> None:
    """§IA10.1 (AMB-18): a square the Union last entered gives it its points until a Confederate stands there. At
    normal a Confederate unit out of contact and within reach makes for it; at easy it does not (it marches on the
    nearest enemy); a unit in contact holds."""
    pic, board = _picture(
        "confederate",
        [
            {**_READY_CONFEDERATE, "id": "c_toombs_a", "type": "infantry", "square": "28,3"},
            {**_READY_CONFEDERATE, "id": "c_law_a", "type": "infantry", "square": "30,18"},
            {"id": "u", "side": "union", "type": "infantry", "square": "30,16"},
        ],
    )
    pic.victory = [(board.grid.parse("25,3"), 1000, "union")]
    pic.victory_cells = frozenset(c for c, _, _ in pic.victory)
    square = board.grid.parse("25,3")
    assert General(1, 1)._goal(pic, pic.by_id["c_toombs_a"]) == (square, 0)
    assert General(1, 1)._goal(pic, pic.by_id["c_law_a"]) is None
    assert General(1, 0)._goal(pic, pic.by_id["c_toombs_a"]) != (square, 0)


def test_the_confederate_leaves_alone_a_square_the_union_only_stands_next_to() -> None:
    """§IA10.1: only a square the Union possesses scores; one it stands next to without possessing gives it
    nothing (the digest's AMB-18 half points are dropped), so the general spends no march on retaking it."""
    pic, board = _picture(
        "confederate",
        [
            {**_READY_CONFEDERATE, "id": "c_toombs_a", "type": "infantry", "square": "28,2"},
            {"id": "u", "side": "union", "type": "infantry", "square": "24,3"},
        ],
    )
    square = board.grid.parse("25,3")
    pic.victory = [(square, 1000, "confederate")]
    pic.victory_cells = frozenset([square])
    assert General(1, 1)._confederate_retakes(pic) == {}
    pic.victory = [(square, 1000, "union")]
    assert General(1, 1)._confederate_retakes(pic) == {"c_toombs_a": square}


def test_hampton_rides_clear_of_the_ix_corps_instead_of_through_it() -> None:
    """§IA10.1 3 points a trooper: a Confederate trooper with the enemy near is kept out of the fight. Hampton's
    brigade arrives at 17,0 (§IA6.0) east of the creek, with the IX Corps between it and the rear corner: it
    makes for the nearest square farthest from the seen enemy by a way that never passes next to one, not for
    the rear through the enemy, and at `easy` it is not guarded."""
    pic, _ = _picture(
        "confederate",
        [
            {**_READY_CONFEDERATE, "id": "c_hampton_a", "type": "cavalry", "square": "17,0"},
            {"id": "u1", "side": "union", "type": "infantry", "square": "19,2"},
            {"id": "u2", "side": "union", "type": "infantry", "square": "20,3"},
            {"id": "u3", "side": "union", "type": "infantry", "square": "18,4"},
        ],
    )
    hampton = pic.by_id["c_hampton_a"]
    goal = General(1, 1)._goal(pic, hampton)
    assert goal is not None and goal[0] != pic.rear
    far = pic.enemy_distances()
    assert int(far[goal[0]]) >= 6 > int(far[hampton["cell"]])
    assert General(1, 0)._goal(pic, hampton) != goal


def _last_turn(pic: Picture, phase: str = "confederate_operations_1") -> None:
    pic.view["turn"], pic.view["phase"] = 11, phase


def test_on_the_last_turn_a_unit_stands_next_to_each_square_the_union_keeps() -> None:
    """§IA10.1 "(2000 if in ZOC)": Sharpsburg possessed by the Union scores half when a Confederate unit stands
    next to it, and the Confederate moves last (§IA2.3): on the last turn the nearest free unit whose operation
    points carry it there goes to a square next to it; not before the last turn, not when a Confederate already
    stands next to it, and at `easy` never."""
    town = "32,7"
    units = [
        {**_READY_CONFEDERATE, "id": "c_law_a", "type": "infantry", "square": "36,7"},
        {"id": "u", "side": "union", "type": "infantry", "square": town},
    ]
    pic, board = _picture("confederate", units)
    square = board.grid.parse(town)
    pic.victory = [(square, 4000, "union")]
    pic.victory_cells = frozenset([square])
    assert General(1, 1)._confederate_retakes(pic) == {}  # turn 1: the end is far
    _last_turn(pic)
    plan = General(1, 1)._confederate_retakes(pic)
    assert set(plan) == {"c_law_a"} and board.grid.adjacent(plan["c_law_a"], square)
    assert General(1, 1)._goal(pic, pic.by_id["c_law_a"]) == (plan["c_law_a"], 0)
    assert General(1, 0)._confederate_retakes(pic) == {}
    there, board = _picture(
        "confederate",
        [*units, {**_READY_CONFEDERATE, "id": "c_law_b", "type": "infantry", "square": "33,8", "acted": True}],
    )
    there.victory, there.victory_cells = pic.victory, pic.victory_cells
    _last_turn(there)
    assert General(1, 1)._confederate_retakes(there) == {}


def test_the_unit_in_hand_keeps_its_errand() -> None:
    """A unit picked up is marked as acted (the view's ``acted``): the unit the general holds keeps the victory
    square it was sent to retake (§IA10.1) while it marches, instead of losing it at its first step."""
    pic, board = _picture(
        "confederate",
        [
            {**_READY_CONFEDERATE, "id": "c_toombs_a", "type": "infantry", "square": "28,3", "acted": True},
            {"id": "u", "side": "union", "type": "infantry", "square": "30,16"},
        ],
    )
    square = board.grid.parse("25,3")
    pic.victory = [(square, 1000, "union")]
    pic.victory_cells = frozenset([square])
    assert General(1, 1)._confederate_retakes(pic) == {}
    pic.accessed = "c_toombs_a"
    assert General(1, 1)._confederate_retakes(pic) == {"c_toombs_a": square}


def test_a_battery_stacked_with_infantry_stays_to_fire() -> None:
    """§IA7.7 infantry fire strikes a square's artillery only when it is alone there, and a battery that moves may
    not fire (§B3.4): a Confederate battery stacked with its infantry stays with an enemy two squares off and
    fires, with an enemy next to it too (canister at one square: Weapon/Range Casualty Table); alone, it is pulled
    back (a gun is 150 points, §IA10.1); at easy no battery is pulled back."""
    units = [
        {**_READY_CONFEDERATE, "id": "c_long_a", "type": "artillery", "square": "30,10"},
        {"id": "u", "side": "union", "type": "infantry", "square": "30,12"},
    ]
    alone, _ = _picture("confederate", units)
    assert General(1, 1)._goal(alone, alone.by_id["c_long_a"]) == (alone.rear, 0)
    with_men = [*units, {**_READY_CONFEDERATE, "id": "c_law_a", "type": "infantry", "square": "30,10"}]
    covered, _ = _picture("confederate", with_men)
    assert General(1, 1)._goal(covered, covered.by_id["c_long_a"]) is None
    close = [{**u, "square": "30,11"} if u["id"] == "u" else u for u in with_men]
    pressed, _ = _picture("confederate", close)
    assert General(1, 1)._goal(pressed, pressed.by_id["c_long_a"]) is None
    assert General(1, 0)._goal(alone, alone.by_id["c_long_a"]) != (alone.rear, 0)


def test_a_lone_battery_under_threat_joins_its_infantry() -> None:
    """§IA7.7 a square's artillery takes infantry fire only when alone there, and the greedy Union melees a lone
    battery whenever it reaches one (guns are lost in melee, §IA8.2, 150 points each, §IA10.1): a lone Confederate
    battery with an enemy within ``battery_cover_distance`` squares goes to the nearest square of its own infantry
    it reaches by a way clear of the enemy's zone of control, keeping no OP back (a battery that moves may not
    fire, §B3.4); with the enemy farther off, or at easy, it does not."""
    units = [
        {**_READY_CONFEDERATE, "id": "c_long_a", "type": "artillery", "square": "30,8"},
        {**_READY_CONFEDERATE, "id": "c_law_a", "type": "infantry", "square": "30,10"},
        {"id": "u", "side": "union", "type": "infantry", "square": "30,12"},
    ]
    pic, board = _picture("confederate", units)
    normal = General(1, 1)
    assert normal._goal(pic, pic.by_id["c_long_a"]) == (board.grid.parse("30,10"), 0)
    assert normal._op_reserve(pic, pic.by_id["c_long_a"]) == 0
    assert General(1, 0)._goal(pic, pic.by_id["c_long_a"]) != (board.grid.parse("30,10"), 0)
    far = [{**u, "square": "30,16"} if u["id"] == "u" else u for u in units]
    quiet, _ = _picture("confederate", far)
    assert normal._goal(quiet, quiet.by_id["c_long_a"]) != (board.grid.parse("30,10"), 0)
    # the infantry next to the enemy: its square is in the enemy's zone of control, so the battery pulls back
    pressed = [{**u, "square": "30,11"} if u["id"] == "c_law_a" else u for u in units]
    closed, _ = _picture("confederate", pressed)
    assert normal._goal(closed, closed.by_id["c_long_a"]) != (board.grid.parse("30,11"), 0)


def test_a_unit_closed_in_on_every_side_pulls_out_while_it_can() -> None:
    """§B3.6 a routed unit whose retreat must enter an enemy zone of control is eliminated: a Confederate unit in
    contact with fewer than three squares around it clear of the seen enemy's zone of control makes for a square
    out of it (by a way that never passes next to an enemy); with more it holds, and on a victory square it
    holds whatever comes."""
    ring = [
        {"id": f"u{k}", "side": "union", "type": "infantry", "square": sq}
        for k, sq in enumerate(("30,11", "31,12", "29,12", "32,10", "28,10"))
    ]
    man = {**_READY_CONFEDERATE, "id": "c_law_a", "type": "infantry", "square": "30,10"}
    pic, board = _picture("confederate", [man, *ring])
    far = pic.enemy_distances()
    cell = pic.by_id["c_law_a"]["cell"]
    assert sum(1 for n in board.grid.neighbors(cell) if far[n] > 1) < 2
    goal = General(1, 1)._goal(pic, pic.by_id["c_law_a"])
    assert goal is not None and int(far[goal[0]]) >= 3
    open_, _ = _picture("confederate", [man, *ring[:2]])
    assert General(1, 1)._goal(open_, open_.by_id["c_law_a"]) is None
    pic.victory_cells = frozenset([cell])
    assert General(1, 1)._goal(pic, pic.by_id["c_law_a"]) is None


def test_the_confederate_melees_union_guns_that_came_close() -> None:
    """§IA8.2 guns are lost in melee, 150 points each (§IA10.1): the Confederate melees a square holding a Union
    battery when the men of its units next to it reach the defenders' men by the order of battle (a gun counted
    as its 20 melee men, combat.toml); not with fewer men, not a square of infantry alone (it melees only routed
    attackers there), and never at easy."""
    ready = {**_READY_CONFEDERATE, "type": "infantry", "disrupted": False}

    def picture(wofford_men: int, guns: bool) -> tuple[Picture, Board]:
        enemy = [{"id": "u_duryea_a", "side": "union", "type": "infantry", "square": "30,12"}]
        if guns:
            enemy.append({"id": "u_i_corps_b", "side": "union", "type": "artillery", "square": "30,12"})
        return _picture(
            "confederate",
            [
                {**ready, "id": "c_law_a", "square": "30,11", "men": 503},
                {**ready, "id": "c_wofford_a", "square": "31,11", "men": wofford_men},
                *enemy,
            ],
        )

    # defenders: Duryea-A's 501 men and I Corps-B's 19 guns x 20 = 881
    pic, board = picture(400, True)
    target = board.grid.parse("30,12")
    assert General(1, 1)._melee(pic, pic.by_id["c_law_a"], target)
    assert not General(1, 0)._melee(pic, pic.by_id["c_law_a"], target)
    few, _ = picture(300, True)
    assert not General(1, 1)._melee(few, few.by_id["c_law_a"], target)
    men_only, _ = picture(900, False)
    assert not General(1, 1)._melee(men_only, men_only.by_id["c_law_a"], target)


def test_confederate_fire_counts_troopers_at_three_points() -> None:
    """§IA10.1 "3 pts per Cavalryman lost": at the same range and ground the Confederate's fire is worth three times
    as much into a square of cavalry as into one of infantry."""
    pic, board = _picture(
        "confederate",
        [
            {**_READY_CONFEDERATE, "id": "c_law_a", "type": "infantry", "square": "30,10"},
            {"id": "u_cav", "side": "union", "type": "cavalry", "square": "30,11"},
            {"id": "u_men", "side": "union", "type": "infantry", "square": "31,11"},
        ],
    )
    general, law = General(1, 1), pic.by_id["c_law_a"]
    assert board.map.terrain[board.grid.parse("30,11")] == board.map.terrain[board.grid.parse("31,11")]
    cav = general._confederate_fire_value(pic, law, board.grid.parse("30,11"))
    men = general._confederate_fire_value(pic, law, board.grid.parse("31,11"))
    assert cav == 3 * men > 0


def test_on_the_last_turn_the_confederate_storms_a_victory_square_the_union_holds() -> None:
    """§IA10.1 a square the Union possesses scores for it; the Confederate moves last (§IA2.3), a melee costs the
    attacker 0-24 men short of a -5 differential, and a defender that retreats leaves the square to the attackers'
    advance (Melee Combat Results Table, §B4.2): on the last turn the Confederate melees a Union-held victory square
    when the men of its units next to it reach half the defenders' by the order of battle; not before the last
    turn, not with fewer men, not a square worth less than ``retake_points``, and never at easy."""
    ready = {**_READY_CONFEDERATE, "type": "infantry", "disrupted": False}

    def picture(men: int, points: int = 4000) -> tuple[Picture, int]:
        pic, board = _picture(
            "confederate",
            [
                {**ready, "id": "c_law_a", "square": "32,6", "men": men},
                {"id": "u_duryea_a", "side": "union", "type": "infantry", "square": "32,7"},
            ],
        )
        town = board.grid.parse("32,7")
        pic.victory, pic.victory_cells = [(town, points, "union")], frozenset([town])
        return pic, town

    pic, town = picture(300)  # Duryea-A: 501 men in the order of battle
    law = pic.by_id["c_law_a"]
    assert not General(1, 1)._melee(pic, law, town)  # turn 1
    _last_turn(pic)
    assert General(1, 1)._melee(pic, law, town)
    assert not General(1, 0)._melee(pic, law, town)
    for few in (picture(200), picture(300, 500)):
        _last_turn(few[0])
        assert not General(1, 1)._melee(few[0], few[0].by_id["c_law_a"], town)
