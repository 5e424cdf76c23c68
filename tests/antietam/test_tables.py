"""Every chart and table of the manual, cell by cell, against the manual's lines copied here as printed."""

from __future__ import annotations

import re
from typing import Any

import pytest

# OPERATIONS COSTS TABLE, the rows as printed (columns INF/DIS.CAV., CAV, LIMB. ART., UNLIMB. ART.).
OPERATION_COSTS = """
Clear                   2(3)       1(2)      2(3)           P
Town                    6(9)       3(5)      3(5)           P
Woods                   5(7)       2(3)      2(3)           P
Cornfield               3(5)       2(3)      2(3)           P
River                    P          P         P             P
Stream                   P          P         P             P
Ford                    4(6)       1(2)      3(5)           P
Bridge (1)              2(3)       1(2)      2(3)           P
Road bonus (2)          1(P)       1(P)      1(P)           P
"""
ACTION_COSTS = """
Enter higher            +2         +1        +3             P
Enter or leave          +2         +1        +3             P
Move ZOC to ZOC         +8         +5         P             P
Change Mode (5)          2          2         4             4
Unlimber in ZOC         N/A        N/A        8            N/A
Fortify                 12          P         P             P
Fire Phase               2          2         P             4
Melee: Att.(4)           2          2         P             P
Melee: Def.              1          1         2             2
"""
ACTION_KEYS = [
    "enter_higher_elevation",
    "enter_or_leave_enemy_zoc",
    "zoc_to_zoc",
    "change_mode",
    "unlimber_in_zoc",
    "fortify",
    "fire_phase",
    "melee_attack",
    "melee_defence",
]


def _cells(line: str) -> list[str]:
    return line.split()[-4:]


def _cost(cell: str) -> Any:
    m = re.fullmatch(r"(\d+)\((\d+|P)\)", cell)
    if m:
        return [int(m.group(1)), m.group(2) if m.group(2) == "P" else int(m.group(2))]
    return cell if cell in ("P", "N/A") else int(cell.lstrip("+"))


def test_operations_costs_terrain_rows_cell_by_cell(data: Any) -> None:
    """OPERATIONS COSTS TABLE: orthogonal (diagonal) cost per terrain and unit class; P prohibited."""
    move = data("terrain")["move"]
    assert move["columns"] == ["inf", "cav", "limb", "unlimb"]
    for line in OPERATION_COSTS.strip().splitlines():
        key = re.sub(r"\s*\(\d\)$", "", line[:24].strip()).lower().replace(" ", "_")
        assert move[key] == [_cost(c) for c in _cells(line)], key


def test_operations_costs_action_rows_cell_by_cell(data: Any) -> None:
    """OPERATIONS COSTS TABLE: elevation and ZOC surcharges, mode change, unlimbering, fortifying, fire, melee."""
    costs = data("terrain")["costs"]
    lines = ACTION_COSTS.strip().splitlines()
    assert len(lines) == len(ACTION_KEYS)
    for key, line in zip(ACTION_KEYS, lines, strict=True):
        assert costs[key] == [_cost(c) for c in _cells(line)], key
    # notes 3 and 5: "Units using the road bonus pay only 1 operation point to enter a higher elevation";
    # "Mode change for CAV ART is 2."
    assert costs["notes"] == {"road_bonus_higher_elevation": 1, "horse_artillery_change_mode": 2}


WEAPONS_PRINTED = """
Rifle              RFL       4     2     0     0     0     0
Musket             MSK       3     0     0     0     0     0
Rifle/Musket       R/M       3     1     0     0     0     0
Rifle/Sharps       R/S       6     2     0     0     0     0
Rifle/Shotgun      R/G       4     1     0     0     0     0
Sharps Rifle       SHR       8     2     0     0     0     0
Rifle/Carbine      R/C       4     1     0     0     0     0
Carbine            CRB       4     1     0     0     0     0
Shotgun            SHG       4     0     0     0     0     0
Pistol             PST       1     0     0     0     0     0
6 lb. Smoothbore   SM6       8     2     2     1     0     0
12 lb. Napoleon    N12      14     4     2     1     0     0
3" Rifled Gun      RG3       8     5     4     2     1     0
12 lb. Howitzer    H12      16     2     2     1     0     0
24 lb. Howitzer    H24      17     4     2     1     0     0
10 lb. Parrott     P10       8     5     5     2     2     1
20 lb. Parrott     P20       8     6     6     2     2     1
"""


def test_weapon_range_casualty_table_cell_by_cell(data: Any) -> None:
    """WEAPON/RANGE CASUALTY TABLE, "RANGE IN SQUARES 1 2 3 4-6 7-10 11-15": men lost per 100 men (small arms) or
    per gun (artillery); the guns are the lb./inch rows."""
    w = data("combat")["weapons"]
    assert w["ranges"] == [[1, 1], [2, 2], [3, 3], [4, 6], [7, 10], [11, 15]]
    printed = WEAPONS_PRINTED.strip().splitlines()
    assert len(w) - 1 == len(printed)
    for line in printed:
        *name, code, a, b, c, d, e, f = line.split()
        row = w[code]
        assert row["name"] == " ".join(name), code
        assert row["casualties"] == [int(x) for x in (a, b, c, d, e, f)], code
        assert row["artillery"] == ("lb." in line or '"' in line), code


def test_every_oob_weapon_is_in_the_table(data: Any) -> None:
    """Each weapon code of the orders of battle has a row (AMB-30 read "M" and "S/R")."""
    weapons = data("combat")["weapons"]
    units = data("units")
    for side in ("confederate", "union"):
        for u in units[side]["units"]:
            assert u["weapon"] in weapons, u["name"]
            assert weapons[u["weapon"]]["artillery"] == (u["type"] == "artillery"), u["name"]


MELEE_PRINTED = """
-7 or less      Random of 25 + 150     Random 25               50%            0%
-5 to -6        Random of 25 + 50      Random 25               50%            0%
-4 to 4         Random of 25           Random 25               20%           40%
 5 to 12        Random of 25           Random 25 + 50           0%          100%
13 and more     Random of 25           Random 25 + 100          0%          100%
"""


def test_melee_combat_results_table_cell_by_cell(data: Any) -> None:
    """MELEE COMBAT RESULTS TABLE: "(Attacker's Mod. Strength - Def. Mod. Strength)/50"; losses "Random of 25 +
    n"; chances of attacker and defender retreat; the defender's retreat is checked first."""
    melee = data("combat")["melee"]
    assert (melee["divisor"], melee["random_losses"], melee["defender_checked_first"]) == (50, 25, True)
    rows = melee["rows"]
    printed = MELEE_PRINTED.strip().splitlines()
    assert len(rows) == len(printed)
    for row, line in zip(rows, printed, strict=True):
        diff, att, dfn, att_r, def_r = (c.strip() for c in re.split(r"\s{3,}", line.strip()))
        nums = [int(n) for n in re.findall(r"-?\d+", diff)]
        lo, hi = (nums[0], 999) if "more" in diff else ((-999, nums[0]) if "less" in diff else sorted(nums))
        assert (row["from"], row["to"]) == (lo, hi), line
        assert row["attacker_plus"] == (int(att.split("+")[1]) if "+" in att else 0), line
        assert row["defender_plus"] == (int(dfn.split("+")[1]) if "+" in dfn else 0), line
        assert (row["attacker_retreat"], row["defender_retreat"]) == (int(att_r[:-1]), int(def_r[:-1])), line
    # the rows cover every differential once
    covered = [d for r in rows for d in range(max(r["from"], -20), min(r["to"], 20) + 1)]
    assert covered == list(range(-20, 21))


def test_terrain_modifiers_cell_by_cell(data: Any) -> None:
    """FIRE AND MELEE STRENGTH/CASUALTY TERRAIN MODIFIERS, "If defender is in:" (fire, melee), in hundredths;
    "Bridge/Ford 1.00 .80*" with "* attacker on bridge/ford"."""
    printed = {
        "clear": ("1.00", "1.00"),
        "cornfield": ("1.00", "1.00"),
        "woods": (".80", "1.00"),
        "higher_elevation": (".90", ".90"),
        "town": (".70", "1.00"),
        "bridge_ford": ("1.00", ".80"),
    }
    d = data("terrain")["defence"]
    assert d["columns"] == ["fire", "melee"]
    for key, (fire, melee) in printed.items():
        assert d[key] == [round(float(fire) * 100), round(float(melee) * 100)], key


def test_mode_modifiers_cell_by_cell(data: Any) -> None:
    """MODE MODIFIERS ON FIRE AND MELEE STRENGTH/CASUALTIES, and §IA7.8 dismounted cavalry .75."""
    printed = {
        "infantry_normal": ("1.00", "1.00"),
        "infantry_column": (".75", ".75"),
        "cavalry_mounted": (".75", "1.50"),
        "routed": (".75", ".50"),
        "artillery": ("1.00", "1.00"),
        "cavalry_dismounted": (".75", ".75"),
    }
    m = data("combat")["mode"]
    for key, (fire, melee) in printed.items():
        assert m[key] == [round(float(fire) * 100), round(float(melee) * 100)], key


def test_other_modifiers(data: Any) -> None:
    """OTHER MODIFIERS: flank 1.50 / .50; density 1% per 12 men off 650, at most 25%; random .5 to 1.5; battle time
    OP/10 with at least 5 OP, fire only; fortification level x .10 (levels 0 to 5, §IA7.11); §IA7.12 bonus 20 =
    +20%."""
    o = data("combat")["other"]
    assert (o["flank_attacker"], o["flank_defender"]) == (150, 50)
    assert (o["density_base_men"], o["density_men_per_percent"], o["density_cap_percent"]) == (650, 12, 25)
    assert (o["random_low"], o["random_high"]) == (50, 150)
    assert (o["battle_time_divisor"], o["battle_time_min_op"], o["battle_time_in_melee"]) == (10, 5, False)
    assert (o["fortification_percent_per_level"], o["fortification_max"]) == (10, 5)
    assert o["leader_bonus_percent_per_point"] == 1


def test_combat_sequence_disruption_ammo_and_stack_losses(data: Any) -> None:
    """§IA8.1 the six steps; §IA8.8 40% per 100 casualties; §IA8.9 7% / about 10% to run out of ammo; §IA7.7 one
    defender takes three times the others' losses; §IA8.2 artillery retreats in melee over 75 fatigue."""
    c = data("combat")
    assert c["steps"] == [
        "defensive_artillery_fire",
        "offensive_artillery_fire",
        "defensive_fire",
        "offensive_fire",
        "defensive_melee_fire",
        "melee",
    ]
    assert c["disruption"]["percent_per_100_casualties"] == 40
    assert (c["ammo"]["out_percent_small_arms"], c["ammo"]["out_percent_artillery"]) == (7, 10)
    assert c["casualties"] == {
        "stack_heavy_share": 3,
        "artillery_melee_fatigue_retreat": 75,
        # AMB-13 readings (not printed): casualty points a gun, a fatigue point, men a gun in melee
        "artillery_points_per_gun": 20,
        "artillery_points_per_fatigue": 2,
        "artillery_melee_men_per_gun": 20,
    }


def test_ruleset_readings_in_the_data(data: Any) -> None:
    """AMB-16 fatigue recovery read swapped; AMB-31 A. P. Hill's early arrival 1 in 3 (rules.toml)."""
    assert data("recovery")["fatigue_recovery"]["reading"] == "swapped"
    assert data("rules")["reinforcements"]["early_chance_one_in"] == 3
    assert data("rules")["reinforcements"]["delayed_while_enemy_on"] == {"confederate_entry_turn_9": "33,1"}


def test_ammo_resupply_tables_cell_by_cell(data: Any) -> None:
    """AMMO RESUPPLY TABLES: eligibility by range to the division leader (0-1 automatic, 2 90% ... 6 10%, 7 none),
    a flat 50% for cavalry, cavalry artillery, Confederate artillery and Evans's brigade; resupply chance at turn
    start and (mid-turn): Union ART 70% (35%), INF/CAV 90% (45%); Confederate 50% (25%), 70% (35%)."""
    r = data("recovery")
    assert r["ammo_eligibility"]["by_range"] == {
        "0": "auto",
        "1": "auto",
        "2": 90,
        "3": 70,
        "4": 50,
        "5": 30,
        "6": 10,
        "7": 0,
    }
    assert r["ammo_eligibility"]["flat_percent"] == 50
    assert set(r["ammo_eligibility"]["flat_for"]) == {"cavalry", "horse_artillery", "confederate_artillery", "evans"}
    s = r["ammo_resupply"]
    assert s["columns"] == ["turn_start", "mid_turn"]
    assert s["union"] == {"artillery": [70, 35], "small_arms": [90, 45]}
    assert s["confederate"] == {"artillery": [50, 25], "small_arms": [70, 35]}


def test_fatigue_gain_table_cell_by_cell(data: Any) -> None:
    """FATIGUE GAIN TABLE: normal 2, column 1, fortify 20, 1 per 2 men lost, 6 per force-march OP, leader dies 5,
    routed unit passes through 5; the note's examples (600 men: 1 per 3; 900 men: 1 per 4.5) fit men / 200."""
    f = data("recovery")["fatigue_gain"]
    assert (f["enter_square_normal"], f["enter_square_column"], f["fortify_one_level"]) == (2, 1, 20)
    assert (f["men_lost_per_point"], f["per_force_march_op"], f["leader_dies"], f["routed_passes_through"]) == (
        2,
        6,
        5,
        5,
    )
    for men, tenths in f["large_unit_examples_tenths"]:
        assert men * 10 // f["large_unit_men_per_point_divisor"] == tenths
    assert (f["large_unit_min"], f["large_unit_max"], f["large_unit_cap_men"]) == (2, 5, 1000)


def test_fatigue_recovery_and_disruption_recovery_tables(data: Any) -> None:
    """FATIGUE RECOVERY TABLE as printed (in enemy ZOC Eff/3, not in ZOC Eff/6; AMB-16); DISRUPTION RECOVERY
    TABLE: morale over 40 and command control; 80%, 60%, 40%."""
    r = data("recovery")
    assert (r["fatigue_recovery"]["in_enemy_zoc_divisor"], r["fatigue_recovery"]["not_in_zoc_divisor"]) == (3, 6)
    d = r["disruption_recovery"]
    assert (d["morale_above"], d["needs_command_control"]) == (40, True)
    assert (d["leader_alive_not_in_zoc"], d["leader_dead_or_in_zoc"], d["leader_dead_and_in_zoc"]) == (80, 60, 40)


def test_rally_and_rout_ia5_2_ia8_6(data: Any) -> None:
    """§IA5.2 rally at morale 40, in command, more than 100 (Confederate) / 300 (Union) men; §IA8.6 morale under
    15: 40% to rout; under 80 men: rout; retreat four squares, one square a phase while routed."""
    r = data("recovery")
    assert r["rally"] == {
        "morale_at_least": 40,
        "needs_command_control": True,
        "more_than_men": {"confederate": 100, "union": 300},
    }
    assert r["rout"] == {
        "morale_below": 15,
        "chance_percent": 40,
        "auto_rout_below_men": 80,
        "retreat_squares": 4,
        "routed_moves_per_phase": 1,
    }


def test_line_of_sight_numbers_ia8_3(data: Any) -> None:
    """§IA8.3: 40-50 ft a level; woods 20, towns 30, cornfields 6, units 5 ft; sight 4/8/12/16 squares by level;
    §IA7.9 90-degree V; §B3.3 360 degrees in the basic game."""
    s = data("terrain")["sight"]
    assert s["feet_per_level"] == [40, 50] and 40 <= s["feet_per_level_used"] <= 50
    assert s["obstacle_feet"] == {"woods": 20, "town": 30, "cornfield": 6, "unit": 5}
    assert s["limit_by_level"] == {"1": 4, "2": 8, "3": 12, "4": 16}
    assert (s["cone_degrees"], s["basic_cone_degrees"]) == (90, 360)
    assert all(0 < v <= 100 for v in s["visibility_percent_by_turn"].values())


def test_sequence_of_play_ia2_3(data: Any) -> None:
    """§IA2.3: fourteen phases, activation first and victory determination last; eleven turns from 06:00."""
    r = data("rules")
    phases = r["sequence"]["phases"]
    assert len(phases) == 14 and phases[0] == "activation" and phases[-1] == "victory_determination"
    assert phases[8] == "mid_turn_recovery"
    assert (r["game"]["turns"], r["game"]["first_turn_hour"]) == (11, 6)
    assert (r["game"]["map_columns"], r["game"]["map_rows"], r["game"]["yards_per_square"]) == (42, 36, 200)


def test_operation_points_stacking_zoc_and_modes(data: Any) -> None:
    """§IA7.4 10 OP (5 out of command), 2 carried over; §IA7.7 two non-artillery and one artillery unit, one unit
    in town, ford or bridge; §IA7.7 routed units stacking in: +5 fatigue; §IA7.10 force march +1 OP for +6 fatigue,
    not at 40; §IA7.11 fortification 0-5; §IA8.5 four squares of retreat."""
    r = data("rules")
    op = r["operation_points"]
    assert (op["per_phase"], op["out_of_command"], op["carry_over_max"], op["basic_zoc_to_zoc_needs"]) == (
        10,
        5,
        2,
        10,
    )
    st = r["stacking"]
    assert (st["non_artillery"], st["artillery"], st["routed_stacking_fatigue"]) == (2, 1, 5)
    assert st["one_unit_terrains"] == data("terrain")["stacking_one_unit"]["terrains"] == ["town", "ford", "bridge"]
    assert r["zoc"]["squares"] == 8 and r["zoc"]["artillery_zoc_to_zoc"] is False
    assert r["force_march"] == {"op_per_press": 1, "fatigue_per_press": 6, "fatigue_limit": 40}
    assert (r["fortification"]["max_level"], r["fortification"]["build_op"], r["fortification"]["build_fatigue"]) == (
        5,
        12,
        20,
    )
    assert r["retreat"] == {"max_squares": 4, "retreated_onto_fatigue": 5}
    assert set(r["modes"]["always_flanked"]) == set(r["modes"]["bridge_modes"]) == {"column", "mounted", "limbered"}


def test_readings_of_set_up_modes_and_facing_ia7_8_ia7_9(data: Any) -> None:
    """§IA7.8 and §IA7.9 print neither the set-up modes nor the facing (readings in rules.toml): dawn units in the
    first mode of each pair, reinforcements marching; the Union faces 3 (toward growing x), the Confederates 7."""
    r = data("rules")
    assert [r["modes"][t][0] for t in ("infantry", "cavalry", "artillery")] == ["normal", "dismounted", "unlimbered"]
    assert r["modes"]["reinforcement"] == {"infantry": "column", "cavalry": "mounted", "artillery": "limbered"}
    assert r["facing"]["initial"] == {"union": 3, "confederate": 7}


def test_activation_limits_and_basic_schedule(data: Any) -> None:
    """§IA3.2 four divisions a turn plus a random number; §B2.0 Porter from turn 5, Franklin 7, Pleasonton 8 (IBM:
    cavalry from turn 3); §IA3.4 every Confederate unit activated."""
    a = data("rules")["activation"]
    assert a["base_divisions"] == 4 and a["confederate_always"] is True
    sched = a["schedule"]
    assert (sched["Porter"], sched["Franklin"], sched["Pleasonton"], sched["ibm_cavalry_variant"]) == (5, 7, 8, 3)
    leaders = {ld["name"] for ld in data("units")["leaders"]}
    assert {"Porter", "Franklin", "Pleasonton"} <= leaders


def test_command_control_distances_ia4(data: Any) -> None:
    """§IA4.1-4.3: Confederates within 6 of their division leader, the Union within 4; within 1 of the corps
    commander; Union artillery within 6 of its corps leader; Union division leaders within 6 of their corps
    commander, Confederate unlimited; the automatic list."""
    cc = data("rules")["command_control"]
    assert (cc["confederate_to_division"], cc["union_to_division"], cc["to_corps_commander"]) == (6, 4, 1)
    assert (cc["union_artillery_to_corps"], cc["union_division_to_corps"]) == (6, 6)
    assert cc["confederate_division_to_corps"] == "unlimited"
    assert set(cc["automatic"]) == {"cavalry", "horse_artillery", "confederate_artillery", "evans", "corps_leaders"}


def test_victory_points_ia10_1(data: Any) -> None:
    """§IA10.1: 1 per infantryman, 3 per cavalryman, 100 brigade, 300 division, 500 Union corps, 1000 Confederate
    corps leader, 150 per gun; the squares as printed."""
    v = data("rules")["victory"]
    assert v["points"] == {
        "infantryman": 1,
        "cavalryman": 3,
        "gun": 150,
        "brigade_leader": 100,
        "division_leader": 300,
        "union_corps_leader": 500,
        "confederate_corps_leader": 1000,
    }
    assert v["squares"] == {
        "17,2": [1000, 500],
        "18,9": [1000, 500],
        "21,14": [1000, 500],
        "31,18": [1000, 500],
        "25,3": [1000, 500],
        "28,11": [2000, 1000],
        "32,7": [4000, 2000],
        "33,1": [10000, 5000],
    }


@pytest.mark.parametrize(
    ("score", "level"),
    [
        (6000, "union_major"),
        (5999, "union_minor"),
        (2000, "union_minor"),
        (1999, "draw"),
        (-1000, "draw"),
        (-1001, "confederate_minor"),
        (-6000, "confederate_minor"),
        (-6001, "confederate_major"),
    ],
)
def test_victory_levels_ia10_2(data: Any, score: int, level: str) -> None:
    """§IA10.2: major 6000+, minor 2000 to 5999, draw -1000 to 1999, Confederate minor -6000 to -1001, major below
    -6000; the Union needs 5000 Confederate casualties for any victory."""
    levels = data("rules")["victory"]["levels"]
    found = [name for name, span in levels.items() if isinstance(span, list) and span[0] <= score <= span[1]]
    assert found == [level]
    assert levels["union_needs_casualties"] == 5000


def test_game_options_ia2_1(data: Any) -> None:
    """§IA2.1: the menu 0-9; levels 1-5 with 3 historical, 1-2 favouring the Confederates (1 more), 4-5 the Union
    (5 more) through fire and melee casualties and Union activations; intermediate = advanced without leaders and
    command control, with automatic fortification."""
    o = data("rules")["options"]
    assert [line.split(".")[0] for line in o["menu"]] == [str(i) for i in range(10)]
    assert o["levels"] == [1, 2, 3, 4, 5] and o["historical_level"] == 3
    lv = o["level"]
    assert lv["3"] == {"favours": "none", "union_casualties": 100, "confederate_casualties": 100, "activations": 0}
    assert [lv[k]["favours"] for k in "1245"] == ["confederate", "confederate", "union", "union"]
    assert lv["1"]["union_casualties"] < lv["2"]["union_casualties"] < 100  # level 1 favours them more than 2
    assert lv["5"]["union_casualties"] > lv["4"]["union_casualties"] > 100
    assert lv["1"]["activations"] < lv["2"]["activations"] < 0 < lv["4"]["activations"] < lv["5"]["activations"]
    rules = o["complexity_rules"]
    inter, adv = rules["intermediate"], rules["advanced"]
    differ = {k for k in adv if adv[k] != inter[k]}
    assert differ == {"leaders", "command_control", "auto_fortify", "build_fortify", "leader_points"}
    assert inter["auto_fortify"] and not adv["auto_fortify"] and not inter["leaders"]
