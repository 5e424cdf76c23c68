"""Objective Kursk's computer general (general.py, issue 14 "Computer player, both sides"): what each seat does
with purpose, that its levels play differently, and its speed. Positions are built by hand (kursk_helpers); the
general is asked as a driver asks it, through its seat's observation."""

from __future__ import annotations

import time
from dataclasses import replace

from kursk_helpers import CTX, GRID, RULES, cell, group, position

from grognard.ai import make_player, observe
from grognard.ai.driver import computer_decision
from grognard.engine import Decision, Game, new_game
from grognard.rulesets.kursk import Kursk
from grognard.rulesets.kursk import decisions as D
from grognard.rulesets.kursk.general import General
from grognard.rulesets.kursk.rules import ADJUST_PARTS, AIR_PARTS, PLOT_PART, ROAD_PARTS, SUPPLY_PARTS
from grognard.rulesets.kursk.state import Depot, KState

TANKS = {"PZ-IV": 60, "INF": 40}
RIFLES = {"INF": 200, "76FH": 20}
SOVIET_TANKS = {"T-34": 60, "INF": 30}


def _ask(state: KState, seat: str, level: int) -> Decision:
    base = new_game(Kursk, "southern_pincer", seed=7)
    game = Game.restore(RULES, 7, state, base.log, base.events, base.event_counts, None)
    return General(7, level).choose(observe(game, seat))


def _part(parts: dict[int, str], seat: str) -> int:
    return next(k for k, v in parts.items() if v == seat)


def _two_targets() -> tuple[int, int, int, int]:
    """A German hex with two Soviet hexes next to it, the one nearer Prokhorovka (the goal) and the other, and a
    second German hex next to the other one only."""
    here = cell("22,24")
    goal = CTX.map.place("Prokhorovka").cells[0]
    around = sorted(GRID.neighbors(here), key=lambda c: (GRID.distance(c, goal), c))
    near, far = around[0], around[-2]
    other = next(c for c in GRID.neighbors(far) if c != here and GRID.distance(c, near) > 1 and c not in around)
    return here, near, far, other


def _two_assaults(here: int, near: int, far: int, other: int, part: int) -> KState:
    """Two German panzer groups, at ``here`` and ``other``, next to Soviet rifle groups at ``near`` and ``far``."""
    return position(
        group(1, "german", GRID.label(here), TANKS),
        group(2, "german", GRID.label(other), TANKS),
        group(60, "soviet", GRID.label(near), RIFLES, mech=False, mode="static"),
        group(61, "soviet", GRID.label(far), RIFLES, mech=False, mode="static"),
        part=part,
    )


def test_the_armour_concentrates_on_the_hex_most_of_its_groups_reach() -> None:
    """§6.4, §9.6: two groups assault together; at `easy` each attacks the hex nearest its goal. (The Soviet's
    tank corps: the German's spearheads drive round what they meet, below, and concentrate only when walled in.)"""
    here, near, far, other = _two_targets()
    state = position(
        group(1, "soviet", GRID.label(here), SOVIET_TANKS),
        group(2, "soviet", GRID.label(other), SOVIET_TANKS),
        group(60, "german", GRID.label(near), TANKS, mode="static"),
        group(61, "german", GRID.label(far), TANKS, mode="static"),
        part=PLOT_PART,
    )
    at_far = str(GRID.direction(here, far))
    assert _ask(state, "soviet", 1) == D.Plot(1, at_far)
    assert _ask(state, "soviet", 0) == D.Plot(1, str(GRID.direction(here, near)))


def test_the_spearhead_drives_round_the_enemy_on_a_town_and_easy_attacks_it() -> None:
    """§11.1, §9.3: a panzer group with a Soviet rifle group between it and Prokhorovka plots its four mobile
    hexes (§6.4) round it, never into it nor into the minefields (§9.4), ending nearer the town; at `easy` it
    attacks the rifle group. (Belgorod, his, is held by infantry as at the start.)"""
    town = CTX.map.place("Prokhorovka").cells[0]
    here = cell("23,24")
    block = GRID.neighbor(here, 1)
    state = position(
        group(1, "german", GRID.label(here), TANKS, mode="mobile", supply=12),
        group(2, "german", "21,29", RIFLES, mech=False, mode="static"),
        group(60, "soviet", GRID.label(block), RIFLES, mech=False, mode="static"),
        part=PLOT_PART,
    )
    d = _ask(state, "german", 1)
    assert isinstance(d, D.Plot) and len(d.plot) == 4
    path = [here]
    for x in d.plot:
        path.append(GRID.neighbor(path[-1], int(x)))
    assert block not in path and not any(CTX.map.has("minefield", c) for c in path[1:])
    assert GRID.distance(path[-1], town) < GRID.distance(here, town)
    assert _ask(state, "german", 0) == D.Plot(1, "1")


def test_a_spearhead_on_a_town_it_took_garrisons_it() -> None:
    """§11.1: a town is the last mover's; the group on a town the German took takes static mode to hold it (x1.5,
    §6.2) while the other spearhead there goes on; at `easy` it stays in assault mode in contact."""
    town = CTX.map.place("Oboyan").cells[0]
    soviet = GRID.neighbor(town, 1)
    start = position(
        group(1, "german", GRID.label(town), TANKS),
        group(2, "german", GRID.label(town), TANKS),
        group(60, "soviet", GRID.label(soviet), RIFLES, mech=False, mode="static"),
        part=_part(ROAD_PARTS, "german"),
    )
    state = replace(start, control=tuple((n, "german" if n == "Oboyan" else s) for n, s in start.control))
    assert _ask(state, "german", 1) == D.SetMode(1, "static")
    assert _ask(replace(state, groups=state.groups[1:]), "german", 1) == D.SetMode(2, "static")
    assert _ask(state, "german", 0) == D.EndPhase()


def test_the_german_ends_the_game_once_he_has_won_even_had_the_soviet_lost_nothing() -> None:
    """§3.5, §11.2: with Kursk and Oboyan taken and nothing lost the Soviet leads by 30,451 at most (German
    Substantive): the general ends the game; at the start (Soviet Substantive) it plays on, and `easy` never ends
    it."""
    start = replace(RULES.initial_state(7), part=_part(ADJUST_PARTS, "german"))
    taken = replace(start, control=tuple((n, "german" if n in ("Kursk", "Oboyan") else s) for n, s in start.control))
    assert _ask(taken, "german", 1) == D.EndGame()
    assert _ask(start, "german", 1) == D.EndPhase()
    assert _ask(taken, "german", 0) == D.EndPhase()


def test_the_german_bombs_the_hex_his_assault_groups_touch_and_easy_flies_no_strike() -> None:
    """§7.1, §9.0: airstrikes come before the assaults, on the hex most assault groups are next to."""
    here, near, far, other = _two_targets()
    state = _two_assaults(here, near, far, other, _part(AIR_PARTS, "german"))
    d = _ask(state, "german", 1)
    assert isinstance(d, D.Airstrike) and d.strike[0] == far
    assert isinstance(_ask(state, "german", 0), D.EndPhase)


def test_german_guns_bombard_the_hex_the_assault_goes_in_on() -> None:
    """§6.6: a static group with field howitzers fires at the hex most of its side assaults."""
    here, near, far, other = _two_targets()
    guns = group(3, "german", GRID.label(other), {"105FH": 24, "INF": 100}, mode="static")
    state = position(
        group(1, "german", GRID.label(here), TANKS),
        guns,
        group(60, "soviet", GRID.label(near), RIFLES, mech=False, mode="static"),
        group(61, "soviet", GRID.label(far), RIFLES, mech=False, mode="static"),
        part=PLOT_PART,
        plots=((1, str(GRID.direction(here, far))),),
    )
    d = _ask(state, "german", 1)
    assert d == D.Plot(3, f"B{GRID.direction(other, far)}")
    assert _ask(state, "german", 0) == D.Commit()  # easy plots no bombardment


def test_the_soviet_armour_counterattacks_within_its_levels_radius_and_the_rifles_hold() -> None:
    """A German group seen three hexes from a tank corps: it takes mobile mode to close (normal, hard), not at
    easy; at five hexes only `hard` goes. The rifle division in contact keeps its static mode (its belt)."""
    rifles = cell("20,20")
    german = GRID.neighbor(rifles, 4)
    for distance, moves in ((3, {0: False, 1: True, 2: True}), (5, {0: False, 1: False, 2: True})):
        tank = next(c for c in GRID.ring(german, distance) if GRID.distance(c, rifles) >= 2)
        state = position(
            group(60, "soviet", GRID.label(rifles), RIFLES, mech=False, mode="static"),
            group(61, "soviet", GRID.label(tank), SOVIET_TANKS, mode="static"),
            group(1, "german", GRID.label(german), TANKS),
            part=_part(ROAD_PARTS, "soviet"),
        )
        for level, goes in moves.items():
            d = _ask(state, "soviet", level)
            assert (d == D.SetMode(61, "mobile")) == goes, (distance, level, d)
            assert not (isinstance(d, D.SetMode) and d.group == 60)


def _german_towns() -> tuple[tuple[str, str], ...]:
    """Every town German, so that no depot drives off to take one (§11.1)."""
    return tuple((n, "german") for n, _ in RULES.initial_state(7).control)


def test_the_depot_follows_the_spearhead_and_supplies_it() -> None:
    """§5.1-5.2: the depot drives toward the panzer group short of supply, then (S)UPPLIES it within 2 hexes."""
    entry = CTX.entries["german"][1]
    spear = GRID.ring(entry, 5)[0]
    hungry = group(1, "german", GRID.label(spear), TANKS, supply=2)
    state = position(
        hungry, part=_part(SUPPLY_PARTS, "german"), depot=Depot("german", entry, 60, 1), control=_german_towns()
    )
    d = _ask(state, "german", 1)
    assert isinstance(d, D.MoveDepot)
    assert GRID.distance(GRID.neighbor(entry, d.direction), spear) < GRID.distance(entry, spear)
    close = replace(state, depot=Depot("german", GRID.ring(spear, 2)[0], 60, 1))
    assert _ask(close, "german", 1) == D.Distribute()


def test_all_of_a_sides_orders_for_a_turn_within_2_seconds() -> None:
    """Issue 14: all of one side's orders for a turn within 2 s (the busiest turns: the whole front in contact).
    The general's own CPU time: the wall clock of a machine shared by many jobs measures the others."""
    game = new_game(Kursk, "southern_pincer", seed=8)
    players = {s: make_player("general:hard", Kursk, 8) for s in Kursk.seats}
    spent: dict[tuple[int, str], float] = {}
    while game.state.turn <= 3:
        start = time.process_time()
        due = computer_decision(game, players)
        assert due is not None
        key = (game.state.turn, due[0])
        spent[key] = spent.get(key, 0.0) + time.process_time() - start
        game.apply(*due)
    assert len(spent) == 6 and max(spent.values()) < 2.0


def test_on_the_last_turn_the_german_ends_the_game_unless_a_spearhead_can_still_take_a_town() -> None:
    """§3.5: the last turn's execution can only take back towns from stranded garrisons: the general ends the game
    at its start, unless a spearhead carries the supply to reach a Soviet town (§5.4, a point a hex)."""
    last = CTX.scenario.last_turn
    town = CTX.map.place("Prokhorovka").cells[0]
    near = GRID.ring(town, 3)[0]
    part = _part(ADJUST_PARTS, "german")
    stranded = position(group(1, "german", GRID.label(near), TANKS, mode="mobile", supply=0), part=part, turn=last)
    assert _ask(stranded, "german", 1) == D.EndGame()
    fuelled = position(group(1, "german", GRID.label(near), TANKS, mode="mobile", supply=6), part=part, turn=last)
    assert _ask(fuelled, "german", 1) == D.EndPhase()
    assert _ask(replace(stranded, turn=last - 1), "german", 1) == D.EndPhase()


def test_a_walled_in_spearhead_assaults_and_at_hard_drives_through() -> None:
    """§6.2, §9.8: a panzer group with a seen Soviet group on every side has no route to a town: at `normal` it
    takes assault mode to attack (towed guns, full defence); at `hard` it stays mobile to drive on should the hex
    it attacks empty."""
    here = cell("20,24")
    ring = [
        group(60 + i, "soviet", GRID.label(c), RIFLES, mech=False, mode="static")
        for i, c in enumerate(GRID.neighbors(here))
    ]
    state = position(
        group(1, "german", GRID.label(here), TANKS, mode="mobile", supply=12), *ring, part=_part(ROAD_PARTS, "german")
    )
    assert _ask(state, "german", 1) == D.SetMode(1, "assault")
    assert _ask(state, "german", 2) == D.EndPhase()


def _supply_phase(state: KState) -> tuple[Game, list[Decision]]:
    """The German general's supply phase (§5) played from ``state`` at `normal`: the game after it and the depot
    decisions made."""
    base = new_game(Kursk, "southern_pincer", seed=7)
    game = Game.restore(RULES, 7, state, base.log, base.events, base.event_counts, None)
    general = General(7, 1)
    made: list[Decision] = []
    for _ in range(200):
        d = general.choose(observe(game, "german"))
        if not isinstance(d, D.NewDepot | D.MoveDepot | D.Distribute):
            break
        made.append(d)
        game.apply("german", d)
    return game, made


def test_a_depot_that_reaches_no_one_is_followed_by_one_from_the_other_road() -> None:
    """§5.1, §5.3: a spearhead walled in (enemies on every hex 2 from it: no depot may come within 2 hexes) is
    nearer the first entry road; its depot reaches no one, so the next comes by the other road (the German has two)
    and supplies the spearhead on that flank. (The general used to stop the phase there.) Every town is German
    here, so that no depot drives off to take one (§11.1, below)."""
    first, second = CTX.entries["german"]
    walled = max((c for c in GRID.ring(first, 5)), key=lambda c: (GRID.distance(c, second), c))
    fed = max((c for c in GRID.ring(second, 7)), key=lambda c: (GRID.distance(c, first), c))
    soviets = [group(60 + i, "soviet", GRID.label(c), RIFLES, mech=False) for i, c in enumerate(GRID.ring(walled, 2))]
    state = position(
        group(1, "german", GRID.label(walled), TANKS, supply=2),
        group(2, "german", GRID.label(fed), TANKS, supply=2),
        *soviets,
        part=_part(SUPPLY_PARTS, "german"),
        control=_german_towns(),
    )
    game, made = _supply_phase(state)
    entries = [CTX.entries["german"][d.entry] for d in made if isinstance(d, D.NewDepot)]
    assert entries[:2] == [first, second]
    assert game.state.group(2).supplied and not game.state.group(1).supplied


def test_a_spearhead_left_without_supply_takes_static_mode() -> None:
    """§5.4: a group without supply neither moves nor fires, so a spearhead left at 0 after the supply phase waits
    in static mode (defence x1.5, not mobile's x0.75, §6.2); with supply it drives on in mobile mode; at `easy`
    (the first plan) it keeps its mode."""
    here = cell("23,24")
    start = position(
        group(1, "german", GRID.label(here), TANKS, mode="mobile", supply=0),
        group(60, "soviet", GRID.label(GRID.ring(here, 3)[0]), RIFLES, mech=False, mode="static"),
        part=_part(ROAD_PARTS, "german"),
    )
    assert _ask(start, "german", 1) == D.SetMode(1, "static")
    assert _ask(start, "german", 0) == D.EndPhase()
    fed = replace(start, groups=(replace(start.groups[0], supply=12), *start.groups[1:]))
    assert _ask(fed, "german", 1) == D.EndPhase()  # already mobile


def test_a_depot_drives_onto_a_town_the_soviet_holds_and_easy_asks_for_none() -> None:
    """§11.1: a town is held by the last side to move a group or a depot onto it. With no Soviet group near the
    roads the German asks for a depot though no group needs one and drives it from the entry road onto a Soviet
    town (normal), which changes hands; at `easy` no depot is asked for when no group needs one."""
    state = position(
        group(1, "german", "15,26", TANKS, mode="static", supply=36),
        group(60, "soviet", "0,6", RIFLES, mech=False, mode="static"),
        part=_part(SUPPLY_PARTS, "german"),
    )
    game, made = _supply_phase(state)
    assert isinstance(made[0], D.NewDepot) and not any(isinstance(d, D.Distribute) for d in made)
    taken = {n for n, side in game.state.control if side == "german"} - {
        n for n, side in state.control if side == "german"
    }
    assert taken and "Lgov" not in taken  # the Soviet group at Lgov keeps any depot off it (§5.1)
    assert _ask(state, "german", 0) == D.EndPhase()


def test_a_spearhead_goes_for_no_town_beyond_its_supply_and_assaults_a_weakly_held_hex_next_to_it() -> None:
    """§5.4: a panzer group whose 3 supply points reach no town the Soviet holds does not drive off to be stranded
    (normal): alone it waits in static mode (x1.5, §6.2); next to a Soviet group on clear ground it takes assault
    mode and attacks it; next to one in a woods hex or a minefield (defence doubled, §8.4) it waits. At `easy` it
    drives on (mobile)."""
    here = "15,26"

    def at(where: str | None, mode: str = "mobile", part: int = _part(ROAD_PARTS, "german")) -> KState:
        enemy = [group(60, "soviet", where, RIFLES, mech=False, mode="static")] if where else []
        return position(group(1, "german", here, TANKS, mode=mode, supply=3), *enemy, part=part)

    assert _ask(at(None), "german", 1) == D.SetMode(1, "static")
    assert _ask(at(None), "german", 0) == D.EndPhase()
    assert _ask(at("16,26"), "german", 1) == D.SetMode(1, "assault")
    assert _ask(at("16,26", "assault", PLOT_PART), "german", 1) == D.Plot(
        1, str(GRID.direction(cell(here), cell("16,26")))
    )
    assert _ask(at("16,27"), "german", 1) == D.SetMode(1, "static")  # woods
    assert _ask(at("15,25"), "german", 1) == D.SetMode(1, "static")  # a minefield


def test_a_spearhead_with_no_town_in_reach_leaves_alone_a_group_on_a_soviet_start_hex() -> None:
    """§13: a Soviet group seen on a hex where the Soviet order of battle starts is likely dug in there (static,
    x1.5, §6.2): a panzer group with no town in reach next to it on open ground waits (static) rather than attack
    it; the same group one hex off the start hexes is attacked."""
    dug_in, beside = cell("16,23"), cell("17,23")
    start = position(
        group(1, "german", GRID.label(beside), TANKS, mode="mobile", supply=3),
        group(60, "soviet", GRID.label(dug_in), RIFLES, mech=False, mode="static"),
        part=_part(ROAD_PARTS, "german"),
        control=_german_towns(),
    )
    assert _ask(start, "german", 1) == D.SetMode(1, "static")
    clear = [c for c in GRID.neighbors(beside) if CTX.map.terrain[c] == "clear" and not CTX.map.has("minefield", c)]
    moved = next(c for c in clear if c != dug_in)
    off = replace(start, groups=(start.groups[0], replace(start.groups[1], cell=moved)))
    assert _ask(off, "german", 1) == D.SetMode(1, "assault")


def test_a_spearhead_goes_to_hold_a_town_of_his_with_no_group_on_it() -> None:
    """§11.1: a town is the last mover's, so one his depot took (or whose garrison fell) is walked back into: with
    every town his and none held, a panzer group that can reach Prokhorovka drives on it (mobile) rather than wait;
    at a town with a group of his on it, it waits (static)."""
    town = CTX.map.place("Prokhorovka").cells[0]
    here = GRID.ring(town, 4)[0]
    state = position(
        group(1, "german", GRID.label(here), TANKS, mode="static", supply=12),
        part=_part(ROAD_PARTS, "german"),
        control=_german_towns(),
    )
    assert _ask(state, "german", 1) == D.SetMode(1, "mobile")
    held = (group(2, "german", GRID.label(town), TANKS, mode="static", supply=12),)
    others = [c for c in CTX.towns if c != town]
    guards = tuple(group(3 + i, "german", GRID.label(c), TANKS, mode="static") for i, c in enumerate(others))
    assert _ask(replace(state, groups=(*state.groups, *held, *guards)), "german", 1) == D.EndPhase()
