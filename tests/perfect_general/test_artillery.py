"""Indirect fire (PG p.11-12, p.21-22, p.28-30): plots, drift, strikes, splash, barrages, terrain damage."""

from collections import Counter
from dataclasses import replace

import pytest

from grognard.engine.events import Step
from grognard.engine.rng import seed_state
from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.artillery import plot_cells, resolve_indirect_fire
from grognard.rulesets.perfect_general.state import Barrage, Phase, Plot
from grognard.rulesets.perfect_general.tables import load_tables


def strike(f, unit_id, unit_type, side, label, barrage=False, seed=0):
    """Resolve one plot against the field's state; returns the new state and the events."""
    plot = Plot(unit_id, side, unit_type, f.cell(label), barrage, f.state.turn)
    step = Step(seed_state(seed))
    after = resolve_indirect_fire(f.rules.ctx, replace(f.state, plots=(plot,)), step)
    return after, step.events


def landed(events):
    return next(e for e in events if e.kind == "strike")


def test_drift_is_0_to_the_unit_types_limit_in_hexes_p30(field):
    t = load_tables()
    assert (t.units["mobile_artillery"].drift, t.units["light_artillery"].drift, t.units["heavy_artillery"].drift) == (
        3,
        2,
        2,
    )
    f = field([("attacker", "mobile_artillery", "1,10")])
    seen = Counter()
    for seed in range(400):
        _, events = strike(f, "a1", "mobile_artillery", "attacker", "7,4", seed=seed)
        e = landed(events)
        d = f.grid.distance(e.data["aimed"], e.data["cell"])
        assert d == e.data["drift"] <= 3
        seen[d] += 1
    assert set(seen) == {0, 1, 2, 3}
    for d in range(4):  # uniform over 0..3: 100 expected each; allow about 4 standard deviations
        assert abs(seen[d] - 100) < 40


def test_light_artillery_never_drifts_more_than_two_p21(field):
    f = field([("attacker", "light_artillery", "1,10")])
    for seed in range(200):
        _, events = strike(f, "a1", "light_artillery", "attacker", "7,4", seed=seed)
        assert landed(events).data["drift"] <= 2


def _no_drift_seed(f, unit_type, label):
    for seed in range(500):
        _, events = strike(f, "a1", unit_type, "attacker", label, seed=seed)
        if landed(events).data["drift"] == 0:
            return seed
    raise AssertionError("no seed without drift")


def test_direct_strike_destroys_the_unit_whatever_it_is_p20_p30(field):
    f = field([("attacker", "light_artillery", "1,10"), ("defender", "heavy_tank", "7,4")], kill="partial")
    seed = _no_drift_seed(f, "light_artillery", "7,4")
    after, _events = strike(f, "a1", "light_artillery", "attacker", "7,4", seed=seed)
    assert after.find("d1") is None


def test_neighbours_hit_50_percent_light_heavy_33_percent_mobile_under_random_rules_p30(field):
    t = load_tables()
    assert (
        t.units["light_artillery"].splash,
        t.units["heavy_artillery"].splash,
        t.units["mobile_artillery"].splash,
    ) == (50, 50, 33)
    for unit_type, expected in (("light_artillery", 0.5), ("mobile_artillery", 0.33)):
        hits = n = 0
        for seed in range(600):
            f = field([("attacker", unit_type, "1,10"), ("defender", "infantry", "7,3")])
            after, events = strike(f, "a1", unit_type, "attacker", "7,4", seed=seed)
            e = landed(events)
            if e.data["cell"] != f.cell("7,4"):
                continue  # drifted: not the case under test
            n += 1
            hits += after.find("d1") is None
        assert n > 100
        assert abs(hits / n - expected) < 4 * (expected * (1 - expected) / n) ** 0.5


def test_every_neighbour_is_hit_under_always_hit_and_survivors_lose_their_movement_p30(field):
    f = field(
        [("attacker", "light_artillery", "1,10"), ("defender", "heavy_tank", "7,3")], hit="always", kill="partial"
    )
    seed = _no_drift_seed(f, "light_artillery", "7,4")
    after, _ = strike(f, "a1", "light_artillery", "attacker", "7,4", seed=seed)
    survivor = after.unit("d1")
    assert survivor.hp == 15 - 6 and survivor.pinned and survivor.mp == 0


def test_a_firing_unit_killed_before_resolution_still_fires_without_barrage_p30(field):
    f = field([("defender", "infantry", "7,3")])  # the firer a1 is gone
    for seed in range(100):
        after, events = strike(f, "a1", "light_artillery", "attacker", "7,4", barrage=True, seed=seed)
        assert landed(events).data["barrage"] is False and not after.barrages


def test_barrage_blocks_sight_and_destroys_units_entering_p30(field):
    f = field(
        [("attacker", "armored_car", "2,10"), ("defender", "infantry", "2,4"), ("attacker", "infantry", "13,10")],
        phase=Phase.MOVEMENT,
    )
    sight = f.rules.board.sight(f.state)
    assert sight.sees(f.cell("2,10"), f.cell("2,4"), 25)
    f.set(barrages=(Barrage(f.cell("2,8"), True),))
    assert not f.rules.board.sight(f.state).sees(f.cell("2,10"), f.cell("2,4"), 25)
    legal = f.legal("attacker")
    assert D.Move("a1", f.cell("2,8")) in legal  # a unit may still be ordered in
    assert D.Move("a1", f.cell("2,7")) not in legal or f.rules.ctx  # smart moves never path through it
    f.apply("attacker", D.Move("a1", f.cell("2,8")))
    assert f.state.find("a1") is None


def test_heavy_barrage_covers_the_six_neighbours_units_entering_lose_movement_or_existence_p22_p30(field):
    f = field([("attacker", "heavy_artillery", "1,10")])
    seed = _no_drift_seed(f, "heavy_artillery", "7,4")
    after, _ = strike(f, "a1", "heavy_artillery", "attacker", "7,4", barrage=True, seed=seed)
    cells = {b.cell: b.strike for b in after.barrages}
    assert cells[f.cell("7,4")] is True
    assert {c for c, s in cells.items() if not s} == set(f.grid.neighbors(f.cell("7,4")))
    light = field([("attacker", "light_artillery", "1,10")])
    seed = _no_drift_seed(light, "light_artillery", "7,4")
    after, _ = strike(light, "a1", "light_artillery", "attacker", "7,4", barrage=True, seed=seed)
    assert [b.cell for b in after.barrages] == [light.cell("7,4")]


def test_unit_entering_a_heavy_barrage_ring_is_hit_or_stopped_p30(field):
    outcomes = Counter()
    for seed in range(100):
        f = field(
            [("attacker", "medium_tank", "4,10"), ("attacker", "infantry", "13,10")], phase=Phase.MOVEMENT, seed=seed
        )
        f.set(barrages=(Barrage(f.cell("4,7"), True), Barrage(f.cell("4,8"), False)))
        f.apply("attacker", D.Move("a1", f.cell("4,8")))
        u = f.state.find("a1")
        outcomes["destroyed" if u is None else "stopped"] += 1
        if u is not None:
            assert u.mp == 0
    assert outcomes["destroyed"] > 25 and outcomes["stopped"] > 25  # about half each


def test_barrages_last_until_the_end_of_the_turn_p21(field):
    f = field([("attacker", "infantry", "1,10")], phase=Phase.SECOND_FIRE, side="defender")
    f.set(barrages=(Barrage(f.cell("7,4"), True),))
    f.apply("defender", D.EndFire())
    assert f.state.turn == 2 and not f.state.barrages


def test_terrain_damage_woods_to_rubble_town_to_rubble_roads_destroyed_bridges_blown_p23_p25(field):
    f = field([("attacker", "light_artillery", "1,10")])
    for label, before, after_terrain in (
        ("3,2", "forest", "forest_rubble"),
        ("9,3", "town", "town_rubble"),
        ("4,5", "bridge", "blown_bridge"),
        ("4,7", "clear", "destroyed_road"),
        ("11,7", "clear", "cratered"),
    ):
        seed = _no_drift_seed(f, "light_artillery", label)
        after, _ = strike(f, "a1", "light_artillery", "attacker", label, seed=seed)
        assert f.rules.board.terrain(f.state, f.cell(label)) == before
        assert f.rules.board.terrain(after, f.cell(label)) == after_terrain
    seed = _no_drift_seed(f, "light_artillery", "4,7")
    after, _ = strike(f, "a1", "light_artillery", "attacker", "4,7", seed=seed)
    assert f.cell("4,7") in after.cut_roads


def test_a_direct_hit_destroys_a_mine_p22(field):
    from grognard.rulesets.perfect_general.state import Mine

    f = field([("attacker", "light_artillery", "1,10")])
    f.set(mines=(Mine(f.cell("7,4"), "defender"),))
    seed = _no_drift_seed(f, "light_artillery", "7,4")
    after, _ = strike(f, "a1", "light_artillery", "attacker", "7,4", seed=seed)
    assert not after.mines


def test_plot_targets_in_range_and_in_sight_of_any_friendly_unit_empty_locations_too_p11_p28_p29(field):
    f = field([("attacker", "mobile_artillery", "1,10"), ("attacker", "infantry", "8,10")], phase=Phase.MOBILE_PLOT)
    cells = set(plot_cells(f.rules.ctx, f.state, f.unit("a1")))
    assert all(f.grid.distance(f.cell("1,10"), c) <= 11 for c in cells)
    assert f.cell("8,9") in cells  # the wood next to the infantry
    assert f.cell("8,8") not in cells  # behind that wood for the infantry and out of the gunner's own sight


def test_mobile_artillery_cannot_barrage_and_fires_this_turn_light_next_turn_p19_p29(field):
    f = field(
        [("attacker", "mobile_artillery", "1,10"), ("attacker", "light_artillery", "2,10")], phase=Phase.MOBILE_PLOT
    )
    legal = f.legal("attacker")
    assert legal.family(D.Plot("a1", True, 0)) is None
    assert legal.family(D.Plot("a2", False, 0)) is None  # light artillery plots in the artillery plot phase
    target = f.cell("3,4")
    events = f.apply("attacker", D.Plot("a1", False, target))
    # nothing else to plot: the phase ends and the mobile artillery's shot lands in this turn's indirect fire
    assert [e.data["side"] for e in events if e.kind == "strike"] == ["attacker"]
    assert f.state.phase is Phase.ARTILLERY_PLOT and f.state.turn == 1
    f.apply("attacker", D.Plot("a2", True, target))
    assert [(p.unit, p.turn, p.barrage) for p in f.state.plots] == [("a2", 2, True)]  # fires next turn
    assert f.unit("a2").plotted  # no direct fire this turn (p.29 e)


def test_carried_artillery_cannot_plot_p27b(field):
    f = field(
        [
            ("attacker", "light_artillery", "1,10", {"carried_by": "a2"}),
            ("attacker", "medium_tank", "1,10", {"cargo": "a1"}),
        ],
        phase=Phase.ARTILLERY_PLOT,
    )
    assert not f.legal("attacker").of_kind("plot")


@pytest.mark.parametrize("unit_type", ["mobile_artillery", "light_artillery", "heavy_artillery"])
def test_indirect_range_from_the_unit_table_p20_p22(unit_type):
    assert (
        load_tables().units[unit_type].indirect_range
        == {"mobile_artillery": 11, "light_artillery": 13, "heavy_artillery": 27}[unit_type]  # 27: p.22, not 26
    )
