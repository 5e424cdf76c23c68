"""Every modifier of the manual's die tables, one at a time: combat (§5.64, §3.3), muster (§5.4, §2.3), the long
march (§5.62), the reinforcement fog of war and the rout (§5.67)."""

from __future__ import annotations

import pytest

from grognard.rulesets.grande_armee import play


def _combat(position, attacker: tuple, defender: tuple, *others: tuple) -> tuple[int, list[str]]:
    p = position([attacker, defender, *others])
    return play.combat_modifier(p.ctx, p.state, p.unit(attacker[0]), p.unit(defender[0]))


def _unit(uid: str, power: str, spec: str) -> tuple:
    """``"type area [m<morale>] [garrison]"``: morale 2 unless given, so both units' own modifiers cancel."""
    type_, area, *flags = spec.split()
    morale = [int(f[1:]) for f in flags if f.startswith("m")]
    fields = {"morale": morale[0] if morale else 2, "garrison": "garrison" in flags}
    return (uid, power, type_, area, fields)


# attacker, defender, the total modifier and the modifiers named (§5.64: + attacker's morale, - defender's)
COMBAT = {
    "clear, no river": ("infantry 9,6", "infantry 10,6", 0, []),
    "-1 across a river": ("infantry 11,5", "infantry 12,5", -1, ["across_river"]),
    "-1 cavalry attacking into forest": ("cavalry 9,6", "infantry 10,5", -1, ["cavalry_into_forest"]),
    "+1 cavalry defending in forest": ("infantry 9,6", "cavalry 10,5", 1, ["cavalry_defending_forest"]),
    "+2 cavalry attacking lower morale": ("cavalry 9,6", "infantry 10,6 m1", 1 + 2, ["cavalry_vs_lower_morale"]),
    "-1 attacking into mountains": ("infantry 9,6", "infantry 10,7", -1, ["into_mountains"]),
    "+2 attacking into marsh": ("infantry 9,4", "infantry 10,4", 2, ["into_marsh"]),
    "-2 attacking from marsh": ("infantry 10,4", "infantry 11,4", -2, ["from_marsh"]),
    "-2 attacking a garrison, none below": ("infantry 9,6", "infantry 10,7 garrison", -2, ["garrison"]),
    "-2 -2 cavalry attacking a garrison": (
        "cavalry 9,6",
        "militia 10,7 m1 garrison",
        1 - 2 - 2,
        ["garrison", "cavalry_vs_garrison"],
    ),
}


@pytest.mark.parametrize("case", sorted(COMBAT))
def test_each_combat_modifier(position, case: str) -> None:
    """§5.64 Combat Modifiers, with §2.3 and §3.3 for cavalry in forest and against garrisons; positive modifiers
    benefit the attacker."""
    attacker, defender, total, names = COMBAT[case]
    assert _combat(position, _unit("FR-X", "france", attacker), _unit("AU-X", "austria", defender)) == (total, names)


def test_morale_and_fatigue_of_both_units(position) -> None:
    """§5.64: + attacker's morale, - attacker's fatigue, - defender's morale, + defender's fatigue."""
    total, _ = _combat(
        position,
        ("FR-A1", "france", "guard", "9,6", {"morale": 4, "fatigue": 1}),
        ("AU-I1", "austria", "infantry", "10,6", {"morale": 2, "fatigue": 3}),
    )
    assert total == 4 - 1 - 2 + 3


def test_hq_modifiers_count_only_in_the_units_areas(position) -> None:
    """§5.64: + the attacker's HQ (in the attacker's area), - the defender's HQ (in the defender's area); with
    several HQs in an area the best counts (docs/rules/grande-armee.md); an HQ next door counts for nothing."""
    a = ("FR-I1", "france", "infantry", "9,6", {"morale": 2})
    d = ("AU-I1", "austria", "infantry", "10,6", {"morale": 2})
    napoleon = ("Napoleon", "france", "hq", "9,6", {"bonus": 2})
    davout = ("Davout", "france", "hq", "9,6", {"bonus": 1})
    lannes_away = ("Lannes", "france", "hq", "9,5", {"bonus": 3})
    charles = ("Charles", "austria", "hq", "10,6", {"bonus": 1})
    assert _combat(position, a, d, napoleon)[0] == 2
    assert _combat(position, a, d, napoleon, davout)[0] == 2
    assert _combat(position, a, d, lannes_away)[0] == 0
    assert _combat(position, a, d, napoleon, charles)[0] == 2 - 1


# unit (type, area, fields), season, the muster modifier (§5.4 table; terrain for infantry and militia, §2.3)
MUSTER = {
    "+ morale, clear": (("infantry", "9,6", {}), "summer", 3),
    "+ morale of a militia": (("militia", "9,6", {}), "summer", 2),
    "-2 winter": (("infantry", "9,6", {}), "winter", 3 - 2),
    "+3 capital": (("infantry", "8,6", {}), "summer", 3 + 3),
    "+3 major city": (("infantry", "9,5", {}), "summer", 3 + 3),
    "+3 major city with mountains": (("militia", "10,7", {}), "summer", 2 + 3),
    "+2 minor city": (("infantry", "10,6", {}), "summer", 3 + 2),
    "+2 minor city in a forest": (("infantry", "13,5", {}), "summer", 3 + 2),
    "-1 forest": (("infantry", "10,5", {}), "summer", 3 - 1),
    "-2 mountains": (("infantry", "8,7", {}), "summer", 3 - 2),
    "-3 marsh": (("militia", "10,4", {}), "summer", 2 - 3),
    "-2 unsupplied": (("infantry", "9,6", {"supplied": False}), "summer", 3 - 2),
    "no terrain for cavalry": (("cavalry", "8,6", {}), "summer", 2),
    "no terrain for guard": (("guard", "10,4", {}), "winter", 4 - 2),
}


@pytest.mark.parametrize("case", sorted(MUSTER))
def test_each_muster_modifier(position, case: str) -> None:
    """§5.4 MUSTER ROLL TABLE modifiers, each alone (French units in France)."""
    (type_, area, fields), season, expected = MUSTER[case]
    p = position([("FR-X", "france", type_, area, fields)], season=season)
    assert play.muster_modifier(p.ctx, p.state, p.unit("FR-X")) == expected


def test_french_units_muster_at_minus_one_in_russia_spain_and_portugal(position) -> None:
    """§5.4: -1 if French unit inside Russia, Spain or Portugal; not elsewhere abroad, and not for the Allies."""
    p = position(
        [
            ("FR-I1", "france", "infantry", "22,3"),  # Russia, clear
            ("FR-I2", "france", "infantry", "2,9"),  # Portugal, clear
            ("FR-I3", "france", "infantry", "7,9"),  # Spain, clear
            ("FR-I4", "france", "infantry", "16,5", {"supplied": True}),  # Austria, minor city (Brno)
            ("RU-I1", "russia", "infantry", "22,4"),  # a Russian at home, in the Pripet marshes
        ],
        scenario="7_waterloo",
    )
    mods = {u: play.muster_modifier(p.ctx, p.state, p.unit(u)) for u in ("FR-I1", "FR-I2", "FR-I3", "FR-I4", "RU-I1")}
    assert mods == {"FR-I1": 3 - 1, "FR-I2": 3 - 1, "FR-I3": 3 - 1, "FR-I4": 3 + 2, "RU-I1": 3 - 3}


def test_hqs_and_units_at_sea_do_not_muster(position) -> None:
    """§3.3: HQs are not "units" and have no morale; §2.3: infantry and militia on the sea are not subject to a
    muster die roll (nor, we decide, the other British units at sea)."""
    p = position(
        [
            ("GB-I1", "britain", "infantry", "7,4", {"morale": 0}),
            ("GB-M1", "britain", "militia", "7,4", {"morale": 0}),
            ("Moore", "britain", "hq", "6,4"),
            ("GB-I2", "britain", "infantry", "7,6", {"morale": 0, "supplied": False}),  # ashore, in France
        ],
        seat="allied",
        season="winter",
        control={"7,6": "allied"},
    )
    for seed in range(1, 20):
        step = p.step(seed)
        state = play.supply_and_muster(p.ctx, p.state, step)
        mustered = {e.data["unit"] for e in step.events if e.kind == "muster"}
        assert mustered == {"GB-I2"} and state.unit("GB-I2").cell == -1  # 0 morale, winter, unsupplied: below 0
        assert state.unit("GB-I1").morale == 0 and state.unit("GB-M1").morale == 0


def _march(position, fatigue: int, season: str, seed: int) -> int:
    p = position([("FR-I1", "france", "infantry", "8,6", {"moves": 1, "fatigue": fatigue})], season=season)
    step = p.step(seed)
    play.move(p.ctx, p.state, step, "FR-I1", p.cell("9,6"))
    (event,) = [e for e in step.events if e.kind == "long_march"]
    return event.data["total"] - event.data["roll"]


def test_long_march_modifiers(position) -> None:
    """§5.62: die - the unit's current fatigue, -2 if winter."""
    assert _march(position, 0, "summer", 1) == 0
    assert _march(position, 2, "summer", 1) == -2
    assert _march(position, 1, "winter", 1) == -3


def test_rout_modifiers(position) -> None:
    """§5.67 ROUT TABLE: die + the unit's morale, -2 if over river, -2 if into marsh."""
    cases = [("11,5", "10,6", 0), ("11,5", "12,5", -2), ("11,4", "10,4", -2), ("11,5", "10,4", -2 - 2)]
    for start, to, mod in cases:
        p = position([("FR-I1", "france", "infantry", start, {"morale": 2})])
        b = p.ctx.board
        assert (b.river(p.cell(start), p.cell(to)), b.terrain[p.cell(to)] == "marsh").count(True) == -mod // 2
        step = p.step(3)
        play.withdraw(p.ctx, p.state, step, "FR-I1", p.cell(to))
        (rout,) = [e for e in step.events if e.kind == "rout"]
        assert rout.data["total"] - rout.data["roll"] == 2 + mod, (start, to)


def test_reinforcement_modifiers(position) -> None:
    """§5.67 REINFORCEMENT FOG OF WAR TABLE: die + the unit's morale, -2 if militia, +1 if cavalry."""
    for type_, morale, mod in (("infantry", 3, 0), ("militia", 2, -2), ("cavalry", 2, 1), ("guard", 1, 0)):
        p = position(
            [("FR-I1", "france", "infantry", "14,6"), ("AU-X", "austria", type_, "16,6", {"morale": morale})],
            control={"14,6": "french"},
        )
        step = p.step(4)
        play.reinforce(p.ctx, p.state, step, "AU-X", p.cell("15,6"))
        (event,) = [e for e in step.events if e.kind.startswith("reinforce") and e.data.get("unit") == "AU-X"]
        assert event.data["total"] - event.data["roll"] == morale + mod, type_
