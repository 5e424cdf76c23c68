"""Supply (§5.4), siege (§5.7), victory and military points (§5.2-5.3), build and rally (§5.5), muster
(§5.4) and the scenarios' special rules (§6.0)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from grognard.engine.errors import DataError
from grognard.rulesets.grande_armee import GrandeArmee, phases, play
from grognard.rulesets.grande_armee.decisions import Build, EndBuild, Rally
from grognard.rulesets.grande_armee.scenario import SCENARIO_DIR, read_scenario, scenario_from_document
from grognard.rulesets.grande_armee.state import Phase


def test_supply_traces_into_a_zoc_but_not_through_it(position) -> None:
    """§5.4: a path of controlled areas free of enemy units and enemy ZOC back to a source (Paris for the
    French); supply can be traced into an enemy ZOC but not through it."""
    p = position([("FR-I1", "france", "infantry", "9,6")])
    areas = play.supplied_areas(p.ctx, p.state, "french")
    assert p.cell("8,6") in areas and p.cell("13,6") in areas  # Paris, and Munich across the Rhine states
    p = position([("FR-I1", "france", "infantry", "9,6"), ("AU-C1", "austria", "cavalry", "10,5")])
    areas = play.supplied_areas(p.ctx, p.state, "french")
    zone = play.zoc(p.ctx, p.state, "allied")
    assert p.cell("9,6") in zone and p.cell("9,6") in areas  # into the ZOC
    assert p.cell("10,5") not in areas  # the enemy's own area


def test_supply_is_cut_by_a_zoc_even_with_a_friendly_unit_there(position) -> None:
    """§5.4 IMPORTANT: supply cannot be traced through a ZOC even if a friendly unit is present."""
    p = position([("FR-I1", "france", "infantry", "12,8"), ("FR-I2", "france", "infantry", "11,7")])
    assert p.cell("12,8") in play.supplied_areas(p.ctx, p.state, "french")  # Milan, through the Alps
    # Austrians next to every area leading into Italy from France and Switzerland
    blockers = [("AU-C1", "austria", "cavalry", "12,7"), ("AU-C2", "austria", "cavalry", "10,8")]
    p = position([("FR-I1", "france", "infantry", "12,8"), ("FR-I2", "france", "infantry", "11,7"), *blockers])
    areas = play.supplied_areas(p.ctx, p.state, "french")
    assert p.cell("11,7") in areas  # into the ZOC
    assert p.cell("12,8") not in areas  # but not through it


def test_special_sources_spain_hinterland_british_ports(position) -> None:
    """§5.4: Spanish units are never out of supply; Russians in the Hinterland always in supply; §2.3: a port
    with a British garrison is a source for the Allies."""
    p = position(
        [
            ("SP-M1", "spain", "militia", "3,10"),
            ("GB-I1", "britain", "infantry", "1,8", {"garrison": True}),
        ],
        scenario="3_spanish_quagmire",
        seat="allied",
        control={"3,10": "allied"},
    )
    assert play.in_supply(p.ctx, p.state, p.unit("SP-M1"), frozenset())
    assert p.cell("1,8") in play.supply_sources(p.ctx, p.state, "allied")  # Corunna
    p = position([("RU-I1", "russia", "infantry", "30,3")], scenario="5_russian_campaign", seat="allied")
    assert play.in_supply(p.ctx, p.state, p.unit("RU-I1"), frozenset())


def test_unsupplied_units_are_destroyed_and_garrisons_besieged(position) -> None:
    """§5.7: units that began the season unsupplied and still are are destroyed; garrisons roll on the siege
    table (M5 M4 M4 M3 M3 M2) instead."""
    p = position(
        [
            ("AU-I1", "austria", "infantry", "18,7", {"supplied": False}),
            ("AU-I2", "austria", "infantry", "17,6", {"supplied": False, "garrison": True, "morale": 3}),
            ("FR-I1", "france", "infantry", "16,6"),
        ],
        seat="allied",
        control={"16,6": "french"},
    )
    assert not play.supply_sources(p.ctx, p.state, "allied") - {p.cell("6,4")}  # only London is left
    for seed in range(1, 30):
        step = p.step(seed)
        state = play.destroy_unsupplied(p.ctx, p.state, step)
        assert state.unit("AU-I1").cell == -1
        (siege,) = [e for e in step.events if e.kind == "siege"]
        loss = p.ctx.tables.siege.read(int(siege.text.split("die ")[1][0]))
        assert loss == int(siege.text[-1])
        assert state.unit("AU-I2").cell == -1 if loss > 3 else state.unit("AU-I2").morale == 3 - loss


def test_units_in_a_capital_are_not_destroyed_for_lack_of_supply(position) -> None:
    """§2.3: units inside capitals cannot be destroyed due to a lack of supply."""
    p = position([("FR-I1", "france", "infantry", "16,6", {"supplied": False})])
    p.set(control=tuple("allied" if c else c for c in p.state.control))
    p.set(control=tuple("french" if i == p.cell("16,6") else c for i, c in enumerate(p.state.control)))
    assert not play.in_supply(p.ctx, p.state, p.unit("FR-I1"), play.supplied_areas(p.ctx, p.state, "french"))
    state = play.destroy_unsupplied(p.ctx, p.state, p.step())
    assert state.unit("FR-I1").cell == p.cell("16,6")


def test_victory_points_friendly_and_enemy(position) -> None:
    """§5.2: friendly capitals 4 and major cities 2; occupied enemy capitals and major cities 1."""
    p = position([])
    ctx = p.ctx
    assert play.city_value(ctx, p.cell("8,6"), "french") == 4  # Paris
    assert play.city_value(ctx, p.cell("9,5"), "french") == 2  # Brussels
    assert play.city_value(ctx, p.cell("16,6"), "french") == 1  # Vienna, an enemy capital
    assert play.city_value(ctx, p.cell("9,4"), "french") == 1  # Amsterdam, a minor country's city
    assert play.city_value(ctx, p.cell("16,6"), "allied") == 4
    assert play.city_value(ctx, p.cell("10,6"), "french") == 0  # Strasbourg, a minor city


def test_victory_levels_of_two_scenarios(position) -> None:
    """§5.2, §6.0: the level is the highest threshold reached; below SD is Absolute Defeat."""
    p = position([])
    assert [play.level(p.ctx, "french", v) for v in (12, 13, 15, 18, 20, 22, 40)] == [
        "AD",
        "SD",
        "TD",
        "TV",
        "SV",
        "AV",
        "AV",
    ]
    assert play.level(p.ctx, "allied", 17) == "SV"
    p = position([], scenario="7_waterloo")
    assert [play.level(p.ctx, "allied", v) for v in (42, 43, 47, 49, 50, 51)] == ["AD", "SD", "TD", "TV", "SV", "AV"]
    assert play.level(p.ctx, "french", 8) == "SD"


def test_result_is_the_higher_level_or_a_draw(position) -> None:
    """§5.2: the player with the highest level of victory wins; the same level is a draw."""
    p = position([])
    p.set(phase=Phase.OVER, vp=(("french", 18), ("allied", 14)))  # TV and TV
    result = p.rules.result(p.state)
    assert result is not None and result.winner is None and result.levels["french"] == "TV"
    p.set(vp=(("french", 22), ("allied", 14)))
    result = p.rules.result(p.state)
    assert result is not None and result.winner == "french"


def test_military_points_from_borders_and_to_britain(position) -> None:
    """§5.3: 1 MP per VP plus 1 per 4 unspent; Austria only from VPs inside its borders; VPs from minor
    countries go to Britain."""
    p = position([], seat="allied", season="spring", control={"9,4": "allied"})  # Amsterdam held by the Allies
    p.set(mp=(("france", 8), ("austria", 8), ("russia", 4), ("britain", 2)))
    state = play.allocate_military_points(p.ctx, p.state, p.step())
    # Austria: Vienna 4 + Prague, Budapest, Innsbruck 2 each = 10, plus 8 // 4
    assert state.points("austria") == 8 + 10 + 2
    # Russia: its cities are prohibited in scenario 1
    assert state.points("russia") == 4 + 0 + 1
    # Britain: London 4, Portsmouth 2, Gibraltar 2, Amsterdam 1, plus 2 // 4
    assert state.points("britain") == 2 + 9 + 0


def test_rally_costs_and_once_per_season(position) -> None:
    """§5.5: 0 to 1 costs 4, 1 to 2 costs 3, 2 to 3 costs 2, 3 to 4 costs 1; once per season."""
    for morale, cost in ((0, 4), (1, 3), (2, 2), (3, 1)):
        p = position([("FR-A1", "france", "guard", "8,6", {"morale": morale})], phase=Phase.BUILD)
        before = p.state.points("france")
        p.game.apply("french", Rally("FR-A1"))
        assert p.state.points("france") == before - cost
        assert p.unit("FR-A1").morale == morale + 1 and p.unit("FR-A1").rallied
        assert "FR-A1" not in play.rallyable(p.ctx, p.state, "french")


def test_build_sites_and_cost(position) -> None:
    """§2.3: units are built in a controlled capital of their country; Spain in any controlled Spanish city;
    Russia in either capital; §3.3 costs (HQ 5); an immediate undo refunds the points (§5.5)."""
    p = position([("FR-I9", "france", "infantry", "")], phase=Phase.BUILD)
    assert play.build_sites(p.ctx, p.state, p.unit("FR-I9")) == [p.cell("8,6")]
    assert play.buildable(p.ctx, p.state, "french") == []  # 9 MPs for infantry, France has 8
    p = position([("FR-M9", "france", "militia", "")], phase=Phase.BUILD)
    p.game.apply("french", Build("FR-M9", p.cell("8,6")))
    assert p.state.points("france") == 8 - 7 and p.unit("FR-M9").morale == 2
    p.game.undo("french")
    assert p.state.points("france") == 8 and p.unit("FR-M9").cell == -1
    p = position([("SP-M9", "spain", "militia", "")], scenario="3_spanish_quagmire", seat="allied", phase=Phase.BUILD)
    sites = p.labels(play.build_sites(p.ctx, p.state, p.unit("SP-M9")))
    assert sites == ["1,8", "3,10", "3,9", "5,10", "5,9", "6,9"]  # every Allied-held Spanish city, Madrid too
    assert "4,8" not in sites and "8,9" not in sites  # French-held Vitoria and Barcelona
    p = position([("RU-I9", "russia", "infantry", "")], scenario="5_russian_campaign", seat="allied", phase=Phase.BUILD)
    assert p.labels(play.build_sites(p.ctx, p.state, p.unit("RU-I9"))) == ["24,1", "29,3"]
    assert p.ctx.tables.units["hq"].cost == 5


def test_fatigue_reset_at_the_start_of_the_turn(position) -> None:
    """§5.1, §3.7: the active player's units have their fatigue reduced to zero at the start of each turn."""
    p = position([("FR-I1", "france", "infantry", "8,6", {"fatigue": 3})], phase=Phase.BUILD)
    state = phases.begin_turn(p.ctx, p.state, p.step())
    assert state.unit("FR-I1").fatigue == 0


def test_napoleon_returns_to_paris_in_spring_1809(position) -> None:
    """§6.0 scenario 3: Napoleon automatically returns to Paris at the start of the spring 1809 turn, for good."""
    p = position([("Napoleon", "france", "hq", "4,8", {"bonus": 2})], scenario="3_spanish_quagmire", season="spring")
    p.set(year=1809)
    state = phases.special_rules(p.ctx, p.state, p.step())
    napoleon = state.unit("Napoleon")
    assert p.ctx.board.name(napoleon.cell) == "Paris" and napoleon.fixed
    assert play.destinations(p.ctx, state, napoleon) == []


def test_end_build_moves_on_to_movement(position) -> None:
    """§5.5-5.6: END ends the Build/Rally phase; phase V follows."""
    p = position([("FR-I1", "france", "infantry", "8,6", {"morale": 2})], phase=Phase.BUILD)
    p.game.apply("french", EndBuild())
    assert p.state.phase is Phase.MOVE and p.unit("FR-I1").moves == 5


def test_a_captured_capital_is_no_source_of_supply(position) -> None:
    """§2.3: Paris is the only source for the French; the Allies draw supply from any allied capital but Madrid;
    occupying an enemy's capital eliminates it as a source, and does not make it one for the occupier."""
    p = position([], scenario="7_waterloo", seat="allied")
    paris, vienna, berlin = p.cell("8,6"), p.cell("16,6"), p.cell("14,4")
    assert {vienna, berlin} <= play.supply_sources(p.ctx, p.state, "allied")
    assert play.supply_sources(p.ctx, p.state, "french") == {paris}
    p.set(control=tuple("allied" if i == paris else c for i, c in enumerate(p.state.control)))
    assert paris not in play.supply_sources(p.ctx, p.state, "allied")
    assert play.supply_sources(p.ctx, p.state, "french") == set()
    p = position([], scenario="3_spanish_quagmire", seat="allied")
    assert p.cell("5,9") not in play.supply_sources(p.ctx, p.state, "allied")  # Madrid, held by the Spanish
    assert p.cell("6,4") in play.supply_sources(p.ctx, p.state, "allied")  # London


def test_napoleon_destroyed_before_spring_1809_is_rebuilt_in_paris_and_stays(position) -> None:
    """§6.0 scenario 3: Napoleon is in Paris "for the remainder of the scenario": a Napoleon destroyed before
    spring 1809 is not brought back by the rule, and if rebuilt afterwards (in Paris, §2.3) he cannot leave."""
    p = position([("Napoleon", "france", "hq", "", {"bonus": 2})], scenario="3_spanish_quagmire", season="spring")
    p.set(year=1809, phase=Phase.BUILD, mp=(("france", 20), ("spain", 0), ("britain", 0)))
    assert phases.special_rules(p.ctx, p.state, p.step()).unit("Napoleon").cell == -1
    state = play.build(p.ctx, p.state, p.step(), "Napoleon", p.cell("8,6"))
    napoleon = replace(state.unit("Napoleon"), moves=7)
    assert napoleon.fixed and play.destinations(p.ctx, state, napoleon) == []


def test_napoleon_leaves_the_campaign_if_paris_is_lost(position) -> None:
    """§6.0 scenario 3: if the French do not hold Paris in spring 1809 he cannot return there; he leaves the
    campaign for good (docs/rules/grande-armee.md)."""
    p = position(
        [("Napoleon", "france", "hq", "4,8", {"bonus": 2}), ("GB-I1", "britain", "infantry", "8,6")],
        scenario="3_spanish_quagmire",
        season="spring",
        control={"8,6": "allied"},
    )
    p.set(year=1809)
    state = phases.special_rules(p.ctx, p.state, p.step())
    gone = state.unit("Napoleon")
    assert gone.cell == -1 and gone.year > p.ctx.scenario.end[0]
    assert "Napoleon" not in [u.id for u in play.buildable(p.ctx, state, "french")]


def test_british_military_aid_one_point_at_a_time(position) -> None:
    """§5.5: if Britain is active, it may transfer MPs to any other allied country, in the Build/Rally phase."""
    from grognard.rulesets.grande_armee.decisions import Aid

    p = position([], seat="allied", phase=Phase.BUILD)
    p.set(mp=(("france", 8), ("austria", 0), ("russia", 0), ("britain", 2)))
    assert sorted(play.aid_targets(p.ctx, p.state, "allied")) == ["austria", "russia"]
    p.game.apply("allied", Aid("russia"))
    assert (p.state.points("britain"), p.state.points("russia")) == (1, 1)
    state = play.aid(p.ctx, p.state, p.step(), "austria")
    assert (state.points("britain"), state.points("austria")) == (0, 1)
    assert play.aid_targets(p.ctx, state, "allied") == []
    p = position([], scenario="4_crisis_on_the_danube", seat="allied", phase=Phase.BUILD)
    assert play.aid_targets(p.ctx, p.state, "allied") == []  # Britain is not at war in 1809 (§6.0)


# §5.2, §6.0: each side's victory points and level in its first turn, from the map, the control at start and
# the scenario's prohibited areas (docs/rules/grande-armee.md, "Forces at start").
START_LEVELS = {
    "1_austrian_challenge": ((14, "SD"), (18, "AV")),
    "2_prussias_turn": ((14, "AD"), (10, "TV")),
    "3_spanish_quagmire": ((17, "SD"), (13, "SV")),
    "4_crisis_on_the_danube": ((16, "SD"), (10, "TV")),
    "5_russian_campaign": ((19, "SD"), (18, "AV")),
    "6_battle_of_nations": ((16, "TV"), (24, "SD")),
    "7_waterloo": ((4, "AD"), (46, "SD")),
}


def test_victory_points_and_levels_at_start(position) -> None:
    """§5.2: "the superior side usually starts at a lower level of victory ... an inferior military force usually
    starts with enough VP's for an absolute or strategic victory": the French, superior in scenarios 1-5, start
    at a defeat, the Allies at a victory; in 6 and 7 the superior Allies start at SD."""

    for sid, expected in START_LEVELS.items():
        rules = GrandeArmee(read_scenario(SCENARIO_DIR / f"{sid}.json"))
        state = rules.initial_state(1)
        got = tuple(
            (state.victory_points(s), play.level(rules.ctx, s, state.victory_points(s))) for s in ("french", "allied")
        )
        assert got == expected, sid


def test_supply_is_not_traced_through_neutral_areas_until_taken(position) -> None:
    """§2.4: "Only controlled areas can be in supply during your turn"; §5.4: a path of controlled areas. Neutral
    Saxony (1805) carries no French supply until a French unit takes it."""
    p = position([])
    leipzig = p.cell("14,5")
    assert p.state.control[leipzig] == "neutral" and leipzig not in play.supplied_areas(p.ctx, p.state, "french")
    p.set(control=tuple("french" if i == leipzig else c for i, c in enumerate(p.state.control)))
    assert leipzig in play.supplied_areas(p.ctx, p.state, "french")


def test_only_a_british_garrison_makes_a_port_a_source(position) -> None:
    """§2.3 PORTS: a port is a source of supply for British and other allied units "if a British garrison is
    present"; a British unit there that is not a garrison, or a Spanish garrison, is not enough; British units at
    sea are in supply (the fleet, docs/rules/grande-armee.md)."""
    corunna = "1,8"
    for power, garrison, source in (("britain", True, True), ("britain", False, False), ("spain", True, False)):
        p = position(
            [("X-1", power, "infantry", corunna, {"garrison": garrison})], scenario="3_spanish_quagmire", seat="allied"
        )
        assert (p.cell(corunna) in play.supply_sources(p.ctx, p.state, "allied")) is source, (power, garrison)
    p = position([("GB-I1", "britain", "infantry", "7,4")], seat="allied")
    assert play.in_supply(p.ctx, p.state, p.unit("GB-I1"), frozenset())


def test_french_military_points_from_every_vp_and_the_unspent_bonus(position) -> None:
    """§5.3: in spring the French get one MP per VP, all of them, plus one per four unspent MPs; the points not
    spent stay (docs/rules/grande-armee.md)."""
    p = position([], season="spring")
    p.set(mp=(("france", 9), ("austria", 0), ("russia", 0), ("britain", 0)))
    state = play.allocate_military_points(p.ctx, p.state, p.step())
    assert state.points("france") == 9 + 14 + 9 // 4  # 14 VPs in 1805 (Paris 4, Brussels 2, eight cities at 1)


def test_a_spring_start_allocates_military_points_in_the_first_turn(position) -> None:
    """§5.1, §5.3: phase II comes in every spring turn, the first one of a spring scenario too; §6.0's starting
    MPs are then the unspent points (docs/rules/grande-armee.md)."""
    from grognard.engine import Game

    game = Game(GrandeArmee(read_scenario(SCENARIO_DIR / "4_crisis_on_the_danube.json")), 1)
    assert game.state.points("france") == 16 + 16 + 16 // 4  # 16 starting MPs, 16 VPs (SD)


def test_no_building_in_a_capital_the_enemy_holds(position) -> None:
    """§2.3: occupying an enemy country's capital prevents that country from building any new units; Russia has
    two capitals to choose from."""
    p = position([("AU-I9", "austria", "infantry", ""), ("RU-I9", "russia", "infantry", "")], seat="allied")
    assert p.labels(play.build_sites(p.ctx, p.state, p.unit("AU-I9"))) == ["16,6"]
    p.set(control=tuple("french" if i == p.cell("16,6") else c for i, c in enumerate(p.state.control)))
    assert play.build_sites(p.ctx, p.state, p.unit("AU-I9")) == []
    p = position([("RU-I9", "russia", "infantry", "")], scenario="5_russian_campaign", seat="allied")
    p.set(control=tuple("french" if i == p.cell("29,3") else c for i, c in enumerate(p.state.control)))
    assert p.labels(play.build_sites(p.ctx, p.state, p.unit("RU-I9"))) == ["24,1"]


def test_units_become_buildable_in_their_year(position) -> None:
    """§6.0: the units listed under a year may be built from that year; destroyed units at once (§5.7, §5.64)."""
    p = position([("FR-I9", "france", "infantry", "", {"year": 1806})], phase=Phase.BUILD)
    p.set(mp=(("france", 20), ("austria", 0), ("russia", 0), ("britain", 0)))
    assert play.buildable(p.ctx, p.state, "french") == []
    p.set(year=1806)
    assert [u.id for u in play.buildable(p.ctx, p.state, "french")] == ["FR-I9"]


def test_rally_stops_at_the_maximum_morale(position) -> None:
    """§5.5: from three to four is for guard and artillery only: each type rallies up to its maximum (§3.3)."""
    p = position(
        [("FR-I1", "france", "infantry", "8,6", {"morale": 3}), ("FR-C1", "france", "cavalry", "8,6", {"morale": 2})],
        phase=Phase.BUILD,
    )
    assert play.rallyable(p.ctx, p.state, "french") == []


def test_turns_run_french_then_allied_each_season_to_the_last(position) -> None:
    """§5.1: each player has one turn per season, French then Allied (the Neutral player, with nothing to do, passes,
    §2.7); after winter the year changes; the game ends after the scenario's last season (§6.0)."""
    from grognard.engine import Game
    from grognard.rulesets.grande_armee.decisions import EndMovement

    game = Game(GrandeArmee(read_scenario(SCENARIO_DIR / "1_austrian_challenge.json")), 2)
    seen = []
    while not game.over:
        state = game.state
        if not seen or seen[-1] != (state.year, state.season, state.seat):
            seen.append((state.year, state.season, state.seat))
        game.apply(state.seat, EndBuild() if state.phase is Phase.BUILD else EndMovement())
    seasons = [(1805, 1), (1805, 2), (1805, 3), (1806, 0), (1806, 1)]
    assert seen == [(y, s, seat) for y, s in seasons for seat in ("french", "allied")]
    result = game.result()
    assert result is not None and set(result.levels) == {"french", "allied", "neutral"}


def test_garrisons_named_by_a_scenario_hold_their_cities_from_the_start() -> None:
    """§3.6, §6.0: the garrisons a scenario places (Gibraltar, Lisbon, the capitals' garrisons) start as garrisons;
    with British garrisons in Lisbon and Gibraltar the British army of 1808 is in supply from its ports (§2.3)
    instead of starving in its first season."""
    rules = GrandeArmee(read_scenario(SCENARIO_DIR / "3_spanish_quagmire.json"))
    state = rules.initial_state(1)
    ctx = rules.ctx
    lisbon, gibraltar = ctx.board.grid.parse("1,9"), ctx.board.grid.parse("2,10")
    garrisons = {u.cell: u for u in state.units if u.garrison}
    assert garrisons[lisbon].power == garrisons[gibraltar].power == "britain"
    assert garrisons[lisbon].type == garrisons[gibraltar].type == "militia"
    assert sum(1 for u in state.units if u.cell == lisbon and u.garrison) == 1  # one garrison a city (§2.3)
    areas = play.supplied_areas(ctx, state, "allied")
    british = [u for u in state.units if u.power == "britain" and u.cell >= 0]
    assert british and all(play.in_supply(ctx, state, u, areas) for u in british)


def test_a_scenario_garrison_must_be_a_foot_unit_of_the_force_in_a_city() -> None:
    """§3.6: only infantry, guard/artillery and militia garrison, and only a city; a scenario file that asks for
    anything else is refused, naming the force."""
    doc = json.loads((SCENARIO_DIR / "3_spanish_quagmire.json").read_text())
    gibraltar = next(i for i, f in enumerate(doc["forces"]) if f["at"] == "2,10")
    for garrison, message in (("cavalry", "has no 'cavalry' unit"), ("infantry", "has no 'infantry' unit")):
        bad = json.loads(json.dumps(doc))
        bad["forces"][gibraltar]["garrison"] = garrison
        with pytest.raises(DataError, match=message) as refused:
            scenario_from_document(bad, "bad.json")
        assert f"forces[{gibraltar}].garrison" in str(refused.value)
    moore = next(i for i, f in enumerate(doc["forces"]) if f["at"] == "1,9")
    bad = json.loads(json.dumps(doc))
    bad["forces"][moore]["units"]["cavalry"] = 1
    bad["forces"][moore]["garrison"] = "cavalry"
    with pytest.raises(DataError, match="cannot garrison a city"):
        scenario_from_document(bad, "bad.json")
