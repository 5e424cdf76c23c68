"""Every table of the manual, cell by cell, against values transcribed here from the manual's text."""

from __future__ import annotations

import pytest

from grognard.rulesets.grande_armee.scenario import SCENARIO_DIR, read_scenario
from grognard.rulesets.grande_armee.tables import load_tables

T = load_tables()


def test_unit_types_as_section_3_3_prints_them() -> None:
    """§3.3: cost to build, moves maximum, maximum morale; garrison, fatigue, rout, ZOC and control."""
    expected = {  # cost, moves, max morale, garrison, long march, rout, zoc, control
        "infantry": (9, 5, 3, True, True, True, True, True),
        "guard": (10, 4, 4, True, True, False, True, True),
        "militia": (7, 4, 2, True, True, True, True, True),
        "cavalry": (7, 7, 2, False, True, False, True, True),
        "hq": (5, 7, 0, False, False, False, False, False),
    }
    for type_, row in expected.items():
        u = T.units[type_]
        assert (u.cost, u.moves, u.max_morale, u.garrison, u.long_march, u.rout, u.zoc, u.control) == row, type_


def test_unit_order_of_section_5_61() -> None:
    """§5.61: infantry blink first, then militia, artillery, HQs and cavalry."""
    assert sorted(T.units, key=lambda t: T.units[t].order) == ["infantry", "militia", "guard", "hq", "cavalry"]


def test_terrain_costs_of_section_2_3() -> None:
    """§2.3: cities 1; forests, mountains, marshes 2; sea areas are not entered by cost."""
    assert T.terrain["clear"].cost == 1 and T.terrain["city"].cost == 1
    assert [T.terrain[t].cost for t in ("forest", "mountain", "marsh")] == [2, 2, 2]
    assert all(T.terrain[s].sea for s in ("atlantic", "north_sea", "baltic", "mediterranean"))


@pytest.mark.parametrize(("total", "lost"), [(-3, 2), (1, 2), (2, 2), (3, 1), (4, 1), (5, 0), (6, 0), (11, 0)])
def test_muster_roll_table(total: int, lost: int) -> None:
    """§5.4 MUSTER ROLL TABLE: 1 2 3 4 5 6 -> M2 M2 M1 M1 M0 M0; totals off the table read as its ends."""
    assert T.muster.read(total) == lost


def test_muster_modifiers() -> None:
    """§5.4: -2 winter, +3 capital or major city, +2 minor city, -1 forest, -2 mountains, -3 marsh, -2 unsupplied,
    -1 French inside Russia, Spain or Portugal."""
    assert T.muster_mods == {
        "winter": -2,
        "capital": 3,
        "major_city": 3,
        "minor_city": 2,
        "forest": -1,
        "mountain": -2,
        "marsh": -3,
        "unsupplied": -2,
        "french_abroad": -1,
    }
    assert set(T.french_abroad_countries) == {"russia", "spain", "portugal"}


def test_long_march_fatigue_table() -> None:
    """§5.62: 1 2 3 4 5 6 -> F2 F2 F1 F1 F0 F0; -2 if winter."""
    assert [T.long_march.read(r) for r in range(1, 7)] == [2, 2, 1, 1, 0, 0]
    assert T.long_march.read(0) == 2 and T.long_march.read(9) == 0
    assert T.long_march_mods == {"winter": -2}


def test_combat_results_table() -> None:
    """§5.64: 1..7 -> A3 A2 A1 S1 D1 D2 D3; below one reads as one, above seven as seven."""
    results = {1: (3, 0), 2: (2, 0), 3: (1, 0), 4: (1, 1), 5: (0, 1), 6: (0, 2), 7: (0, 3)}
    for total, (att, dfn) in results.items():
        assert (T.combat_attacker.read(total), T.combat_defender.read(total)) == (att, dfn), total
    assert (T.combat_attacker.read(-5), T.combat_defender.read(12)) == (3, 3)
    assert T.combat_fatigue == 1


def test_combat_modifiers() -> None:
    """§5.64 Combat Modifiers and §3.3 cavalry; §2.13 attacking a withdrawn unit costs 2 moves."""
    assert T.combat_mods == {
        "garrison": -2,
        "across_river": -1,
        "cavalry_into_forest": -1,
        "cavalry_defending_forest": 1,
        "cavalry_vs_lower_morale": 2,
        "cavalry_vs_garrison": -2,
        "into_mountains": -1,
        "into_marsh": 2,
        "from_marsh": -2,
    }
    assert T.withdrawn_attack_cost == 2


def test_reinforcement_fog_of_war_table() -> None:
    """§5.67: X under 1 to 5 (the unit fails to reinforce); -2 militia, +1 cavalry."""
    assert [T.reinforcement.read(r) for r in range(1, 7)] == [True] * 5 + [False]
    assert T.reinforcement.read(8) is False
    assert T.reinforcement_mods == {"militia": -2, "cavalry": 1}


def test_rout_table() -> None:
    """§5.67 ROUT TABLE: 1..6 -> M2 M2 M1 M1 M0 M0; -2 over river, -2 into marsh."""
    assert [T.rout.read(r) for r in range(1, 7)] == [2, 2, 1, 1, 0, 0]
    assert T.rout_mods == {"over_river": -2, "into_marsh": -2}


def test_siege_table() -> None:
    """§5.7 SIEGE TABLE: 1..6 -> M5 M4 M4 M3 M3 M2."""
    assert [T.siege.read(r) for r in range(1, 7)] == [5, 4, 4, 3, 3, 2]


def test_victory_military_rally_and_fog_numbers() -> None:
    """§5.2 VPs 4/2 friendly, 1 enemy; §5.3 one MP per VP and one per four unspent; §5.5 rally 4/3/2/1;
    §5.63 fog of war 2% and 3%; §3.2 one extra move to leave a ZOC."""
    assert T.vp == {"friendly_capital": 4, "friendly_major_city": 2, "enemy_capital": 1, "enemy_major_city": 1}
    assert T.mp == {"per_victory_point": 1, "unspent_per_point": 4, "build_minimum": 5}
    assert T.rally_cost == {0: 4, 1: 3, 2: 2, 3: 1}
    assert (T.fog_lose_all, T.fog_lose_one, T.zoc_exit_cost) == (2, 3, 1)
    assert T.seasons == ("spring", "summer", "autumn", "winter")


# §6.0, each scenario: start, end, starting MPs, victory thresholds (SD TD TV SV AV), leaders, forces at start
# (infantry, militia, artillery, cavalry) and the units buildable by year.
SCENARIOS = {
    "1_austrian_challenge": (
        ("summer", 1805),
        ("summer", 1806),
        {"france": 8, "austria": 8, "russia": 4, "britain": 2},
        {"french": (13, 15, 18, 20, 22), "allied": (8, 10, 14, 15, 18)},
        {"Napoleon": 2, "Davout": 1, "Lannes": 1, "Charles": 1, "Kutusov": 1},
        {"france": (9, 0, 2, 2), "austria": (2, 6, 0, 2), "russia": (4, 0, 0, 1)},
        {("france", 1805): (0, 2, 0, 0)},
    ),
    "2_prussias_turn": (
        ("autumn", 1806),
        ("autumn", 1807),
        {"france": 10, "prussia": 6, "russia": 6},  # Britain's row has no MPs: it carries the Allied VPs only
        {"french": (16, 18, 20, 21, 22), "allied": (6, 8, 10, 12, 16)},
        {"Napoleon": 2, "Davout": 1, "Soult": 1, "Bennigsen": 1},
        {"france": (9, 0, 2, 3), "prussia": (1, 6, 0, 2), "russia": (7, 0, 1, 2)},
        {("france", 1806): (0, 2, 0, 0)},
    ),
    "3_spanish_quagmire": (
        ("summer", 1808),
        ("winter", 1809),
        {"france": 6, "spain": 4, "britain": 8},
        {"french": (16, 18, 20, 21, 22), "allied": (6, 8, 10, 12, 16)},
        {"Napoleon": 2, "Soult": 1, "Lannes": 1, "Moore": 1},
        {"france": (8, 0, 1, 1), "spain": (1, 8, 0, 0), "britain": (1, 3, 0, 0)},
        {("france", 1808): (0, 2, 0, 0)},
    ),
    "4_crisis_on_the_danube": (
        ("spring", 1809),
        ("summer", 1810),
        {"france": 16, "austria": 4},
        {"french": (16, 17, 18, 19, 20), "allied": (4, 8, 9, 12, 14)},
        {"Napoleon": 2, "Davout": 1, "Massena": 1, "Charles": 1},
        {"france": (7, 3, 1, 1), "austria": (5, 6, 0, 2)},
        {},
    ),
    "5_russian_campaign": (
        ("spring", 1812),
        ("winter", 1813),
        {"france": 10, "russia": 6, "britain": 6},
        {"french": (18, 20, 22, 23, 24), "allied": (8, 9, 10, 11, 12)},
        {"Napoleon": 2, "Davout": 1, "Kutusov": 1, "Bagration": 1},
        {"france": (8, 2, 1, 2), "russia": (9, 0, 1, 3)},
        {},
    ),
    "6_battle_of_nations": (
        ("summer", 1814),
        ("summer", 1815),
        {"france": 18, "austria": 8, "prussia": 8, "russia": 10, "britain": 12},
        {"french": (11, 14, 16, 21, 24), "allied": (23, 25, 27, 30, 32)},
        {
            "Napoleon": 2,
            "Davout": 1,
            "Soult": 1,
            "Lannes": 1,
            "Schwarzenberg": 1,
            "Bagration": 1,
            "Bernadotte": 1,
            "Blucher": 2,
        },
        {"france": (12, 0, 1, 2), "austria": (6, 0, 0, 2), "russia": (6, 0, 1, 3), "prussia": (3, 2, 0, 1)},
        {("france", 1814): (0, 0, 0, 1), ("austria", 1814): (0, 2, 0, 0)},
    ),
    "7_waterloo": (
        ("summer", 1815),
        ("summer", 1816),
        {"france": 12, "austria": 10, "prussia": 10, "russia": 10, "britain": 15},
        {"french": (8, 9, 12, 16, 21), "allied": (43, 47, 49, 50, 51)},
        {
            "Napoleon": 2,
            "Charles": 1,
            "Schwarzenberg": 1,
            "Bagration": 1,
            "Kutusov": 1,
            "Blucher": 2,
            "Wellington": 3,
        },
        {
            "france": (7, 2, 1, 1),
            "austria": (4, 6, 0, 3),
            "russia": (7, 1, 1, 4),
            "prussia": (3, 4, 0, 1),
            "britain": (1, 3, 1, 0),
        },
        {
            ("france", 1815): (5, 4, 1, 3),
            ("austria", 1815): (2, 0, 0, 0),
            ("russia", 1815): (2, 2, 0, 0),
        },
    ),
}


def _count(units: list, power: str) -> tuple[int, int, int, int]:
    mine = [u for u in units if u.power == power]
    return tuple(sum(1 for u in mine if u.type == t) for t in ("infantry", "militia", "guard", "cavalry"))


@pytest.mark.parametrize("sid", sorted(SCENARIOS))
def test_scenario_as_section_6_prints_it(sid: str) -> None:
    """§6.0: dates, military points, victory points, leaders, forces at start and buildable by year."""
    start, end, mps, victory, leaders, forces, later = SCENARIOS[sid]
    sc = read_scenario(SCENARIO_DIR / f"{sid}.json")
    assert tuple(sc.spec.start) == start and tuple(sc.spec.end) == end
    assert {p: s.mp for p, s in sc.spec.powers.items()} == mps
    assert {s: tuple(v) for s, v in sc.spec.victory.items()} == victory
    assert {n: lead.bonus for n, lead in sc.spec.leaders.items()} == leaders
    on_map = [u for u in sc.units if u.cell >= 0]
    assert sorted(u.id for u in on_map if u.type == "hq") == sorted(leaders)
    for power, counts in forces.items():
        assert _count(on_map, power) == counts, power
    assert {u.power for u in on_map if u.type != "hq"} == set(forces)
    pool: dict[tuple[str, int], list] = {}
    for u in sc.units:
        if u.cell < 0:
            pool.setdefault((u.power, u.year), []).append(u)
    assert {k: _count(v, k[0]) for k, v in pool.items()} == later


def test_powers_paid_from_their_own_borders() -> None:
    """§5.3: Austria, Prussia, Russia and Spain get MPs only from the VPs inside their borders."""
    assert set(T.mp_from_own_borders) == {"austria", "prussia", "russia", "spain"}
