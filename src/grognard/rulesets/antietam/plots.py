"""Fire and melee plots (§B3.7, §B3.8, §IA7.13): one decision plots several units, each order ``unit@x,y``,
``unit@x,y!`` (melee too) or ``unit@-``. Too many combinations to list, so the family accepts by a check that
names the rule an order breaks, and draws legal orders for random play."""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from grognard.engine.errors import IllegalDecision
from grognard.engine.events import Step
from grognard.engine.rng import Dice

from .board import BoolArray, IntArray
from .combat import can_fire, in_range
from .ctx import Ctx, changed
from .state import AntietamState, Unit

HOLD = "!."  # §IA7.13 melee with the advance plot toggled back to N (intermediate and advanced games)


def parse_order(ctx: Ctx, order: object) -> tuple[int, int, bool, bool] | None:
    """(unit index, square or -1, melee, advance) of an order, or None when it is not one. §IA7.13 "plotting
    melee will automatically plot advance": ``!`` plots both, ``!.`` the melee alone."""
    if not isinstance(order, str) or "@" not in order:
        return None
    uid, _, target = order.partition("@")
    i = ctx.board.index.get(uid)
    if i is None:
        return None
    if target == "-":
        return i, -1, False, False
    hold = target.endswith(HOLD)
    melee = hold or target.endswith("!")
    cell = ctx.board.parse(target[: -len(HOLD)] if hold else target[:-1] if melee else target)
    return None if cell is None else (i, cell, melee, melee and not hold)


def order_refusal(ctx: Ctx, state: AntietamState, seat: str, order: object) -> IllegalDecision | None:
    parsed = parse_order(ctx, order)
    if parsed is None:
        if isinstance(order, str) and order.partition("@")[0] in ctx.board.index:
            return IllegalDecision(f"{order.partition('@')[2]!r} is not a square of the map (x,y)", "§B3.7")
        return IllegalDecision(f"{order!r} is not an order: write unit@x,y, unit@x,y! or unit@-", "§B3.7")
    i, cell, melee, advance = parsed
    board = ctx.board
    u = state.units[i]
    if board.side(i) != seat or u.cell < 0:
        return IllegalDecision(f"{board.spec(i).name} is not a unit of yours on the map", "§B3.3")
    if ctx.basic and melee and not advance:
        return IllegalDecision("the basic game has no advance plot: advances are automatic", "§B4.2")
    if cell < 0:
        return None
    if not can_fire(ctx, state, i):
        return IllegalDecision("limbered artillery may not fire", "Operations Costs Table")
    if u.disrupted:
        return IllegalDecision(f"{board.spec(i).name} is disrupted and loses its fire plot", "§IA8.8")
    if not in_range(ctx, state, i, cell):
        return IllegalDecision(f"{board.label(cell)} is not within range and line of sight", "§IA7.13")
    if melee:
        if board.spec(i).artillery:
            return IllegalDecision("artillery may not make a melee attack", "Operations Costs Table")
        if u.routed:
            return IllegalDecision("a routed unit may not melee", "§B4.3")
        if not board.adjacent(u.cell, cell):
            return IllegalDecision("a unit melees only an adjacent square", "§B3.8")
    return None


def plot_refusal(ctx: Ctx, state: AntietamState, seat: str, orders: object) -> IllegalDecision | None:
    if not isinstance(orders, tuple) or not orders:
        return IllegalDecision("a plot gives at least one order", "§B3.7")
    units = [o.partition("@")[0] for o in orders if isinstance(o, str)]
    if len(set(units)) != len(units):
        return IllegalDecision("one order a unit in a plot", "§B3.7")
    for o in orders:
        why = order_refusal(ctx, state, seat, o)
        if why is not None:
            return why
    return None


def fire_rows(ctx: Ctx, state: AntietamState, units: list[int], squares: IntArray) -> BoolArray:
    """For each unit of ``units`` (on the map), which of ``squares`` it can fire into (§IA8.3 range and sight,
    §IA7.9 its 90° view), as boolean rows."""
    board = ctx.board
    if len(units) == 1:  # mostly the unit that has just moved: its row alone, without the table's arrays
        i = units[0]
        u = state.units[i]
        far = min(board.weapon_range[i], board.sight_limit(u.cell, state.turn))
        row: BoolArray = board.seen_at[u.cell, squares] <= far
        if not ctx.basic and u.facing:
            row &= board.cones[u.facing][u.cell, squares]
        return row[None]
    index = np.array(units, dtype=np.int64)
    cells = ctx.cell_array(state)[index]
    reach = np.minimum(board.ranges[index], board.limits[state.turn][cells])
    rows: BoolArray = board.seen_at.take(cells, axis=0)[:, squares] <= reach[:, None]
    if not ctx.basic:  # the basic game sees all round (§B3.3)
        for k, i in enumerate(units):
            f = state.units[i].facing
            if f:
                rows[k] &= board.cones[f][cells[k], squares]
    return rows


@dataclass(frozen=True, slots=True)
class Aim:
    """What a unit that may plot can fire into: the enemy squares in its range and sight, with their names, and
    the order the suggested plot gives it (its nearest enemy square, melee where that square is next to it)."""

    cells: list[int]
    labels: list[str]
    nearest: str


# what a unit aims by: its square, facing, mode (limbered artillery does not fire), plot, disruption and rout (a
# routed unit does not melee); its points, fatigue and men do not count
_AIMS_BY = attrgetter("cell", "facing", "mode", "plotted", "disrupted", "routed")


def aims(ctx: Ctx, state: AntietamState, seat: str) -> dict[int, Aim]:
    """Units of ``seat`` not yet plotted this phase that can fire into an enemy-held square, in OOB order, with
    those squares (all of them sighted by the seat: a unit sees the squares it can fire into). Read only."""
    enemy = ctx.enemy_squares(state, seat)
    if not len(enemy):
        return {}
    # a unit's aim changes only with what it aims by while the enemy stands still, as through a whole phase: the
    # answer is worked out for every unit when the enemy has moved, then patched for the units whose records
    # changed since (``known[i]``: what unit i aimed by and its aim, where it differs from the first answer's)
    known = ctx.facing_enemy(state, seat)
    units = state.units
    last: tuple[tuple[Unit, ...], dict[int, Aim]] | None = known.get("last")
    if last is None:
        out = _aims_of(ctx, state, list(ctx.side_units(state, seat)), enemy)
        known["first"] = known["last"] = (units, out)
        return out
    before, out = last
    if before is units:
        return out
    sides = ctx.board.sides
    todo = [i for i in changed(before, units) if sides[i] == seat]
    if todo:
        first_units, first = known["first"]
        out = dict(out)
        missing = []
        for i in todo:
            by = _AIMS_BY(units[i])
            hit = known.get(i)
            if hit is None:
                hit = (_AIMS_BY(first_units[i]), first.get(i))
            if hit[0] == by:
                aim = hit[1]
            else:
                missing.append(i)
                continue
            if aim is None:
                out.pop(i, None)
            else:
                out[i] = aim
        if missing:
            found = _aims_of(ctx, state, missing, enemy)
            for i in missing:
                aim = found.get(i)
                known[i] = (_AIMS_BY(units[i]), aim)
                if aim is None:
                    out.pop(i, None)
                else:
                    out[i] = aim
        if list(out) != sorted(out):  # units added: back in OOB order
            out = dict(sorted(out.items()))
    known["last"] = (units, out)
    return out


def _aims_of(ctx: Ctx, state: AntietamState, units: list[int], enemy: IntArray) -> dict[int, Aim]:
    """The aims of those of ``units`` (in OOB order) that may plot and have an enemy square in range and sight."""
    basic, table = ctx.basic, state.units
    ready = [  # the records' slots read directly (3.11's specialised loads; an attrgetter's tuples cost three times)
        i
        for i in units
        if (u := table[i]).cell >= 0 and not u.plotted and not u.disrupted and (basic or can_fire(ctx, state, i))
    ]
    if not ready:
        return {}
    rows = fire_rows(ctx, state, ready, enemy)
    # a unit's aim is kept by what it aims by and the squares it can fire into, which mostly stay the same when
    # the enemy moves elsewhere (as it does between two of the side's phases)
    kept = ctx.memo("aims by squares", ())
    out = {}
    for k in np.flatnonzero(rows.any(1)).tolist() if len(ready) > 1 else (0,):
        i = ready[k]
        squares = enemy[rows[k]]
        if not len(squares):  # the one unit's row (``any`` skipped): nothing in range and sight
            continue
        cells: list[int] = squares.tolist()
        key = (i, _AIMS_BY(state.units[i]), *cells)
        aim = kept.get(key)
        if aim is None:
            aim = kept[key] = _aim(ctx, state, i, squares, cells)
        out[i] = aim
    return out


def _aim(ctx: Ctx, state: AntietamState, i: int, squares: IntArray, cells: list[int]) -> Aim:
    """The unit's aim at ``squares`` (``cells``, as a list), and the suggested order: the nearest enemy square
    (ties: lowest x, then y), a melee where it is adjacent and the unit may melee (the computer players' starting
    point)."""
    board = ctx.board
    u = state.units[i]
    cell = min(zip(board.dist[u.cell, squares].tolist(), map(board.xy_order.__getitem__, cells), cells, strict=True))[2]
    melee = not board.spec(i).artillery and not u.routed and board.adjacent(u.cell, cell)
    nearest = f"{board.spec(i).id}@{board.label(cell)}{'!' if melee else ''}"
    return Aim(cells, list(map(board.labels.__getitem__, cells)), nearest)


def sample(ctx: Ctx, state: AntietamState, seat: str, dice: Dice) -> tuple[str, ...]:
    """A legal plot at random: one to three units, each at one of its enemy squares, melee now and then."""
    board = ctx.board
    ready = aims(ctx, state, seat)
    if not ready:
        i = ctx.side_units(state, seat)[0]
        return (f"{board.spec(i).id}@-",)
    keys = list(ready)  # in OOB order
    chosen = sorted({keys[dice.below(len(keys))] for _ in range(1 + dice.below(3))})
    out = []
    for i in chosen:
        cells = ready[i].cells
        cell = cells[dice.below(len(cells))]
        u = state.units[i]
        melee = not board.spec(i).artillery and not u.routed and board.adjacent(u.cell, cell) and dice.below(2) == 1
        out.append(f"{board.spec(i).id}@{board.label(cell)}{'!' if melee else ''}")
    return tuple(out)


def apply_plot(ctx: Ctx, state: AntietamState, seat: str, orders: tuple[str, ...], step: Step) -> AntietamState:
    changed = {}
    words = []
    for o in orders:
        parsed = parse_order(ctx, o)
        assert parsed is not None
        i, cell, melee, advance = parsed
        changed[i] = state.units[i].updated(target=cell, melee=melee, advance=advance, plotted=True)
        if cell >= 0:  # units by what they are, as the OOB prints them, never by internal id
            words.append(f"{ctx.board.unit_name(i)} {'melees' if melee else 'fires'} at {ctx.board.label(cell)}")
    ctx.tell(step, "plot", "Plots: " + ("; ".join(words) or "none"), (seat,), orders=list(orders))
    return state.with_units(changed)
