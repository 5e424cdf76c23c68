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


# The die tables as the manual prints them (the two lines of each, copied from the OCR'd text with their
# spacing): the header's totals, and under them the results, read by column position.
PRINTED = {
    "muster §5.4": (
        "          Die Roll plus modifiers (below)    1  2  3  4  5  6",
        "          Muster Results                    M2 M2 M1 M1 M0 M0",
    ),
    "long march §5.62": (
        "          Die Roll plus modifiers (below)   1  2  3  4  5  6",
        "          Fatigue Results                  F2 F2 F1 F1 F0 F0",
    ),
    "combat §5.64": (
        "          Die Roll plus combat modifiers     1  2  3  4  5  6  7",
        "          Combat Results                    A3 A2 A1 S1 D1 D2 D3",
    ),
    "reinforcement fog of war §5.67": (
        "          Die Roll plus modifiers (below)   1  2  3  4  5  6",
        "          Rout Results                      X  X  X  X  X",
    ),
    "rout §5.67": (
        "          Die Roll plus modifiers (below)   1  2  3  4  5  6",
        "      Rout Results                     M2 M2 M1 M1 M0 M0",
    ),
    "siege §5.7": (
        "          Die Roll                          1  2  3  4  5  6",
        "          Results                           M5 M4 M4 M3 M3 M2",
    ),
}


def _columns(header: str, results: str) -> dict[int, str]:
    """Each total of the header with the result printed under it ("" where none is). The rout table's results
    line is indented four spaces less in the OCR, like the other lines of that page that lost their tabs."""
    out = {}
    shift = 4 if results.startswith("      Rout") else 0
    for i, ch in enumerate(header):
        if ch.isdigit() and (i + 1 == len(header) or header[i + 1] == " "):
            under = results[i - 1 - shift : i + 2 - shift].strip()
            out[int(ch)] = under
    return out


def _printed(name: str) -> dict[int, str]:
    return _columns(*PRINTED[name])


def test_the_printed_tables_read_back() -> None:
    """The parser reads the manual's lines as a player reads them: the reinforcement table's five X stand under
    the totals 1 to 5 (docs/rules/grande-armee.md)."""
    assert _printed("muster §5.4") == {1: "M2", 2: "M2", 3: "M1", 4: "M1", 5: "M0", 6: "M0"}
    assert _printed("reinforcement fog of war §5.67") == {1: "X", 2: "X", 3: "X", 4: "X", 5: "X", 6: ""}
    assert _printed("rout §5.67") == {1: "M2", 2: "M2", 3: "M1", 4: "M1", 5: "M0", 6: "M0"}


@pytest.mark.parametrize(
    ("name", "table"),
    [("muster §5.4", "muster"), ("long march §5.62", "long_march"), ("rout §5.67", "rout"), ("siege §5.7", "siege")],
)
def test_morale_and_fatigue_tables_cell_by_cell(name: str, table: str) -> None:
    """§5.4 MUSTER ROLL TABLE, §5.62 LONG MARCH FATIGUE TABLE, §5.67 ROUT TABLE, §5.7 SIEGE TABLE: M# (F#) is # morale
    lost (fatigue added) for each total; totals off the table read as its end columns (as §5.64 says of combat)."""
    printed = _printed(name)
    data = getattr(T, table)
    assert data.roll == tuple(printed)
    for total, result in printed.items():
        assert data.read(total) == int(result[1:]), (name, total)
    lo, hi = min(printed), max(printed)
    assert data.read(lo - 5) == int(printed[lo][1:]) and data.read(hi + 5) == int(printed[hi][1:])


def test_combat_results_table_cell_by_cell() -> None:
    """§5.64: A# the attacker loses # morale, S1 both lose one, D# the defender loses #; "a total of less than one
    provides the same result as a one and a total above seven provides the same result as a seven"."""
    printed = _printed("combat §5.64")
    assert T.combat_attacker.roll == T.combat_defender.roll == tuple(printed) == (1, 2, 3, 4, 5, 6, 7)
    for total, result in printed.items():
        kind, n = result[0], int(result[1])
        expected = {"A": (n, 0), "S": (n, n), "D": (0, n)}[kind]
        assert (T.combat_attacker.read(total), T.combat_defender.read(total)) == expected, total
    assert (T.combat_attacker.read(-4), T.combat_defender.read(-4)) == (3, 0)
    assert (T.combat_attacker.read(11), T.combat_defender.read(11)) == (0, 3)
    assert T.combat_fatigue == 1  # "both the attacker and defender's fatigue is increased by one"


def test_reinforcement_fog_of_war_table_cell_by_cell() -> None:
    """§5.67: X, the unit fails to reinforce; above the table's last column it arrives, below its first it fails."""
    printed = _printed("reinforcement fog of war §5.67")
    for total, result in printed.items():
        assert T.reinforcement.read(total) is (result == "X"), total
    assert T.reinforcement.read(-3) is True and T.reinforcement.read(9) is False


# The modifiers as the manual prints them, line by line, and the data key each one is.
PRINTED_MODIFIERS = {
    "muster §5.4": (
        T.muster_mods,
        {
            "-2 if winter": "winter",
            "+3 if unit is in a capital, major city or major city with mountains": ("capital", "major_city"),
            "+2 if unit is in a minor city or minor city with mountains": "minor_city",
            "-1 if unit is in a forest": "forest",
            "-2 if unit is in mountains": "mountain",
            "-3 if unit is in a marsh": "marsh",
            "-2 if in unsupplied area": "unsupplied",
            "-1 if French unit inside Russia, Spain or Portugal": "french_abroad",
        },
    ),
    "long march §5.62": (T.long_march_mods, {"-2 if winter": "winter"}),
    "combat §5.64": (
        T.combat_mods,
        {
            "-2 if attacking a garrison (no modifiers below apply)": "garrison",
            "-1 if attacking across a river": "across_river",
            "-1 if cavalry attacking into forest": "cavalry_into_forest",
            "+1 if cavalry defending in  forest": "cavalry_defending_forest",
            "+2 if cavalry is attacking a unit with lower morale": "cavalry_vs_lower_morale",
            "-2 if cavalry attacking a garrison": "cavalry_vs_garrison",
            "-1 if attacking into mountains": "into_mountains",
            "+2 if attacking into marshes": "into_marsh",
            "-2 if attacking from marshes": "from_marsh",
        },
    ),
    "reinforcement fog of war §5.67": (T.reinforcement_mods, {"-2 if militia": "militia", "+1 if cavalry": "cavalry"}),
    "rout §5.67": (T.rout_mods, {"-2 if over river": "over_river", "-2 if into marsh": "into_marsh"}),
}


@pytest.mark.parametrize("name", sorted(PRINTED_MODIFIERS))
def test_every_printed_modifier_is_in_the_data(name: str) -> None:
    """§5.4, §5.62, §5.64, §5.67: each modifier line of the manual, and nothing else, in the data files (the
    modifiers from the units' morale and fatigue and the HQs are added by the rules: test_modifiers.py)."""
    data, lines = PRINTED_MODIFIERS[name]
    expected: dict[str, int] = {}
    for line, keys in lines.items():
        value = int(line.split()[0])
        for key in (keys,) if isinstance(keys, str) else keys:
            expected[key] = value
    assert data == expected
    if name == "muster §5.4":
        assert set(T.french_abroad_countries) == {"russia", "spain", "portugal"}


def test_attacking_a_withdrawn_unit_costs_two_moves() -> None:
    """§2.13 "attacking a withdrawing unit cost 2 movement points"; §5.67 "Attacks against units after they
    withdraw cost the attacker two movement points"."""
    assert T.withdrawn_attack_cost == 2


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
