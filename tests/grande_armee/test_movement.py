"""Movement (§2.3-2.5, §3.2, §5.6): costs, zones of control, restrictions, sea movement and control."""

from __future__ import annotations

from grognard.rulesets.grande_armee import play


def test_terrain_costs_and_cities_cost_one(position) -> None:
    """§2.3: clear 1, forest, mountain and marsh 2; every city 1, Geneva's mountains included."""
    p = position([("FR-I1", "france", "infantry", "8,6")])
    b = p.ctx.board
    assert b.enter_cost(p.cell("9,6")) == 1  # clear
    assert b.enter_cost(p.cell("10,5")) == 2  # the Ardennes forest
    assert b.enter_cost(p.cell("8,7")) == 2  # the Massif Central
    assert b.enter_cost(p.cell("10,4")) == 2  # Dutch polder marsh
    assert b.enter_cost(p.cell("10,7")) == 1  # Geneva, a major city with mountains


def test_leaving_an_enemy_zoc_costs_one_more_move(position) -> None:
    """§3.2: all units expend an additional movement point to exit a ZOC; a ZOC has no effect on friends."""
    p = position([("FR-I1", "france", "infantry", "12,6"), ("AU-I1", "austria", "infantry", "13,6")])
    zone = play.zoc(p.ctx, p.state, "allied")
    french = p.unit("FR-I1")
    assert french.cell in zone
    assert play.step_cost(p.ctx, french, p.cell("11,6"), zone) == 2 + 1  # Black Forest 2, +1 to leave the ZOC
    assert play.step_cost(p.ctx, french, p.cell("11,6"), play.zoc(p.ctx, p.state, "french")) == 2


def test_garrisons_and_hqs_exert_no_zoc(position) -> None:
    """§3.2: garrisons do not exert a ZOC; §3.3: nor do HQs."""
    p = position([("AU-I1", "austria", "infantry", "16,6", {"garrison": True}), ("Charles", "austria", "hq", "15,5")])
    assert play.zoc(p.ctx, p.state, "allied") == frozenset()


def test_french_never_enter_the_hinterland(position) -> None:
    """§2.5: French units cannot enter the Russian Hinterland (column 30); Russians may."""
    p = position(
        [("FR-I1", "france", "infantry", "29,4"), ("RU-I1", "russia", "infantry", "29,5")],
        scenario="5_russian_campaign",
    )
    hinterland = p.cell("30,4")
    assert not play.may_enter(p.ctx, p.unit("FR-I1"), hinterland)
    assert play.may_enter(p.ctx, p.unit("RU-I1"), hinterland)
    assert hinterland not in play.destinations(p.ctx, p.state, p.unit("FR-I1"))


def test_spanish_militia_stay_in_spain_and_portugal(position) -> None:
    """§2.5: Spanish militia move only inside Spain and Portugal; Spanish infantry may leave them."""
    p = position(
        [("SP-M1", "spain", "militia", "4,8"), ("SP-I1", "spain", "infantry", "4,8")],
        scenario="3_spanish_quagmire",
        seat="allied",
        control={"5,8": "allied"},
    )
    bayonne = p.cell("5,8")  # France
    assert not play.may_enter(p.ctx, p.unit("SP-M1"), bayonne)
    assert play.may_enter(p.ctx, p.unit("SP-I1"), bayonne)
    assert play.may_enter(p.ctx, p.unit("SP-M1"), p.cell("1,9"))  # Lisbon, Portugal


def test_only_british_at_sea_and_never_in_the_baltic(position) -> None:
    """§2.3: only British units move across sea areas; §2.5: British units may not enter the Baltic."""
    p = position(
        [("GB-I1", "britain", "infantry", "6,4"), ("AU-I1", "austria", "infantry", "16,6")],
        seat="allied",
    )
    north_sea, baltic = p.cell("7,4"), p.cell("14,2")
    assert play.may_enter(p.ctx, p.unit("GB-I1"), north_sea)
    assert not play.may_enter(p.ctx, p.unit("GB-I1"), baltic)
    assert not play.may_enter(p.ctx, p.unit("AU-I1"), north_sea)


def test_sea_movement_costs_all_moves_in_and_out_and_nothing_between(position) -> None:
    """§2.3: entering (exiting) a sea area from (to) land takes all remaining moves; sea to sea is free."""
    p = position([("GB-I1", "britain", "infantry", "6,4")], seat="allied")
    step = p.step()
    p.game.state = play.move(p.ctx, p.state, step, "GB-I1", p.cell("7,4"))
    assert p.unit("GB-I1").moves == 0
    p.edit("GB-I1", moves=5)
    reach = play.destinations(p.ctx, p.state, p.unit("GB-I1"))
    assert p.cell("1,10") in reach  # To Atl, round Portugal by the black arrows
    assert p.cell("2,10") not in reach  # Gibraltar is not next to the North Sea
    p.game.state = play.move(p.ctx, p.state, step, "GB-I1", p.cell("1,10"))
    assert p.unit("GB-I1").moves == 5 and p.unit("GB-I1").sailed
    assert p.cell("2,10") in play.destinations(p.ctx, p.state, p.unit("GB-I1"))
    assert p.cell("1,9") not in play.destinations(p.ctx, p.state, p.unit("GB-I1"))  # neutral Portugal in 1805
    p.game.state = play.move(p.ctx, p.state, step, "GB-I1", p.cell("2,10"))
    assert p.unit("GB-I1").moves == 0 and p.unit("GB-I1").cell == p.cell("2,10")


def test_black_arrows_join_biscay_and_the_south_west_corner(position) -> None:
    """§2.3 BLACK ARROWS: To Gibr (north of Lisbon) and To Atl (north-west of Gibraltar) lead round Portugal."""
    p = position([("GB-I1", "britain", "infantry", "6,4")], seat="allied")
    b = p.ctx.board
    assert p.cell("1,10") in b.sea_neighbors(p.cell("1,7"))
    assert p.cell("1,7") in b.sea_neighbors(p.cell("1,10"))


def test_control_is_taken_by_fighting_units_not_by_hqs(position) -> None:
    """§2.4: moving an infantry, militia, cavalry or guard unit into an area takes control; §3.3: HQs cannot."""
    p = position(
        [("FR-I1", "france", "infantry", "14,6"), ("Napoleon", "france", "hq", "14,6")],
        control={"14,6": "french"},
    )
    step = p.step()
    target = p.cell("15,6")
    assert p.state.control[target] == "allied"
    p.game.state = play.move(p.ctx, p.state, step, "Napoleon", target)
    assert p.state.control[target] == "allied"
    p.game.state = play.move(p.ctx, p.state, step, "FR-I1", target)
    assert p.state.control[target] == "french"


def test_neutral_areas_are_entered_and_taken(position) -> None:
    """§2.4: moving into an area takes its control, whoever held it, the Neutral player included; §2.5 lists every
    movement restriction and neutrality is not one of them (docs/rules/grande-armee.md). A neutral capital taken
    counts one victory point, as any capital not the taker's own (§5.2)."""
    p = position([("FR-I1", "france", "infantry", "14,5")], control={"14,5": "french"})
    berlin = p.cell("14,4")
    assert p.state.control[berlin] == "neutral"  # Prussia in 1805
    assert berlin in play.destinations(p.ctx, p.state, p.unit("FR-I1"))
    p.game.state = play.move(p.ctx, p.state, p.step(), "FR-I1", berlin)
    assert p.state.control[berlin] == "french"
    assert play.city_value(p.ctx, berlin, "french") == 1


def test_prohibited_areas_are_never_entered(position) -> None:
    """§2.2, §2.4: the areas a scenario prohibits (here Spain in 1805 and Russia from column 22) are entered by no
    unit and controlled by no player."""
    p = position(
        [("FR-I1", "france", "infantry", "5,8"), ("RU-I1", "russia", "infantry", "21,4")], control={"5,8": "french"}
    )
    for uid, label in (("FR-I1", "5,9"), ("FR-I1", "4,8"), ("RU-I1", "22,4")):
        cell = p.cell(label)
        assert cell in p.ctx.board.prohibited and p.state.control[cell] == ""
        assert not play.may_enter(p.ctx, p.unit(uid), cell)
    assert play.destinations(p.ctx, p.state, p.unit("FR-I1")) == [p.cell("6,7")]  # Bayonne: only Bordeaux is open


def test_unsupplied_units_cannot_move(position) -> None:
    """§5.4: units that start their turn unsupplied cannot move or attack for the season."""
    p = position([("FR-I1", "france", "infantry", "14,6", {"supplied": False})], control={"14,6": "french"})
    assert play.destinations(p.ctx, p.state, p.unit("FR-I1")) == []


def test_fog_of_war_takes_moves_two_and_three_percent_of_the_time(position) -> None:
    """§5.63: for every move, 2% lose all remaining moves and 3% lose just one (20,000 moves, ±0.5 points)."""
    p = position([("FR-I1", "france", "infantry", "8,6")])
    unit = p.unit("FR-I1")
    step = p.step(3)
    n, all_lost, one_lost = 20_000, 0, 0
    for _ in range(n):
        after = play.fog_of_war(p.ctx, step, unit)
        all_lost += after.moves == 0
        one_lost += after.moves == unit.moves - 1
    assert abs(100 * all_lost / n - 2) < 0.5
    assert abs(100 * one_lost / n - 3) < 0.5


def test_long_march_when_the_last_move_is_spent(position) -> None:
    """§5.61-5.62: a unit using its entire movement allowance rolls on the long march fatigue table."""
    p = position([("FR-I1", "france", "infantry", "8,6", {"moves": 1, "fatigue": 3})])
    step = p.step()
    p.game.state = play.move(p.ctx, p.state, step, "FR-I1", p.cell("9,6"))
    rolls = [e for e in step.events if e.kind == "long_march"]
    assert len(rolls) == 1
    assert p.unit("FR-I1").fatigue >= 3 + 1  # a total of at most 6 - 3: F1 or F2


def test_garrison_one_per_city_and_only_foot(position) -> None:
    """§3.6: only infantry, artillery and militia garrison a city, one at a time."""
    from grognard.rulesets.grande_armee.phases import garrison_ok

    p = position(
        [
            ("FR-I1", "france", "infantry", "8,6"),
            ("FR-I2", "france", "infantry", "8,6"),
            ("FR-C1", "france", "cavalry", "8,6"),
            ("FR-I3", "france", "infantry", "9,6"),
        ]
    )
    assert garrison_ok(p.ctx, p.state, "FR-I1")
    assert not garrison_ok(p.ctx, p.state, "FR-C1")
    assert not garrison_ok(p.ctx, p.state, "FR-I3")  # 9,6 is no city
    p.edit("FR-I1", garrison=True)
    assert not garrison_ok(p.ctx, p.state, "FR-I2")


def test_refused_moves_name_their_rule(position) -> None:
    """§2.5, §5.4, §5.64: an illegal order is refused with the rule that forbids it, and changes nothing."""
    import pytest

    from grognard.engine import IllegalDecision
    from grognard.rulesets.grande_armee.decisions import Move

    p = position(
        [
            ("FR-I1", "france", "infantry", "29,4"),
            ("FR-I2", "france", "infantry", "20,3", {"morale": 0}),
            ("RU-I1", "russia", "infantry", "21,3"),
        ],
        scenario="5_russian_campaign",
        control={"29,4": "french"},
    )
    before = p.game.digest()
    with pytest.raises(IllegalDecision) as refused:
        p.game.apply("french", Move("FR-I1", p.cell("30,4")))
    assert refused.value.rule == "LGA §2.5"
    with pytest.raises(IllegalDecision) as refused:
        p.game.apply("french", Move("FR-I2", p.cell("21,3")))
    assert refused.value.rule == "LGA §5.64"
    assert p.game.digest() == before


def test_embarking_and_landing_spend_every_move_and_are_long_marches(position) -> None:
    """§2.3: entering a sea area from land, or land from the sea, takes all remaining moves; §5.61: a unit that
    uses its entire movement allowance rolls on the long march fatigue table; sailing on is a free move that
    faces the fog of war (§5.63)."""
    p = position([("GB-I1", "britain", "infantry", "6,4")], seat="allied")
    step = p.step(5)
    p.game.state = play.move(p.ctx, p.state, step, "GB-I1", p.cell("7,4"))
    assert p.unit("GB-I1").moves == 0 and [e.kind for e in step.events] == ["move", "roll", "long_march"]
    p.edit("GB-I1", moves=5, fatigue=0)
    step = p.step(6)
    p.game.state = play.move(p.ctx, p.state, step, "GB-I1", p.cell("1,10"))
    assert p.unit("GB-I1").moves in (5, 4, 0) and "long_march" not in [e.kind for e in step.events]
    p.edit("GB-I1", moves=5)
    step = p.step(7)
    p.game.state = play.move(p.ctx, p.state, step, "GB-I1", p.cell("2,10"))
    assert p.unit("GB-I1").moves == 0 and [e.kind for e in step.events] == ["move", "roll", "long_march"]


def test_units_at_sea_exert_no_zoc_and_zocs_stop_at_the_shore(position) -> None:
    """§3.2: units exert a ZOC into adjacent land areas: not into the sea, and not from it (docs/rules)."""
    p = position([("GB-I1", "britain", "infantry", "7,4"), ("AU-I1", "austria", "infantry", "9,4")], seat="allied")
    zone = play.zoc(p.ctx, p.state, "allied")
    board = p.ctx.board
    assert zone and not zone & board.sea
    assert zone == {n for n in board.neighbors[p.cell("9,4")] if n in board.land}


def test_every_roll_of_a_hidden_move_is_logged_for_the_mover_only(position) -> None:
    """§5.61-5.63: the fog of war and long march dice of a move are logged as roll events (the roll behind every
    result), seen by the moving side alone, like the move itself."""
    p = position([("GB-I1", "britain", "infantry", "6,4")], seat="allied")
    step = p.step(5)
    p.game.state = play.move(p.ctx, p.state, step, "GB-I1", p.cell("7,4"))
    rolls = [e for e in step.events if e.kind == "roll"]
    assert [(e.data["why"], e.data["sides"], e.seen_by) for e in rolls] == [("long march of GB-I1", 6, ("allied",))]
    p.edit("GB-I1", moves=5)
    step = p.step(6)
    p.game.state = play.move(p.ctx, p.state, step, "GB-I1", p.cell("1,10"))
    rolls = [e for e in step.events if e.kind == "roll"]
    assert [(e.data["why"], e.data["sides"], e.seen_by) for e in rolls] == [
        ("fog of war after GB-I1's move", 100, ("allied",))
    ]
