"""Buying and placing units (PG p.8-10, p.17-18): initial forces, reinforcements, neutral countries."""

from __future__ import annotations

from grognard.engine.events import Step
from grognard.engine.records import replace

from .context import ALONE, Ctx, own_units
from .phases import cheapest, new_unit_id, region_cells
from .spotting import known_enemies
from .state import SIDES, Mine, PGState, Unit
from .tables import UnitType
from .words import a, sides


def buyable(ctx: Ctx, state: PGState) -> list[str]:
    points = state.side_state(state.side).points
    return [t for t in ctx.board.scenario.on_sale if ctx.tables.units[t].cost <= points]


def buy(ctx: Ctx, state: PGState, step: Step, type_id: str) -> PGState:
    ss = state.side_state(state.side)
    cost = ctx.tables.units[type_id].cost
    step.emit("buy", f"{state.side} buys {a(ctx.tables.units[type_id].name)}", ALONE[state.side], type=type_id)
    return state.with_side(state.side, points=ss.points - cost, pool=_sorted_pool(ctx, (*ss.pool, type_id)))


def sell(ctx: Ctx, state: PGState, step: Step, type_id: str) -> PGState:
    ss = state.side_state(state.side)
    pool = list(ss.pool)
    pool.remove(type_id)
    step.emit("sell", f"{state.side} returns {a(ctx.tables.units[type_id].name)}", ALONE[state.side], type=type_id)
    return state.with_side(state.side, points=ss.points + ctx.tables.units[type_id].cost, pool=tuple(pool))


def _sorted_pool(ctx: Ctx, pool: tuple[str, ...]) -> tuple[str, ...]:
    order = {t: i for i, t in enumerate(ctx.tables.unit_order)}
    return tuple(sorted(pool, key=lambda t: order[t]))


def needs_confirmation(ctx: Ctx, state: PGState) -> bool:
    """The fail-safe requester appears when buy points that could still buy a unit are left (p.9)."""
    return state.side_state(state.side).points >= cheapest(ctx)


def placement_cells(ctx: Ctx, state: PGState, type_id: str) -> list[int]:
    """Free locations of the region where a unit of this type may stand; mines not on bridges or in towns
    (p.22). Occupation is judged by what the side knows."""
    return list(_free_cells(ctx, state, type_id))


def count_placement_cells(ctx: Ctx, state: PGState, type_id: str) -> int:
    """``len(placement_cells(...))`` without a copy of them (random play sizes every type's placement)."""
    return len(_free_cells(ctx, state, type_id))


def _free_cells(ctx: Ctx, state: PGState, type_id: str) -> tuple[int, ...]:
    ut = ctx.tables.units[type_id]
    # the same for every type that is alike in being a mine and being armour: worked out once a state for them
    like = (ut.has("mine"), ut.has("armor"))
    memo = ctx.board.state_memo(state)
    found: tuple[int, ...] | None = memo.get(("placement", like))
    if found is None:
        found = memo[("placement", like)] = tuple(_placement_cells(ctx, state, ut))
    return found


def _placement_cells(ctx: Ctx, state: PGState, ut: UnitType) -> list[int]:
    side = state.side
    taken = {u.cell for u in own_units(state, side)} | {e.cell for e in known_enemies(ctx, state, side)}
    taken |= {m.cell for m in state.mines}
    return [c for c in _region_ground(ctx, state, side, ut) if c not in taken]


def _region_ground(ctx: Ctx, state: PGState, side: str, ut: UnitType) -> tuple[int, ...]:
    """The region's locations, in order, whose terrain a unit of this type may stand on: the same for every
    placement of a region until artillery or engineers change the terrain (kept by what it depends on)."""
    board = ctx.board
    is_mine = ut.has("mine")
    key = ("region_ground", side, state.region, state.terrain, is_mine, ut.has("armor"))
    found = board.region_ground.get(key)
    if found is None:
        out = []
        for c in sorted(region_cells(ctx, state, side)):
            spec = ctx.tables.terrain[board.terrain(state, c)]
            if is_mine:
                if spec.no_mines or "all" in spec.prohibited:
                    continue
            elif not board.allows(state, ut, c):
                continue
            out.append(c)
        if len(board.region_ground) >= 64:
            board.region_ground.clear()
        found = board.region_ground[key] = tuple(out)
    return found


def place(ctx: Ctx, state: PGState, step: Step, type_id: str, cell: int) -> PGState:
    side = state.side
    ss = state.side_state(side)
    ut = ctx.tables.units[type_id]
    occupant = state.unit_at(cell)
    label = ctx.board.grid.label(cell)
    if occupant is not None:  # an enemy unit hidden in the region: found, and the location is not free
        found = replace(occupant, spotted=True)
        ctx.emit(
            step,
            "spotted",
            f"{sides(occupant.side, ctx.tables.units[occupant.type].name)} found at {label}",
            SIDES,
            unit=found.id,
            type=found.type,
            cell=cell,
            side=found.side,
        )
        return state.with_unit(found)
    pool = list(ss.pool)
    pool.remove(type_id)
    if ut.has("mine"):
        state = replace(
            state, mines=tuple(sorted((*state.mines, Mine(cell, side, 2, state.turn)), key=lambda m: m.cell))
        )
        step.emit("place", f"{side} places a mine at {label}", ALONE[side], type=type_id, cell=cell)
        ctx.emit(step, "mine_placed", f"a mine is laid at {label}", SIDES, cell=cell, side=side)  # always visible
        return state.with_side(side, pool=tuple(pool), placed=(*ss.placed, f"mine:{cell}"))
    uid = new_unit_id(state, side)
    unit = Unit(uid, type_id, side, cell, ut.hit_points)
    state = replace(state, units=(*state.units, unit), serial=state.serial + 1)
    step.emit("place", f"{side} places {a(ut.name)} at {label}", ALONE[side], unit=uid, type=type_id, cell=cell)
    return state.with_side(side, pool=tuple(pool), placed=(*ss.placed, uid))


def pick_up(ctx: Ctx, state: PGState, step: Step, unit_id: str) -> PGState:
    """A unit placed in this placement returns to the pool (p.10)."""
    side = state.side
    ss = state.side_state(side)
    u = state.unit(unit_id)
    step.emit("pick_up", f"{side} picks up the {ctx.tables.units[u.type].name}", (side,), unit=unit_id)
    state = state.without_units({unit_id})
    return state.with_side(
        side, pool=_sorted_pool(ctx, (*ss.pool, u.type)), placed=tuple(p for p in ss.placed if p != unit_id)
    )


def pick_up_mine(ctx: Ctx, state: PGState, step: Step, cell: int) -> PGState:
    side = state.side
    ss = state.side_state(side)
    ctx.emit(step, "mine_lifted", f"the mine at {ctx.board.grid.label(cell)} is lifted", SIDES, cell=cell)
    state = replace(state, mines=tuple(m for m in state.mines if m.cell != cell))
    return state.with_side(
        side, pool=_sorted_pool(ctx, (*ss.pool, "mine")), placed=tuple(p for p in ss.placed if p != f"mine:{cell}")
    )


def placed_units(state: PGState) -> list[str]:
    return [p for p in state.side_state(state.side).placed if not p.startswith("mine:")]


def placed_mines(state: PGState) -> list[int]:
    return [int(p.split(":")[1]) for p in state.side_state(state.side).placed if p.startswith("mine:")]
