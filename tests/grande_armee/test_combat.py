"""Combat (§5.64), stacking (§3.5) and reinforce/withdraw (§2.13, §5.65-5.67)."""

from __future__ import annotations

from grognard.rulesets.grande_armee import play


def _combat(step):
    (event,) = [e for e in step.events if e.kind == "combat"]
    return event.data


def test_combat_result_follows_the_table(position) -> None:
    """§5.64: die plus modifiers read on A3 A2 A1 S1 D1 D2 D3; both sides' fatigue rises by one."""
    table = {1: (3, 0), 2: (2, 0), 3: (1, 0), 4: (1, 1), 5: (0, 1), 6: (0, 2), 7: (0, 3)}
    for seed in range(1, 25):
        p = position([("FR-A1", "france", "guard", "14,6"), ("AU-A1", "austria", "guard", "15,6")])
        step = p.step(seed)
        p.game.state = play.attack(p.ctx, p.state, step, "FR-A1", p.cell("15,6"))
        data = _combat(step)
        assert data["modifier"] == 0  # equal morale and fatigue, clear terrain, no river, no HQ
        att, dfn = table[min(max(data["total"], 1), 7)]
        for uid, loss in (("FR-A1", att), ("AU-A1", dfn)):
            u = p.unit(uid)
            assert u.morale == 4 - loss and u.fatigue == 1


def test_morale_below_zero_destroys_and_zero_demoralises(position) -> None:
    """§5.64: morale zero is demoralised (no attacks until rallied); below zero the unit is destroyed."""
    p = position([("FR-I1", "france", "infantry", "14,6", {"morale": 0}), ("AU-I1", "austria", "infantry", "15,6")])
    assert p.cell("15,6") not in play.destinations(p.ctx, p.state, p.unit("FR-I1"))
    state = play.lose_morale(p.ctx, p.state, p.step(), p.unit("AU-I1"), 4)
    assert state.unit("AU-I1").cell == -1  # off the map, available to rebuild


def test_combat_modifiers(position) -> None:
    """§5.64: morale and fatigue, HQs in the areas, river, cavalry and forest, mountains, marsh."""
    p = position(
        [
            ("FR-C1", "france", "cavalry", "12,6"),
            ("Napoleon", "france", "hq", "12,6", {"bonus": 2}),
            ("AU-I1", "austria", "infantry", "12,5", {"morale": 1, "fatigue": 2}),
            ("Charles", "austria", "hq", "12,5", {"bonus": 1}),
        ],
        control={"12,5": "allied"},
    )
    total, notes = play.combat_modifier(p.ctx, p.state, p.unit("FR-C1"), p.unit("AU-I1"))
    # +2 morale -1 defender morale +2 defender fatigue +2 Napoleon -1 Charles -1 Danube +2 cavalry vs lower morale
    assert total == 2 - 1 + 2 + 2 - 1 - 1 + 2
    assert sorted(notes) == ["across_river", "cavalry_vs_lower_morale"]


def test_attacking_a_garrison(position) -> None:
    """§5.64: -2 against a garrison and none of the modifiers below; §3.3 cavalry attack garrisons at -2."""
    p = position(
        [
            ("FR-C1", "france", "cavalry", "12,6", {"morale": 2}),
            ("AU-M1", "austria", "militia", "13,6", {"garrison": True, "morale": 1}),
        ],
        control={"13,6": "allied"},
    )
    total, notes = play.combat_modifier(p.ctx, p.state, p.unit("FR-C1"), p.unit("AU-M1"))
    assert notes == ["garrison", "cavalry_vs_garrison"]
    assert total == 2 - 1 - 2 - 2  # no cavalry +2 against lower morale


def test_top_of_stack_hqs_last_and_garrisons_after_field_units(position) -> None:
    """§3.5: the top unit is attacked; HQs only when all others are gone, garrisons after the field units."""
    p = position(
        [
            ("AU-I1", "austria", "infantry", "16,6", {"garrison": True}),
            ("AU-M1", "austria", "militia", "16,6"),
            ("Charles", "austria", "hq", "16,6"),
        ]
    )
    order = [u.id for u in play.stack_order(p.ctx, play.units_at(p.state, p.cell("16,6")))]
    assert order == ["AU-M1", "AU-I1", "Charles"]


def test_cavalry_on_top_hides_the_stack_size(position) -> None:
    """§3.5: a cavalry unit on top screens the stack: the enemy sees neither its size nor the units under it."""
    p = position(
        [
            ("AU-I1", "austria", "infantry", "15,6"),
            ("AU-C1", "austria", "cavalry", "15,6"),
            ("AU-I2", "austria", "infantry", "16,6"),
            ("AU-I3", "austria", "infantry", "16,6"),
            ("FR-I1", "france", "infantry", "8,6"),
        ]
    )
    view = p.rules.view(p.state, "french")
    stacks = {s["at"]: s for s in view["enemy"]}
    assert stacks["15,6"]["top"]["id"] == "AU-C1" and stacks["15,6"]["count"] is None
    assert stacks["16,6"]["top"]["id"] == "AU-I3" and stacks["16,6"]["count"] == 2
    assert p.rules.hidden_units(p.state, "french") == {"AU-I1", "AU-I2"}
    assert "AU-I1" not in str(view)


def test_reinforce_into_a_zoc_and_withdraw_out_of_one(position) -> None:
    """§2.13: a reinforcing unit must not be in a ZOC and must end in one; a withdrawing unit must be in one and
    cannot enter one; both into controlled areas."""
    p = position(
        [
            ("FR-I1", "france", "infantry", "14,6"),
            ("AU-I1", "austria", "infantry", "15,6"),
            ("AU-I2", "austria", "infantry", "16,6"),
        ],
        control={"14,6": "french"},
    )
    ctx, s = p.ctx, p.state
    french_zoc = play.zoc(ctx, s, "french")
    reinforce = play.reaction_moves(ctx, s, p.unit("AU-I2"), withdraw=False)
    assert reinforce and all(c in french_zoc for c in reinforce)
    withdraw = play.reaction_moves(ctx, s, p.unit("AU-I1"), withdraw=True)
    assert withdraw and not any(c in french_zoc for c in withdraw)
    assert play.reaction_moves(ctx, s, p.unit("AU-I1"), withdraw=False) == []


def test_reactions_only_after_the_first_attack(position) -> None:
    """§5.66: the defending player may reinforce or withdraw only after the offensive player's first attack."""
    p = position(
        [("FR-I1", "france", "infantry", "14,6"), ("AU-I1", "austria", "infantry", "15,6")],
        control={"14,6": "french"},
    )
    assert p.game.turn().optional == ()
    p.set(attacked=True)
    assert p.game.turn().optional == ("allied",)
    assert p.game.legal("allied")


def test_withdrawal_over_a_river_risks_a_rout(position) -> None:
    """§5.67 ROUT TABLE: die + morale, -2 over a river, read on M2 M2 M1 M1 M0 M0; below zero destroys."""
    p = position(
        [("FR-I1", "france", "infantry", "13,5"), ("AU-I1", "austria", "infantry", "13,6", {"morale": 1})],
        control={"13,5": "french"},
    )
    assert p.ctx.board.river(p.cell("13,6"), p.cell("14,6"))  # the Inn
    totals = set()
    for seed in range(1, 120):
        step = p.step(seed)
        after = play.withdraw(p.ctx, p.state, step, "AU-I1", p.cell("14,6"))
        (rout,) = [e for e in step.events if e.kind == "rout"]
        total, loss = rout.data["total"], rout.data["loss"]
        totals.add(total)
        assert loss == p.ctx.tables.rout.read(total)
        u = after.unit("AU-I1")
        assert (u.cell == -1) if loss > 1 else (u.morale == 1 - loss and u.withdrew and u.reacted)
    assert totals == set(range(1 + 1 - 2, 6 + 1 - 2 + 1))  # every die face, morale 1, river -2


def test_attacking_a_withdrawn_unit_costs_two_moves(position) -> None:
    """§2.13, §5.67: attacks cost no moves, except against a unit that withdrew: two."""
    p = position(
        [("FR-I1", "france", "infantry", "14,6", {"moves": 3}), ("AU-I1", "austria", "infantry", "15,6")],
        control={"14,6": "french"},
    )
    state = play.attack(p.ctx, p.state, p.step(), "FR-I1", p.cell("15,6"))
    assert state.unit("FR-I1").moves == 3
    p.edit("AU-I1", withdrew=True)
    p.edit("FR-I1", moves=1)
    assert p.cell("15,6") not in play.destinations(p.ctx, p.state, p.unit("FR-I1"))
    p.edit("FR-I1", moves=3)
    state = play.attack(p.ctx, p.state, p.step(), "FR-I1", p.cell("15,6"))
    assert state.unit("FR-I1").moves == 1


def test_top_secret_movement(position) -> None:
    """§5.66: the defending player does not see the mover's moves until after the first attack."""
    from grognard.rulesets.grande_armee.decisions import EndBuild, Move
    from grognard.rulesets.grande_armee.state import Phase

    p = position(
        [("FR-I1", "france", "infantry", "12,6"), ("AU-I1", "austria", "infantry", "14,6")],
        phase=Phase.BUILD,
        control={"13,6": "allied"},
    )
    p.game.apply("french", EndBuild())
    p.game.apply("french", Move("FR-I1", p.cell("13,6")))
    seen = {s["top"]["id"]: s["at"] for s in p.game.view("allied")["state"]["enemy"]}
    assert seen == {"FR-I1": "12,6"}
    assert p.state.control[p.cell("13,6")] == "french"
    assert p.game.view("allied")["state"]["control"][p.cell("13,6")] == "allied"
    p.game.apply("french", Move("FR-I1", p.cell("14,6")))  # the first attack
    seen = {s["top"]["id"]: s["at"] for s in p.game.view("allied")["state"]["enemy"]}
    assert seen == {"FR-I1": "13,6"}


def test_enemy_units_are_remembered_where_last_seen(position) -> None:
    """§3.5: a seat sees the top unit of each enemy stack; once that unit is covered it keeps the last sighting."""
    from grognard.rulesets.grande_armee.decisions import EndBuild
    from grognard.rulesets.grande_armee.state import Phase, Unit

    p = position([("AU-I1", "austria", "infantry", "15,6"), ("FR-I1", "france", "infantry", "8,6")], phase=Phase.BUILD)
    p.game.apply("french", EndBuild())  # the French see AU-I1 on top at 15,6
    assert "AU-I1" in p.state.known_to("french")
    p.edit("AU-I1", cell=p.cell("16,6"))  # it marches to Vienna, under a cavalry screen
    p.set(units=(*p.state.units, Unit("AU-C1", "austria", "cavalry", p.cell("16,6"), morale=2, stack=99)))
    view = p.rules.view(p.state, "french")
    assert [(g["id"], g["at"]) for g in view["last_seen"]] == [("AU-I1", "15,6")]
    assert [s["top"]["id"] for s in view["enemy"]] == ["AU-C1"]


def test_expected_losses_over_the_die(position) -> None:
    """§5.64: over the six faces, at +0 the attacker loses 3+2+1+1+0+0 and the defender 0+0+0+1+1+2; at +3 the
    totals 4..9 read 1+1+2+3+3+3 for the defender."""
    p = position([])
    assert play.expected_losses(p.ctx, 0) == (7, 4)
    assert play.expected_losses(p.ctx, 3) == (1, 13)
    assert play.expected_losses(p.ctx, -6) == (18, 0)


def test_a_garrison_that_attacks_stays_a_garrison(position) -> None:
    """§3.6: to quit being a garrison the unit must move out of the area; attacking moves no one (§5.64)."""
    p = position(
        [("FR-I1", "france", "infantry", "13,6", {"garrison": True}), ("AU-I1", "austria", "infantry", "14,6")],
        control={"13,6": "french"},
    )
    state = play.attack(p.ctx, p.state, p.step(), "FR-I1", p.cell("14,6"))
    attacker = state.unit("FR-I1")  # morale 3 loses at most 3 (A3): never destroyed here
    assert attacker.cell == p.cell("13,6") and attacker.garrison and attacker.fatigue == 1


def test_a_garrison_that_attacks_from_under_its_stack_is_known_to_the_enemy_afterwards(position) -> None:
    """§3.5, §5.64: the combat names its attacker to both sides, so a garrison that attacks from under field units
    (never on top, §3.5) is a unit the enemy has seen from then on, and no longer hidden from it."""
    p = position(
        [
            ("FR-I1", "france", "infantry", "13,6", {"garrison": True}),
            ("FR-I2", "france", "infantry", "13,6"),
            ("AU-I1", "austria", "infantry", "14,6"),
        ],
        control={"13,6": "french"},
    )
    assert "FR-I1" in p.rules.hidden_units(p.state, "allied")  # a garrison under a field unit is not seen
    state = play.attack(p.ctx, p.state, p.step(), "FR-I1", p.cell("14,6"))
    assert "FR-I1" in state.known_to("allied") and "FR-I1" not in p.rules.hidden_units(state, "allied")


def test_british_units_never_react_into_the_sea(position) -> None:
    """§2.13: British units cannot move into sea areas during defensive movement; a reinforcement or withdrawal
    goes into a controlled land area free of enemy units."""
    p = position(
        [("GB-I1", "britain", "infantry", "9,4"), ("FR-I1", "france", "infantry", "9,5")],
        seat="french",
        control={"9,4": "allied", "10,4": "allied"},
    )
    moves = play.reaction_moves(p.ctx, p.state, p.unit("GB-I1"), withdraw=True)
    assert moves and all(c in p.ctx.board.land and p.state.control[c] == "allied" for c in moves)
    assert any(n in p.ctx.board.sea for n in p.ctx.board.neighbors[p.cell("9,4")])  # Amsterdam is a port


def test_units_out_of_supply_this_season_do_not_react(position) -> None:
    """§5.4: units that start their turn unsupplied cannot move for the entire season, so not in the enemy's turn
    of that season either (§2.13); the next season they may."""
    p = position(
        [("FR-I1", "france", "infantry", "14,6"), ("AU-I1", "austria", "infantry", "15,6", {"supplied": False})],
        control={"14,6": "french"},
    )
    assert play.reaction_moves(p.ctx, p.state, p.unit("AU-I1"), withdraw=True) == []
    p.edit("AU-I1", supplied=True)
    assert play.reaction_moves(p.ctx, p.state, p.unit("AU-I1"), withdraw=True)


def test_reinforcement_fog_of_war_for_every_unit_type(position) -> None:
    """§5.67: arrives on die + morale (-2 militia, +1 cavalry) of 6 or more: guard 5/6, infantry 4/6, cavalry 4/6,
    militia 1/6, an HQ (morale 0) 1/6 (2,400 tries each with seed 21, within ±0.035)."""
    expected = {"guard": 5 / 6, "infantry": 4 / 6, "cavalry": 4 / 6, "militia": 1 / 6, "hq": 1 / 6}
    for type_, chance in expected.items():
        p = position(
            [("FR-I1", "france", "infantry", "14,6"), ("AU-X", "austria", type_, "16,6")],
            control={"14,6": "french"},
        )
        to = p.cell("15,6")
        assert to in play.reaction_moves(p.ctx, p.state, p.unit("AU-X"), withdraw=False)
        step = p.step(21)
        n = 2400
        arrived = sum(play.reinforce(p.ctx, p.state, step, "AU-X", to).unit("AU-X").cell == to for _ in range(n))
        assert abs(arrived / n - chance) < 0.035, type_


def test_hqs_never_attack(position) -> None:
    """§3.3: HQs have a maximum morale of zero; §5.64: units at morale zero cannot initiate attacks."""
    p = position(
        [("Napoleon", "france", "hq", "14,6", {"bonus": 2}), ("AU-I1", "austria", "infantry", "15,6")],
        control={"14,6": "french"},
    )
    assert p.cell("15,6") not in play.destinations(p.ctx, p.state, p.unit("Napoleon"))


def test_one_defensive_move_per_unit_per_season_and_set_top(position) -> None:
    """§5.65: units and leaders are allowed only one defensive move per season; the defender may change the unit on
    top of a stack (§3.5), which counts as that unit's reaction (docs/rules/grande-armee.md)."""
    from grognard.rulesets.grande_armee.decisions import SetTop, Withdraw

    p = position(
        [
            ("FR-I1", "france", "infantry", "14,6"),
            ("AU-I1", "austria", "infantry", "15,6", {"morale": 1}),
            ("AU-A1", "austria", "guard", "15,6"),
        ],
        control={"14,6": "french"},
    )
    p.set(attacked=True)
    assert play.top_unit(p.ctx, p.state, p.cell("15,6")).id == "AU-A1"
    p.game.apply("allied", SetTop("AU-I1"))
    assert play.top_unit(p.ctx, p.state, p.cell("15,6")).id == "AU-I1" and p.unit("AU-I1").reacted
    assert play.reaction_moves(p.ctx, p.state, p.unit("AU-I1"), withdraw=True) == []
    to = play.reaction_moves(p.ctx, p.state, p.unit("AU-A1"), withdraw=True)[0]
    p.game.apply("allied", Withdraw("AU-A1", to))
    assert p.unit("AU-A1").reacted and p.unit("AU-A1").withdrew
    assert "AU-A1" not in play.top_candidates(p.ctx, p.state, "allied")
    assert play.reaction_moves(p.ctx, p.state, p.unit("AU-A1"), withdraw=False) == []
