"""The order of battle (§13), the division contents (§14), start positions and reinforcements (§3.2, §12, §13)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from grognard.engine.maps import GameMap, read_data

DATA = Path(__file__).parents[2] / "src/grognard/rulesets/kursk/data"


def data(name: str) -> Any:
    return read_data(DATA / name)


DIV = data("divisions.toml")
OOB = data("oob.toml")
WEAPONS = data("weapons.toml")["system"]
DIVISIONS: list[dict[str, Any]] = OOB["division"]

# §14 as printed: type -> (morale, AFV, guns, INF)
SECTION_14 = {
    "PZG": (90, 246, 222, 382),
    "SS PZG": (90, 220, 222, 370),
    "PZ": (80, 172, 174, 306),
    "INF": (70, 0, 222, 438),
    "GDS MECH": (90, 261, 278, 566),
    "GDS TANK": (85, 250, 166, 302),
    "MECH": (80, 240, 278, 554),
    "TANK": (75, 250, 166, 302),
    "GDS RIFLE": (75, 0, 192, 514),
    "RIFLE": (65, 0, 156, 460),
    "ARTILLERY": (50, 0, 356, 0),
}

# §13 as printed, one entry per division (40 Army's second "142" read 143, 1 Tank Army's "3,6" read 31, 6):
# designation -> (side, template type of §14, arrival turn or 0 at start, entry letter or "")
SECTION_13 = {
    "57 INF": ("german", "INF", 0, ""),
    "255 INF": ("german", "INF", 0, ""),
    "332 INF": ("german", "INF", 0, ""),
    "3 PANZER": ("german", "PZ", 0, ""),
    "11 PANZER": ("german", "PZ", 0, ""),
    "GD PZG": ("german", "PZG", 0, ""),
    "167 INF": ("german", "INF", 0, ""),
    "106 INF": ("german", "INF", 0, ""),
    "320 INF": ("german", "INF", 0, ""),
    "LAH SS PZG": ("german", "SS PZG", 0, ""),
    "DR SS PZG": ("german", "SS PZG", 0, ""),
    "TOT SS PZG": ("german", "SS PZG", 0, ""),
    "6 PANZER": ("german", "PZ", 0, ""),
    "7 PANZER": ("german", "PZ", 0, ""),
    "19 PANZER": ("german", "PZ", 0, ""),
    "168 INF": ("german", "INF", 0, ""),
    "WIK SS PZG": ("german", "SS PZG", 8, "E"),
    "23 PANZER": ("german", "PZ", 10, "E"),
    "16 PZG": ("german", "PZG", 12, "E"),
    **{f"{n} RIFLE": ("soviet", "RIFLE", 0, "") for n in (141, 142, 143, 144, 145, 146, 309)},
    "40 ARMY ART": ("soviet", "ARTILLERY", 0, ""),
    **{f"{n} GDS RIFLE": ("soviet", "GDS RIFLE", 0, "") for n in (66, 67, 68, 69, 70, 71, 89)},
    "6 GDS ARMY ART": ("soviet", "ARTILLERY", 0, ""),
    **{f"{n} GDS RIFLE": ("soviet", "GDS RIFLE", 0, "") for n in (72, 73, 74, 75, 76, 77)},
    "213 RIFLE": ("soviet", "RIFLE", 0, ""),
    "7 GDS ARMY ART": ("soviet", "ARTILLERY", 0, ""),
    "3 MECH": ("soviet", "MECH", 0, ""),
    "6 TANK": ("soviet", "TANK", 0, ""),
    "31 TANK": ("soviet", "TANK", 0, ""),
    **{f"{n} GDS RIFLE": ("soviet", "GDS RIFLE", 0, "") for n in (105, 106, 108)},
    "VOR FRONT ART": ("soviet", "ARTILLERY", 0, ""),
    **{f"{n} RIFLE": ("soviet", "RIFLE", 7, "D") for n in (107, 111, 183, 270, 305)},
    "2 GDS TANK": ("soviet", "GDS TANK", 6, "D"),
    "4 GDS TANK": ("soviet", "GDS TANK", 6, "B"),
    "5 GDS TANK": ("soviet", "GDS TANK", 6, "C"),
    "5 GDS MECH": ("soviet", "GDS MECH", 6, "B"),
    "18 TANK": ("soviet", "TANK", 6, "A"),
    "29 TANK": ("soviet", "TANK", 6, "C"),
}

AFV_CLASS = {name for name, w in WEAPONS.items() if w["ds"] > 3}  # §8.1: DS > 3 is an AFV target
INFANTRY = {"INF", "ENGR"}


def groups_of(template: str) -> list[list[dict[str, Any]]]:
    t = DIV["templates"][template]
    groups: list[list[dict[str, Any]]] = DIV["templates"][t["same_as"]]["groups"] if "same_as" in t else t["groups"]
    return groups


def classes(weapons: dict[str, int]) -> tuple[int, int, int]:
    """AFV, guns, INF squads as §14 counts them."""
    afv = sum(n for w, n in weapons.items() if w in AFV_CLASS)
    inf = sum(n for w, n in weapons.items() if w in INFANTRY)
    return afv, sum(weapons.values()) - afv - inf, inf


def total(groups: list[list[dict[str, Any]]], strength: int = 100) -> Counter[str]:
    out: Counter[str] = Counter()
    for g in groups:
        for u in g:
            for w, n in u["weapons"].items():
                out[w] += (n * strength + 50) // 100
    return out


def test_section_14_is_typed_as_printed() -> None:
    """§14: morale, AFV, guns and INF of each standard division."""
    assert {k: tuple(v) for k, v in DIV["standard"].items()} == SECTION_14


@pytest.mark.parametrize("template", sorted(DIV["templates"]))
def test_each_template_adds_up_to_its_section_14_row(template: str) -> None:
    """§14: a full-strength division holds exactly its row's AFV, guns and infantry squads."""
    t = DIV["templates"][template]
    _, afv, guns, inf = SECTION_14[t["type"]]
    assert classes(dict(total(groups_of(template)))) == (afv, guns, inf)


@pytest.mark.parametrize("template", sorted(DIV["templates"]))
def test_groups_of_1_to_5_units_of_up_to_6_weapon_systems(template: str) -> None:
    """§4.1: a CG holds 1 to 5 CUs; §4.2: a CU up to 6 weapon systems, each one of §8.1's."""
    for g in groups_of(template):
        assert 1 <= len(g) <= 5
        for u in g:
            assert 1 <= len(u["weapons"]) <= 6, u
            assert set(u["weapons"]) <= set(WEAPONS), u
            assert all(n > 0 for n in u["weapons"].values()), u


def test_the_manuals_two_example_units_are_in_the_templates() -> None:
    """§4.2's examples: TANK BDE 65 T-34 12 INF; ARM INF RGT 122 INF 16 50AT 4 75AT 8 75H 2 105M 12 81M (105M read
    105H, AMB-3)."""
    units = [u for t in DIV["templates"].values() if "groups" in t for g in t["groups"] for u in g]
    assert {"name": "TANK BDE", "weapons": {"T-34": 65, "INF": 12}} in units
    arm = {"INF": 122, "50AT": 16, "75AT": 4, "75H": 8, "105H": 2, "81M": 12}
    assert {"name": "ARM INF RGT", "weapons": arm} in units


def test_no_anachronisms_in_the_mixes() -> None:
    """SU-85 and JPZ-IV did not exist in July 1943 (reference): §8.1 lists them, no division holds them."""
    for name in DIV["templates"]:
        assert not {"SU-85", "JPZ-IV"} & set(total(groups_of(name)))


def test_every_division_of_section_13_once() -> None:
    """§13: every formation, on its side, of its §14 type, arriving when and where §13 says (level 3)."""
    got = {
        d["designation"]: (d["side"], DIV["templates"][d["template"]]["type"], d.get("arrives", 0), d.get("entry", ""))
        for d in DIVISIONS
    }
    assert len(got) == len(DIVISIONS)
    assert got == SECTION_13


def test_designations_make_mechanized_groups_as_4_1_says() -> None:
    """§4.1: designations with PANZER, PZG, TANK or MECH are mechanized; the type agrees."""
    mech_types = {"PZG", "SS PZG", "PZ", "GDS MECH", "GDS TANK", "MECH", "TANK"}
    for d in DIVISIONS:
        words = d["designation"].split()
        mechanized = any(w in ("PANZER", "PZG", "TANK", "MECH") for w in words)
        assert mechanized == (DIV["templates"][d["template"]]["type"] in mech_types), d["designation"]


def test_group_ids_unique_and_in_each_sides_range() -> None:
    """§4.1: IDs 1-63 German, 64-127 Soviet, never two groups with one ID; LAH holds group 3 (the example)."""
    seen: list[int] = []
    for d in DIVISIONS:
        lo, hi = (1, 63) if d["side"] == "german" else (64, 127)
        assert all(lo <= g <= hi for g in d["groups"]), d["designation"]
        assert len(d["groups"]) == len(groups_of(d["template"])), d["designation"]
        seen.extend(d["groups"])
    assert len(seen) == len(set(seen))
    lah = next(d for d in DIVISIONS if d["designation"] == "LAH SS PZG")
    assert 3 in lah["groups"]


def test_strengths_follow_the_section_14_footnotes() -> None:
    """§14 *, **: only German reinforcements and Soviet formations are understrength, never above 100% nor below
    50% ("as much as 50%")."""
    for d in DIVISIONS:
        assert 50 <= d["strength"] <= 100 and d["strength_source"], d["designation"]
        if d["side"] == "german" and "arrives" not in d:
            assert d["strength"] == 100, d["designation"]


def test_german_totals_at_the_start() -> None:
    """§13, §14: the Germans start with 3 SS PZG, GD PZG, 5 PZ and 7 INF divisions at full strength:
    AFV 3*220 + 246 + 5*172 = 1766, guns 3*222 + 222 + 5*174 + 7*222 = 3312, squads 3*370 + 382 + 5*306 + 7*438 =
    6088."""
    sums: Counter[str] = Counter()
    for d in DIVISIONS:
        if d["side"] == "german" and "arrives" not in d:
            sums.update(total(groups_of(d["template"]), d["strength"]))
    assert classes(dict(sums)) == (1766, 3312, 6088)


def test_soviet_totals_at_the_start_at_full_strength() -> None:
    """§13, §14: at full strength the Soviets would start with 8 RIFLE, 16 GDS RIFLE, 1 MECH, 2 TANK
    and 4 ARTILLERY: AFV 240 + 2*250 = 740, guns 8*156 + 16*192 + 278 + 2*166 + 4*356 = 6354, squads 8*460 +
    16*514 + 554 + 2*302 = 13062."""
    sums: Counter[str] = Counter()
    for d in DIVISIONS:
        if d["side"] == "soviet" and "arrives" not in d:
            sums.update(total(groups_of(d["template"])))
    assert classes(dict(sums)) == (740, 6354, 13062)


def test_each_division_holds_its_strength_of_its_section_14_row() -> None:
    """§14 and its footnotes: a division at s% holds s% of its row, within the rounding of each weapon count."""
    for d in DIVISIONS:
        groups = groups_of(d["template"])
        _, *row = SECTION_14[DIV["templates"][d["template"]]["type"]]
        got = classes(dict(total(groups, d["strength"])))
        slack = sum(len(u["weapons"]) for g in groups for u in g)  # at most half a weapon each way per count
        for have, full in zip(got, row, strict=True):
            assert abs(have * 100 - full * d["strength"]) <= 50 * slack, d["designation"]


def test_start_positions_one_hex_per_group_two_groups_a_hex(kursk_map: GameMap) -> None:
    """§3.2: every group at start has a hex; §9.3, §9.7: never more than two groups a hex, never both sides."""
    side_at: dict[int, set[str]] = {}
    count: Counter[int] = Counter()
    for d in DIVISIONS:
        if "arrives" in d:
            assert "start" not in d and d["entry"] in "ABCDE"
            continue
        assert len(d["start"]) == len(d["groups"]), d["designation"]
        for label in d["start"]:
            c = kursk_map.grid.parse(label)
            count[c] += 1
            side_at.setdefault(c, set()).add(d["side"])
    assert max(count.values()) <= 2
    assert all(len(s) == 1 for s in side_at.values())


def test_germans_start_south_of_the_first_belt_soviets_on_and_behind_it(kursk_map: GameMap) -> None:
    """Reference (c): the first belt is Soviet; no German group starts in a belt or a minefield; Belgorod German."""
    belts = kursk_map.region("belt_1") | kursk_map.region("belt_2") | kursk_map.region("belt_3")
    for d in DIVISIONS:
        for label in d.get("start", []):
            c = kursk_map.grid.parse(label)
            if d["side"] == "german":
                assert c not in belts and not kursk_map.has("minefield", c), (d["designation"], label)
    belgorod = kursk_map.grid.label(kursk_map.place("Belgorod").cells[0])
    assert any(belgorod in d.get("start", []) and d["side"] == "german" for d in DIVISIONS)
    first_echelon = {"66 GDS RIFLE", "67 GDS RIFLE", "68 GDS RIFLE", "71 GDS RIFLE"}
    for d in DIVISIONS:
        if d["designation"] in first_echelon:
            assert kursk_map.grid.parse(d["start"][0]) in kursk_map.region("belt_1"), d["designation"]


def test_reinforcements_enter_on_a_map_entry_of_their_side(kursk_map: GameMap) -> None:
    """§13's letters: E German (south-edge roads), A-D Soviet (east-edge roads); each letter is a map region."""
    for d in DIVISIONS:
        if "arrives" in d:
            cells = kursk_map.region(f"entry_{d['entry']}")
            edge = "german_depot_entry" if d["side"] == "german" else "soviet_depot_entry"
            assert cells and cells <= kursk_map.region(edge), d["designation"]
