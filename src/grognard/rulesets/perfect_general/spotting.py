"""Sighting and spotting (PG p.32-33), and each side's memory of where it last saw enemy units.

- a. A unit in non-blocking terrain is spotted at once when an enemy unit has a line of sight to it.
- b. A unit that moves into or fires from a location in an enemy's sight is spotted at the end of the phase.
- c. A unit next to an enemy unit is spotted at the end of the phase.
- d. A unit destroyed by artillery is spotted (its destruction is seen by everyone).
A unit reverts to unspotted when it ends a phase out of the sight of every enemy unit. Each side's part of a
phase counts as a phase here, as the tutorial counts them (p.14: "After both sides have completed their
first direct fire phase").
"""

from __future__ import annotations

from collections.abc import Callable

from grognard.engine.events import Step
from grognard.engine.records import replace

from .board import FAR, Board, SightCache
from .context import Ctx, carry_units, enemy_units
from .state import SIDES, PGState, Sighting, Unit, other
from .words import sides


def open_ground(ctx: Ctx, state: PGState, cell: int) -> bool:
    """Non-blocking terrain: a unit there can be seen (rule a)."""
    return not ctx.tables.terrain[ctx.board.terrain(state, cell)].blocks_sight


def in_enemy_sight(ctx: Ctx, state: PGState, unit: Unit) -> bool:
    """Whether any enemy unit has a line of sight to ``unit``'s location (kept by the location and where the
    enemy stands: the end of every phase asks it of every unit, and between two phases mostly nobody moved)."""
    board = ctx.board
    return _seen(board, board.sight(state), board.weather(state).visibility, enemy_units(state, unit.side), unit.cell)


def _seen(board: Board, sight: SightCache, vis: int, enemies: tuple[Unit, ...], cell: int) -> bool:
    """Whether one of ``enemies`` sees ``cell`` (``in_enemy_sight``, for callers that asked the rest already)."""
    return sight.seen_at(cell, board.cells_of(enemies), vis, lambda: _sees_any(board, sight, vis, enemies, cell))


def _sees_any(board: Board, sight: SightCache, vis: int, enemies: tuple[Unit, ...], cell: int) -> bool:
    """Whether one of ``enemies`` sees ``cell``, by their lines of sight (those within ``vis``; a loop: quicker
    than a generator over ``Board.near``)."""
    far, sees = _lines_to(board, sight, vis, cell)
    for e in enemies:  # noqa: SIM110 (a loop: quicker than any() over a generator)
        if far[e.cell] <= vis and sees(e.cell, cell, vis):
            return True
    return False


def _lines_to(board: Board, sight: SightCache, vis: int, cell: int) -> tuple[bytes, Callable[[int, int, int], bool]]:
    """For a look through the units that may see ``cell`` or be seen from it: the distances from ``cell`` (a unit
    farther than ``vis`` is out of sight) and the line-of-sight test for a pair within ``vis``."""
    # the row counts distances from FAR on as FAR: beyond it, the test measures the distance itself
    return board.distance_row(cell), sight.sees_within if vis < FAR else sight.sees


def _adjacent_enemy(ctx: Ctx, state: PGState, unit: Unit) -> bool:
    """Whether an enemy unit stands next to ``unit`` (rule c): its neighbours looked up among the enemy's locations."""
    board = ctx.board
    enemy_at = board.cells_of(enemy_units(state, unit.side))
    return any(n in enemy_at for n in board.neighbors[unit.cell])


def spot_in_open(ctx: Ctx, state: PGState, step: Step) -> PGState:
    """Rule a, applied now to every unit (a unit that has just moved: ``spot_mover``)."""
    changed: dict[str, Unit] = {}
    for u in state.units:
        if u.spotted or u.carried_by:
            continue
        if open_ground(ctx, state, u.cell) and in_enemy_sight(ctx, state, u):
            changed[u.id] = replace(u, spotted=True)
    if not changed:
        return state
    state = state.with_units(changed)
    for u in changed.values():
        _announce(ctx, step, u, "spotted in the open")
    return remember(state)


def spot_mover(ctx: Ctx, state: PGState, step: Step, mover: Unit) -> tuple[PGState, Unit]:
    """A unit has entered a location: rule a for it (``spot_in_open`` of the mover), rule b
    (``mark_seen_acting``), then rule a for the enemy units in the open it sees from there. One pass over the
    enemy units within sight range answers both whether one of them sees the location (for the first two) and
    which of those in the open, not yet spotted, the mover sees (sight between equal eyes is symmetric). The state
    after, and the mover in it."""
    board = ctx.board
    # the mover's changes leave the enemy's units one tuple (context.carry_units): these hold throughout
    sight, vis, enemies = board.sight(state), board.weather(state).visibility, enemy_units(state, mover.side)
    cell = mover.cell
    watchers = board.cells_of(enemies)
    in_open = not mover.spotted and not mover.carried_by and open_ground(ctx, state, cell)
    seen = sight.seen_known(cell, watchers, vis)
    look = seen is None and (in_open or not mover.spot_pending)  # whether the enemy's sight of it is wanted
    found = False
    spots: dict[str, Unit] = {}
    far, sees = _lines_to(board, sight, vis, cell)
    for e in enemies:
        if far[e.cell] > vis:
            continue
        both: bool | None = None  # whether e and the mover see each other, if looked at
        if look and not found:
            both = found = sees(e.cell, cell, vis)
        if (
            not e.spotted
            and open_ground(ctx, state, e.cell)
            and (both if both is not None else sees(cell, e.cell, vis))
        ):
            spots[e.id] = replace(e, spotted=True)
    if look:
        seen = found
        sight.note_seen(cell, watchers, vis, found)
    if in_open and seen:
        mover = replace(mover, spotted=True)
        state = _with_mover(state, mover)
        _announce(ctx, step, mover, "spotted in the open")
        state = remember(state)
    if not mover.spot_pending and seen:
        mover = replace(mover, spot_pending=True)
        state = _with_mover(state, mover)
    if spots:
        state = state.with_units(spots)
        for u in spots.values():
            _announce(ctx, step, u, "spotted in the open")
        state = remember(state)
    return state, mover


def _with_mover(state: PGState, mover: Unit) -> PGState:
    """``state`` with ``mover`` changed where it stands (the enemy's units stay the same tuple: context.carry_units)."""
    after = state.with_unit(mover)
    carry_units(state.units, after.units, mover.side)
    return after


def mark_seen_acting(ctx: Ctx, state: PGState, unit: Unit) -> Unit:
    """Rule b: a unit that fires or moves in enemy sight will be spotted at the end of the phase."""
    if not unit.spot_pending and in_enemy_sight(ctx, state, unit):
        return replace(unit, spot_pending=True)
    return unit


def end_of_phase(ctx: Ctx, state: PGState, step: Step) -> PGState:
    """Rules a-c and the reversion to unspotted, at the end of a side's part of a phase. Units this left as they
    were (under the same sight, visibility and terrain, the same tuple or units differing only in what spotting
    does not read: a part where nobody moved, a plot part, a new turn's units made ready) are left so again: each
    one's spotting is its own, pending marks are cleared, and seen the same."""
    board = ctx.board
    sight = board.sight(state)
    vis = board.weather(state).visibility
    settled = board.settled
    if (
        settled is not None
        and settled[1] is sight
        and settled[2] == vis
        and settled[3] is state.terrain
        and _same_spotting(settled[0], state.units)
    ):
        if (
            settled[0] is state.units
            and settled[4] == state.turn
            and settled[5] is state.sides[0].memory
            and settled[6] is state.sides[1].memory
        ):
            return state  # the units and memories it left, in the same turn: remembered already
        return _settle(board, remember(state), sight, vis)
    changed: dict[str, Unit] = {}
    enemies = {side: enemy_units(state, side) for side in SIDES}
    for u in state.units:
        if u.carried_by:
            continue
        # whether the enemy sees the location is asked last: its lines of sight are the dearest part
        spotted = (
            u.spotted or u.spot_pending or open_ground(ctx, state, u.cell) or _adjacent_enemy(ctx, state, u)
        ) and _seen(board, sight, vis, enemies[u.side], u.cell)
        if spotted != u.spotted or u.spot_pending:
            changed[u.id] = replace(u, spotted=spotted, spot_pending=False)
            if spotted != u.spotted:
                _announce(ctx, step, changed[u.id], "spotted" if spotted else "lost from sight")
    if changed:
        state = state.with_units(changed)
    return _settle(board, remember(state), sight, vis)


def _settle(board: Board, state: PGState, sight: SightCache, vis: int) -> PGState:
    """``state``, kept as what end_of_phase settled last (with its turn and each side's memory)."""
    board.settled = (state.units, sight, vis, state.terrain, state.turn, state.sides[0].memory, state.sides[1].memory)
    return state


def _same_spotting(before: tuple[Unit, ...], now: tuple[Unit, ...]) -> bool:
    """Whether ``now`` is ``before`` unit for unit in all that end_of_phase reads: identity, location, spotted,
    pending mark and carrier (the same objects mostly: a plot part marks its artillery plotted, nothing more)."""
    if before is now:
        return True
    if len(before) != len(now):
        return False
    for a, b in zip(before, now, strict=True):
        if a is not b and (
            a.id != b.id
            or a.cell != b.cell
            or a.spotted != b.spotted
            or a.spot_pending != b.spot_pending
            or a.carried_by != b.carried_by
        ):
            return False
    return True


def _announce(ctx: Ctx, step: Step, u: Unit, what: str) -> None:
    name = ctx.tables.units[u.type].name
    label = ctx.board.grid.label(u.cell)
    if u.spotted:
        ctx.emit(
            step,
            "spotted",
            f"{sides(u.side, name)} {what} at {label}",
            SIDES,
            unit=u.id,
            type=u.type,
            cell=u.cell,
            side=u.side,
        )
    else:
        step.emit("unspotted", f"{sides(u.side, name)} {what}", (u.side, other(u.side)), unit=u.id, side=u.side)


def remember(state: PGState) -> PGState:
    """Refresh each side's memory: spotted enemy units where they are; the rest where they were last seen. A
    sighting that says what the memory already says is the memory's own object, so that an unchanged memory is
    found unchanged without comparing field by field: when every sighting is the memory's own, one for each it
    holds, the memory is left as it is without sorting a new one."""
    turn = state.turn
    seen: tuple[list[Unit], list[Unit]] = ([], [])  # the enemy units each side sees, in the units' order
    first, second = SIDES
    for u in state.units:
        if u.spotted and not u.carried_by:
            if u.side != first:
                seen[0].append(u)
            if u.side != second:
                seen[1].append(u)
    alive: set[str] | None = None
    sides = []
    for i in (0, 1):
        ss = state.sides[i]
        before = {s.unit: s for s in ss.memory}
        now: dict[str, Sighting] = {}
        for u in seen[i]:
            s = before.get(u.id)
            if s is None or s.cell != u.cell or s.turn != turn or s.type != u.type:
                s = Sighting(u.id, u.type, u.cell, turn)
            now[u.id] = s
        if len(now) == len(before) and all(now.get(unit) is s for unit, s in before.items()):
            sides.append(ss)  # what it held, each sighting its own: the same memory
            continue
        if alive is None:
            alive = {u.id for u in state.units}
        kept = [s for s in ss.memory if s.unit in alive and s.unit not in now]
        memory = tuple(sorted([*kept, *now.values()], key=lambda s: s.unit))
        sides.append(ss if memory == ss.memory else replace(ss, memory=memory))
    if sides[0] is state.sides[0] and sides[1] is state.sides[1]:
        return state
    return replace(state, sides=(sides[0], sides[1]))


def known_enemies(ctx: Ctx, state: PGState, side: str) -> list[Unit]:
    """The enemy units ``side`` knows stand where they stand: spotted ones (all of them under Full View)."""
    return [u for u in enemy_units(state, side) if u.spotted or ctx.full_view]
