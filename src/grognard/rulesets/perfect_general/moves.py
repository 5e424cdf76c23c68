"""Movement (PG p.14-15, p.25-27): smart moves, hex by hex, with passing fire, mines, barrages, neutral
countries, transport, close assault and engineers."""

from __future__ import annotations

from typing import NamedTuple

from grognard.engine.events import Step
from grognard.engine.movement import UNREACHED, Reach, reach, same_search
from grognard.engine.records import replace

from .artillery import barrage_at, set_terrain
from .board import FAR, Entry
from .combat import destroy, hit, resolve_assault
from .context import ALONE, Ctx, carry_units, enemy_units, own_units
from .spotting import known_enemies, mark_seen_acting, spot_mover
from .state import SIDES, Interrupt, Mine, Offer, PGState, Unit, Walk, other, replaced
from .words import count, sides

# how many units' last search keys the board keeps (one each; the searches themselves are in its byte-bounded
# cache): a size that does not grow with play
UNITS_KEPT = 4096


def budget(ctx: Ctx, unit: Unit) -> int:
    """A unit's movement points in half points (a road step costs one, p.23)."""
    return 2 * ctx.tables.units[unit.type].move


def can_move(ctx: Ctx, unit: Unit) -> bool:
    """Carried units ride; units just unloaded (p.27 c), next to a strike (p.30) or working cannot move."""
    return (
        unit.mp > 0
        and not unit.carried_by
        and not unit.unloaded
        and not unit.pinned
        and not unit.worked
        and ctx.tables.units[unit.type].move > 0
    )


def unit_reach(ctx: Ctx, state: PGState, unit: Unit, mp: int | None = None, load_at: int = -1) -> Reach:
    """Where ``unit`` can go with its movement left, as its side knows the field (hidden enemies are not
    avoided: bumping into one stops the move)."""
    if mp is None and load_at < 0:  # a unit's own move: its count, list, assaults and loads ask for it alike
        return ctx.board.unit_memo(state, "reach", unit, lambda: _unit_reach(ctx, state, unit, None, -1))
    return _unit_reach(ctx, state, unit, mp, load_at)


def _unit_reach(ctx: Ctx, state: PGState, unit: Unit, mp: int | None, load_at: int) -> Reach:
    blocked, stop, friends = _field(ctx, state, unit.side)
    # the unit's own location stays in: no list of destinations holds the start (Reach.destinations)
    no_stop = friends if load_at < 0 else friends - {load_at}
    entry = _search(ctx, state, unit, blocked, stop) if mp is None else _searched(ctx, state, unit, mp, blocked, stop)
    r = entry.reach
    assert r is not None  # an entry handed out now holds its search
    return Reach(r.start, r.budget, r.cost, r.prev, r.reached, no_stop)


def _search(ctx: Ctx, state: PGState, unit: Unit, blocked: frozenset[int], stop: frozenset[int]) -> Entry:
    """The board's entry of the search of ``unit``'s own move (its ``no_stop`` is not this state's friends). It is
    the last one while the unit, its cost table and the locations blocked are the same objects (``_field`` hands
    out one object for equal sets), as for most units between two decisions, and the board's cache has not let
    go of the search; the locations stopping moves may differ in locations it did not reach (a mine laid far
    away): the search never looked whether those stop a move."""
    board = ctx.board
    costs = ctx.board.unit_costs(state, unit.type)  # one table a unit type
    kept = board.unit_searches.get(unit.id)
    if kept is not None and kept[0] is unit and kept[1] == id(costs) and kept[2] is blocked:
        entry = kept[4]
        r = entry.reach
        if r is not None and entry.costs() is costs:
            if kept[3] is stop:
                entry.used = True
                return entry
            cost = r.cost
            if all(cost[c] >= UNREACHED for c in kept[3] ^ stop):
                entry.used = True
                board.unit_searches[unit.id] = (unit, id(costs), blocked, stop, entry)
                return entry
    entry = _searched(ctx, state, unit, unit.mp, blocked, stop)
    if len(board.unit_searches) >= UNITS_KEPT:
        board.unit_searches.clear()
    board.unit_searches[unit.id] = (unit, id(costs), blocked, stop, entry)
    return entry


def _searched(
    ctx: Ctx, state: PGState, unit: Unit, budget_now: int, blocked: frozenset[int], stop: frozenset[int]
) -> Entry:
    """The board's entry of the search of ``unit`` with ``budget_now`` half points (searched now if not kept)."""
    board = ctx.board
    first = not unit.moved and budget_now == budget(ctx, unit)
    # the search does not depend on where friends stand (they only bar ending a move), so it is kept for
    # the next decision, when usually one unit has moved and every other unit's search is the same
    costs = ctx.board.unit_costs(state, unit.type)  # one table a unit type
    key = (id(costs), unit.cell, budget_now, first, blocked, stop)
    found = board.reaches.entry(key, costs)
    if found is not None and found.reach is not None:
        return found
    # the unit's last search with other enemies known may be this one (movement.same_search)
    family = (id(costs), unit.cell, budget_now, first, stop)
    last = board.reaches.latest(family, costs)
    if last is not None and same_search(
        last[1], costs, last[0][4], blocked, stop=stop, min_one=first, near=board.neighbors
    ):
        r = last[1]
    else:
        # every step costs at least one half point (asserted by the board)
        r = reach(costs, unit.cell, budget_now, blocked=blocked, stop=stop, min_one=first, least=1)
    return board.reaches.put(key, costs, r, family)


def _field(ctx: Ctx, state: PGState, side: str) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """What every move of ``side`` in this state must respect: where it may not go (known enemies, and at
    night the locations next to spotted ones), where a move ends (mines, barrages, neutral borders), and
    where friends stand. Kept for the last state asked about: listing moves asks for every unit."""
    memo = ctx.board.field_memo
    if memo is not None and memo[0] is state and memo[1] == side:
        return memo[2]
    board = ctx.board
    weather = board.weather(state)
    # the enemy's units (equal tuples: the same units where they stand, spotted or not), the weather, mines,
    # barrages and neutral countries entered make the same blocked and stopping locations: kept by side, as a move
    # of the side's own changes none of them
    enemies = enemy_units(state, side)
    kept = board.field_kept.get(side)
    if (
        kept is not None
        and kept[1] is weather
        and kept[2] is state.mines
        and kept[3] is state.barrages
        and kept[4] is state.neutrals_entered
        and kept[0] == enemies
    ):
        blocked, stop = kept[5], kept[6]
    else:
        known = known_enemies(ctx, state, side)
        found_blocked = {e.cell for e in known}  # p.26: no moving through enemy units
        if weather.no_moving_next_to_spotted:  # p.26: not next to a spotted unit at night
            for e in known:
                if e.spotted:
                    found_blocked.update(board.neighbors[e.cell])
        found_stop = {m.cell for m in state.mines} | {b.cell for b in state.barrages}
        found_stop.update(c for c in board.neutral_of if board.neutral_of[c] not in state.neutrals_entered)
        blocked, stop = board.one_set(frozenset(found_blocked)), board.one_set(frozenset(found_stop))
        board.field_kept[side] = (enemies, weather, state.mines, state.barrages, state.neutrals_entered, blocked, stop)
    found = (blocked, stop, board.cells_of(own_units(state, side)))
    board.field_memo = (state, side, found)
    return found


def destinations(ctx: Ctx, state: PGState, unit: Unit) -> list[int]:
    if not can_move(ctx, unit):
        return []
    return unit_reach(ctx, state, unit).destinations()


def count_destinations(ctx: Ctx, state: PGState, unit: Unit) -> int:
    """``len(destinations(...))`` without listing them (random play sizes every unit's move)."""
    return move_counts(ctx, state, unit.side)[unit.id] if can_move(ctx, unit) else 0


def move_counts(ctx: Ctx, state: PGState, side: str) -> dict[str, int]:
    """:func:`count_destinations` of every unit of ``side`` that can move, by id, worked out together once per
    state (random play and the server's messages size every unit's move). A unit standing as in the side's last
    counts (the same object), over the same field and cost tables, has the same search: its count is the last one
    less the locations friends came to and plus those they left that it reaches (one unit moved)."""
    memo = ctx.board.state_memo(state)
    found: dict[str, int] | None = memo.get(("counts", side))
    if found is not None:
        return found
    board = ctx.board
    blocked, stop, friends = _field(ctx, state, side)
    tables = (state.terrain, state.cut_roads, board.weather(state))
    last = board.move_counts.get(side)
    kept: dict[str, tuple[Unit, Entry, int]] = {}
    gone: tuple[int, ...] = ()
    came: tuple[int, ...] = ()
    if last is not None and last[0] is blocked and last[1] is stop and last[3] == tables:
        kept = last[4]
        gone, came = board.set_change(last[2], friends)
    found, now = {}, {}
    for u in own_units(state, side):
        prev = kept.get(u.id)
        # the search is kept still (a unit counted could move, and the same unit still can)
        if prev is not None and prev[0] is u and (r := prev[1].reach) is not None:
            entry, n, cost, start = prev[1], prev[2], r.cost, r.start
            entry.used = True
            for c in gone:  # a loop: quicker than sum() over a generator for a location or two
                if c != start and cost[c] < UNREACHED:
                    n += 1
            for c in came:
                if c != start and cost[c] < UNREACHED:
                    n -= 1
        elif not can_move(ctx, u):
            continue
        else:
            entry = _search(ctx, state, u, blocked, stop)
            counted = entry.count(friends, board)
            assert counted is not None  # an entry handed out now holds its search
            n = counted
        found[u.id] = n
        now[u.id] = (u, entry, n)
    board.move_counts[side] = (blocked, stop, friends, tables, now)
    memo["counts", side] = found
    return found


def assault_targets(ctx: Ctx, state: PGState, unit: Unit) -> list[int]:
    """Locations of known enemy units this unit can close assault: an unfired armored car or tank (p.30) with
    the movement to enter the enemy's location from one it can reach."""
    if not _may_assault(ctx, unit):
        return []
    plan = _assault_plans(ctx, state, unit)
    return sorted(plan)


def count_assault_targets(ctx: Ctx, state: PGState, unit: Unit) -> int:
    """``len(assault_targets(...))`` without sorting them (random play and search size every family)."""
    return count_assaults(ctx, state, unit) if _may_assault(ctx, unit) else 0


def count_assaults(ctx: Ctx, state: PGState, unit: Unit) -> int:
    """:func:`count_assault_targets` of a unit that may assault (an unfired armored car or tank that can move: the
    movement phase names an assault family for those alone, and sizes every one at every decision)."""
    near = ctx.board.assault_near.get(unit.id)
    if near is not None and near[0] is unit and not near[2] and near[1] is _known_cells(ctx, state, unit.side):
        return 0  # no enemy it knows of within reach, as _plan_assaults last found for the same unit and enemies
    return len(_assault_plans(ctx, state, unit))


def _may_assault(ctx: Ctx, unit: Unit) -> bool:
    return ctx.tables.units[unit.type].has("assault") and not unit.fired and can_move(ctx, unit)


def _assault_plans(ctx: Ctx, state: PGState, unit: Unit) -> dict[int, int]:
    """For each assaultable enemy location, the location the assault is made from (worked out once per state:
    the legal set's odds, its assault family and the assault itself ask; kept from one state to the next while
    nothing it depends on changed). Shared: not to be changed."""
    return ctx.board.unit_memo(state, "assault", unit, lambda: _plan_assaults(ctx, state, unit))


def _known_cells(ctx: Ctx, state: PGState, side: str) -> tuple[int, ...]:
    """The locations of the enemy units ``side`` knows (every tank's assaults and every engineer's mine sites ask),
    kept by side with the enemy units they were read from (equal tuples: the same units where they stand, spotted
    or not): one object from state to state while they stand (the assault plans are kept by it)."""
    board = ctx.board
    enemies = enemy_units(state, side)
    kept = board.known_cells.get(side)
    if kept is not None and kept[0] == enemies:
        return kept[1]
    known = tuple([e.cell for e in known_enemies(ctx, state, side)])
    if kept is not None and kept[1] == known:
        known = kept[1]
    board.known_cells[side] = (enemies, known)
    return known


def _plan_assaults(ctx: Ctx, state: PGState, unit: Unit) -> dict[int, int]:
    board = ctx.board
    known = _known_cells(ctx, state, unit.side)
    # a step costs at least one half point, and a unit that has not moved may always make one (p.26): an enemy
    # farther than the movement left and one more step is out of reach
    kept_near = board.assault_near.get(unit.id)
    if kept_near is not None and kept_near[0] is unit and kept_near[1] is known:
        cells = kept_near[2]  # the same unit and enemies' locations: the same enemies within reach
    else:
        cells = tuple(board.near_cells(known, unit.cell, max(unit.mp, 1) + 1))
        if len(board.assault_near) >= UNITS_KEPT:
            board.assault_near.clear()
        board.assault_near[unit.id] = (unit, known, cells)
    if not cells:
        return {}
    blocked, stop, friends = _field(ctx, state, unit.side)
    entry = _search(ctx, state, unit, blocked, stop)
    # the plans stand while the unit, its search (and so its cost table), the enemies within reach and which
    # locations next to them friends hold (a move may not end there) are the same: one unit moves at a time, and
    # the friends' locations that changed since (Board.set_change: the same pair for every unit) are seldom there
    kept = board.assaults.get(unit.id)
    if kept is not None and kept[0] is unit and kept[1] is entry and kept[2] == cells:
        if kept[3] is friends:
            return kept[5]
        around = kept[4]
        gone, came = board.set_change(kept[3], friends)
        if not any(c in around for c in gone) and not any(c in around for c in came):
            board.assaults[unit.id] = (unit, entry, cells, friends, around, kept[5])
            return kept[5]
    r = entry.reach
    assert r is not None  # an entry handed out now holds its search
    costs = board.unit_costs(state, unit.type)  # the entry's own table (_search)
    first = not unit.moved
    plans: dict[int, int] = {}
    for e in cells:
        best: tuple[int, int] | None = None
        for c in board.neighbors[e]:
            if r.cost[c] >= UNREACHED or (c != unit.cell and c in friends):
                continue
            step_cost = next((k for v, k in costs.row(c) if v == e), None)
            if step_cost is None:
                continue  # the unit could not enter the enemy's location at all
            if r.cost[c] + step_cost <= unit.mp or (c == unit.cell and first):
                cand = (r.cost[c], c)
                if best is None or cand < best:
                    best = cand
        if best is not None:
            plans[e] = best[1]
    if len(board.assaults) >= UNITS_KEPT:
        board.assaults.clear()
    around = frozenset([c for e in cells for c in board.neighbors[e]])
    board.assaults[unit.id] = (unit, entry, cells, friends, around, plans)
    return plans


def start_move(ctx: Ctx, state: PGState, step: Step, unit_id: str, to: int) -> PGState:
    unit = state.unit(unit_id)
    path = unit_reach(ctx, state, unit).path(to)
    return _walk(ctx, replace(state, walk=Walk(unit.id, tuple(path[1:]))), step)


def start_assault(ctx: Ctx, state: PGState, step: Step, unit_id: str, to: int) -> PGState:
    unit = state.unit(unit_id)
    origin = _assault_plans(ctx, state, unit)[to]
    target = state.unit_at(to)
    assert target is not None
    path = unit_reach(ctx, state, unit).path(origin)
    return _walk(ctx, replace(state, walk=Walk(unit.id, tuple(path[1:]), "assault", target.id)), step)


# --- transport (p.26-27) ------------------------------------------------------------------------------------
def load_candidates(ctx: Ctx, state: PGState, carrier: Unit) -> list[str]:
    """Friendly units this armored unit can reach and load: a carrier type without cargo (a); a unit that may
    be carried (b), has not moved or fired, nor plotted if artillery (c); arriving with 1 movement point to
    spend on loading (d)."""
    if not (ctx.tables.units[carrier.type].has("carrier") and not carrier.cargo and can_move(ctx, carrier)):
        return []
    return carrier_loads(ctx, state, carrier)


def carrier_loads(ctx: Ctx, state: PGState, carrier: Unit) -> list[str]:
    """:func:`load_candidates` of a carrier that may load (a carrier type without cargo that can move: the movement
    phase names a load family for those alone, and sizes every one at every decision)."""
    board = ctx.board
    memo = board.state_memo(state)
    found_cargo: tuple[tuple[Unit, ...], tuple[int, ...]] | None = memo.get(("cargo", carrier.side))
    if found_cargo is None:  # the same for every carrier of the side
        cargo_types = board.cargo_types
        # entering a heavy barrage's ring takes all movement (p.30): no point left to load (d)
        barred = {b.cell for b in state.barrages}
        units = tuple(
            [
                u
                for u in own_units(state, carrier.side)
                if u.type in cargo_types
                and not (u.moved or u.fired or u.plotted or u.unloaded)
                and u.cell not in barred
            ]
        )
        found_cargo = memo["cargo", carrier.side] = (units, tuple([u.cell for u in units]))
    cargo, cells = found_cargo
    # a step costs at least one half point: a unit farther than the movement left less loading is out of reach (a
    # look at the distances, not Board.near: its one kept answer is spotting's, asked again step after step)
    if min(map(board.distance_row(carrier.cell).__getitem__, cells), default=FAR) > carrier.mp - 2:
        return []
    # friendly locations are passed through, so they get a cost: the carrier's own search, whoever stands where
    blocked, stop, _ = _field(ctx, state, carrier.side)
    entry = _search(ctx, state, carrier, blocked, stop)
    kept = board.loads.get(carrier.id)  # the same carrier, search and units to load: the same answer
    if kept is not None and kept[0] is carrier and kept[1] is entry and kept[2] == cargo:
        return list(kept[3])
    r = entry.reach
    assert r is not None  # an entry handed out now holds its search
    found = sorted(u.id for u in cargo if r.cost[u.cell] < UNREACHED and r.cost[u.cell] + 2 <= carrier.mp)
    if len(board.loads) >= UNITS_KEPT:
        board.loads.clear()
    board.loads[carrier.id] = (carrier, entry, cargo, tuple(found))
    return found


def start_load(ctx: Ctx, state: PGState, step: Step, carrier_id: str, cargo_id: str) -> PGState:
    carrier = state.unit(carrier_id)
    cargo = state.unit(cargo_id)
    path = unit_reach(ctx, state, carrier, load_at=cargo.cell).path(cargo.cell)
    return _walk(ctx, replace(state, walk=Walk(carrier.id, tuple(path[1:]), "load", cargo.id)), step)


def unload_destinations(ctx: Ctx, state: PGState, carrier: Unit) -> list[int]:
    """Unloading costs 1 movement point and the carrier must then leave the location (p.27 a-b)."""
    if not carrier.cargo or not can_move(ctx, carrier) or carrier.mp < 3:
        return []
    r = unit_reach(ctx, state, carrier, mp=carrier.mp - 2)
    return [c for c in r.destinations() if c != carrier.cell]


def start_unload(ctx: Ctx, state: PGState, step: Step, carrier_id: str, to: int) -> PGState:
    carrier = state.unit(carrier_id)
    cargo = state.unit(carrier.cargo)
    path = unit_reach(ctx, state, carrier, mp=carrier.mp - 2).path(to)
    before = state
    cargo = replace(cargo, carried_by="", cell=carrier.cell, unloaded=True, moved=True)
    carrier = replace(carrier, cargo="", mp=carrier.mp - 2)
    state = state.with_units({cargo.id: cargo, carrier.id: carrier})
    at = ctx.board.grid.label(carrier.cell)
    _cargo_event(
        ctx,
        before,
        step,
        "unload",
        carrier,
        cargo,
        f"{sides(carrier.side, ctx.utype(carrier).name)} unloads {{}} at {at}",
    )
    return _walk(ctx, replace(state, walk=Walk(carrier.id, tuple(path[1:]), unloaded=cargo.id)), step)


def _cargo_event(ctx: Ctx, before: PGState, step: Step, kind: str, carrier: Unit, cargo: Unit, text: str) -> None:
    """A load or unload, seen by whoever sees the carrier (``text`` has a ``{}`` for the cargo). The cargo is
    named only to a side that knows of it (``view.hidden_units`` before the event): an enemy that sees the
    carrier but never saw the cargo gets a copy without it, as a target gets a shot without its unseen firer."""
    from .view import hidden_units  # view imports the rules that import this module

    seen = ctx.who_knows(before, carrier)
    blind = tuple(s for s in seen if s != cargo.side and cargo.id in hidden_units(ctx, before, s))
    name = ctx.tables.units[cargo.type].name
    data = {"unit": carrier.id, "cargo": cargo.id, "cell": carrier.cell}
    if not blind:
        ctx.emit(step, kind, text.format(name), seen, **data)
        return
    step.emit(kind, text.format(name), tuple(s for s in seen if s not in blind), **data)
    step.emit(kind, text.format("a unit"), blind, **{**data, "cargo": None})
    step.reveal()  # the enemy saw the carrier load or unload: no taking it back


# --- walking hex by hex ---------------------------------------------------------------------------------------
def _walk(ctx: Ctx, state: PGState, step: Step) -> PGState:
    """Enter the walk's locations one by one until it ends, the unit dies, or passing fire is offered."""
    w = state.walk
    if w is None or not w.path:
        return finish_walk(ctx, state, step)
    unit = state.find(w.unit)
    if unit is None:
        return replace(state, walk=None)
    board = ctx.board
    # what stays the same along the walk: the turn's weather; the mover's cost table and name (no step changes
    # the terrain); where the enemy stands (a step may spot enemy units, not move them). The mover is carried
    # from one step to the next rather than looked up again.
    weather = board.weather(state)
    costs = board.unit_costs(state, unit.type)  # the table every search of its type reads
    name = sides(unit.side, ctx.tables.units[unit.type].name)
    enemy_cells = board.cells_of(enemy_units(state, unit.side))
    while True:
        nxt = w.path[0]
        final = len(w.path) == 1
        if nxt in enemy_cells:  # who stands there matters only if an enemy does (a look through every unit)
            occupant = state.unit_at(nxt)
            if occupant is not None and occupant.side != unit.side:
                return _bump(ctx, state, step, unit, occupant)
        if weather.no_moving_next_to_spotted and any(
            e.spotted and e.cell in board.neighbors[nxt] for e in known_enemies(ctx, state, unit.side)
        ):
            return _stop(ctx, state, step, unit, "may not move next to a spotted unit at night")
        cost = next(k for v, k in costs.row(unit.cell) if v == nxt)
        mp = max(0, unit.mp - cost)
        moved = replace(unit, cell=nxt, mp=mp, moved=True)
        units = replaced(state.units, moved)
        if moved.cargo:
            units = replaced(units, replace(state.unit(moved.cargo), cell=nxt, moved=True))
        carry_units(state.units, units, unit.side)  # the enemy's units stay one tuple throughout the walk
        state = replace(state, units=units, walk=replace(w, path=w.path[1:], trail=(*w.trail, unit.cell)))
        ctx.emit(
            step,
            "move",
            f"{name} moves to {board.grid.label(nxt)}",
            ctx.who_knows(state, moved),
            unit=unit.id,
            frm=unit.cell,
            to=nxt,
            mp=mp,
        )
        entered = _enter_effects(ctx, state, step, moved, nxt)
        mover = moved if entered is state else entered.find(moved.id)
        state = entered
        if mover is None or state.interrupt is not None:
            return replace(state, walk=None)
        state, unit = spot_mover(ctx, state, step, mover)
        if offers_passing_fire(ctx, state, unit):
            return replace(state, offer=Offer("passing", unit.id, unit.id))
        next_walk = state.walk
        if final or next_walk is None or not next_walk.path:
            return finish_walk(ctx, state, step)
        w = next_walk


def finish_walk(ctx: Ctx, state: PGState, step: Step) -> PGState:
    """The walk has ended (or resumes after passing fire with nothing left to enter): do what it was for."""
    w = state.walk
    if w is None:
        return state
    if w.path:
        return _walk(ctx, state, step)
    state = replace(state, walk=None)
    unit = state.find(w.unit)
    if unit is None:
        return state
    if w.then == "assault":
        target = state.find(w.target)
        if target is not None and unit.mp >= 0 and not unit.fired:
            state = resolve_assault(ctx, state, step, unit.id, target.id)
    elif w.then == "load":
        found = state.find(w.target)
        if found is not None and found.cell == unit.cell and unit.mp >= 2 and not unit.cargo:
            before = state
            carrier = replace(unit, cargo=found.id, mp=unit.mp - 2)  # loading costs 1 movement point (p.26)
            cargo = replace(found, carried_by=unit.id, moved=True)
            state = state.with_units({carrier.id: carrier, cargo.id: cargo})
            text = f"{sides(unit.side, ctx.tables.units[unit.type].name)} loads {{}}"
            _cargo_event(ctx, before, step, "load", carrier, cargo, text)
    if w.then:  # an assault or a load changed the unit, or ended it
        unit = state.find(unit.id)
        if unit is None:
            return state
    state = _fall_back(ctx, state, step, unit, w.trail)
    if w.unloaded:
        unit = state.unit(unit.id)  # where falling back left it
        if unit.cell == state.unit(w.unloaded).cell:
            # the carrier could not leave (p.27 b): the cargo stays aboard
            cargo = replace(state.unit(w.unloaded), carried_by=unit.id, unloaded=False)
            state = state.with_units({cargo.id: cargo, unit.id: replace(unit, cargo=cargo.id)})
    return state


def _fall_back(ctx: Ctx, state: PGState, step: Step, unit: Unit, trail: tuple[int, ...]) -> PGState:
    """p.25: "Two units cannot occupy the same location, unless one of them is moving". A move stopped short
    in a friendly location it meant to pass through (a hidden enemy in the way, p.26; an enemy spotted on the
    way at night, p.26) ends on the last location of its way where the unit may stand, its start at worst
    (decision: the manual is silent). A carrier back at its start takes up again the cargo it unloaded there."""
    if not trail:
        return state
    board = ctx.board
    own = own_units(state, unit.side)
    # as many locations as units: no friend shares the unit's (the unit is one of them), and a move never ends in
    # an enemy's location (it bumps into it before): the look through every unit below is for a stopped move
    if (
        not unit.carried_by
        and len(board.cells_of(own)) == len(own)
        and unit.cell not in board.cells_of(enemy_units(state, unit.side))
    ):
        return state
    occupied = {u.cell for u in state.units if not u.carried_by and u.id != unit.id}
    if unit.cell not in occupied:
        return state
    back = next((c for c in reversed(trail) if c not in occupied), trail[0])
    moved = replace(unit, cell=back, mp=0)
    state = state.with_unit(moved)
    if moved.cargo:
        state = state.with_unit(replace(state.unit(moved.cargo), cell=back))
    ctx.emit(
        step,
        "move",
        f"{sides(unit.side, ctx.tables.units[unit.type].name)} cannot stay in {board.grid.label(unit.cell)} with "
        f"another unit and falls back to {board.grid.label(back)}",
        ctx.who_knows(state, moved),
        unit=unit.id,
        frm=unit.cell,
        to=back,
        mp=0,
    )
    return state


def _stop(ctx: Ctx, state: PGState, step: Step, unit: Unit, why: str) -> PGState:
    step.emit("stopped", f"the {ctx.tables.units[unit.type].name} stops: {why}", ALONE[unit.side], unit=unit.id)
    state = state.with_unit(replace(unit, mp=0))
    return finish_walk(ctx, replace(state, walk=replace(state.walk, path=(), then="")) if state.walk else state, step)


def _bump(ctx: Ctx, state: PGState, step: Step, unit: Unit, hidden: Unit) -> PGState:
    """The path runs into an enemy unit the mover did not know of: the move stops and the enemy is found."""
    found = replace(hidden, spotted=True)
    state = state.with_unit(found)
    ctx.emit(
        step,
        "spotted",
        f"{sides(hidden.side, ctx.tables.units[hidden.type].name)} found at {ctx.board.grid.label(hidden.cell)}",
        SIDES,
        unit=hidden.id,
        type=hidden.type,
        cell=hidden.cell,
        side=hidden.side,
    )
    return _stop(ctx, state, step, state.unit(unit.id), "an enemy unit blocks the way")


def _enter_effects(ctx: Ctx, state: PGState, step: Step, unit: Unit, cell: int) -> PGState:
    """Mines (p.22), barrages (p.30) and neutral countries (p.18) act on ``unit`` (of ``state``) entering ``cell``;
    ``state`` itself when none does."""
    mine = state.mine_at(cell)
    if mine is not None:
        label = ctx.board.grid.label(cell)
        charges = mine.charges - 1  # two detonations, then it burns out
        mines = tuple(m for m in state.mines if m.cell != cell)
        if charges > 0:
            mines = (*mines, replace(mine, charges=charges))
        state = replace(state, mines=tuple(sorted(mines, key=lambda m: m.cell)))
        ctx.emit(
            step,
            "mine",
            f"a mine at {label} explodes" + ("" if charges else " and burns out"),
            SIDES,
            cell=cell,
            charges=charges,
        )
        return replace(destroy(ctx, state, step, unit.id, "mine"), walk=None)
    b = barrage_at(state, cell)
    if b is not None:
        if b.strike:
            return replace(destroy(ctx, state, step, unit.id, "barrage"), walk=None)
        name = ctx.tables.units[unit.type].name
        struck = (
            step.chance(ctx.tables.units["heavy_artillery"].splash, f"{name} entering a heavy barrage", SIDES)
            if ctx.random_hit
            else True
        )
        if struck:
            state = hit(ctx, state, step, unit.id, ctx.tables.units["heavy_artillery"].damage, "barrage")
        survivor = state.find(unit.id)
        if survivor is None:
            return replace(state, walk=None)
        state = state.with_unit(replace(survivor, mp=0, pinned=True))
        return replace(state, walk=replace(state.walk, path=(), then="")) if state.walk else state
    country = ctx.board.neutral_of.get(cell)
    if country is not None and country not in state.neutrals_entered:
        # p.18: the game pauses; the side NOT invading buys and places the country's defenders
        spec = next(n for n in ctx.board.scenario.neutrals if n.name == country)
        state = state.with_unit(replace(unit, mp=0))
        ctx.emit(
            step,
            "neutral",
            f"{unit.side} enters {country}: {other(unit.side)} receives {count(spec.points, 'buy point')} to defend it",
            SIDES,
            country=country,
            side=unit.side,
            points=spec.points,
        )
        defender = other(unit.side)
        state = replace(
            state,
            neutrals_entered=(*state.neutrals_entered, country),
            interrupt=Interrupt(defender, f"neutral:{country}", state.phase, state.side),
            walk=None,
        )
        return state.with_side(defender, points=spec.points)
    return state


def resume_after_passing_fire(ctx: Ctx, state: PGState, step: Step, fired: bool) -> PGState:
    """After the passive side's answer: offer again if it fired and others still can, else walk on."""
    assert state.offer is not None
    mover = state.find(state.offer.target)
    state = replace(state, offer=None)
    if mover is None:
        return replace(state, walk=None)
    if fired and offers_passing_fire(ctx, state, mover):
        return replace(state, offer=Offer("passing", mover.id, mover.id))
    return finish_walk(ctx, state, step)


def offers_passing_fire(ctx: Ctx, state: PGState, mover: Unit) -> bool:
    """Passing fire is offered at every location a spotted unit enters by day, whether or not the passive
    side has a unit able to fire: a pause only when it had one would tell the mover where hidden units are."""
    return mover.spotted and not ctx.board.weather(state).no_direct_fire


# --- engineers (p.21-22) ---------------------------------------------------------------------------------
def can_work(ctx: Ctx, unit: Unit) -> bool:
    """An engineer that has not moved this turn may work instead of moving."""
    return (
        ctx.tables.units[unit.type].has("engineer")
        and not unit.moved
        and not unit.worked
        and not unit.carried_by
        and not unit.unloaded
        and not unit.pinned
    )


BRIDGEABLE = ("river", "blown_bridge")  # where an engineer can build a bridge (p.14, p.21, p.25)


class Jobs(NamedTuple):
    """What an engineer that may work (:func:`can_work`) can do where it stands, each list sorted."""

    bridge: bool  # bridge the river (or blown bridge) it stands in (p.14)
    blow: list[int]  # the bridges it stands in or next to that no other unit holds
    lay: list[int]  # the locations next to it where it may build a mine: not bridges or towns (p.22), empty
    clear: list[int]  # the mines next to it


def engineer_jobs(ctx: Ctx, state: PGState, unit: Unit) -> Jobs:
    """:class:`Jobs` of ``unit``, an engineer that may work (the legal set looks around every one, every decision):
    the terrain row read once for its location and those around it."""
    board, terrain = ctx.board, ctx.tables.terrain
    row = board.terrain_row(state)
    around = board.neighbors[unit.cell]
    blow = []
    for c in (unit.cell, *around):
        if row[c] == "bridge":  # first: who stands there is a look through every unit
            occupant = state.unit_at(c)
            if occupant is None or occupant.id == unit.id:
                blow.append(c)
    mined = _mine_cells(ctx, state)
    known = _known_cells(ctx, state, unit.side)
    own = board.cells_of(own_units(state, unit.side))
    lay = []
    for c in around:
        spec = terrain[row[c]]
        if not (spec.no_mines or "all" in spec.prohibited or c in mined or c in known or c in own):
            lay.append(c)
    return Jobs(row[unit.cell] in BRIDGEABLE, sorted(blow), sorted(lay), sorted(c for c in around if c in mined))


def _mine_cells(ctx: Ctx, state: PGState) -> frozenset[int]:
    """The locations of the state's mines (the legal set looks around every engineer), once per state."""
    if not state.mines:
        return frozenset()
    memo = ctx.board.state_memo(state)
    found: frozenset[int] | None = memo.get("mine cells")
    if found is None:
        found = memo["mine cells"] = frozenset([m.cell for m in state.mines])
    return found


def work(ctx: Ctx, state: PGState, step: Step, unit_id: str, job: str, cell: int) -> PGState:
    unit = state.unit(unit_id)
    label = ctx.board.grid.label(cell)
    who = sides(unit.side, ctx.utype(unit).name)
    if job == "lay_mine":
        occupant = state.unit_at(cell)
        if occupant is not None:  # a hidden enemy stands there: it is found, no mine is laid
            return _bump(ctx, state, step, unit, occupant)
        state = replace(
            state, mines=tuple(sorted((*state.mines, Mine(cell, unit.side, 2, state.turn)), key=lambda m: m.cell))
        )
        ctx.emit(step, "mine_laid", f"{who} lays a mine at {label}", SIDES, cell=cell, side=unit.side)
    elif job == "clear_mine":
        state = replace(state, mines=tuple(m for m in state.mines if m.cell != cell))
        ctx.emit(step, "mine_cleared", f"{who} removes the mine at {label}", SIDES, cell=cell)
    elif job == "build_bridge":
        state = set_terrain(state, cell, "bridge")
        ctx.emit(step, "bridge_built", f"{who} bridges the river at {label}", SIDES, cell=cell)
    elif job == "blow_bridge":
        state = set_terrain(state, cell, "blown_bridge")
        ctx.emit(step, "bridge_blown", f"{who} destroys the bridge at {label}", SIDES, cell=cell)
    worker = mark_seen_acting(ctx, state, replace(state.unit(unit.id), worked=True, mp=0))
    return state.with_unit(worker)


def start_movement_phase(ctx: Ctx, state: PGState, side: str) -> PGState:
    """Every unit of the side gets its movement points (pinned ones keep none)."""
    changed = {
        u.id: replace(u, mp=0 if (u.pinned or u.unloaded) else budget(ctx, u)) for u in state.units if u.side == side
    }
    return state.with_units(changed)
