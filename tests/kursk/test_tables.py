"""Every table and number of the manual against the data files, cell by cell; the manual's values are typed here
from shared/manuals/objective-kursk.txt, each test naming its section."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from grognard.engine.maps import read_data

DATA = Path(__file__).parents[2] / "src/grognard/rulesets/kursk/data"


def data(name: str) -> Any:
    return read_data(DATA / name)


def frac(pair: list[int]) -> Fraction:
    return Fraction(pair[0], pair[1])


WEAPONS = data("weapons.toml")
SUPPLY = data("supply.toml")
MODES = data("modes.toml")
PLOTS = data("plots.toml")
AIR = data("air.toml")
FIRE = data("fire.toml")
COMBAT = data("combat.toml")
TERRAIN = data("terrain.toml")
MINES = data("minefields.toml")
WEATHER = data("weather.toml")
VICTORY = data("victory.toml")
LEVELS = data("levels.toml")
SEQUENCE = data("sequence.toml")
OOB = data("oob.toml")

# §8.1 as printed: name -> (AS, DS, WT), in the manual's columns.
SECTION_8_1 = {
    "AFV": {
        "PZ-II": (2, 5, "AP"),
        "PZ-III": (5, 6, "AP"),
        "PZ-IV": (7, 6, "AP"),
        "PZ-V": (8, 7, "AP"),
        "PZ-VI": (9, 9, "AP"),
        "SG-III": (6, 7, "AP"),
        "JPZ-IV": (7, 8, "AP"),
        "T-34": (7, 7, "AP"),
        "KV-1": (7, 8, "AP"),
        "SU-76": (6, 5, "AP"),
        "SU-85": (8, 8, "AP"),
        "SU-152": (5, 9, "HE"),
        "AC": (1, 4, "HE"),
    },
    "towed": {
        "50AT": (3, 1, "AP"),
        "75AT": (5, 1, "AP"),
        "88AT": (7, 1, "AP"),
        "45AT": (2, 1, "AP"),
        "76AT": (5, 1, "AP"),
        "75H": (1, 1, "HE"),
        "105H": (2, 1, "HE"),
        "150H": (3, 1, "HE"),
        "122H": (2, 1, "HE"),
        "152H": (3, 1, "HE"),
        "105FH": (2, 1, "HE"),
        "150FH": (3, 1, "HE"),
        "170FH": (4, 1, "HE"),
        "152FH": (3, 1, "HE"),
        "203FH": (5, 1, "HE"),
        "81M": (1, 2, "HE"),
        "82M": (1, 2, "HE"),
        "120M": (2, 1, "HE"),
        "132RL": (4, 1, "HE"),
        "150RL": (4, 1, "HE"),
    },
    "infantry": {"INF": (2, 3, "I"), "ENGR": (3, 3, "I")},
}


def test_weapon_systems_of_8_1_cell_by_cell() -> None:
    """§8.1: every system's AS, DS and WT, under its heading (AFV, towed guns, infantry)."""
    systems = WEAPONS["system"]
    assert len(systems) == sum(len(v) for v in SECTION_8_1.values()) == 35
    for column, table in SECTION_8_1.items():
        for name, (as_, ds, wt) in table.items():
            s = systems[name]
            assert (s["as"], s["ds"], s["wt"], s["column"]) == (as_, ds, wt, column), name


def test_target_classes_of_8_1() -> None:
    """§8.1: DS greater than 3 is an AFV target, less than 4 SOFT: exactly the AFV column (81M/82M, DS 2, soft)."""
    above = WEAPONS["target_class"]["afv_ds_above"]
    assert above == 3
    afv = {n for n, s in WEAPONS["system"].items() if s["ds"] > above}
    assert afv == set(SECTION_8_1["AFV"])


def test_substituted_attack_strengths_of_8_1() -> None:
    """§8.1: AP vs SOFT 1; HE and I vs AFV 1; AFVs in offensive fire vs SOFT 6, the SU-152 10 (AC literal, AMB-23)."""
    sub = WEAPONS["substitute"]
    assert (sub["ap_vs_soft"], sub["he_vs_afv"], sub["i_vs_afv"]) == (1, 1, 1)
    assert (sub["afv_offensive_vs_soft"], sub["su152_offensive_vs_soft"], sub["ac_offensive_vs_soft"]) == (6, 10, 6)
    assert WEAPONS["towed"]["no_fire_in_modes"] == ["mobile", "road"]
    bonus = WEAPONS["i_defensive_bonus"]
    assert bonus["reading"] is True and (bonus["slope"], bonus["cap"]) == ([1, 2], [2, 1])  # AMB-10, calibrated


def test_fire_kinds_of_8_0_8_1_9_2_9_5_9_6() -> None:
    """§8.0 six kinds of combat; §8.1, §9.2 bombardment FH at 1/2, halved at night, static, 1-2 hexes; §9.5
    opportunity AFV and towed, HE and AP, 1/2, halved at night, static; §9.6 offensive towed 1/2; §5.4 unsupplied
    defensive fire 50%, each fire 1 supply."""
    assert FIRE["kinds"]["order"] == ["airstrike", "bombardment", "opportunity", "minefield", "defensive", "offensive"]
    b = FIRE["bombardment"]
    assert (b["systems"], frac(b["as_factor"]), frac(b["night_factor"]), b["modes"], b["range"]) == (
        "FH",
        Fraction(1, 2),
        Fraction(1, 2),
        ["static"],
        [1, 2],
    )
    o = FIRE["opportunity"]
    assert (o["columns"], o["types"], frac(o["as_factor"]), frac(o["night_factor"]), o["modes"]) == (
        ["AFV", "towed"],
        ["HE", "AP"],
        Fraction(1, 2),
        Fraction(1, 2),
        ["static"],
    )
    assert o["firer_adjacent_to"] == ["start", "entered"] and o["trigger"] == "enemy ZOC to enemy ZOC"
    assert frac(FIRE["offensive"]["towed_as_factor"]) == Fraction(1, 2)
    assert frac(FIRE["defensive"]["unsupplied_factor"]) == Fraction(1, 2)
    assert all(FIRE[k]["supply"] == 1 for k in ("bombardment", "opportunity", "offensive", "defensive"))
    assert FIRE["recon"]["range"] == 1 and FIRE["recon"]["report"] == ["AFV", "ARTILLERY", "INFANTRY"]


# §5.1 as printed: terrain -> (clear, rain, along a road in clear, along a road in rain)
SECTION_5_1: dict[str, tuple[str, str, str | None, str | None]] = {
    "road": ("1", "4", "1/4", "1"),
    "clear": ("1", "4", None, None),
    "town": ("1", "4", "1/4", "1"),
    "woods": ("1", "4", None, None),
    "gully": ("1", "16", None, None),
}


def test_depot_costs_of_5_1_cell_by_cell() -> None:
    """§5.1: the supply level a depot loses for each hex entered, by terrain and weather, and along a road."""
    table = SUPPLY["depot_cost"]
    assert set(table) == set(SECTION_5_1)
    for terrain, (clear, rain, road_clear, road_rain) in SECTION_5_1.items():
        row = table[terrain]
        assert frac(row["clear"]) == Fraction(clear), terrain
        assert frac(row["rain"]) == Fraction(rain), terrain
        if road_clear is None:
            assert "along_road_clear" not in row and "along_road_rain" not in row, terrain
        else:
            assert frac(row["along_road_clear"]) == Fraction(road_clear), terrain
            assert road_rain is not None and frac(row["along_road_rain"]) == Fraction(road_rain), terrain


def test_rain_quadruples_depot_costs_10_2() -> None:
    """§10.2 "Rain QUADRUPLES the movement penalty for supply depots": every rain cell is 4x its clear cell, except
    the gully (x16 as §5.1 prints it)."""
    factor = WEATHER["rain"]["depot_cost_factor"]
    assert factor == 4
    for terrain, row in SUPPLY["depot_cost"].items():
        expected = 16 if terrain == "gully" else factor
        assert frac(row["rain"]) == expected * frac(row["clear"]), terrain
        if "along_road_clear" in row:
            assert frac(row["along_road_rain"]) == factor * frac(row["along_road_clear"])


def test_depots_and_supply_of_5() -> None:
    """§5.1 level 15, south/east edges, never adjacent to the enemy; §5.2 radius 2, once a phase; §5.3 2 and 5
    roads; §5.4 1 a hex, 1 a fire; §9.7 a retreat empties supply."""
    d = SUPPLY["depot"]
    assert (d["start_level"], d["german_edge"], d["soviet_edge"]) == (15, "south", "east")
    assert (d["german_entry_roads"], d["soviet_entry_roads"]) == (2, 5)
    assert d["never_adjacent_to_enemy"] and d["german_no_river_in_rain_off_road"]
    assert (SUPPLY["distribution"]["radius"], SUPPLY["distribution"]["once_per_phase"]) == (2, True)
    u = SUPPLY["usage"]
    assert (u["per_hex_moved"], u["per_fire"]) == (1, 1)
    assert u["fires"] == ["bombardment", "opportunity", "defensive", "offensive"]
    assert u["unsupplied_may"] == ["defensive"] and frac(u["unsupplied_defensive_factor"]) == Fraction(1, 2)
    assert SUPPLY["retreat"]["supply_after"] == 0


# §6.2 as printed: mode -> (MECH MOVE, INF MOVE, DEFENSE, MAX SUPPLY LEVEL)
SECTION_6_2 = {
    "static": (0, 0, "1.5", 36),
    "assault": (1, 1, "1.0", 18),
    "mobile": (4, 2, "0.75", 12),
    "road": (24, 6, "0.62", 24),
}


def test_modes_of_6_2_cell_by_cell() -> None:
    """§6.2: movement rates, defence adjustments and supply caps of the four modes; keys S, A, M, R."""
    modes = MODES["mode"]
    assert list(modes) == list(SECTION_6_2)
    for name, (mech, inf, defence, cap) in SECTION_6_2.items():
        m = modes[name]
        assert (m["mech_move"], m["inf_move"], frac(m["defence"]), m["max_supply"]) == (
            mech,
            inf,
            Fraction(defence),
            cap,
        ), name
        assert m["key"] == name[0].upper()
        assert m["towed_guns"] == (name in ("static", "assault")), name  # §6.2 mobile or road: no towed artillery


def test_road_mode_of_6_2_6_3() -> None:
    """§6.2, §6.3: road mode only on a road or town, not for Germans in a minefield, never next to the enemy."""
    r = MODES["road_mode"]
    assert r["only_on"] == ["road", "town"] and r["enters_only"] == ["road", "town"]
    assert r["german_not_on_minefield"] and r["german_never_into_minefield"]
    assert r["not_adjacent_to_enemy"] and r["never_adjacent_to_enemy"]
    assert r["rain_effect"] is False  # §10.2


def test_tactical_movement_allowances_of_6_4() -> None:
    """§6.4's table (assault 1/1, mobile 4/2) agrees with §6.2's; infantry move in segments 1 and 2 only."""
    a = PLOTS["allowance"]
    assert a["assault"] == [1, 1] and a["mobile"] == [4, 2]
    for mode in ("assault", "mobile"):
        assert a[mode] == [MODES["mode"][mode]["mech_move"], MODES["mode"][mode]["inf_move"]]
    assert a["infantry_segments"] == [1, 2] and a["mechanized_segments"] == [1, 2, 3, 4]
    assert a["modes"] == ["assault", "mobile"]


def test_plot_syntax_of_6_4_to_6_7() -> None:
    """§6.4: 1 N ... 6 NW, 0 stay, at most 4 symbols in 4 segments; §6.5 S; §6.6 B + 1 or 2; §6.7 R + 1; §9.3 two
    groups a hex."""
    assert {k: PLOTS["symbols"][k] for k in "0123456"} == {
        "1": "N",
        "2": "NE",
        "3": "SE",
        "4": "S",
        "5": "SW",
        "6": "NW",
        "0": "stay",
    }
    assert PLOTS["symbols"]["max_length"] == 4 and PLOTS["segments"]["count"] == 4
    assert (PLOTS["attack_only"]["symbol"], PLOTS["bombard"]["symbol"], PLOTS["recon"]["symbol"]) == ("S", "B", "R")
    assert PLOTS["bombard"]["directions"] == [1, 2] and PLOTS["recon"]["directions"] == [1, 1]
    assert PLOTS["stacking"]["max_groups"] == 2
    assert set(PLOTS["examples"]) == {"0321", "0003", "111S", "2322S", "B12", "B3", "R4"}


def test_segment_order_of_9_0() -> None:
    """§9.0: airstrikes, bombardment and recon, then four segments of German move and attack, Soviet move and
    attack."""
    e = SEQUENCE["execution"]
    assert e["order"] == ["airstrikes", "bombardment_and_recon", "segment_1", "segment_2", "segment_3", "segment_4"]
    assert e["segment"] == [
        "german_movement",
        "german_attack_resolution",
        "soviet_movement",
        "soviet_attack_resolution",
    ]
    assert PLOTS["segments"]["order"] == ["german_move", "german_attack", "soviet_move", "soviet_attack"]


def test_sequence_of_play_of_3_3_to_3_5() -> None:
    """§3.3: twelve phases, Soviet first; §3.4 12 hours, AM day, PM night; §3.5 last turn 7/15/43 PM."""
    t = SEQUENCE["turn"]
    assert len(t["phases"]) == 12
    assert t["phases"][:5] == [
        "soviet_group_adjustment",
        "soviet_supply",
        "soviet_plot_and_road_movement",
        "soviet_air_missions",
        "soviet_save",
    ]
    assert [p.replace("german", "soviet") for p in t["phases"][5:10]] == t["phases"][:5]
    assert t["phases"][10:] == ["tactical_execution_and_combat", "save"]
    assert (t["hours"], t["halves"], t["last"], t["first"], t["count"]) == (
        12,
        ["AM", "PM"],
        "1943-07-15 PM",
        "1943-07-05 AM",
        22,
    )
    assert VICTORY["end"]["last_turn"] == t["last"] == OOB["scenario"]["last_turn"]
    assert VICTORY["end"]["german_may_end"] is True


def test_groups_of_4() -> None:
    """§4.1 1-5 units, IDs 1-63 and 64-127, PANZER/PZG/TANK/MECH mechanized; §4.2 6 systems, 10 men a squad;
    §4.3 units 0-4; §4.5 GE/SU, a 13 x 7 window."""
    g = SEQUENCE["groups"]
    assert (g["units_min"], g["units_max"], g["systems_max"]) == (1, 5, 6)
    assert (g["german_ids"], g["soviet_ids"]) == ([1, 63], [64, 127])
    assert g["mechanized_words"] == ["PANZER", "PZG", "TANK", "MECH"]
    assert (g["squad_men"], g["unit_numbers"]) == (10, [0, 4])
    d = SEQUENCE["display"]
    assert (d["window"], d["german_mark"], d["soviet_mark"]) == ([13, 7], "GE", "SU")


def test_air_missions_of_7_1() -> None:
    """§7.1: 5 airstrikes a side each AM turn, 4 aircraft a point, Soviet strikes next to a Soviet CG."""
    m = AIR["missions"]
    assert (m["strikes_per_turn"], m["turns"], m["aircraft_per_point"]) == (5, ["AM"], 4)
    assert m["soviet_target_adjacent_to_own_group"] and m["unassigned_fighters"] == "CAP"


def test_air_to_air_accuracy_of_9_1_cell_by_cell() -> None:
    """§9.1: German fighter 20% / 40%, Soviet fighter 10% / 40%, bomber 1% / --; flak 3%; CAP halves per strike."""
    acc = AIR["accuracy"]
    assert (acc["german_fighter"], acc["soviet_fighter"], acc["bomber"]) == ([20, 40], [10, 40], [1, -1])
    assert AIR["flak"]["loss_percent"] == 3
    assert frac(AIR["interception"]["cap_share_per_strike"]) == Fraction(1, 2)


def test_bomber_effectiveness_of_9_1_cell_by_cell() -> None:
    """§9.1: CAP 40 x1.2, 30 x1.4, 20 x1.6, 10 x1.8, 0 x2.0; 50 or more x1.0 (AMB-14: on 1 + (50-CAP)/50)."""
    b = AIR["bomber_effectiveness"]
    printed = {40: "1.2", 30: "1.4", 20: "1.6", 10: "1.8", 0: "2.0"}
    assert dict(zip(b["cap"], b["times_ten"], strict=True)) == {c: int(Fraction(x) * 10) for c, x in printed.items()}
    assert b["full_cap"] == 50
    for cap, x in printed.items():
        assert 1 + Fraction(b["full_cap"] - cap, b["full_cap"]) == Fraction(x)


def test_bombers_of_8_1() -> None:
    """§8.1: German bomber point AS 3 vs AFV, 1 vs SOFT; Soviet bombers half as effective."""
    g, s = AIR["bombers"]["german_as"], AIR["bombers"]["soviet_as"]
    assert (frac(g["afv"]), frac(g["soft"])) == (Fraction(3), Fraction(1))
    assert (frac(s["afv"]), frac(s["soft"])) == (frac(g["afv"]) / 2, frac(g["soft"]) / 2)


def test_disruption_morale_and_relief_of_8_2_8_3_8_7() -> None:
    """§8.2 cap 99, reset to 0; relief by morale % on success, half on failure; §8.7 -1 a combat, +1 below 50."""
    d = COMBAT["disruption"]
    assert (d["cap"], d["reset_each_turn"], d["stops_when_above_morale"]) == (99, 0, True)
    r = COMBAT["relief"]
    assert (frac(r["success_percent_of_morale"]), frac(r["failure_percent_of_morale"])) == (Fraction(1), Fraction(1, 2))
    m = COMBAT["morale"]
    assert (m["loss_per_assault"], m["loss_per_attacked"], m["recover_below"], m["recovery"]) == (1, 1, 50, 1)


def test_retreat_threshold_of_8_3_and_9_7() -> None:
    """§8.3 prints 89, §9.7 prints 80 (AMB-12): both are kept, the rule reads 80; §9.7 destroyed if unable, supply 0,
    mobile; never into two friendly CGs."""
    r = COMBAT["retreat"]
    assert (r["attacker_disruption_at_most"], r["attacker_disruption_at_most_8_3"]) == (80, 89)
    assert (r["destroyed_if_unable"], r["supply_after"], r["mode_after"], r["max_groups_in_hex"]) == (
        True,
        0,
        "mobile",
        2,
    )
    assert r["no_enemy_zoc_unless_friendly_in"] == ["static", "assault"]


def test_advance_and_assault_of_9_6_9_8() -> None:
    """§9.8: at most TWO attackers advance; §9.6 attackers into one hex combine, fire is simultaneous."""
    assert COMBAT["advance"]["max_groups"] == 2 and COMBAT["advance"]["failing_cancels_plot"]
    a = COMBAT["assault"]
    assert a["combine_attackers_into_same_hex"] and a["combine_defenders"] and a["simultaneous_fire"]


def test_zoc_of_8_5() -> None:
    """§8.5: the hex and its six neighbours; no depot or road-mode CG enters one."""
    z = COMBAT["zoc"]
    assert (z["radius"], z["no_entry"], z["zoc_to_zoc_draws_opportunity_fire"]) == (1, ["depot", "road mode"], True)


def test_attack_allocation_example_of_8_6() -> None:
    """§8.6: 50 INF, 25 45AT, 25 76AT: 100 targets; 50% of the attack on the INF, 25% on each AT gun."""
    a = COMBAT["allocation"]
    targets = a["example_targets"]
    n = sum(targets.values())
    assert n == 100
    assert {w: Fraction(c, n) * 100 for w, c in targets.items()} == a["example_percent"]


def test_terrain_effects_of_8_4() -> None:
    """§8.4: woods and town double defence; Soviet CGs in a minefield double; out of a gully attack halved, into a
    gully from outside doubled; §10.2 gullies become swamps, streams rivers."""
    t = TERRAIN["terrain"]
    assert {k: frac(v["defence"]) for k, v in t.items()} == {"clear": 1, "woods": 2, "town": 2, "gully": 1}
    assert (frac(t["gully"]["attack_out_of"]), frac(t["gully"]["attack_into_from_outside"])) == (
        Fraction(1, 2),
        Fraction(2),
    )
    assert frac(TERRAIN["minefield"]["soviet_defence"]) == 2
    assert TERRAIN["hexsides"]["stream_in_rain"] == "river" and t["gully"]["rain"] == "swamp"


def test_minefields_of_8_1_and_9_4() -> None:
    """§9.4: German CGs leaving (or plotting 0 in) a minefield; clearing (50 + ENGR)/180; strength 80 against AFV and
    SOFT; §8.1 all targets DS 4."""
    a, c = MINES["attack"], MINES["clearing"]
    assert (a["against"], a["trigger"], a["strength"], a["target_ds"]) == ("german", ["leave", "stay"], 80, 4)
    assert (c["base"], c["per_engineer_squad"], c["out_of"]) == (50, 1, 180)
    assert Fraction(c["base"] + 10 * c["per_engineer_squad"], c["out_of"]) == Fraction(60, 180)  # 10 ENGR squads


def test_weather_of_10() -> None:
    """§10: clear or rain, 10% a turn, decided at the start of each turn; rain disruption at most 90 a hex."""
    w = WEATHER["weather"]
    assert (w["states"], w["rain_percent"], w["decided"]) == (["clear", "rain"], 10, "start of each turn")
    r = WEATHER["rain"]
    assert (r["max_disruption_per_hex"], r["road_movement_unaffected"]) == (90, True)
    assert r["streams_become_rivers"] and r["gullies_become_swamps"]


# §11.1 as printed ("Shehlgry" is Shchigry).
SECTION_11_1 = {
    "Lgov": 10000,
    "Oboyan": 10000,
    "Kursk": 25000,
    "Shchigry": 10000,
    "Belgorod": 25000,
    "Prokhorovka": 5000,
    "Sudzha": 5000,
    "Korocha": 5000,
}


def test_town_points_of_11_1() -> None:
    """§11.1: each town's VPs; weapons score AS + DS (PZ-VI 18, 88AT 8)."""
    assert {k: v for k, v in VICTORY["towns"].items() if isinstance(v, int)} == SECTION_11_1
    for name, vp in VICTORY["weapons"]["examples"].items():
        s = WEAPONS["system"][name]
        assert s["as"] + s["ds"] == vp
    assert VICTORY["weapons"]["examples"] == {"PZ-VI": 18, "88AT": 8}


def victory_level(diff: int) -> str:
    for lo, hi, result in VICTORY["levels"]["rows"]:
        if (lo == -1 or diff >= lo) and (hi == -1 or diff <= hi):
            return str(result)
    raise AssertionError(diff)


@pytest.mark.parametrize(
    ("diff", "level"),
    [
        (-50000, "German Decisive"),
        (20000, "German Decisive"),
        (20001, "German Substantive"),
        (40000, "German Substantive"),
        (40001, "German Marginal"),
        (60000, "German Marginal"),
        (60001, "Draw"),
        (80000, "Draw"),
        (80001, "Soviet Marginal"),
        (100000, "Soviet Marginal"),
        (100001, "Soviet Substantive"),
        (120000, "Soviet Substantive"),  # AMB-16: the printed overlap at 120000 goes to the row above
        (120001, "Soviet Decisive"),
        (500000, "Soviet Decisive"),
    ],
)
def test_victory_levels_of_11_2(diff: int, level: str) -> None:
    """§11.2: Soviet VPs minus German VPs, read against the table's rows (each difference in exactly one row)."""
    assert victory_level(diff) == level
    hits = [r for r in VICTORY["levels"]["rows"] if (r[0] == -1 or diff >= r[0]) and (r[1] == -1 or diff <= r[1])]
    assert len(hits) == 1


def test_solitaire_levels_shift_soviet_reinforcements_12() -> None:
    """§12: 4 levels, 3 historical; Soviet reinforcements 2 turns earlier a level below 3, 2 later a level above; the
    German ones do not move. 69 Army (turn 7): levels 1-4 -> 3, 5, 7, 9."""
    lv = LEVELS["levels"]
    assert (lv["all"], lv["historical"], LEVELS["reinforcements"]["turns_per_level"]) == ([1, 2, 3, 4], 3, 2)
    per: int = LEVELS["reinforcements"]["turns_per_level"]
    historical: int = lv["historical"]

    def arrival(listed: int, level: int) -> int:
        earliest: int = LEVELS["reinforcements"]["earliest_turn"]
        return max(earliest, listed - per * (historical - level))

    assert [arrival(7, lv_) for lv_ in (1, 2, 3, 4)] == [3, 5, 7, 9]
    assert [arrival(6, lv_) for lv_ in (1, 2, 3, 4)] == [2, 4, 6, 8]
    assert LEVELS["reinforcements"]["side"] == "soviet"
    assert lv["changeable_on_reload"] and lv["usable_as_handicap"] and lv["computer_side"] == "soviet"
    assert LEVELS["options"]["players"] == ["solitaire", "two players"]  # §3.1


def test_minefield_strength_by_level_is_a_reading_12() -> None:
    """§12: lower levels make the minefields more effective (amount unstated): level 3 is §9.4's 80."""
    m = MINES["levels"]
    assert m["reading"] is True and m["historical_level"] == 3
    strengths = [MINES["attack"]["strength"] + m["strength_per_level_below"] * (3 - lv) for lv in (1, 2, 3, 4)]
    assert strengths[2] == 80 and strengths == sorted(strengths, reverse=True)


def test_every_reading_is_marked() -> None:
    """Numbers the manual does not give (AMB-n readings) say so in their table, so none passes for the manual's."""
    readings = [
        WEAPONS["i_defensive_bonus"],
        FIRE["recon"],
        AIR["bomber_effectiveness"],
        AIR["pools"],
        COMBAT["formula"],
        COMBAT["disruption"],
        COMBAT["relief"],
        COMBAT["retreat"],
        TERRAIN["minefield"],
        TERRAIN["modifiers"],
        MINES["attack"],
        MINES["levels"],
        WEATHER["rain"],
        SUPPLY["depot"],
        SUPPLY["distribution"],
        SEQUENCE["turn"],
        SEQUENCE["execution"],
        PLOTS["attack_only"],
    ]
    for table in readings:
        assert table.get("reading") is True or table.get("interpolate") is True, table
