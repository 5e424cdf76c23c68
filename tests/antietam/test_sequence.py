"""The sequence of play (§IA2.3): fourteen phases a turn, eleven turns from 06:00 (§IA1.3); operation points
(§B3.4, §IA7.4); recovery and rally (§IA5), mid-turn recovery (§IA9), reinforcements (§B6.0, §IA6) and the
schedule's random release (§B2.0)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from grognard.engine import Game
from grognard.rulesets.antietam import Antietam, phases
from grognard.rulesets.antietam import decisions as D
from grognard.rulesets.antietam.state import OFF_MAP

PRINTED = [
    "Activation Phase",
    "Command Control Phase",
    "Recovery/Rally Phase",
    "Reinforcement Phase",
    "Union 1st Operations Phase",
    "Union 1st Combat Phase",
    "Confederate 1st Operations Phase",
    "Confederate 1st Combat Phase",
    "Mid-Turn Recovery Phase",
    "Union 2nd Operations Phase",
    "Union 2nd Combat Phase",
    "Confederate 2nd Operations Phase",
    "Confederate 2nd Combat Phase",
    "Victory determination Phase",
]


RULES = Antietam(Antietam.load_scenario("1_full_battle"))
CTX = RULES.ctx


def game(seed: int = 3) -> Game:
    return Game(RULES, seed)


def end_phase(g: Game) -> None:
    seat = g.turn().seat
    assert seat is not None
    g.apply(seat, D.EndPhase())


def test_fourteen_phases_in_the_printed_order_ia2_3() -> None:
    """§IA2.3, as printed: the sequence's parts are the fourteen phases in order; only the operation phases ask."""
    rules = Antietam(Antietam.load_scenario("1_full_battle"))
    names = [p.name for p in rules.sequence.parts]
    assert len(names) == len(PRINTED) == 14
    for name, printed in zip(names, PRINTED, strict=True):
        words = printed.lower().replace("1st", "1").replace("2nd", "2").replace("/", " ").replace("-", " ").split()
        assert all(w.rstrip("s") in name.replace("_", " ") or w == "phase" for w in words), (name, printed)
    asking = [p.name for p in rules.sequence.parts if p.seats(None)]  # type: ignore[arg-type]
    assert asking == [
        "union_operations_1",
        "confederate_operations_1",
        "union_operations_2",
        "confederate_operations_2",
    ]


def test_the_game_opens_at_0600_with_the_union_operation_phase() -> None:
    """§IA1.3 turn 1 is 06:00; phases 1-4 resolve by themselves; the Union moves first (§IA2.3)."""
    g = game()
    assert g.state.turn == 1 and g.turn().seat == "union" and "06:00" in g.turn().phase
    assert phases.phase_names(CTX)[g.state.part] == "union_operations_1"
    assert g.turn().phase == "Turn 1 (06:00): Union 1st Operations Phase"
    assert [phases.phase_title(n) for n in phases.phase_names(CTX)][8:10] == [
        "Mid Turn Recovery Phase",
        "Union 2nd Operations Phase",
    ]


def test_each_end_of_phase_goes_on_through_combat_to_the_other_side() -> None:
    """§IA2.3: Union ops 1, Union combat 1, Confederate ops 1, combat 1, mid-turn recovery, Union ops 2 ..."""
    g = game()
    seen = []
    for _ in range(5):
        seen.append((g.state.turn, phases.phase_names(CTX)[g.state.part]))
        end_phase(g)
    assert seen == [
        (1, "union_operations_1"),
        (1, "confederate_operations_1"),
        (1, "union_operations_2"),
        (1, "confederate_operations_2"),
        (2, "union_operations_1"),
    ]
    kinds = [e.kind for e in g.events]
    assert kinds.count("combat") == 5 and kinds.count("score") == 1  # the fifth ends turn 2's first phase


def test_eleven_turns_then_the_end_ia1_3() -> None:
    """§IA10.0 "After the eleventh turn (4:00 p.m.) is completed, the game ends"."""
    g = game()
    ends = 0
    while not g.over:
        end_phase(g)
        ends += 1
    assert ends == 11 * 4
    assert g.result() is not None and g.state.turn == 11
    assert phases.clock(CTX, 11) == "16:00"


def test_operation_points_ten_a_phase_two_carried_into_the_second(position: Any) -> None:
    """§B3.4 "Your units receive 10 operation points each OPERATION PHASE. If you don't use up all your operation
    points, up to two points will be added to your allowance of 10 for the next phase of the turn." """
    p = position({"u_duryea_a": ("5,5", {"op": 5}), "u_duryea_b": ("6,6", {"op": 1})})
    ctx, step = p.ctx, p.step()
    second = phases.begin_operations(ctx, "union", True, p.state, step)
    assert (p.unit("u_duryea_a", second).op, p.unit("u_duryea_b", second).op) == (12, 11)
    first = phases.begin_operations(ctx, "union", False, p.state, step)
    assert p.unit("u_duryea_a", first).op == 10


def test_mclaws_and_anderson_have_no_op_on_turn_1(position: Any) -> None:
    """§IA7.4 "Some Confederate units receive 0 operation points for the entire first turn" (AMB-10)."""
    p = position({"c_kershaw_a": "35,5", "c_armistead_a": "35,9", "c_law_a": "32,18"}, turn=1)
    s = phases.begin_operations(p.ctx, "confederate", False, p.state, p.step())
    assert [p.unit(u, s).op for u in ("c_kershaw_a", "c_armistead_a", "c_law_a")] == [0, 0, 10]
    q = position({"c_kershaw_a": "35,5"}, turn=2)
    assert p.unit("c_kershaw_a", phases.begin_operations(q.ctx, "confederate", False, q.state, q.step())).op == 10


def test_rally_needs_morale_40_and_more_than_100_or_300_men(position: Any) -> None:
    """§IA5.2 "if their morale is 40 or greater ... and they have more than 100 men for Confederate and 300 men for
    Union"."""
    p = position(
        {
            "c_law_a": ("20,30", {"routed": True, "fatigue": 50}),  # morale 49
            "c_law_b": ("22,30", {"routed": True, "strength": 100}),
            "u_duryea_a": ("2,30", {"routed": True, "strength": 301}),
            "u_duryea_b": ("2,34", {"routed": True, "strength": 300}),
        }
    )
    s = phases.recover(p.ctx, p.state, p.step(), turn_start=True)
    assert [p.unit(u, s).routed for u in ("c_law_a", "c_law_b", "u_duryea_a", "u_duryea_b")] == [
        False,
        True,
        False,
        True,
    ]


def test_fatigue_recovery_away_from_the_enemy_eff_over_3(position: Any) -> None:
    """§IA5.3 Fatigue Recovery Table (AMB-16, read swapped): Eff/3 away from the enemy, Eff/6 in its ZOC."""
    p = position({"c_law_a": ("20,30", {"fatigue": 60}), "c_law_b": ("5,5", {"fatigue": 60}), "u_duryea_a": "6,6"})
    s = phases.recover(p.ctx, p.state, p.step(), turn_start=True)
    assert p.unit("c_law_a", s).fatigue == 60 - 99 // 3
    assert p.unit("c_law_b", s).fatigue == 60 - 97 // 6


def test_disruption_recovery_and_ammunition_at_turn_start_and_mid_turn(position: Any) -> None:
    """§IA5.1 Disruption Recovery Table (80% not in ZOC, morale above 40); §IA5.4 / §IA9 Ammo Resupply Table:
    Confederate infantry 70% at the start of the turn, 35% at mid-turn."""
    p = position({"c_law_a": ("20,30", {"disrupted": True, "ammo": False})})
    step = p.step()
    phases.recover(p.ctx, p.state, step, turn_start=True)
    rolls = {e.data["why"]: e.data["percent"] for e in step.events if e.kind == "roll"}
    assert rolls == {"Law-A recovers from disruption": 80, "Law-A resupplied with ammunition": 70}
    step = p.step()
    phases.recover(p.ctx, p.state, step, turn_start=False)
    rolls = {e.data["why"]: e.data["percent"] for e in step.events if e.kind == "roll"}
    assert rolls == {"Law-A recovers from disruption": 80, "Law-A resupplied with ammunition": 35}
    low = position({"c_law_a": ("20,30", {"disrupted": True, "fatigue": 60})})  # morale 39: no recovery
    step = low.step()
    phases.recover(low.ctx, low.state, step, turn_start=False)
    assert not [e for e in step.events if e.kind == "roll"]


def test_reinforcements_enter_on_their_squares(position: Any) -> None:
    """OOB notes (§IA6.0): Union turn 2 on 0,18 to 0,20; Confederate turn 2 (Hampton) on 17,0."""
    p = position({}, turn=2)
    s = phases.reinforcement(p.ctx, p.state, p.step())
    assert p.square("c_hampton_a", s) == p.square("c_hampton_b", s) == "17,0"
    morell = [x for x in p.board.specs if x.division == "Morell"]
    assert {p.square(x.id, s) for x in morell} == {"0,18", "0,19", "0,20"}
    assert p.unit("u_hancock_a", s).cell == OFF_MAP  # turn 3


def test_reinforcements_are_delayed_by_the_enemy_on_their_square(position: Any) -> None:
    """§IA6.0 "units are delayed if stacking would be violated or the entry squares are enemy occupied"; turn 9 "unless
    square 33,1 is enemy occupied, in which case they are delayed"."""
    p = position({"u_duryea_a": "17,0"}, turn=2)
    s = phases.reinforcement(p.ctx, p.state, p.step())
    assert p.unit("c_hampton_a", s).cell == OFF_MAP
    q = position({"u_duryea_a": "33,1"}, turn=9)
    s = phases.reinforcement(q.ctx, q.state, q.step())
    assert q.unit("c_pender_a", s).cell == OFF_MAP
    r = position({}, turn=9)
    s = phases.reinforcement(r.ctx, r.state, r.step())
    assert r.square("c_pender_a", s) in {"33,1", "33,2", "33,3", "32,3", "32,4"}


def test_a_p_hill_may_come_on_turn_7_or_8(position: Any) -> None:
    """OOB note "*": "There is a chance they will arrive on turn 7 or 8" (AMB-31: 1 in 3 a turn)."""
    arrived = 0
    for seed in range(30):
        p = position({}, turn=7, seed=seed)
        step = p.step()
        s = phases.reinforcement(p.ctx, p.state, step)
        roll = next(e for e in step.events if e.kind == "roll" and "A. P. Hill" in e.data["why"])
        assert roll.data["sides"] == 3
        arrived += p.unit("c_pender_a", s).cell != OFF_MAP
        assert (p.unit("c_pender_a", s).cell != OFF_MAP) == (roll.data["value"] == 1)
    assert 0 < arrived < 30
    p6 = position({}, turn=6)
    step = p6.step()
    phases.reinforcement(p6.ctx, p6.state, step)
    assert not any(e.kind == "roll" for e in step.events)


def test_held_formations_may_be_released_at_random(position: Any) -> None:
    """§B2.0 "The above limits may be changed due to a random factor" (AMB-4: 1 in 6 a turn each)."""
    p = position({}, turn=2)
    step = p.step()
    s = phases.activation(p.ctx, p.state, step)
    rolls = [e for e in step.events if e.kind == "roll"]
    assert sorted(e.data["why"].split("'")[0] for e in rolls) == ["Franklin", "Pleasonton", "Porter"]
    assert all(e.data["sides"] == 6 for e in rolls)
    assert set(s.released) == {e.data["why"].split("'")[0] for e in rolls if e.data["value"] == 1}
    late = position({}, turn=8)
    step = late.step()
    phases.activation(late.ctx, replace(late.state, released=()), step)
    assert not [e for e in step.events if e.kind == "roll"]


def test_victory_determination_scores_each_turn(position: Any) -> None:
    """§IA10 phase 14 of each turn: the score from the losses and the squares (a Union unit on 32,7: 4000)."""
    p = position({"u_duryea_a": "32,7"}, part="victory_determination")
    s = phases.victory_determination(p.ctx, replace(p.state, losses=(0, 0, 0, 300, 0, 1)), p.step())
    assert s.score == (4000 + 300 + 150, 0)
