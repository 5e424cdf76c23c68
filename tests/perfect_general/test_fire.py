"""Direct fire (PG p.27-29), return fire (p.13, p.29) and passing fire (p.14)."""

import pytest

from grognard.engine import IllegalDecision
from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.combat import shot_chance
from grognard.rulesets.perfect_general.state import Phase
from grognard.rulesets.perfect_general.tables import load_tables

# shared/reference/perfect-general-units.md, maximum direct-fire range, firer row, target column (the sequel's)
REFERENCE_RANGE = """
INF       5   5   5   1   1   1   1   1   5   5
ENG       5   5   5   1   1   1   1   1   5   5
BAZ       8   8   8   8   6   4   2   6   8   8
AC        6   6   6   6   3   1   0   3   6   6
LTANK     8   8   8   8   6   4   2   6   8   8
MTANK    10  10  10  10   8   6   5   8  10  10
HTANK    13  13  13  13  11   8   6  11  13  13
MobART   13  13  13  13  11   8   6  11  13  13
LART     13  13  13  13  11   8   6  11  13  13
HART     13  13  13  13  11   8   6  11  13  13
"""
ORDER = [
    "infantry",
    "engineer",
    "bazooka",
    "armored_car",
    "light_tank",
    "medium_tank",
    "heavy_tank",
    "mobile_artillery",
    "light_artillery",
    "heavy_artillery",
]


# the cells where the 1991 manual's sentence wins over the sequel: a heavy tank reaches "eight to thirteen
# depending on its target" (p.2), and mobile artillery fires "with the effectiveness of a heavy tank" (p.20)
MANUAL_RANGE = {("heavy_tank", "heavy_tank"): 8, ("mobile_artillery", "heavy_tank"): 8}


def test_range_table_matches_the_reference_cell_by_cell_but_where_the_manual_says_otherwise():
    t = load_tables()
    for firer, line in zip(ORDER, REFERENCE_RANGE.strip().splitlines(), strict=True):
        values = [MANUAL_RANGE.get((firer, target), int(v)) for target, v in zip(ORDER, line.split()[1:], strict=True)]
        assert [t.max_range[(firer, target)] for target in ORDER] == values, firer


def test_manual_range_facts_p2_p20_p21():
    t = load_tables()
    assert t.max_range[("armored_car", "armored_car")] == 6  # p.2
    assert t.max_range[("armored_car", "medium_tank")] == 1  # p.2
    assert t.max_range[("light_tank", "heavy_tank")] == 2  # p.20
    assert all(8 <= t.max_range[("heavy_tank", x)] <= 13 for x in ORDER)  # p.2
    assert all(t.max_range[("infantry", a)] == 1 for a in ("armored_car", "light_tank", "medium_tank", "heavy_tank"))
    assert all(t.max_range[("bazooka", x)] == t.max_range[("light_tank", x)] for x in ORDER)  # p.21
    assert all(t.max_range[("mobile_artillery", x)] == t.max_range[("heavy_tank", x)] for x in ORDER)  # p.20


def test_hit_chance_by_range_from_the_table_p3(field):
    f = field([("attacker", "medium_tank", "1,10"), ("defender", "infantry", "1,7")])
    assert shot_chance(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == 71  # armor gun vs infantry at 3


def test_defensive_terrain_lowers_the_chance_p23_p24(field):
    f = field([("attacker", "medium_tank", "8,6"), ("defender", "infantry", "8,9")])  # target in a wood
    assert shot_chance(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == 71 * 75 // 100


def test_higher_firer_hits_better_and_reaches_one_hex_further_p23(field):
    # hill at 6,7; infantry vs infantry reaches 5, 6 from higher ground
    f = field([("attacker", "infantry", "6,7"), ("defender", "infantry", "6,1"), ("defender", "infantry", "6,2")])
    far = shot_chance(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1"))
    near = shot_chance(f.rules.ctx, f.state, f.unit("a1"), f.unit("d2"))
    assert far == 10 * 125 // 100  # range 6 only thanks to the altitude
    assert near == 20 * 125 // 100
    low = field([("attacker", "infantry", "6,8"), ("defender", "infantry", "6,2")])
    assert shot_chance(low.rules.ctx, low.state, low.unit("a1"), low.unit("d1")) is None


def test_target_on_higher_ground_is_harder_to_hit_p23(field):
    f = field([("attacker", "medium_tank", "6,9"), ("defender", "infantry", "6,7")])
    assert shot_chance(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == 80 * 75 // 100


def test_a_unit_fires_once_a_turn_p28b(field):
    f = field(
        [
            ("attacker", "medium_tank", "8,6", {"fired": True}),
            ("defender", "infantry", "8,4", {"spotted": True}),
            ("attacker", "medium_tank", "10,6"),
        ]
    )
    with pytest.raises(IllegalDecision, match=r"p\.28 b"):
        f.apply("attacker", D.Fire("a1", "d1"))


def test_artillery_that_plotted_cannot_fire_direct_p29e(field):
    f = field(
        [
            ("attacker", "light_artillery", "8,6", {"plotted": True}),
            ("defender", "infantry", "8,4", {"spotted": True}),
            ("attacker", "medium_tank", "10,6"),
        ]
    )
    with pytest.raises(IllegalDecision, match=r"p\.29 e"):
        f.apply("attacker", D.Fire("a1", "d1"))


def test_transported_units_cannot_fire_p27b_p29f(field):
    f = field(
        [
            ("attacker", "infantry", "8,6", {"unloaded": True}),
            ("defender", "infantry", "8,4", {"spotted": True}),
            ("attacker", "medium_tank", "10,6"),
        ]
    )
    with pytest.raises(IllegalDecision, match=r"p\.29 f"):
        f.apply("attacker", D.Fire("a1", "d1"))


def test_no_direct_fire_at_night_the_phase_passes_p29g(field):
    f = field([("attacker", "medium_tank", "8,6"), ("defender", "infantry", "8,5", {"spotted": True})], turn=3)
    assert not f.legal("attacker").of_kind("fire")
    with pytest.raises(IllegalDecision, match=r"p\.29 g"):
        f.apply("attacker", D.Fire("a1", "d1"))


def test_out_of_range_and_out_of_sight_are_refused_with_their_rule_p28ac(field):
    f = field(
        [
            ("attacker", "infantry", "1,10"),
            ("defender", "infantry", "1,1", {"spotted": True}),
            ("defender", "infantry", "8,6", {"spotted": True}),
            ("attacker", "infantry", "8,10"),
        ]
    )
    with pytest.raises(IllegalDecision, match=r"p\.28 a"):
        f.apply("attacker", D.Fire("a1", "d1"))
    with pytest.raises(IllegalDecision, match=r"p\.28 c"):  # the wood at 8,9 blocks the line from 8,10
        f.apply("attacker", D.Fire("a2", "d2"))


def test_always_hit_rule_hits_whatever_the_chance_p3(field):
    for seed in range(10):
        f = field(
            [
                ("attacker", "infantry", "1,10"),
                ("defender", "infantry", "1,6", {"spotted": True, "fired": True}),
                ("attacker", "medium_tank", "3,10"),
            ],
            hit="always",
            seed=seed,
        )
        f.apply("attacker", D.Fire("a1", "d1"))  # a 35% shot
        assert f.state.find("d1") is None


def test_random_hit_frequency_follows_the_chance_p3(field):
    hits = 0
    for seed in range(300):
        f = field(
            [
                ("attacker", "infantry", "1,10"),
                ("defender", "infantry", "1,6", {"spotted": True, "fired": True}),
                ("attacker", "medium_tank", "3,10"),
            ],
            seed=seed,
        )
        f.apply("attacker", D.Fire("a1", "d1"))
        hits += f.state.find("d1") is None
    assert abs(hits / 300 - 0.35) < 0.09  # 35%, about 3 standard deviations of tolerance


def test_partial_kill_takes_damage_per_hit_and_destroys_at_zero_p3(field):
    f = field(
        [
            ("attacker", "medium_tank", "1,10"),
            ("defender", "heavy_tank", "1,8", {"spotted": True, "fired": True}),
            ("attacker", "medium_tank", "3,10"),
        ],
        hit="always",
        kill="partial",
    )
    f.apply("attacker", D.Fire("a1", "d1"))
    assert f.unit("d1").hp == 15 - 4
    g = field(
        [
            ("attacker", "heavy_tank", "1,10"),
            ("defender", "medium_tank", "1,8", {"spotted": True, "fired": True, "hp": 5}),
            ("attacker", "medium_tank", "3,10"),
        ],
        hit="always",
        kill="partial",
    )
    g.apply("attacker", D.Fire("a1", "d1"))
    assert g.state.find("d1") is None


def test_best_target_is_preselected_with_its_chance_p12(field):
    f = field(
        [
            ("attacker", "medium_tank", "5,10"),
            ("defender", "infantry", "5,8", {"spotted": True}),
            ("defender", "infantry", "5,4", {"spotted": True}),
        ]
    )
    legal = f.legal("attacker")
    assert legal.suggested == D.Fire("a1", "d1")
    assert legal.info["chances"]["a1"] == {"d1": 80, "d2": 50}  # ranges 2 and 6


def test_ignore_unit_this_phase_and_next_unit_p13(field):
    f = field(
        [
            ("attacker", "medium_tank", "5,10"),
            ("attacker", "medium_tank", "6,10"),
            ("defender", "heavy_tank", "5,8", {"spotted": True, "fired": True}),
        ]
    )
    assert f.legal("attacker").suggested.unit == "a1"
    f.apply("attacker", D.NextUnit())
    assert f.legal("attacker").suggested.unit == "a2"
    f.apply("attacker", D.Ignore("a2"))
    legal = f.legal("attacker")
    assert D.Fire("a2", "d1") not in legal and D.Fire("a1", "d1") in legal
    assert not f.unit("a2").fired  # its shot is saved for later


# --- return fire ------------------------------------------------------------------------------------------
def _duel(field, **kw):
    return field(
        [
            ("attacker", "medium_tank", "5,10", {"spotted": True}),
            ("defender", "medium_tank", "5,6", {"spotted": True}),
            ("attacker", "medium_tank", "3,10", {"spotted": True}),
        ],
        **kw,
    )


def test_target_that_has_not_fired_is_offered_return_fire_at_any_eligible_enemy_p13_p29(field):
    f = _duel(field, hit="always", kill="partial")
    f.apply("attacker", D.Fire("a1", "d1"))
    assert f.game.turn().seat == "defender"
    legal = f.legal("defender")
    assert D.ReturnFire("d1", "a1") in legal and D.ReturnFire("d1", "a2") in legal and D.HoldFire() in legal


def test_return_fire_resolves_before_the_original_shot_p29(field):
    f = _duel(field, hit="always", kill="full")
    f.apply("attacker", D.Fire("a1", "d1"))
    events = f.apply("defender", D.ReturnFire("d1", "a1"))
    shots = [e for e in events if e.kind == "shot"]
    assert shots[0].data["fire"] == "return" and shots[0].data["firer"] == "d1"
    assert f.state.find("a1") is None  # destroyed by the return shot
    assert f.state.find("d1") is not None  # so its own shot never came


def test_return_fire_at_another_unit_still_takes_the_original_shot_p29(field):
    f = _duel(field, hit="always", kill="full")
    f.apply("attacker", D.Fire("a1", "d1"))
    f.apply("defender", D.ReturnFire("d1", "a2"))
    assert f.state.find("a2") is None and f.state.find("d1") is None


def test_no_return_fire_for_a_unit_that_has_fired_p13(field):
    f = field(
        [
            ("attacker", "medium_tank", "5,10", {"spotted": True}),
            ("defender", "medium_tank", "5,6", {"spotted": True, "fired": True}),
            ("attacker", "medium_tank", "8,10"),
        ],
        hit="always",
        kill="partial",
    )
    f.apply("attacker", D.Fire("a1", "d1"))
    assert f.game.turn().seat == "attacker"  # no offer; the shot resolved at once


def test_no_return_fire_at_an_unseen_firer_ambush_p33(field):
    f = field(
        [
            ("attacker", "medium_tank", "8,9"),
            ("defender", "medium_tank", "8,6", {"spotted": True}),
            ("attacker", "medium_tank", "10,9"),
        ],
        hit="always",
        kill="partial",
    )
    f.apply("attacker", D.Fire("a1", "d1"))  # from the wood, unspotted: no eligible target to return fire at
    assert f.game.turn().seat == "attacker"
    seen = [e for e in f.game.events if e.kind == "shot" and e.seen_by == ("defender",)]
    assert seen and seen[0].data["firer"] is None


# --- passing fire -----------------------------------------------------------------------------------------
def test_passing_fire_is_offered_hex_by_hex_to_unfired_units_in_range_and_sight_p14(field):
    f = field(
        [
            ("attacker", "armored_car", "2,10"),
            ("defender", "medium_tank", "2,4"),
            ("defender", "medium_tank", "9,1", {"fired": True}),
            ("attacker", "infantry", "13,10"),
        ],
        phase=Phase.MOVEMENT,
        hit="always",
        kill="partial",
    )
    f.apply("attacker", D.Move("a1", f.cell("2,7")))
    assert f.game.turn().seat == "defender"
    legal = f.legal("defender")
    assert D.PassingFire("a1", "d1") in legal and D.PassingFire("a1", "d2") not in legal
    assert not legal.of_kind("return_fire")
    f.apply("defender", D.HoldFire())
    assert f.game.turn().seat == "defender"  # offered again at the next location
    f.apply("defender", D.PassingFire("a1", "d1"))
    assert f.unit("d1").fired and f.state.find("a1") is None  # 4 damage against 3 hit points


def test_no_return_fire_against_passing_fire_p14(field):
    f = field(
        [("attacker", "medium_tank", "2,10"), ("defender", "medium_tank", "2,4"), ("attacker", "infantry", "13,10")],
        phase=Phase.MOVEMENT,
        hit="always",
        kill="partial",
    )
    f.apply("attacker", D.Move("a1", f.cell("2,9")))
    f.apply("defender", D.PassingFire("a1", "d1"))
    assert not f.unit("a1").fired  # the moving unit did not shoot back


def test_no_passing_fire_at_night_p29g(field):
    f = field(
        [
            ("attacker", "armored_car", "2,10", {"spotted": True}),
            ("defender", "medium_tank", "2,4", {"spotted": True}),
            ("attacker", "infantry", "13,10"),
        ],
        phase=Phase.MOVEMENT,
        turn=3,
    )
    f.apply("attacker", D.Move("a1", f.cell("2,8")))
    assert f.state.offer is None and f.unit("a1").cell == f.cell("2,8")


def test_a_return_shot_is_not_answered_by_another_return_shot_p29(field):
    """Decision: the unit a return shot is aimed at does not fire back in its turn (the manual offers return
    fire to "the target of direct fire", and a chain of answers would never end)."""
    f = _duel(field, hit="always", kill="partial")
    f.apply("attacker", D.Fire("a1", "d1"))
    f.apply("defender", D.ReturnFire("d1", "a2"))  # a2 has not fired and could reach d1
    assert f.state.offer is None and not f.unit("a2").fired


def test_forest_rubble_gives_no_defensive_advantage_town_rubble_keeps_it_p23_p24(field):
    """p.23: forest rubble "no longer gives a defensive advantage"; p.24 says nothing of the town's rubble
    losing its cover (decision: it keeps it; docs/rules/perfect-general.md)."""
    f = field([("attacker", "medium_tank", "8,6"), ("defender", "infantry", "8,9")])  # the target in a wood
    assert shot_chance(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == 71 * 75 // 100
    f.set(terrain=((f.cell("8,9"), "forest_rubble"),))
    assert shot_chance(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == 71
    f.set(terrain=((f.cell("8,9"), "town_rubble"),))
    assert shot_chance(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == 71 * 75 // 100
