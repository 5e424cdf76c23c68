"""The unit table and the hit table, cell by cell (PG p.19-22, Appendix B as recovered in
shared/reference/perfect-general-units.md), with the 1991 manual's own statements where they differ from the
sequel's figures (p.20-21)."""

import pytest

from grognard.rulesets.perfect_general.combat import shot_chance
from grognard.rulesets.perfect_general.tables import load_tables

# The reference's per-unit table: cost, move (1991 manual), indirect range, hit points, damage per hit, attack
# style, defense style. Where the 1991 manual's text differs from the sequel it wins: the engineer and the bazooka
# (below), and heavy artillery's indirect range, 27 for the sequel's 26 ("more than twice", p.22).
UNITS = """
infantry          1  1   0   3  2  infantry  infantry
engineer          5  1   0   3  2  infantry  infantry
bazooka           3  1   0   3  3  armor     infantry
armored_car       5  9   0   3  2  armor     armored_car
light_tank        6  6   0   6  3  armor     armor
medium_tank       8  5   0   8  4  armor     armor
heavy_tank       12  4   0  15  6  armor     armor
mobile_artillery 14  4  11   6  6  armor     armor
light_artillery   9  0  13   1  6  armor     infantry
heavy_artillery  20  0  27   1  6  armor     infantry
"""

# Chance to hit (%) by range 1, 2, 3 ..., firer's attack style against target's defense style (the reference's
# "Armor gun" and "Infantry gun" columns; a shot is possible only within the range table).
HIT = {
    ("armor", "armor"): "90 80 71 63 56 50 45 40 35 32 28 25 22 19 16",
    ("armor", "armored_car"): "90 80 71 63 56 50 45 40 35 32 28 25 22 19 17 15 13 11",
    ("armor", "infantry"): "90 80 71 63 56 50 45 40 35 32 28 25 22 19 17 15 13 11",
    ("infantry", "armor"): "20 20 20",
    ("infantry", "armored_car"): "20 20 20",
    ("infantry", "infantry"): "75 65 50 35 20 10 5",
}


@pytest.mark.parametrize("line", [ln for ln in UNITS.strip().splitlines()], ids=lambda ln: ln.split()[0])
def test_unit_table_cell_by_cell_p19_p22(line):
    name, cost, move, indirect, hp, damage, attack, defense = line.split()
    u = load_tables().units[name]
    assert (u.cost, u.move, u.indirect_range, u.hit_points, u.damage, u.attack, u.defense) == (
        int(cost),
        int(move),
        int(indirect),
        int(hp),
        int(damage),
        attack,
        defense,
    )


def test_mine_costs_3_and_is_bought_like_a_unit_p22():
    mine = load_tables().units["mine"]
    assert mine.cost == 3 and mine.has("mine")


def test_engineer_has_the_attributes_of_infantry_except_cost_p21():
    t = load_tables()
    eng, inf = t.units["engineer"], t.units["infantry"]
    same = ("move", "hit_points", "damage", "attack", "defense")
    assert [getattr(eng, a) for a in same] == [getattr(inf, a) for a in same]
    assert eng.cost != inf.cost
    assert all(t.max_range[("engineer", x)] == t.max_range[("infantry", x)] for x in t.units if x != "mine")
    assert all(t.assault[(a, "engineer")] == t.assault[(a, "infantry")] for a in ("armored_car", "heavy_tank"))


def test_bazooka_moves_and_defends_as_infantry_and_fires_as_a_light_tank_p21():
    t = load_tables()
    bz, inf, lt = t.units["bazooka"], t.units["infantry"], t.units["light_tank"]
    assert (bz.move, bz.hit_points, bz.defense) == (inf.move, inf.hit_points, inf.defense)
    assert (bz.attack, bz.damage) == (lt.attack, lt.damage)
    assert all(t.max_range[("bazooka", x)] == t.max_range[("light_tank", x)] for x in t.units if x != "mine")


def test_mobile_artillery_fires_as_a_heavy_tank_and_defends_as_a_light_tank_p20():
    t = load_tables()
    ma, ht, lt = t.units["mobile_artillery"], t.units["heavy_tank"], t.units["light_tank"]
    assert (ma.attack, ma.damage) == (ht.attack, ht.damage)
    assert all(t.max_range[("mobile_artillery", x)] == t.max_range[("heavy_tank", x)] for x in t.units if x != "mine")
    assert (ma.hit_points, ma.defense) == (lt.hit_points, lt.defense)
    for a in ("armored_car", "light_tank", "medium_tank", "heavy_tank"):
        assert t.assault[(a, "mobile_artillery")] == t.assault[(a, "light_tank")]


def test_artillery_cannot_move_alone_p21():
    t = load_tables()
    for art in ("light_artillery", "heavy_artillery"):
        u = t.units[art]
        assert u.move == 0 and u.has("cargo")


def test_heavy_artillery_reaches_more_than_twice_as_far_and_barrages_wider_p22():
    t = load_tables()
    la, ha = t.units["light_artillery"], t.units["heavy_artillery"]
    assert ha.indirect_range > 2 * la.indirect_range  # "more than twice the range of the Light Artillery"
    assert ha.has("wide_barrage") and not la.has("wide_barrage") and la.has("barrage")
    assert not t.units["mobile_artillery"].has("barrage")  # p.29


def test_heavy_tank_has_a_maximum_range_of_eight_to_thirteen_depending_on_its_target_p2():
    t = load_tables()
    ranges = {x: t.max_range[("heavy_tank", x)] for x in t.units if x != "mine"}
    assert all(8 <= r <= 13 for r in ranges.values()), ranges
    assert min(ranges.values()) == 8 and max(ranges.values()) == 13  # both ends of the sentence are reached


def _one_shot_kill_chances(field, kill, hit, target):
    """For each firer type and range on open level ground (row 1 of the test field), the chance that one direct
    shot destroys ``target``: the chance to hit, times whether a hit destroys under the kill rule (p.3)."""
    t = load_tables()
    out = {}
    for firer in (x for x in t.units if t.units[x].attack != "none"):
        for col in range(2, 15):
            f = field([("attacker", firer, f"{col},1"), ("defender", target, "1,1")], kill=kill, hit=hit)
            pct = shot_chance(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1"))
            if pct is None:
                continue
            pct = 100 if hit == "always" else pct
            fatal = kill == "full" or t.units[firer].damage >= t.units[target].hit_points
            out[(firer, col - 1)] = pct if fatal else 0
    return out


@pytest.mark.parametrize("artillery", ["light_artillery", "heavy_artillery"])
@pytest.mark.parametrize("kill", ["full", "partial"])
def test_artillery_is_more_vulnerable_than_even_an_infantry_unit_under_every_kill_option_p21(field, kill, artillery):
    # p.21: "Defensively, it is more vulnerable than even an Infantry unit"; p.22: heavy artillery has "the same
    # attributes". Under Random Hit, every shot that can destroy infantry destroys artillery at least as often,
    # and some more often; under Partial Kill its 1 hit point also makes Always Hit shots fatal that infantry
    # survives. (Under Full Kill with Always Hit every shot in range destroys any unit: no unit differs there.)
    t = load_tables()
    assert t.units[artillery].hit_points < t.units["infantry"].hit_points
    hits = ["random", "always"] if kill == "partial" else ["random"]
    for hit in hits:
        inf = _one_shot_kill_chances(field, kill, hit, "infantry")
        art = _one_shot_kill_chances(field, kill, hit, artillery)
        assert set(art) >= set(inf)  # in range wherever infantry is
        assert all(art[k] >= inf[k] for k in inf), hit
        assert any(art[k] > inf[k] for k in inf), hit
    assert all(t.assault[(a, artillery)] >= t.assault[(a, "infantry")] for a in ("armored_car", "heavy_tank"))


@pytest.mark.parametrize("styles", sorted(HIT), ids=lambda s: f"{s[0]}-vs-{s[1]}")
def test_hit_table_cell_by_cell_appendix_b(styles):
    assert load_tables().hit[styles] == tuple(int(v) for v in HIT[styles].split())


def test_no_other_hit_columns_appendix_b():
    assert set(load_tables().hit) == set(HIT)


def test_the_game_uses_the_hit_table_by_range_on_open_ground_p3(field):
    """A heavy tank at ranges 1-13 from an infantry unit in row 1 of the field: clear terrain, one height."""
    row = [int(v) for v in HIT[("armor", "infantry")].split()]
    for col in range(2, 15):
        f = field([("attacker", "heavy_tank", f"{col},1"), ("defender", "infantry", "1,1")])
        rng = f.grid.distance(f.unit("a1").cell, f.unit("d1").cell)
        assert rng == col - 1
        assert shot_chance(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == row[rng - 1]
    beyond = field([("attacker", "medium_tank", "12,1"), ("defender", "infantry", "1,1")])  # range 11 > 10
    assert shot_chance(beyond.rules.ctx, beyond.state, beyond.unit("a1"), beyond.unit("d1")) is None


def test_a_chance_after_modifiers_stays_between_1_and_95_decision(field):
    t = load_tables()
    assert (t.fire_mods.minimum, t.fire_mods.maximum) == (1, 95)
    # armour gun at range 1 from higher ground: 90 x 125% = 112, held at 95
    f = field([("attacker", "medium_tank", "6,7"), ("defender", "infantry", "6,8")])
    assert shot_chance(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == 95


ARMOUR = ("armored_car", "light_tank", "medium_tank", "heavy_tank", "mobile_artillery")


def test_armored_car_is_the_fastest_the_easiest_armour_to_kill_and_the_least_strong_offensively_p19():
    t = load_tables()
    fighting = [x for x in t.units if x != "mine"]
    ac = t.units["armored_car"]
    others = [a for a in ARMOUR if a != "armored_car"]
    assert all(ac.move > t.units[x].move for x in fighting if x != "armored_car")  # "the fastest moving piece"
    # "the easiest of the armored unit types to kill": fewest hit points, reached from at least as far by every
    # firer, and the best close-assault odds against it
    assert all(ac.hit_points < t.units[a].hit_points for a in others)
    assert all(t.max_range[(f, "armored_car")] >= t.max_range[(f, a)] for f in fighting for a in others)
    assert all(t.assault[(x, "armored_car")] > t.assault[(x, a)] for x in ARMOUR[:4] for a in ARMOUR[1:])
    # "the least strong offensively": the least damage, and no longer a reach against anything
    assert all(ac.damage < t.units[a].damage for a in others)
    assert all(t.max_range[("armored_car", x)] <= t.max_range[(a, x)] for a in others for x in fighting)


def test_medium_tank_has_more_offensive_and_defensive_power_than_the_light_tank_p19():
    t = load_tables()
    mt, lt = t.units["medium_tank"], t.units["light_tank"]
    assert mt.hit_points > lt.hit_points and mt.damage > lt.damage
    fighting = [x for x in t.units if x != "mine"]
    assert all(t.max_range[("medium_tank", x)] > t.max_range[("light_tank", x)] for x in fighting)
    assert all(t.assault[("medium_tank", d)] > t.assault[("light_tank", d)] for d in fighting)


def test_heavy_tank_is_the_slowest_but_most_powerful_armour_and_expensive_p19():
    t = load_tables()
    ht = t.units["heavy_tank"]
    assert all(ht.move <= t.units[a].move for a in ARMOUR)  # "the slowest" (mobile artillery moves 4 "like" it)
    assert all(
        ht.hit_points > t.units[a].hit_points and ht.damage >= t.units[a].damage
        for a in ARMOUR[:4]
        if a != "heavy_tank"
    )
    assert ht.cost > max(t.units[a].cost for a in ("armored_car", "light_tank", "medium_tank"))  # "expensive!"


def test_infantry_is_inexpensive_and_artillery_heavy_costs_more_than_light_p20_p22():
    t = load_tables()
    assert t.units["infantry"].cost == min(t.units[x].cost for x in t.units)  # "inexpensive to buy"
    assert t.units["heavy_artillery"].cost > t.units["light_artillery"].cost  # "(and more expensive)"
    assert t.units["mobile_artillery"].cost > t.units["heavy_tank"].cost  # "very expensive", like the heavies
