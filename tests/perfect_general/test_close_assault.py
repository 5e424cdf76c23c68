"""Close assault (PG p.15, p.28, p.30-32): the odds table cell by cell, its modifiers, what winning and losing do."""

import pytest

from grognard.engine import IllegalDecision
from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.combat import assault_odds
from grognard.rulesets.perfect_general.state import Phase

# The manual's retyped table (p.31): attacker's chance to win, attacker column, defender row.
MANUAL = {
    "armored_car": (40, 50, 60, 70),
    "light_tank": (30, 40, 50, 60),
    "medium_tank": (20, 30, 40, 50),
    "heavy_tank": (10, 20, 30, 40),
    "bazooka": (60, 70, 80, 90),
    "infantry": (80, 85, 90, 95),
    "engineer": (80, 85, 90, 95),
    "light_artillery": (80, 85, 90, 95),
    "heavy_artillery": (80, 85, 90, 95),
}
ATTACKERS = ("armored_car", "light_tank", "medium_tank", "heavy_tank")


@pytest.mark.parametrize("defender", sorted(MANUAL))
@pytest.mark.parametrize("attacker", ATTACKERS)
def test_assault_table_matches_the_manual_p31_cell_by_cell(field, attacker, defender):
    f = field([("attacker", attacker, "5,8"), ("defender", defender, "5,9")])
    expected = MANUAL[defender][ATTACKERS.index(attacker)]
    assert assault_odds(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == expected


@pytest.mark.parametrize("attacker", ATTACKERS)
def test_mobile_artillery_is_assaulted_as_a_light_tank_p20(field, attacker):
    """p.20: "Defensively, it is as vulnerable as a light tank" (the 1991 table has no row of its own)."""
    f = field([("attacker", attacker, "5,8"), ("defender", "mobile_artillery", "5,9")])
    expected = MANUAL["light_tank"][ATTACKERS.index(attacker)]
    assert assault_odds(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == expected


def test_defender_in_defensive_location_reduces_odds_by_10_p31(field):
    # forest at 7,9; the attacker next to it in the open
    f = field([("attacker", "medium_tank", "8,9"), ("defender", "infantry", "7,9")])
    assert f.grid.adjacent(f.cell("8,9"), f.cell("7,9"))
    assert assault_odds(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == 90 - 10


def test_defender_on_higher_ground_reduces_odds_by_10_p31(field):
    f = field([("attacker", "medium_tank", "6,8"), ("defender", "infantry", "6,7")])
    assert assault_odds(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == 80


def test_defender_that_has_fired_adds_20_p31(field):
    f = field([("attacker", "armored_car", "5,8"), ("defender", "medium_tank", "5,9", {"fired": True})])
    assert assault_odds(f.rules.ctx, f.state, f.unit("a1"), f.unit("d1")) == 20 + 20


def test_attacker_over_half_damaged_loses_20_under_partial_kill_only_p32(field):
    units = [("attacker", "medium_tank", "5,8", {"hp": 3}), ("defender", "medium_tank", "5,9")]
    partial = field(units, kill="partial")
    assert assault_odds(partial.rules.ctx, partial.state, partial.unit("a1"), partial.unit("d1")) == 40 - 20
    full = field(units, kill="full")
    assert assault_odds(full.rules.ctx, full.state, full.unit("a1"), full.unit("d1")) == 40


def test_odds_never_below_5_nor_above_95_p32(field):
    low = field([("attacker", "armored_car", "6,8", {"hp": 1}), ("defender", "heavy_tank", "6,7")], kill="partial")
    assert assault_odds(low.rules.ctx, low.state, low.unit("a1"), low.unit("d1")) == 5
    high = field([("attacker", "heavy_tank", "5,8"), ("defender", "infantry", "5,9", {"fired": True})])
    assert assault_odds(high.rules.ctx, high.state, high.unit("a1"), high.unit("d1")) == 95


def _assault_game(field, attacker, defender, **options):
    # a second attacking unit far away keeps the movement phase open after the assault
    return field(
        [
            ("attacker", attacker, "5,8"),
            ("defender", defender, "5,9", {"spotted": True}),
            ("attacker", "infantry", "13,10"),
        ],
        phase=Phase.MOVEMENT,
        **options,
    )


def test_non_random_rule_attacker_wins_above_50_p32(field):
    f = _assault_game(field, "medium_tank", "bazooka", hit="always")  # 80%
    f.apply("attacker", D.Assault("a1", f.cell("5,9")))
    assert f.state.find("d1") is None and f.unit("a1").cell == f.cell("5,9")
    g = _assault_game(field, "medium_tank", "medium_tank", hit="always")  # 40%
    g.apply("attacker", D.Assault("a1", g.cell("5,9")))
    assert g.state.find("a1") is None and g.unit("d1").fired


def test_even_odds_are_not_enough_under_non_random_rules_p32(field):
    f = _assault_game(field, "medium_tank", "light_tank", hit="always")  # exactly 50%
    f.apply("attacker", D.Assault("a1", f.cell("5,9")))
    assert f.state.find("a1") is None


def test_winning_attacker_takes_the_location_has_fired_and_stops_p30(field):
    f = _assault_game(field, "heavy_tank", "infantry", hit="always")
    f.apply("attacker", D.Assault("a1", f.cell("5,9")))
    a = f.unit("a1")
    assert (a.cell, a.fired, a.mp) == (f.cell("5,9"), True, 0)


def test_random_assault_outcome_frequency_matches_odds_p31(field):
    wins = 0
    n = 400
    for seed in range(n):
        f = field(
            [("attacker", "medium_tank", "5,8"), ("defender", "medium_tank", "5,9", {"spotted": True})],
            phase=Phase.MOVEMENT,
            seed=seed,
        )
        f.apply("attacker", D.Assault("a1", f.cell("5,9")))
        wins += f.state.find("d1") is None
    # 40%: with 400 trials the standard deviation is about 2.4 points; allow 4 of them
    assert abs(wins / n - 0.40) < 0.10


def test_mobile_artillery_and_fired_units_cannot_assault_p15_p30(field):
    f = field(
        [
            ("attacker", "mobile_artillery", "5,8"),
            ("attacker", "medium_tank", "6,8", {"fired": True}),
            ("defender", "infantry", "5,9", {"spotted": True}),
        ],
        phase=Phase.MOVEMENT,
    )
    with pytest.raises(IllegalDecision, match=r"p\.30"):
        f.apply("attacker", D.Assault("a1", f.cell("5,9")))
    with pytest.raises(IllegalDecision, match=r"p\.30"):
        f.apply("attacker", D.Assault("a2", f.cell("5,9")))


def test_partial_kill_victor_damage_is_never_fatal_p30(field):
    for seed in range(60):
        f = field(
            [
                ("attacker", "armored_car", "5,8", {"hp": 2}),
                ("defender", "armored_car", "5,9", {"spotted": True, "hp": 2}),
            ],
            phase=Phase.MOVEMENT,
            seed=seed,
            kill="partial",
        )
        f.apply("attacker", D.Assault("a1", f.cell("5,9")))
        survivors = [u for u in f.state.units]
        assert len(survivors) == 1 and survivors[0].hp >= 1
