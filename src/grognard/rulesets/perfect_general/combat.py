"""Direct fire, return fire, passing fire and close assault (PG p.27-32), and what destruction takes along."""

from __future__ import annotations

from grognard.engine.events import Step
from grognard.engine.records import replace

from .context import ALONE, Ctx, enemy_units
from .spotting import mark_seen_acting, remember
from .state import SIDES, PGState, Unit, other
from .words import count, sides


def shot_chance(ctx: Ctx, state: PGState, firer: Unit, target: Unit) -> int | None:
    """The chance (per cent) that ``firer``'s direct shot hits ``target``, or None when out of range.

    Range by firer and target type, one hex more when the firer stands higher (p.23); the chance by range,
    attack style and defense style, and the target's exposure (p.21); then defensive terrain and altitude
    (p.23-24), as fire.toml says.
    """
    t = ctx.tables
    board = ctx.board
    reach = t.max_range[(firer.type, target.type)]
    if reach <= 0:
        return None  # this weapon cannot hurt this target at any range
    dist = board.grid.distance(firer.cell, target.cell)
    if dist > reach + 1:
        return None  # out of range even from higher ground (most enemies: asked of every pair)
    firer_high = board.higher(firer.cell, target.cell)
    target_high = board.higher(target.cell, firer.cell)
    if firer_high:
        reach += 1  # p.23: "firing units have their range increased by one if higher than their target"
    row = t.hit[(t.units[firer.type].attack, t.units[target.type].defense)]
    if dist < 1 or dist > reach or dist > len(row):
        return None
    pct = row[dist - 1] * t.units[target.type].exposure // 100  # artillery is easier to hit (p.21)
    m = t.fire_mods
    if board.defensive(state, target.cell):
        pct = pct * m.defensive_terrain // 100
    if firer_high:
        pct = pct * m.firer_higher // 100
    if target_high:
        pct = pct * m.target_higher // 100
    return max(m.minimum, min(m.maximum, pct))


def can_fire_direct(ctx: Ctx, state: PGState, unit: Unit) -> bool:
    """p.28 b, p.29 e, f, g: one shot a turn; not after plotting indirect fire; not carried or just unloaded;
    not at night."""
    if unit.fired or unit.plotted or unit.carried_by or unit.unloaded:
        return False
    if ctx.tables.units[unit.type].attack == "none":
        return False
    return not ctx.board.weather(state).no_direct_fire


def targets(ctx: Ctx, state: PGState, unit: Unit) -> list[tuple[str, int]]:
    """(target id, chance) of every enemy ``unit`` may fire at: spotted (p.28 d), in range (a), in sight (c)."""
    sight = ctx.board.sight(state)
    vis = ctx.board.weather(state).visibility
    out = []
    for e in ctx.board.near(enemy_units(state, unit.side), unit.cell, min(vis, ctx.board.fire_reach[unit.type])):
        if not e.spotted:
            continue
        pct = shot_chance(ctx, state, unit, e)
        if pct is not None and sight.sees(unit.cell, e.cell, vis):
            out.append((e.id, pct))
    return out


def best_target(ctx: Ctx, state: PGState, unit: Unit) -> str | None:
    """The target with the highest chance of success (p.12), the weaker unit on a tie."""
    options = targets(ctx, state, unit)
    if not options:
        return None
    return max(options, key=lambda o: (o[1], -ctx.tables.units[state.unit(o[0]).type].cost, o[0]))[0]


def destroy(ctx: Ctx, state: PGState, step: Step, unit_id: str, cause: str) -> PGState:
    """Remove a unit and its cargo (p.27: the cargo dies with its carrier). Destruction is seen by all."""
    u = state.unit(unit_id)
    gone = {u.id}
    if u.cargo:
        gone.add(u.cargo)
    name = ctx.tables.units[u.type].name
    ctx.emit(
        step,
        "destroyed",
        f"{sides(u.side, name)} destroyed at {ctx.board.grid.label(u.cell)} ({cause})",
        SIDES,
        unit=u.id,
        type=u.type,
        side=u.side,
        cell=u.cell,
        cause=cause,
        cargo=ctx.tables.units[state.unit(u.cargo).type].name if u.cargo else None,
    )
    return remember(state.without_units(gone))


def damage(ctx: Ctx, state: PGState, step: Step, target_id: str, amount: int, cause: str) -> PGState:
    """Partial Kill: a hit takes ``amount`` hit points; a unit left with none is destroyed (p.3)."""
    t = state.unit(target_id)
    hp = t.hp - amount
    if hp <= 0:
        return destroy(ctx, state, step, target_id, cause)
    ctx.emit(
        step,
        "damaged",
        f"{sides(t.side, ctx.utype(t).name)} damaged: {hp} of {ctx.utype(t).hit_points} hit points left",
        ctx.who_knows(state, t) if not t.spotted else SIDES,
        unit=t.id,
        hp=hp,
        damage=amount,
    )
    return state.with_unit(replace(t, hp=hp))


def hit(ctx: Ctx, state: PGState, step: Step, target_id: str, dmg: int, cause: str) -> PGState:
    """A hit: destruction under Full Kill, damage under Partial Kill."""
    if ctx.partial_kill:
        return damage(ctx, state, step, target_id, dmg, cause)
    return destroy(ctx, state, step, target_id, cause)


def resolve_shot(ctx: Ctx, state: PGState, step: Step, firer_id: str, target_id: str, kind: str) -> PGState:
    """One direct shot (also return and passing fire): roll under Random Hit, then hit or miss."""
    firer = state.unit(firer_id)
    target = state.unit(target_id)
    pct = shot_chance(ctx, state, firer, target)
    assert pct is not None, "a legal shot is in range"
    fname, tname = ctx.tables.units[firer.type].name, ctx.tables.units[target.type].name
    label = ctx.board.grid.label(target.cell)
    visible_firer = firer.spotted or ctx.full_view
    if ctx.random_hit:
        hit_it = step.chance(pct, f"{kind} fire at {tname} at {label}", SIDES)
    else:
        hit_it = True  # p.3: Always Hit
    firer = mark_seen_acting(ctx, state, replace(firer, fired=True))
    state = state.with_unit(firer)
    data = dict(fire=kind, target=target.id, target_type=target.type, cell=target.cell, chance=pct, hit=hit_it)
    outcome = "hit" if hit_it else "missed"
    ctx.emit(
        step,
        "shot",
        f"{sides(firer.side, fname)} fires ({kind}) at {sides(target.side, tname)} at {label}: {pct}%, {outcome}",
        SIDES if visible_firer else ALONE[firer.side],
        firer=firer.id,
        firer_type=firer.type,
        from_cell=firer.cell,
        **data,
    )
    if not visible_firer:  # an ambush: the target's side sees the shot, not who fired it (p.33)
        step.emit(
            "shot",
            f"an unseen unit fires at {sides(target.side, tname)} at {label}: {pct}%, {outcome}",
            ALONE[target.side],
            firer=None,
            firer_type=None,
            from_cell=None,
            **data,
        )
    if hit_it:
        state = hit(ctx, state, step, target.id, ctx.tables.units[firer.type].damage, f"{kind} fire")
    return state


def assault_odds(ctx: Ctx, state: PGState, attacker: Unit, defender: Unit) -> int:
    """The attacker's chance to win a close assault (p.30-32), after the table's modifiers and clamp."""
    t = ctx.tables
    m = t.assault_mods
    odds = t.assault[(attacker.type, defender.type)]
    board = ctx.board
    if board.defensive(state, defender.cell) or board.higher(defender.cell, attacker.cell):
        odds += m.defender_defensive_location  # "city, forest, higher altitude"
    if defender.fired:
        odds += m.defender_has_fired
    if ctx.partial_kill and attacker.hp * 2 < t.units[attacker.type].hit_points:
        odds += m.attacker_over_half_damaged
    return max(m.minimum, min(m.maximum, odds))


def resolve_assault(ctx: Ctx, state: PGState, step: Step, attacker_id: str, defender_id: str) -> PGState:
    """A fight to the death (p.30): the loser is destroyed; a winning attacker takes the location, has used
    its shot and loses its remaining movement; the defender spends its shot if it had one; under Partial Kill
    the victor may take damage that is never fatal."""
    a = state.unit(attacker_id)
    d = state.unit(defender_id)
    odds = assault_odds(ctx, state, a, d)
    aname, dname = ctx.tables.units[a.type].name, ctx.tables.units[d.type].name
    label = ctx.board.grid.label(d.cell)
    if ctx.random_hit:
        won = step.chance(odds, f"close assault by {aname} on {dname} at {label}", SIDES)
    else:
        won = odds > ctx.tables.assault_mods.non_random_wins_above
    ctx.emit(
        step,
        "assault",
        f"{sides(a.side, aname)} close assaults {sides(d.side, dname)} at {label}: {odds}%, "
        f"{'the assaulting' if won else 'the assaulted'} {aname if won else dname} wins",
        SIDES,
        attacker=a.id,
        attacker_type=a.type,
        defender=d.id,
        defender_type=d.type,
        cell=d.cell,
        odds=odds,
        attacker_won=won,
    )
    cell = d.cell
    if won:
        state = destroy(ctx, state, step, d.id, "close assault")
        a = state.unit(a.id)
        a = replace(a, cell=cell, fired=True, mp=0, moved=True, spot_pending=True)
        state = state.with_unit(a)
        if a.cargo:
            state = state.with_unit(replace(state.unit(a.cargo), cell=cell))
        victor, loser_odds, loser_type = a, 100 - odds, d.type
    else:
        state = destroy(ctx, state, step, a.id, "close assault")
        d = replace(state.unit(d.id), fired=True, spot_pending=True)
        state = state.with_unit(d)
        victor, loser_odds, loser_type = d, odds, a.type
    # under Partial Kill the victor is hurt as often as the loser had a chance to win; never fatally (p.30)
    if ctx.partial_kill and victor.hp > 1 and step.chance(loser_odds, f"damage to the victor at {label}", SIDES):
        hp = max(1, victor.hp - ctx.tables.units[loser_type].damage)
        state = state.with_unit(replace(state.unit(victor.id), hp=hp))
        ctx.emit(step, "damaged", f"the victor is damaged: {count(hp, 'hit point')} left", SIDES, unit=victor.id, hp=hp)
    return state


def return_fire_targets(ctx: Ctx, state: PGState, target: Unit) -> list[tuple[str, int]]:
    """Return fire (p.13, p.29): the unit fired at, if it has not fired, may shoot any eligible enemy first."""
    if not can_fire_direct(ctx, state, target):
        return []
    return targets(ctx, state, target)


def passing_fire_units(ctx: Ctx, state: PGState, mover: Unit) -> list[str]:
    """Passing fire (p.14): unfired enemy units with the moving unit in range and sight may fire at it."""
    if not mover.spotted:
        return []
    board = ctx.board
    sight = board.sight(state)
    vis = board.weather(state).visibility
    out = []
    # an enemy farther than any unit's range, one more from higher ground, cannot hit it (shot_chance)
    for e in board.near(enemy_units(state, mover.side), mover.cell, min(vis, board.longest_fire_reach)):
        if (
            can_fire_direct(ctx, state, e)
            and shot_chance(ctx, state, e, mover) is not None
            and sight.sees(e.cell, mover.cell, vis)
        ):
            out.append(e.id)
    return out


def enemy_side(unit: Unit) -> str:
    return other(unit.side)
