"""The computer general: what it chooses in small positions, that it sees only its seat's view, and that every
level plays a whole game with legal decisions only."""

from __future__ import annotations

from pathlib import Path

import pytest

from grognard.ai import make_player, observe, play_out
from grognard.ai.driver import computer_decision
from grognard.engine import Game
from grognard.engine.game import new_game
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.combat import shot_chance
from grognard.rulesets.perfect_general.general import General
from grognard.rulesets.perfect_general.scenario import read_scenario
from grognard.rulesets.perfect_general.state import Phase

FIELD = Path(__file__).parent / "field.json"


def decide(game: Game, seat: str, level: int = 1) -> D.Decision:
    return General(3, level).choose(observe(game, seat))


def test_fires_first_at_the_target_with_the_best_odds(field):
    f = field(
        [
            ("attacker", "medium_tank", "2,10"),
            ("defender", "infantry", "2,6", {"spotted": True, "fired": True}),
            ("defender", "infantry", "2,8", {"spotted": True, "fired": True}),
        ]
    )
    chances = f.legal("attacker").info["chances"]["a1"]
    assert chances["d2"] > chances["d1"]
    assert decide(f.game, "attacker") == D.Fire("a1", "d2")


def test_with_equal_odds_fires_at_the_more_valuable_unit(field):
    f = field(
        [
            ("attacker", "medium_tank", "2,10"),
            ("defender", "infantry", "2,8", {"spotted": True, "fired": True}),
            ("defender", "heavy_tank", "4,9", {"spotted": True, "fired": True}),
        ]
    )
    chances = f.legal("attacker").info["chances"]["a1"]
    assert chances["d1"] == chances["d2"]
    assert decide(f.game, "attacker") == D.Fire("a1", "d2")


def test_returns_fire_at_the_shooter(field):
    f = field(
        [
            ("attacker", "medium_tank", "2,10", {"spotted": True}),
            ("attacker", "infantry", "6,10", {"spotted": True, "fired": True}),
            ("defender", "medium_tank", "2,8", {"spotted": True}),
        ],
        side="defender",
    )
    f.apply("defender", D.Fire("d1", "a1"))
    assert decide(f.game, "attacker") == D.ReturnFire("a1", "d1")


def test_takes_passing_fire_at_a_tank_crossing_its_sights(field):
    f = field(
        [("attacker", "medium_tank", "2,10"), ("defender", "medium_tank", "2,6")],
        phase=Phase.MOVEMENT,
    )
    f.apply("attacker", D.Move("a1", f.cell("2,8")))
    assert f.state.offer is not None and f.state.offer.kind == "passing"
    assert decide(f.game, "defender") == D.PassingFire("a1", "d1")


def test_takes_a_poorer_passing_shot_at_a_mover_near_a_town_it_holds(field):
    """Near a town of ours a passing shot under the usual bar is taken (the lower bar): an offer is declined from
    its chances alone (General._passing_short) only when they are short of that lower bar."""
    f = field(
        [("attacker", "heavy_tank", "7,5"), ("defender", "heavy_tank", "1,9"), ("defender", "infantry", "9,3")],
        phase=Phase.MOVEMENT,
    )
    f.apply("attacker", D.Move("a1", f.cell("8,4")))  # stopped at 8,4 by the offer, next to Alpha (9,3)
    bar = General(3).lv["passing_min"]
    assert bar / 2 < f.legal("defender").info["chances"]["d1"] < bar
    assert decide(f.game, "defender") == D.PassingFire("a1", "d1")


def test_takes_a_free_undefended_town(field):
    f = field([("attacker", "armored_car", "13,3"), ("defender", "infantry", "2,1")], phase=Phase.MOVEMENT)
    d = decide(f.game, "attacker")
    assert isinstance(d, D.Move) and d.unit == "a1"
    assert f.grid.label(d.to) in ("9,3", "10,3")


def test_a_garrison_holds_its_town(field):
    f = field(
        [("defender", "infantry", "9,3"), ("attacker", "medium_tank", "2,10")], phase=Phase.MOVEMENT, side="defender"
    )
    assert decide(f.game, "defender") == D.EndMovement()


def test_assaults_with_good_odds(field):
    f = field(
        [("attacker", "heavy_tank", "6,10"), ("defender", "infantry", "6,8", {"spotted": True})],
        phase=Phase.MOVEMENT,
    )
    assert decide(f.game, "attacker") == D.Assault("a1", f.cell("6,8"))


def test_does_not_assault_with_bad_odds(field):
    f = field(
        [("attacker", "armored_car", "6,10"), ("defender", "heavy_tank", "6,8", {"spotted": True})],
        phase=Phase.MOVEMENT,
    )
    assert D.Assault("a1", f.cell("6,8")) in f.legal("attacker")
    assert not isinstance(decide(f.game, "attacker"), D.Assault)


def test_buys_within_its_points_a_mix_of_types():
    game = new_game(PerfectGeneral, "simple_little_war", None, 5)
    general = make_player("general", PerfectGeneral, 5)
    while game.state.phase is Phase.PURCHASE and game.state.side == "attacker":
        game.apply(
            "attacker",
            general.choose(observe(game, "attacker")),
        )
    pool = game.state.side_state("attacker").pool
    tables = game.rules.ctx.tables
    assert sum(tables.units[t].cost for t in pool) <= 150
    assert sum(tables.units[t].cost for t in pool) >= 140  # it does not leave much unspent
    kinds = set(pool)
    assert {"infantry", "medium_tank", "bazooka"} <= kinds
    assert any(tables.units[t].indirect_range for t in kinds)  # some artillery


@pytest.mark.parametrize("phase", [Phase.FIRST_FIRE, Phase.MOVEMENT, Phase.ARTILLERY_PLOT])
def test_decides_the_same_whether_or_not_a_hidden_enemy_is_there(field, phase):
    units = [
        ("attacker", "medium_tank", "5,8"),
        ("attacker", "infantry", "9,8"),
        ("attacker", "light_artillery", "2,10"),
        ("defender", "medium_tank", "6,6", {"spotted": True}),
    ]
    hidden = ("defender", "heavy_tank", "3,2")  # in the woods, never seen
    seen = field(units, phase=phase, view="limited")
    unseen = field([*units, hidden], phase=phase, view="limited")
    assert unseen.rules.hidden_units(unseen.state, "attacker") == {"d2"}
    first = [decide(seen.game, "attacker", level) for level in (0, 1, 2)]
    second = [decide(unseen.game, "attacker", level) for level in (0, 1, 2)]
    assert first == second


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_each_level_plays_a_whole_game_with_legal_decisions(level):
    rules = PerfectGeneral(read_scenario(FIELD))
    for seat in PerfectGeneral.seats:
        game = Game(rules, 11)
        players = {
            s: make_player(f"general:{level}" if s == seat else "random", PerfectGeneral, 11) for s in rules.seats
        }
        play_out(game, players, max_decisions=5000)  # Game.apply raises on any illegal decision
        assert game.result() is not None


def test_the_same_seed_plays_the_same_game():
    digests = []
    for _ in range(2):
        game = Game(PerfectGeneral(read_scenario(FIELD)), 4)
        players = {s: make_player("general", PerfectGeneral, 4 + i) for i, s in enumerate(PerfectGeneral.seats)}
        play_out(game, players)
        digests.append(game.digest())
    assert digests[0] == digests[1]


def test_levels_by_name_and_number():
    assert make_player("general", PerfectGeneral).level == 1
    assert make_player("general:hard", PerfectGeneral).level == 2
    assert make_player("general:0", PerfectGeneral).level == 0


# --- artillery (issue 3: "plots artillery at likely ambush sites and at enemies") -------------------------
def test_plots_mobile_artillery_at_a_spotted_enemy(field):
    """Nothing to shoot at directly, so its shot is worth spending on a lone tank (p.11, p.29)."""
    f = field(
        [
            ("attacker", "mobile_artillery", "1,10"),
            ("attacker", "infantry", "8,10"),
            ("defender", "medium_tank", "7,4", {"spotted": True}),
        ],
        phase=Phase.MOBILE_PLOT,
    )
    d = decide(f.game, "attacker")
    assert isinstance(d, D.Plot) and d.unit == "a1" and not d.barrage  # mobile artillery cannot barrage (p.29)
    assert f.grid.distance(d.cell, f.cell("7,4")) <= 1


def test_plots_at_a_likely_ambush_site_when_no_enemy_is_seen(field):
    """A wood on the enemy's side of its front line, in sight, is worth a shell before the advance (p.12:
    "soften any ambush your opponent may have awaiting you")."""
    f = field(
        [
            ("attacker", "light_artillery", "2,10"),
            ("attacker", "medium_tank", "6,7"),
            ("attacker", "medium_tank", "3,7"),
            ("defender", "infantry", "13,1"),  # unseen
        ],
        phase=Phase.ARTILLERY_PLOT,
    )
    d = decide(f.game, "attacker")
    assert isinstance(d, D.Plot) and d.unit == "a1"
    board = f.rules.board
    assert board.tables.terrain[board.terrain(f.state, d.cell)].blocks_sight  # a place to hide
    assert f.grid.coord(d.cell)[1] < f.grid.coord(f.cell("3,7"))[1]  # ahead of its own units
    assert f.unit("a2").cell != d.cell and f.unit("a3").cell != d.cell


def _battery(field, infantry_at, **kw):
    """Blue's heavy artillery with a friendly infantry unit somewhere, two red tanks in sight near 9,9."""
    return field(
        [
            ("defender", "heavy_artillery", "6,1"),
            ("defender", "infantry", infantry_at),
            ("attacker", "medium_tank", "9,9", {"spotted": True}),
            ("attacker", "medium_tank", "10,9", {"spotted": True}),
        ],
        phase=Phase.ARTILLERY_PLOT,
        side="defender",
        **kw,
    )


def test_fires_a_barrage_only_far_from_its_own_units(field):
    """A barrage bars its locations to both sides for the turn (p.29-30): away from our units, yes."""
    far = _battery(field, "2,3")
    d = decide(far.game, "defender")
    assert isinstance(d, D.Plot) and d.barrage and far.grid.distance(d.cell, far.cell("9,9")) <= 1
    d = decide(_battery(field, "8,7").game, "defender")
    assert isinstance(d, D.Plot) and not d.barrage


def test_does_not_plot_stationary_artillery_in_the_last_turn(field):
    """Light and heavy artillery fire the turn after their plot (p.29): in the last turn that is never."""
    assert isinstance(decide(_battery(field, "2,3").game, "defender"), D.Plot)
    assert decide(_battery(field, "2,3", turn=3).game, "defender") == D.EndPlot()


def test_does_not_end_a_move_where_its_own_shell_will_land(field):
    from grognard.rulesets.perfect_general.state import Plot

    units = [("attacker", "medium_tank", "5,10"), ("defender", "infantry", "1,1")]
    free = field(units, phase=Phase.MOVEMENT)
    to = decide(free.game, "attacker").to
    shelled = field(units, phase=Phase.MOVEMENT)
    shelled.set(plots=(Plot("a9", "attacker", "light_artillery", to, False, 2),))
    other = decide(shelled.game, "attacker")
    # a strike destroys what stands on its location (p.30): not there; next to it the risk is weighed
    assert isinstance(other, D.Move) and other.to != to


# --- movement (issue 3: "moves to take and hold towns with covered approaches") ----------------------------
def test_ends_its_move_out_of_a_known_enemy_guns_line_of_fire(field):
    from grognard.rulesets.perfect_general.state import Unit

    units = [("attacker", "medium_tank", "5,10"), ("defender", "infantry", "1,1")]
    open_road = decide(field(units, phase=Phase.MOVEMENT).game, "attacker")
    f = field([*units, ("defender", "heavy_tank", "13,5", {"spotted": True})], phase=Phase.MOVEMENT)
    covered = decide(f.game, "attacker")
    gun = f.unit("d2")

    def in_line_of_fire(cell: int) -> bool:
        me = Unit("x", "medium_tank", "attacker", cell, 8)
        seen = f.rules.board.sight(f.state).sees(gun.cell, cell, 25)
        return seen and shot_chance(f.rules.ctx, f.state, gun, me) is not None

    assert isinstance(open_road, D.Move) and in_line_of_fire(open_road.to)  # where it goes when nobody watches
    assert isinstance(covered, D.Move) and not in_line_of_fire(covered.to)
    assert f.rules.board.tables.terrain[f.rules.board.terrain(f.state, covered.to)].blocks_sight


def test_an_engineer_wades_to_the_crossing_its_armour_needs_and_bridges_it(field):
    """The field's only bridge is far west of the tanks and the town they want (Alpha): the engineer goes into
    the river on the tanks' way and builds a bridge there the next turn (p.14, p.21, p.25)."""
    units = [
        ("attacker", "engineer", "10,6"),
        ("attacker", "medium_tank", "12,8"),
        ("attacker", "medium_tank", "8,6"),
        ("defender", "infantry", "1,1"),
    ]
    f = field(units, phase=Phase.MOVEMENT)
    d = decide(f.game, "attacker")
    assert isinstance(d, D.Move) and d.unit == "a1" and f.rules.board.terrain(f.state, d.to) == "river"
    assert f.grid.distance(d.to, f.cell("4,5")) > 4  # not the existing bridge
    f.apply("attacker", d)
    f.edit("a1", moved=False, mp=2)  # the next turn, standing in the river
    assert decide(f.game, "attacker") == D.BuildBridge("a1")


def test_places_its_force_in_and_around_the_towns_it_must_hold():
    """The defender of A Simple Little War puts units inside Konigsberg, its one town (p.10: a unit in a town
    earns its points), and its artillery out of the town, behind it."""
    game = new_game(PerfectGeneral, "simple_little_war", None, 5)
    players = {s: make_player("general", PerfectGeneral, 5 + i) for i, s in enumerate(PerfectGeneral.seats)}
    while game.state.phase in (Phase.PURCHASE, Phase.PLACEMENT):
        seat = game.turn().seat
        game.apply(seat, players[seat].choose(observe(game, seat)))
    konigsberg = set(game.rules.scenario.map.place("Konigsberg").cells)
    blue = [u for u in game.state.units if u.side == "defender"]
    tables = game.rules.ctx.tables
    inside = [u for u in blue if u.cell in konigsberg]
    assert len(inside) >= 3 and all(tables.units[u.type].move for u in inside)
    assert not any(tables.units[u.type].has("artillery") and tables.units[u.type].move == 0 for u in inside)


def _lauter_with_generals() -> tuple[Game, dict[str, General]]:
    """The Lauter Offensive (seed 2) with the general at level 1 in both seats."""
    cls = PerfectGeneral
    return Game(cls(cls.load_scenario("lauter_offensive")), 2), {s: make_player("general", cls, 1) for s in cls.seats}


def test_a_fire_offer_is_answered_from_its_glance_as_from_the_whole_picture():
    """A return or passing fire offer is answered from the units it names and the towns (General._glance), not
    from a belief of every unit: the answer must be the one the whole picture (General._know) gives. A passing
    fire offer whose chances all fall short of the lowest bar is declined without the view
    (General._passing_short): the whole picture must decline it too."""
    game, players = _lauter_with_generals()
    judge = General(1)
    answered = short = 0
    for _ in range(1500):
        due = computer_decision(game, players)
        if due is None:
            break
        state, seat = game.state, game.turn().seat
        if state.offer is not None and seat is not None:
            pc = observe(game, seat)
            ctx = judge.rules(pc).ctx
            view = pc.view.get("state", pc.view)
            answer = judge._passing_fire if state.offer.kind == "passing" else judge._return_fire
            glance, whole = judge._glance(ctx, view, seat, pc.legal), judge._know(ctx, view, seat)
            assert len(glance.state.units) < len(whole.state.units)
            assert glance.towns == whole.towns
            assert answer(ctx, glance, pc.legal) == answer(ctx, whole, pc.legal), state.offer
            if state.offer.kind == "passing" and judge._passing_short(pc.legal):
                assert answer(ctx, whole, pc.legal) == D.HoldFire(), state.offer
                short += 1
            answered += 1
        game.apply(*due)
    assert answered > 20 and 10 < short < answered


def test_placement_scores_kept_from_one_placement_to_the_next_are_the_scores_made_afresh():
    """What a type's placement scores owe to the type, the map and the weather alone is kept for the next
    placement (General._placement_base); what the units placed so far change (a town short of its garrison, a
    mine's neighbours) must still count: the kept scores equal those of a general with nothing kept."""
    game, players = _lauter_with_generals()
    kept = General(1)
    scored = 0
    while game.state.phase in (Phase.PURCHASE, Phase.PLACEMENT):
        due = computer_decision(game, players)
        assert due is not None
        seat = due[0]
        if game.state.phase is Phase.PLACEMENT:
            pc = observe(game, seat)
            ctx = kept.rules(pc).ctx
            view = pc.view.get("state", pc.view)
            for fam in pc.legal.of_kind("place"):
                t, cells = fam.fixed["type"], fam.values()
                fresh = General(1)
                fresh._rules = kept._rules
                assert kept._placement_scores(ctx, kept._know(ctx, view, seat), t, cells) == fresh._placement_scores(
                    ctx, fresh._know(ctx, view, seat), t, cells
                ), t
                scored += 1
        game.apply(*due)
    assert scored > 50


def test_shot_chances_kept_for_the_exposure_are_the_chances_worked_out_afresh():
    """The chances the general's exposure weighs are kept from one unit and decision to the next
    (General._shots_kept) while the line of sight, the visibility and the terrain stand: at every movement
    decision of a generals' game (turns of different weather, bridges built), each unit's exposure at every
    location it may reach is the exposure worked out with nothing kept."""
    game, players = _lauter_with_generals()
    judge = General(1)
    weighed = 0
    turns = set()
    while game.state.turn <= 3:
        due = computer_decision(game, players)
        assert due is not None
        seat = due[0]
        if game.state.phase is Phase.MOVEMENT and game.state.offer is None and seat == game.state.side:
            pc = observe(game, seat)
            ctx = judge.rules(pc).ctx
            k = judge._know(ctx, pc.view.get("state", pc.view), seat)
            sight, vis = ctx.board.sight(k.state), ctx.board.weather(k.state).visibility
            kept = judge._shots_kept(ctx, k.state, sight, vis)
            for fam in pc.legal.of_kind("move")[:6]:
                u = k.state.unit(fam.fixed["unit"])
                threats = judge._threats(ctx, k, u)
                for c in fam.values():
                    fresh = judge._exposure(ctx, k, u, c, threats, sight, vis, {})
                    assert judge._exposure(ctx, k, u, c, threats, sight, vis, kept) == fresh, (u, c)
                    weighed += bool(fresh)
            turns.add(game.state.turn)
        game.apply(*due)
    assert weighed > 100 and turns == {1, 2, 3}


def test_kept_shot_chances_go_when_the_terrain_changes(field):
    """A forest shelled to rubble where the unit stands loses its defensive advantage but still blocks sight
    (p.23): the chances of the shots at the unit rise, and those kept before must not answer after
    (General._shots_kept), though the line of sight is the same."""
    f = field([("attacker", "medium_tank", "7,7", {"spotted": True}), ("defender", "infantry", "7,9")])
    judge = General(1)
    cell = f.cell("7,9")

    def exposure() -> tuple[float, float, object]:
        pc = observe(f.game, "defender")
        ctx = judge.rules(pc).ctx
        k = judge._know(ctx, pc.view.get("state", pc.view), "defender")
        u = k.state.unit("d1")
        sight, vis = ctx.board.sight(k.state), ctx.board.weather(k.state).visibility
        kept = judge._shots_kept(ctx, k.state, sight, vis)
        args = (ctx, k, u, cell, judge._threats(ctx, k, u), sight, vis)
        return judge._exposure(*args, kept), judge._exposure(*args, {}), sight

    before, fresh, sight = exposure()
    assert before == fresh > 0
    f.set(terrain=((cell, "forest_rubble"),))
    after, fresh, same = exposure()
    assert same is sight
    assert after == fresh > before


def test_plot_heat_kept_from_one_plot_to_the_next_is_the_heat_worked_out_afresh():
    """The heat a side's plots are aimed by is kept from one plot decision to the next (General._heats_kept):
    at every plot decision of a generals' game, after the general itself has decided, each kept heat equals
    the heat worked out afresh."""
    game, players = _lauter_with_generals()
    checked = 0
    while game.state.turn <= 4:
        due = computer_decision(game, players)
        assert due is not None
        seat = due[0]
        if game.state.phase in (Phase.MOBILE_PLOT, Phase.ARTILLERY_PLOT):
            judge = players[seat]
            pc = observe(game, seat)
            ctx = judge.rules(pc).ctx
            k = judge._know(ctx, pc.view.get("state", pc.view), seat)
            next_turn = game.state.phase is Phase.ARTILLERY_PLOT
            for splash, heat in judge._heats_kept(ctx, k, next_turn).items():
                assert heat == judge._plot_heat(ctx, k, splash, next_turn), (seat, game.state.turn)
                checked += 1
        game.apply(*due)
    assert checked > 5


def test_kept_plot_heat_goes_when_a_unit_moves_or_the_terrain_changes(field):
    """The kept heat (General._heats_kept) answers only while what it is worked out from stands: after an enemy
    moves, one of ours moves or a forest grows, it is the heat worked out afresh."""
    f = field(
        [
            ("defender", "light_artillery", "3,3"),
            ("defender", "infantry", "12,3"),
            ("attacker", "medium_tank", "7,7", {"spotted": True}),
        ]
    )
    judge = General(1)
    splash = f.rules.ctx.tables.units["light_artillery"].splash

    def heats() -> tuple[list[float], list[float]]:
        pc = observe(f.game, "defender")
        ctx = judge.rules(pc).ctx
        k = judge._know(ctx, pc.view.get("state", pc.view), "defender")
        kept = judge._heats_kept(ctx, k, True)
        fresh = judge._plot_heat(ctx, k, splash, True)
        return kept.setdefault(splash, fresh), fresh

    last = heats()[0]
    for change in (
        lambda: f.edit("a1", cell=f.cell("6,6")),
        lambda: f.edit("d2", cell=f.cell("12,4")),
        lambda: f.set(terrain=((f.cell("5,5"), "forest"),)),  # a new place for an ambush (p.23: it hides)
    ):
        change()
        kept, fresh = heats()
        assert kept == fresh != last
        last = fresh
