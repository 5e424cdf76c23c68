"""The board's caches are bounded by bytes or by a size that does not grow with play (issue 17, item 5)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

from grognard.ai import make_player, play_out
from grognard.ai.driver import computer_decision
from grognard.engine import Game
from grognard.engine.los import Observer, Sight
from grognard.engine.movement import LazyCosts, reach
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general.board import ReachCache, _reach_bytes


def _played(game: Game, players: dict[str, object], decisions: int) -> Iterator[None]:
    """Plays ``game``'s next ``decisions`` (fewer if it ends), pausing after each."""
    for _ in range(decisions):
        due = computer_decision(game, players)  # type: ignore[arg-type]
        if due is None:
            return
        game.apply(*due)
        yield


def _random_lauter(seed: int) -> tuple[Game, dict[str, object], Any]:
    """A Lauter Offensive game of ``seed`` with random players seeded alike, and its ruleset's context."""
    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario("lauter_offensive")), seed)
    players = {s: make_player("random", cls, seed) for s in cls.seats}
    return game, players, game.rules.ctx  # type: ignore[attr-defined]


def _two_played(decisions: int) -> tuple[Game, Game]:
    """Two random Lauter games (seeds 3 and 4), each played ``decisions``, one after the other."""
    games = []
    for seed in (3, 4):
        game, players, _ = _random_lauter(seed)
        play_out(game, players, stop_after=decisions)  # type: ignore[arg-type]
        games.append(game)
    return games[0], games[1]


def _board(game: Game) -> Any:
    return game.rules.ctx.board  # type: ignore[attr-defined]


def test_reach_cache_keeps_within_its_bytes_dropping_the_least_recently_used() -> None:
    rows = [tuple((b, 2) for b in (a - 1, a + 1) if 0 <= b < 400) for a in range(400)]  # a line of 400
    costs = LazyCosts(rows, rows.__getitem__)
    searches = [reach(costs, start, 6) for start in range(100, 105)]  # each reaches 7 locations
    size = _reach_bytes(searches[0])
    cache = ReachCache(3 * size)
    for i, r in enumerate(searches[:3]):
        cache.put(i, costs, r)
    assert cache.get(0, costs) is searches[0]  # 0 is now the most recently used: 1 is the oldest
    cache.put(3, costs, searches[3])
    assert len(cache) == 3 and cache.bytes <= 3 * size
    assert cache.get(1, costs) is None and cache.get(0, costs) is searches[0]
    assert cache.get(2, costs) is searches[2] and cache.get(3, costs) is searches[3]
    assert cache.get(3, LazyCosts(rows, rows.__getitem__)) is None  # another table under a reused id: not answered


def test_a_kept_search_does_not_keep_its_cost_table_alive() -> None:
    """A table and its terrain's step classes are 100-300 KB: once nobody else holds it, its searches can never be
    asked for again, and the cache must not be what keeps it (20 games of one board held hundreds of them)."""
    rows = [tuple((b, 2) for b in (a - 1, a + 1) if 0 <= b < 50) for a in range(50)]
    costs = LazyCosts(rows, rows.__getitem__)
    cache = ReachCache(1 << 20)
    entry = cache.put(0, costs, reach(costs, 10, 6))
    table = weakref.ref(costs)
    del costs
    gc.collect()
    assert table() is None and entry.costs() is None


def test_movement_searches_of_a_whole_game_stay_within_the_board_budget() -> None:
    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario("lauter_offensive")), 4)
    players = {s: make_player("random", cls, 1) for s in cls.seats}
    board = game.rules.ctx.board  # type: ignore[attr-defined]
    most = 0
    for _ in range(600):
        due = computer_decision(game, players)
        if due is None:
            break
        game.apply(*due)
        most = max(most, board.reaches.bytes)
    assert 0 < most <= board.reaches.budget
    assert board.reaches.bytes == sum(_reach_bytes(e.reach) for e in board.reaches._entries.values())


def _lauter_game(decisions: int, kind: str = "random") -> Game:
    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario("lauter_offensive")), 2)
    players = {s: make_player(kind, cls, 1) for s in cls.seats}
    for _ in range(decisions):
        due = computer_decision(game, players)
        if due is None:
            break
        game.apply(*due)
    return game


def test_units_near_a_location_are_those_within_the_distance_in_their_order() -> None:
    game = _lauter_game(150)
    board = game.rules.ctx.board  # type: ignore[attr-defined]
    units = game.state.units
    assert len({u.side for u in units}) == 2 and len(units) > 10
    for cell in range(0, board.grid.size, 37):
        for radius in (0, 1, 6, 25, 300, 6):  # the last answer is kept: each asked right after another radius
            near = board.near(units, cell, radius)
            assert near == tuple(u for u in units if board.grid.distance(u.cell, cell) <= radius)
            assert board.near(units, cell, radius) is near
            assert board.near_cells([u.cell for u in units], cell, radius) == [u.cell for u in near]
        assert board.near(units[::-1], cell, 6) == near[::-1]  # another tuple, the same location and radius
        row = board.distance_row(cell)
        assert all(row[c] == min(board.grid.distance(cell, c), 255) for c in range(board.grid.size))


def test_belief_kept_between_decisions_is_the_belief_made_afresh() -> None:
    from grognard.rulesets.perfect_general.general import belief

    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario("lauter_offensive")), 3)
    players = {s: make_player("general", cls, 1) for s in cls.seats}
    ctx = game.rules.ctx  # type: ignore[attr-defined]
    kept: dict[str, object] = {}
    reused = 0
    for _ in range(300):
        due = computer_decision(game, players)
        if due is None:
            break
        seat = due[0]
        view = game.view(seat)["state"]
        last = kept.get(seat)
        before = dict(zip(last[0], last[2], strict=True)) if last is not None else {}  # type: ignore[index]
        fresh, cached = belief(ctx, view, seat), belief(ctx, view, seat, kept)
        assert cached == fresh
        reused += sum(1 for u in cached.units if before.get(u.id) is u)
        game.apply(*due)
    assert reused > 1000  # units the decision did not change are the same objects as before


def test_a_view_hands_out_its_own_unit_entries() -> None:
    game = _lauter_game(200)
    rules = game.rules
    board = rules.ctx.board  # type: ignore[attr-defined]
    first = rules.view(game.state, "attacker")
    first["units"][0]["cell"] = -5  # a caller may change what it was given
    again = rules.view(game.state, "attacker")
    board.unit_views.clear()
    assert again == rules.view(game.state, "attacker") and again["units"][0]["cell"] >= 0


def test_a_count_made_from_the_last_count_is_the_count_with_the_friends_now() -> None:
    from grognard.rulesets.perfect_general.board import Entry

    rows = [tuple((b, 2) for b in (a - 1, a + 1) if 0 <= b < 400) for a in range(400)]  # a line of 400
    costs = LazyCosts(rows, rows.__getitem__)
    r = reach(costs, 100, 6)  # reaches 97..103
    board = PerfectGeneral(PerfectGeneral.load_scenario("simple_little_war")).board
    entry = Entry(costs, r, _reach_bytes(r), None)
    friends = [frozenset({100, 98, 200}), frozenset({100, 97, 200}), frozenset({99, 101, 300}), frozenset()]
    for now in friends * 2:  # each from the last (one or two moved), then again from the kept counts
        assert entry.count(now, board) == r.count_destinations(now)


def test_close_assault_plans_kept_from_the_last_state_are_the_plans_made_afresh() -> None:
    from grognard.rulesets.perfect_general import moves
    from grognard.rulesets.perfect_general.context import own_units
    from grognard.rulesets.perfect_general.state import Phase

    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario("lauter_offensive")), 2)
    players = {s: make_player("general", cls, 1) for s in cls.seats}
    ctx = game.rules.ctx  # type: ignore[attr-defined]
    board = ctx.board
    reused = planned = 0
    for _ in range(900):
        due = computer_decision(game, players)
        if due is None:
            break
        state, seat = game.state, game.turn().seat
        if state.phase == Phase.MOVEMENT and seat is not None:
            for u in own_units(state, seat):
                if not (ctx.tables.units[u.type].has("assault") and moves.can_move(ctx, u)):
                    continue
                before = board.assaults.get(u.id)
                kept = moves._plan_assaults(ctx, state, u)
                reused += before is not None and kept is before[5]
                saved = board.assaults, board.assault_near, board.known_cells
                board.assaults, board.assault_near, board.known_cells = {}, {}, {}
                assert kept == moves._plan_assaults(ctx, state, u), u.id
                board.assaults, board.assault_near, board.known_cells = saved
                planned += bool(kept)
        game.apply(*due)
    assert reused > 10 and planned > 10


def test_the_enemy_units_carried_over_a_step_are_the_units_of_the_state() -> None:
    """A step of a move hands the enemy's units of the tuple before to the tuple after (context.carry_units): they
    must be each side's units on the map of the state, and be handed over (the same tuple) after most moves."""
    from grognard.rulesets.perfect_general.context import own_units
    from grognard.rulesets.perfect_general.state import SIDES, other

    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario("lauter_offensive")), 2)
    players = {s: make_player("random", cls, 1) for s in cls.seats}
    kept = moves = 0
    for _ in range(900):
        due = computer_decision(game, players)
        if due is None:
            break
        enemy = other(due[0])
        before = own_units(game.state, enemy)
        game.apply(*due)
        state = game.state
        for side in SIDES:
            assert own_units(state, side) == tuple(u for u in state.units if u.side == side and not u.carried_by)
        if due[1].kind == "move":
            moves += 1
            kept += own_units(state, enemy) is before
    assert moves > 50 and kept > moves // 2


def test_plot_families_are_counted_as_listed_and_the_kept_plot_areas_are_made_afresh_alike() -> None:
    import numpy as np

    from grognard.rulesets.perfect_general.artillery import plot_area

    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario("lauter_offensive")), 2)
    players = {s: make_player("random", cls, 1) for s in cls.seats}
    ctx = game.rules.ctx  # type: ignore[attr-defined]
    plotted = 0
    for _ in range(900):
        due = computer_decision(game, players)
        if due is None:
            break
        seat = game.turn().seat
        if seat is not None:
            for family in game.legal(seat).of_kind("plot"):
                unit = game.state.unit(family.fixed["unit"])
                kept = plot_area(ctx, game.state, unit)
                assert not kept.flags.writeable  # handed out again: nobody may change it
                sight = ctx.board.sight(game.state)
                sight._union, sight._near = None, {}  # made afresh from the rows
                assert np.array_equal(kept, plot_area(ctx, game.state, unit))
                assert len(family) == len(family.values()) == len(kept)
                plotted += 1
        game.apply(*due)
    assert plotted > 20


def test_sight_answered_from_kept_rows_is_the_line_of_sight() -> None:
    """``SightCache.sees`` answers a pair from a row kept for either end (an artillery plot's): the answer must be
    the line's own, under barrages and damage too (the rows are looked at again there)."""
    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario("lauter_offensive")), 3)
    players = {s: make_player("random", cls, 3) for s in cls.seats}
    board = game.rules.ctx.board  # type: ignore[attr-defined]
    grid, compared, under_barrages = board.grid, 0, 0
    for i, _ in enumerate(_played(game, players, 1500)):
        if i % 25:
            continue
        sight = board.sight(game.state)
        vis = board.weather(game.state).visibility
        for a, v in list(sight._rows)[:12]:
            if v != vis:
                continue
            for b in range(0, grid.size, 7):
                if grid.distance(a, b) <= vis:
                    sight._pairs.clear()
                    line = sight.sight.clear(a, b, sight.eye, sight.eye)
                    assert sight.sees(a, b, vis) == line and sight.sees(b, a, vis) == line
                    compared += 1
                    under_barrages += bool(sight.changed)
    assert compared > 1000 and under_barrages > 100


def test_whether_the_enemy_sees_a_unit_answered_from_a_plot_s_sight_is_the_lines_own() -> None:
    """``SightCache.seen_at`` answers from ``seen_by``'s last union (an artillery plot's side) when the enemy stands
    where its units stood: every unit's answer must be what the lines say, whichever side it is on."""
    from grognard.rulesets.perfect_general.context import enemy_units
    from grognard.rulesets.perfect_general.spotting import in_enemy_sight

    game, players, ctx = _random_lauter(3)
    board = ctx.board
    grid, from_union = board.grid, 0
    for i, _ in enumerate(_played(game, players, 1500)):
        state = game.state
        sight = board.sight(state)
        if i % 5 or sight._union is None:
            continue
        vis = board.weather(state).visibility
        for u in state.units:
            enemies = enemy_units(state, u.side)
            sight._seen_at.clear()
            lines = any(
                grid.distance(e.cell, u.cell) <= vis and sight.sight.clear(e.cell, u.cell, sight.eye, sight.eye)
                for e in enemies
            )
            assert in_enemy_sight(ctx, state, u) == lines
            from_union += sight._union[2] == board.cells_of(enemies) and sight._union[0][1] == vis
    assert from_union > 200


def test_step_classes_patched_after_damage_are_the_classes_made_afresh() -> None:
    """A new terrain's step classes are the last terrain's with the steps into and out of the damaged or cut
    locations worked out again: every terrain of a random game's artillery must give the full computation's."""
    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario("lauter_offensive")), 5)
    players = {s: make_player("random", cls, 5) for s in cls.seats}
    board = game.rules.ctx.board  # type: ignore[attr-defined]
    terrains = 0
    last = game.state.terrain
    for _ in _played(game, players, 2500):
        state = game.state
        if state.terrain is last:
            continue
        last = state.terrain
        patched = list(board._step_classes(state, listed=True))
        kept = board._classes
        board._classes = None  # made afresh
        assert patched == list(board._step_classes(state, listed=True))
        board._classes = kept
        terrains += 1
    assert terrains > 5


def test_a_played_game_s_board_is_freed_without_the_garbage_collector() -> None:
    """A board holds a game's thousands of searches, sight rows and tables: no reference cycle may keep it for
    the collector's rare full passes (each 35-45 ms with dead boards in it), so it goes when its game goes."""
    game, players, ctx = _random_lauter(1)
    play_out(game, players, stop_after=400)  # type: ignore[arg-type]
    board = ctx.board
    assert board._sights  # sight was asked for (the cycle was a sight cache's way back to its board)
    kept = weakref.ref(board)
    gc.collect()
    gc.disable()
    try:
        del game, players, ctx, board
        assert kept() is None
    finally:
        gc.enable()


def test_a_phase_end_that_skips_settled_units_spots_as_one_made_afresh() -> None:
    """``spotting.end_of_phase`` leaves as they are the units it left as they were (under the same sight,
    visibility and terrain, the same tuple or units differing only in what spotting does not read: a plot part's
    plotted marks, a new turn's units made ready): every end of a part of a random game, and every state after it,
    must spot the same with the board's last phase end forgotten."""
    from grognard.engine.events import Step
    from grognard.rulesets.perfect_general.spotting import _same_spotting, end_of_phase

    game, players, ctx = _random_lauter(6)
    board = ctx.board
    skipped = other_tuple = 0
    for _ in _played(game, players, 1500):
        state = game.state
        settled = board.settled
        kept = settled is not None and settled[3] is state.terrain and _same_spotting(settled[0], state.units)
        other_tuple += kept and settled is not None and settled[0] is not state.units
        step = Step(state.rng)
        after = end_of_phase(ctx, state, step)
        board.settled = None
        fresh_step = Step(state.rng)
        fresh = end_of_phase(ctx, state, fresh_step)
        assert after.units == fresh.units and after.sides == fresh.sides
        assert [e.kind for e in step.events] == [e.kind for e in fresh_step.events]
        board.settled = settled
        skipped += kept
    assert skipped > 20 and other_tuple > 20


def test_a_search_kept_over_a_new_mine_is_the_search_made_afresh(field) -> None:  # type: ignore[no-untyped-def]
    """A unit's search stands when the locations that stop a move change only where it did not reach (a mine laid
    out of its reach); a unit that reached the mine's location searches again (PG p.22: a mine stops a move)."""
    from grognard.rulesets.perfect_general import decisions as D
    from grognard.rulesets.perfect_general import moves
    from grognard.rulesets.perfect_general.state import Phase

    f = field(
        [("attacker", "engineer", "11,8"), ("attacker", "light_tank", "11,10"), ("attacker", "infantry", "1,10")],
        phase=Phase.MOVEMENT,
    )
    ctx = f.rules.ctx
    before = {uid: moves.unit_reach(ctx, f.state, f.unit(uid)) for uid in ("a2", "a3")}
    f.apply("attacker", D.LayMine("a1", f.cell("11,9")))  # next to the tank: its search went on from there
    fresh = PerfectGeneral(f.rules.scenario, f.rules.options).ctx  # nothing kept
    for uid in ("a2", "a3"):
        kept, made = moves.unit_reach(ctx, f.state, f.unit(uid)), moves.unit_reach(fresh, f.state, f.unit(uid))
        assert (list(kept.cost), list(kept.prev), kept.reached) == (list(made.cost), list(made.prev), made.reached)
    assert moves.unit_reach(ctx, f.state, f.unit("a3")).cost is before["a3"].cost  # out of its reach: kept
    tank = moves.unit_reach(ctx, f.state, f.unit("a2"))
    assert list(tank.prev) != list(before["a2"].prev)  # the mine stops it


def test_kept_cost_tables_are_the_tables_made_afresh() -> None:
    """``Board.unit_costs`` keeps a table by unit type with the terrain, cut roads and turn (its weather) it was made
    for: it must answer as :meth:`Board.costs` does, through damage and mud."""
    from dataclasses import replace

    from grognard.rulesets.perfect_general.context import own_units
    from grognard.rulesets.perfect_general.state import Phase

    game, players, ctx = _random_lauter(5)
    board = ctx.board
    percents = set()
    for _ in _played(game, players, 1500):
        state, seat = game.state, game.turn().seat
        if state.phase is not Phase.MOVEMENT or seat is None or state.offer is not None:
            continue
        for t in {u.type for u in own_units(state, seat)}:
            assert board.unit_costs(state, t) is board.costs(state, ctx.tables.units[t])
        percents.add(board.weather(state).move_percent)
    assert len(percents) > 1  # the weather changed
    # the same terrain in another turn's weather (damage made new terrain at every change of this game's weather)
    clear, mud = replace(game.state, turn=7), replace(game.state, turn=8)  # Lauter: mud from turn 8 (p.22)
    table = board.unit_costs(clear, "infantry")
    assert board.unit_costs(mud, "infantry") is board.costs(mud, ctx.tables.units["infantry"]) is not table


def test_kept_fields_of_a_random_game_are_those_made_afresh() -> None:
    """``moves._field`` keeps the blocked and stopping locations by side with the enemy units, weather, mines,
    barrages and neutral countries they were made from: it must answer as if nothing were kept, through spotting."""
    from grognard.rulesets.perfect_general import moves
    from grognard.rulesets.perfect_general.state import Phase

    game, players, ctx = _random_lauter(5)
    board = ctx.board
    fields = 0
    for _ in _played(game, players, 1500):
        state, seat = game.state, game.turn().seat
        if state.phase is not Phase.MOVEMENT or seat is None or state.offer is not None:
            continue
        kept = board.field_kept.get(seat)
        found = moves._field(ctx, state, seat)
        fields += kept is not None and found[0] is kept[5]
        saved = board.field_memo, board.field_kept
        board.field_memo, board.field_kept = None, {}
        assert moves._field(ctx, state, seat) == found
        board.field_memo, board.field_kept = saved
    assert fields > 100  # fields were kept


def test_the_steps_boards_share_are_each_their_location_and_cost() -> None:
    """The ``(location, cost)`` steps every board of a map shares (``board._PAIRS``): after two games made and read
    them, each made one is its code's location and cost, and a second game's cost rows are the rows made afresh."""
    first_game, game = _two_played(300)
    first, board, state = _board(first_game), _board(game), game.state
    store, made_bytes, _ = board._pair_tables()
    assert store is first._pair_tables()[0]
    scale = board._pair_scale
    made = [code for code, m in enumerate(made_bytes) if m]
    assert len(made) > 1000
    assert all(store[code] == divmod(code, scale) for code in made)
    compared = 0
    for unit_type in board.tables.units.values():
        rows = board.costs(state, unit_type)
        afresh = board._full_costs(state, unit_type, board.weather(state).move_percent)
        filled = [a for a, row in enumerate(rows) if row is not None]
        assert all(rows[a] == afresh[a] for a in filled)
        compared += len(filled)
    assert compared > 100


def test_a_board_only_looked_at_makes_no_steps() -> None:
    """A board built to read a scenario's size or map (the lobby, the benchmarks' choice of the largest scenario)
    makes no table of steps: a list of a reference a location and cost that every full pass of the collector would
    walk for as long as the process lives. Its first table makes them."""
    from grognard.rulesets.perfect_general import board as board_module

    kept = dict(board_module._PAIRS)
    board_module._PAIRS.clear()
    try:
        rules = PerfectGeneral(PerfectGeneral.load_scenario("simple_little_war"))
        rules.initial_state(0)
        rules.map_json()
        assert not board_module._PAIRS, "a board looked at made the steps of its map"
        board = rules.ctx.board
        board.costs(rules.initial_state(0), next(iter(board.tables.units.values()))).row(0)
        assert list(board_module._PAIRS) == [(board.grid.size, board._pair_scale)]
    finally:
        board_module._PAIRS.clear()
        board_module._PAIRS.update(kept)


def test_base_sight_rows_boards_share_are_the_rows_made_afresh_and_of_their_own_map() -> None:
    """The sight over a map as its scenario made it, and its rows (``board._BASE_SIGHTS``), are shared by the boards
    of that map alone: a second game's rows, some worked out by the first, are the rows of a sight made afresh, and
    a board of another map has a sight of its own."""
    cls = PerfectGeneral
    first, board = map(_board, _two_played(600))
    assert board.base_sight() is first.base_sight()
    other = Game(cls(cls.load_scenario("dawn_patrol")), 1).rules.ctx.board  # type: ignore[attr-defined]
    assert other.base_sight() is not board.base_sight()
    rows = board._base()[1]
    assert len(rows) > 50
    afresh = Sight(board.grid, board.base_sight().ground.tolist(), board.base_sight().obstacle.tolist())
    eye = board.tables.sight.eye
    for (cell, vis), row in list(rows.items())[:60]:
        assert (row == afresh.visible([Observer(cell, eye, vis)], target=eye)[0]).all()


def test_move_counts_carried_from_the_last_state_are_the_destinations_listed_afresh() -> None:
    """``moves.move_counts`` carries a unit's count from the side's last counts when the unit, field and tables are
    the same, adjusted by the friends' locations that changed: every count must be the length of the unit's
    destinations listed from a search made afresh."""
    from grognard.rulesets.perfect_general import moves
    from grognard.rulesets.perfect_general.context import own_units
    from grognard.rulesets.perfect_general.state import Phase

    game, players, ctx = _random_lauter(6)
    board = ctx.board
    carried = compared = 0
    for _ in _played(game, players, 1500):
        state, seat = game.state, game.turn().seat
        if state.phase is not Phase.MOVEMENT or seat is None or state.offer is not None or state.walk is not None:
            continue
        last = board.move_counts.get(seat)
        counts = moves.move_counts(ctx, state, seat)
        for u in own_units(state, seat):
            if u.id not in counts:
                continue
            carried += (
                last is not None
                and u.id in last[4]
                and last[4][u.id][0] is u
                and board.move_counts[seat][4][u.id][1] is last[4][u.id][1]
            )
            blocked, stop, friends = moves._field(ctx, state, seat)
            costs = board.unit_costs(state, u.type)
            afresh = reach(costs, u.cell, u.mp, blocked=blocked, stop=stop, min_one=not u.moved, least=1)
            assert counts[u.id] == afresh.count_destinations(friends) == len(moves.destinations(ctx, state, u)), u.id
            compared += 1
    assert carried > 1000 and compared > 2000


def test_distance_rows_boards_share_are_each_location_s_distances() -> None:
    """The distance rows the boards of a grid share (``board._DISTANCE_ROWS``): after two games made and read them,
    each kept row is its location's distance to every location (FAR for FAR and beyond)."""
    from grognard.rulesets.perfect_general.board import FAR

    first, board = map(_board, _two_played(300))
    assert board._distance_rows is first._distance_rows
    grid = board.grid
    kept = list(board._distance_rows.items())
    assert len(kept) > 100
    for cell, row in kept[:: max(1, len(kept) // 40)]:
        assert list(row) == [min(grid.distance(cell, c), FAR) for c in range(grid.size)]
