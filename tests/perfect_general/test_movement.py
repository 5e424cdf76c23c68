"""Movement, terrain, transport, mines and engineers (PG p.14, p.21-27)."""

from dataclasses import replace

import pytest

from grognard.engine import IllegalDecision
from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.moves import unit_reach
from grognard.rulesets.perfect_general.state import Mine, Phase
from grognard.rulesets.perfect_general.tables import load_tables


def cost(f, uid, label):
    return unit_reach(f.rules.ctx, f.state, f.unit(uid)).cost[f.cell(label)]


def test_movement_rates_from_the_1991_manual_p19_p21():
    t = load_tables()
    assert {
        k: t.units[k].move
        for k in (
            "armored_car",
            "light_tank",
            "medium_tank",
            "heavy_tank",
            "mobile_artillery",
            "infantry",
            "engineer",
            "bazooka",
            "light_artillery",
            "heavy_artillery",
        )
    } == {
        "armored_car": 9,
        "light_tank": 6,
        "medium_tank": 5,
        "heavy_tank": 4,
        "mobile_artillery": 4,
        "infantry": 1,
        "engineer": 1,
        "bazooka": 1,
        "light_artillery": 0,
        "heavy_artillery": 0,
    }


def test_clear_costs_one_point_road_half_along_the_road_only_p22_p23(field):
    f = field([("attacker", "medium_tank", "4,10")], phase=Phase.MOVEMENT)
    assert cost(f, "a1", "4,8") == 2  # two road steps: 2 x half a point
    assert cost(f, "a1", "5,10") == 2  # off the road: one clear step costs a full point (2 half points)
    assert cost(f, "a1", "5,9") == 3  # half a point along the road, then a full point off it


def test_forest_costs_half_the_movement_rate_p23(field):
    f = field([("attacker", "armored_car", "7,10")], phase=Phase.MOVEMENT)
    assert cost(f, "a1", "7,9") == 9  # half of 9 points = 4.5 points = 9 half points
    g = field([("attacker", "heavy_tank", "7,10")], phase=Phase.MOVEMENT)
    assert cost(g, "a1", "7,9") == 4


def test_uphill_costs_twice_p23(field):
    f = field([("attacker", "medium_tank", "6,8")], phase=Phase.MOVEMENT)
    assert cost(f, "a1", "6,7") == 4
    g = field([("attacker", "medium_tank", "6,7")], phase=Phase.MOVEMENT)
    assert cost(g, "a1", "6,8") == 2  # downhill is not slower


def test_rivers_block_armour_but_not_infantry_bridges_let_armour_across_p24_p25(field):
    f = field([("attacker", "medium_tank", "6,6"), ("attacker", "infantry", "7,6")], phase=Phase.MOVEMENT)
    legal = f.legal("attacker")
    assert D.Move("a1", f.cell("6,5")) not in legal
    assert D.Move("a2", f.cell("7,5")) in legal
    g = field([("attacker", "medium_tank", "4,6")], phase=Phase.MOVEMENT)
    assert D.Move("a1", g.cell("4,4")) in g.legal("attacker")  # over the bridge at 4,5


def test_nobody_enters_the_sea_p24(field):
    f = field([("attacker", "infantry", "13,10")], phase=Phase.MOVEMENT)
    assert D.Move("a1", f.cell("13,9")) not in f.legal("attacker")


def test_a_unit_can_always_move_one_location_p26(field):
    f = field([("attacker", "infantry", "7,10")], phase=Phase.MOVEMENT)
    assert D.Move("a1", f.cell("7,9")) in f.legal("attacker")  # a wood costs more than its one point
    f.apply("attacker", D.Move("a1", f.cell("7,9")))
    assert f.unit("a1").mp == 0


def test_no_ending_in_a_friendly_location_and_no_moving_through_enemies_p25_p26(field):
    f = field(
        [
            ("attacker", "medium_tank", "4,10"),
            ("attacker", "infantry", "4,9"),
            ("defender", "infantry", "5,7", {"spotted": True}),
        ],
        phase=Phase.MOVEMENT,
    )
    legal = f.legal("attacker")
    assert D.Move("a1", f.cell("4,9")) not in legal
    assert D.Move("a1", f.cell("4,8")) in legal  # through the friendly unit
    assert D.Move("a1", f.cell("5,7")) not in legal


def test_smart_moves_take_the_fastest_path_p14(field):
    f = field([("attacker", "medium_tank", "4,10"), ("attacker", "infantry", "13,10")], phase=Phase.MOVEMENT)
    f.apply("attacker", D.Move("a1", f.cell("4,6")))
    assert f.unit("a1").mp == 10 - 4  # four road steps


def test_bumping_into_a_hidden_enemy_stops_the_move_and_reveals_it_p26(field):
    f = field(
        [("attacker", "medium_tank", "4,10"), ("defender", "infantry", "4,8"), ("attacker", "infantry", "13,10")],
        phase=Phase.MOVEMENT,
    )
    assert D.Move("a1", f.cell("4,6")) in f.legal("attacker")  # the attacker does not know of d1
    f.apply("attacker", D.Move("a1", f.cell("4,6")))
    assert f.unit("a1").cell == f.cell("4,9") and f.unit("d1").spotted


def test_no_moving_next_to_a_spotted_unit_at_night_p26(field):
    f = field(
        [("attacker", "medium_tank", "4,10"), ("defender", "infantry", "5,8", {"spotted": True})],
        phase=Phase.MOVEMENT,
        turn=3,
    )
    legal = f.legal("attacker")
    assert D.Move("a1", f.cell("4,8")) not in legal  # next to 5,8
    assert D.Move("a1", f.cell("3,9")) in legal


def test_mud_slows_movement_but_not_roads_p22(field):
    f = field([("attacker", "medium_tank", "4,10")], phase=Phase.MOVEMENT)
    f.rules.scenario.weather = (("mud",), ("mud",), ("mud",))  # this field's scenario object only
    assert cost(f, "a1", "5,10") == 4 and cost(f, "a1", "4,9") == 1


# --- transport (p.26-27) -----------------------------------------------------------------------------------
def _transport(field, **extra):
    return field(
        [
            ("attacker", "armored_car", "4,10"),
            ("attacker", "infantry", "4,8", extra),
            ("attacker", "infantry", "13,10"),
        ],
        phase=Phase.MOVEMENT,
    )


def test_armored_cars_and_tanks_carry_foot_and_towed_artillery_only_p26_a_b():
    t = load_tables()
    carriers = {k for k, u in t.units.items() if u.has("carrier")}
    cargo = {k for k, u in t.units.items() if u.has("cargo")}
    assert carriers == {"armored_car", "light_tank", "medium_tank", "heavy_tank"}
    assert cargo == {"infantry", "engineer", "bazooka", "light_artillery", "heavy_artillery"}


def test_load_costs_one_point_and_the_cargo_rides_along_p26(field):
    f = _transport(field)
    f.apply("attacker", D.Load("a1", "a2"))
    a1, a2 = f.unit("a1"), f.unit("a2")
    assert a1.cargo == "a2" and a2.carried_by == "a1"
    assert a1.mp == 18 - 2 - 2  # two road steps and one point for loading
    f.apply("attacker", D.Move("a1", f.cell("4,4")))
    assert f.unit("a2").cell == f.cell("4,4")


def test_cargo_must_not_have_moved_or_fired_p27c(field):
    assert D.Load("a1", "a2") not in _transport(field, moved=True).legal("attacker")
    assert D.Load("a1", "a2") not in _transport(field, fired=True).legal("attacker")


def test_artillery_that_plotted_cannot_be_loaded_p27c(field):
    f = field(
        [("attacker", "armored_car", "4,10"), ("attacker", "light_artillery", "4,8", {"plotted": True})],
        phase=Phase.MOVEMENT,
    )
    assert not f.legal("attacker").family(D.Load("a1", "a2")) or D.Load("a1", "a2") not in f.legal("attacker")


def test_carrier_needs_a_point_left_on_arrival_p27d(field):
    f = field([("attacker", "heavy_tank", "4,10"), ("attacker", "infantry", "4,4")], phase=Phase.MOVEMENT)
    # 6 road steps cost 3 points of the heavy tank's 4: one left, enough to load
    assert D.Load("a1", "a2") in f.legal("attacker")
    g = field([("attacker", "heavy_tank", "4,10"), ("attacker", "infantry", "4,2")], phase=Phase.MOVEMENT)
    assert D.Load("a1", "a2") not in g.legal("attacker")  # 8 road steps use all 4 points


def test_unloading_costs_a_point_the_carrier_must_leave_and_the_cargo_waits_p27(field):
    f = _transport(field)
    f.apply("attacker", D.Load("a1", "a2"))
    f.apply("attacker", D.Move("a1", f.cell("4,6")))
    f.apply("attacker", D.Unload("a1", f.cell("4,7")))
    a1, a2 = f.unit("a1"), f.unit("a2")
    assert a2.cell == f.cell("4,6") and a1.cell == f.cell("4,7") and not a1.cargo and a2.unloaded
    legal = f.legal("attacker")
    assert legal.family(D.Move("a2", 0)) is None  # p.27 c: cannot move until the next turn


def test_cargo_cannot_fire_and_dies_with_its_carrier_p27(field):
    f = field(
        [
            ("attacker", "armored_car", "5,10", {"cargo": "a2", "spotted": True}),
            ("attacker", "bazooka", "5,10", {"carried_by": "a1"}),
            ("defender", "medium_tank", "5,8", {"spotted": True, "fired": True}),
            ("attacker", "medium_tank", "9,10"),
        ],
        hit="always",
    )
    assert f.legal("attacker").family(D.Fire("a2", "d1")) is None  # the bazooka rides and cannot fire
    f.edit("d1", fired=False)
    f.set(side="defender")
    # the armored car cannot answer a medium tank at range 2, so the shot resolves at once and destroys it
    f.apply("defender", D.Fire("d1", "a1"))
    assert f.state.find("a1") is None and f.state.find("a2") is None


def test_both_sides_know_a_unit_has_cargo_not_what_it_is_p27(field):
    f = field(
        [
            ("attacker", "armored_car", "5,10", {"cargo": "a2", "spotted": True}),
            ("attacker", "bazooka", "5,10", {"carried_by": "a1"}),
            ("defender", "infantry", "5,6"),
        ]
    )
    seen = {u["id"]: u for u in f.game.view("defender")["state"]["units"]}
    assert seen["a1"]["has_cargo"] is True and "a2" not in seen and "cargo" not in seen["a1"]


# --- mines (p.22) ------------------------------------------------------------------------------------------
def test_a_mine_destroys_the_unit_entering_and_burns_out_after_two_p22(field):
    f = field(
        [("attacker", "armored_car", "4,10"), ("attacker", "light_tank", "3,10"), ("attacker", "infantry", "13,10")],
        phase=Phase.MOVEMENT,
    )
    f.set(mines=(Mine(f.cell("4,8"), "defender"),))
    # smart moves go round a mine, but a unit may be ordered onto one
    assert f.cell("4,8") not in unit_reach(f.rules.ctx, f.state, f.unit("a1")).path(f.cell("4,6"))
    f.apply("attacker", D.Move("a1", f.cell("4,8")))
    assert f.state.find("a1") is None and f.state.mines[0].charges == 1
    f.apply("attacker", D.Move("a2", f.cell("4,8")))
    assert f.state.find("a2") is None and not f.state.mines


def test_mines_are_always_visible_to_both_sides_p22(field):
    f = field([("attacker", "infantry", "1,10"), ("defender", "infantry", "1,1")])
    f.set(mines=(Mine(f.cell("7,7"), "defender"),))
    assert [m["cell"] for m in f.game.view("attacker")["state"]["mines"]] == [f.cell("7,7")]


def test_mines_may_not_be_placed_on_bridges_or_in_towns_p22(field):
    f = field([("attacker", "engineer", "9,4")], phase=Phase.MOVEMENT)
    sites = set(f.legal("attacker").family(D.LayMine("a1", 0)).values())
    assert f.cell("9,3") not in sites  # a town
    assert f.cell("10,4") in sites
    g = field([("attacker", "engineer", "4,6")], phase=Phase.MOVEMENT)
    assert g.cell("4,5") not in set(g.legal("attacker").family(D.LayMine("a1", 0)).values())  # a bridge


def test_engineers_build_and_remove_mines_p21_p22(field):
    f = field(
        [("attacker", "engineer", "9,8"), ("attacker", "engineer", "11,9"), ("attacker", "infantry", "1,10")],
        phase=Phase.MOVEMENT,
    )
    f.apply("attacker", D.LayMine("a1", f.cell("10,8")))
    assert [(m.cell, m.charges) for m in f.state.mines] == [(f.cell("10,8"), 2)]
    assert f.unit("a1").worked and f.legal("attacker").family(D.Move("a1", 0)) is None
    f.apply("attacker", D.ClearMine("a2", f.cell("10,8")))
    assert not f.state.mines


def test_engineer_in_a_river_bridges_it_for_armour_p14_p21(field):
    f = field([("attacker", "engineer", "8,5"), ("attacker", "medium_tank", "8,6")], phase=Phase.MOVEMENT)
    assert D.Move("a2", f.cell("8,4")) not in f.legal("attacker")
    f.apply("attacker", D.BuildBridge("a1"))
    assert f.rules.board.terrain(f.state, f.cell("8,5")) == "bridge"
    f.set(units=tuple(u for u in f.state.units if u.id != "a1"))
    assert D.Move("a2", f.cell("8,4")) in f.legal("attacker")


def test_engineer_destroys_a_bridge_p21(field):
    f = field([("attacker", "engineer", "4,6"), ("attacker", "medium_tank", "4,7")], phase=Phase.MOVEMENT)
    f.apply("attacker", D.BlowBridge("a1", f.cell("4,5")))
    assert f.rules.board.terrain(f.state, f.cell("4,5")) == "blown_bridge"
    assert D.Move("a2", f.cell("4,4")) not in f.legal("attacker")


def test_engineer_that_moved_cannot_work_p14(field):
    f = field([("attacker", "engineer", "8,5", {"moved": True})], phase=Phase.MOVEMENT)
    with pytest.raises(IllegalDecision):
        f.apply("attacker", D.BuildBridge("a1"))


def test_costs_after_artillery_damage_equal_a_full_rebuild_p23_p25(field):
    """The board patches its last cost table around the locations that changed; it must agree with building
    the whole table again from the damaged terrain (woods to rubble, towns to rubble, cut roads, blown bridges),
    row by row as searches ask (step classes) as for the whole table at once (arrays)."""
    from grognard.engine.movement import edge_costs

    f = field([("attacker", "medium_tank", "1,10")])
    board = f.rules.board
    grid = f.grid
    damaged = {}
    for c in range(grid.size):
        becomes = board.tables.terrain[board.base_terrain[c]].damaged
        if becomes and c % 3 == 0:
            damaged[c] = becomes
    roads = tuple(sorted(c for c in range(grid.size) if board.map.has("road", c))[::2])
    assert damaged and roads
    half = dict(list(damaged.items())[::2])
    # from the pristine map to some damage, to more damage, and back to the pristine map
    for terrain, cut in ((half, roads[::2]), (damaged, roads), ({}, ())):
        f.set(terrain=tuple(sorted(terrain.items())), cut_roads=cut)
        for type_ in ("medium_tank", "infantry", "armored_car"):
            ut = board.tables.units[type_]
            full = edge_costs(grid, board._step_cost(f.state, ut, board.weather(f.state).move_percent))
            lazy = board.costs(f.state, ut)  # rows worked out one at a time, when asked
            assert tuple(lazy.row(a) for a in reversed(range(grid.size)))[::-1] == full
            assert tuple(board.whole_costs(f.state, ut)) == full
            for percent in (100, 150, 200):  # the table built at once with arrays, in each weather
                assert board._full_costs(f.state, ut, percent) == edge_costs(
                    grid, board._step_cost(f.state, ut, percent)
                )


# --- every terrain of the manual (p.22-25) ------------------------------------------------------------------
TERRAIN_ROW = [
    # terrain, medium tank's cost, infantry's cost (half points: a clear step is 2), or None: may not enter
    ("clear", 2, 2),  # p.22: 1 unit of movement
    ("field", 2, 2),  # p.22
    ("hill", 2, 2),  # p.23: level ground on a hill costs as clear; uphill doubles (test_uphill_costs_twice)
    ("ridge", 2, 2),
    ("forest", 5, 2),  # p.23: half the unit's movement rate (5 of the tank's 10), never less than a clear step
    ("forest_rubble", 4, 4),  # p.23: "the same as rough terrain"
    ("town", 1, 1),  # p.24: "the same as roads, costing half of normal"
    ("town_rubble", 4, 4),  # p.24: "2 movement points to enter through the rubble"
    ("fortification", 2, 2),  # p.24 gives no cost: as clear (decision)
    ("rough", 4, 4),  # p.24: twice clear
    ("desert", 4, 4),
    ("destroyed_road", 4, 4),
    ("cratered", 4, 4),
    ("beach", 4, 4),  # p.24: "acts as rough or desert"
    ("sea", None, None),  # p.24: nobody enters
    ("lake", None, None),
    ("coast", None, None),
    ("bridge", 1, 1),  # p.24: acts as a road
    ("river", None, 2),  # p.25: no armoured vehicle; infantry at the cost of clear
    ("blown_bridge", None, 2),
    ("escarpment", 5, 2),  # p.25: half the unit's movement rate
    ("depression", 5, 2),  # p.25
]


def _strip(tmp_path, extra_paths=None):
    """A two-row map: clear ground above a row holding each terrain of the manual; the lowest row has woods
    crossed by a road and a track."""
    from grognard.rulesets.perfect_general import PerfectGeneral
    from grognard.rulesets.perfect_general.scenario import scenario_from_document

    names = [t for t, _, _ in TERRAIN_ROW]
    codes = {chr(ord("a") + i): n for i, n in enumerate(names)}
    by_name = {n: c for c, n in codes.items()}
    width = len(names)
    rows = [by_name["clear"] * width, "".join(by_name[n] for n in names), by_name["forest"] * width]
    doc = {
        "format": "grognard-pg-scenario/1",
        "name": "Terrain strip",
        "map": {
            "format": "grognard-map/1",
            "name": "strip",
            "grid": {"kind": "hex", "columns": width, "rows": 3, "layout": "odd-q", "first": [1, 1]},
            "terrain_codes": codes,
            "terrain": rows,
            "elevation": ["0" * width] * 3,
            "paths": {"road": [["1,3", "2,3", "3,3", "4,3"]], "track": [["6,3", "7,3", "8,3", "9,3"]]},
            "places": [],
            "regions": {"a": {"rect": [1, 1, 2, 1]}, "d": {"rect": [width - 1, 1, width, 1]}},
        },
        "turns": 1,
        "buy_points": {"attacker": 10, "defender": 5},
        "setup": {"attacker": "a", "defender": "d"},
    }
    return PerfectGeneral(scenario_from_document(doc, "strip"))


def test_every_terrain_of_the_manual_costs_what_it_says_p22_p25(tmp_path):
    from grognard.engine import Game

    rules = _strip(tmp_path)
    board, grid, tables = rules.board, rules.board.grid, rules.ctx.tables
    state = Game(rules, 1).state
    for ut, col in ((tables.units["medium_tank"], 1), (tables.units["infantry"], 2)):
        costs = board.costs(state, ut)
        for i, spec in enumerate(TERRAIN_ROW):
            frm, to = grid.parse(f"{i + 1},1"), grid.parse(f"{i + 1},2")
            step = dict(costs.row(frm)).get(to)
            assert step == spec[col], (ut.id, spec[0])


def test_a_road_halves_the_cost_whatever_the_terrain_a_track_costs_as_clear_p23(tmp_path):
    from grognard.engine import Game

    rules = _strip(tmp_path)
    board, grid = rules.board, rules.board.grid
    state = Game(rules, 1).state
    costs = board.costs(state, rules.ctx.tables.units["medium_tank"])

    def step(a, b):
        return dict(costs.row(grid.parse(a)))[grid.parse(b)]

    assert step("1,3", "2,3") == 1  # along the road through the woods: half a point
    assert step("6,3", "7,3") == 2  # along the track through the woods: a clear step
    assert step("4,3", "5,3") == 5  # off the road's end, into the woods: the woods' cost


def test_storms_slow_movement_too_p22(field):
    f = field([("attacker", "medium_tank", "4,10")], phase=Phase.MOVEMENT)
    f.rules.scenario.weather = (("storm",), ("storm",), ("storm",))  # this field's scenario object only
    assert cost(f, "a1", "5,10") == 3 and cost(f, "a1", "4,9") == 1  # 150% off the road; the road unslowed


def test_a_road_struck_by_artillery_loses_its_speed_p23(field):
    from grognard.engine.events import Step
    from grognard.engine.rng import seed_state
    from grognard.rulesets.perfect_general.artillery import damage_terrain

    f = field([("attacker", "medium_tank", "4,10")], phase=Phase.MOVEMENT)
    assert cost(f, "a1", "4,8") == 2
    f.game.state = damage_terrain(f.rules.ctx, f.state, Step(seed_state(1)), f.cell("4,9"))
    assert f.rules.board.terrain(f.state, f.cell("4,9")) == "destroyed_road"
    assert cost(f, "a1", "4,9") == 4  # rough going
    assert cost(f, "a1", "4,8") == 4 + 2  # leaving the broken road is a step off the road (clear)


def test_a_bridge_blown_by_artillery_stops_armour_p24_p25(field):
    from grognard.engine.events import Step
    from grognard.engine.rng import seed_state
    from grognard.rulesets.perfect_general.artillery import damage_terrain

    f = field([("attacker", "medium_tank", "4,6"), ("attacker", "infantry", "5,6")], phase=Phase.MOVEMENT)
    assert D.Move("a1", f.cell("4,4")) in f.legal("attacker")
    f.game.state = damage_terrain(f.rules.ctx, f.state, Step(seed_state(1)), f.cell("4,5"))
    assert f.rules.board.terrain(f.state, f.cell("4,5")) == "blown_bridge"
    legal = f.legal("attacker")
    assert D.Move("a1", f.cell("4,4")) not in legal and D.Move("a2", f.cell("4,5")) in legal


def test_unloading_needs_a_point_to_unload_and_the_points_to_leave_p27_a_b(field):
    f = field(
        [
            ("attacker", "heavy_tank", "4,10", {"cargo": "a2"}),
            ("attacker", "infantry", "4,10", {"carried_by": "a1"}),
            ("attacker", "infantry", "13,10"),
        ],
        phase=Phase.MOVEMENT,
    )
    f.edit("a1", mp=2)  # one point: enough to unload, none left to leave the location
    assert not any(isinstance(d, D.Unload) for d in f.legal("attacker"))
    f.edit("a1", mp=3)  # one point and a half: unload, then one road step
    assert D.Unload("a1", f.cell("4,9")) in f.legal("attacker")


def test_mines_may_not_be_placed_on_bridges_or_in_towns_at_set_up_p22(field):
    from grognard.rulesets.perfect_general.setup import placement_cells

    f = field([], phase=Phase.PLACEMENT, side="defender")
    f.set(region="setup")
    f.set(sides=(f.state.sides[0], replace(f.state.sides[1], pool=("infantry", "mine"))))
    mines = set(placement_cells(f.rules.ctx, f.state, "mine"))
    units = set(placement_cells(f.rules.ctx, f.state, "infantry"))
    town = {f.cell("9,3"), f.cell("10,3")}
    assert town <= units and not town & mines
    assert mines == units - town


def test_reinforcements_are_placed_in_the_scenarios_reinforcement_region_p18(field):
    from grognard.rulesets.perfect_general.setup import placement_cells

    f = field([], phase=Phase.PLACEMENT, side="defender")
    f.set(region="reinforce")
    region = f.rules.scenario.reinforce_regions["defender"]
    assert set(placement_cells(f.rules.ctx, f.state, "infantry")) <= region
