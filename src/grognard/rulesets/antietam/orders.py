"""The orders to an accessed unit: (Z) abort in every game (§B3.3, §IA7.3); the intermediate and advanced
games' mode, facing, force march, fortification (§IA7.8-§IA7.11); and the automatic fortification of the
intermediate game (§IA7.11, AMB-11)."""

from __future__ import annotations

from grognard.engine.errors import IllegalDecision
from grognard.engine.events import Step
from grognard.engine.records import replace

from .ctx import ENEMY, Ctx, changed
from .state import AntietamState, Pick, Unit


def modes(ctx: Ctx, i: int) -> list[str]:
    """§IA7.8 the unit's two modes, [set-up mode, the other] (rules.toml [modes])."""
    return list(ctx.rules["modes"][ctx.board.spec(i).type])


def other_mode(ctx: Ctx, i: int, u: Unit) -> str:
    a, b = modes(ctx, i)
    return b if u.mode == a else a


def mode_cost(ctx: Ctx, state: AntietamState, i: int) -> int:
    """Operations Costs Table "Change mode 2 2 4 4", note 5 "Mode change for CAV ART is 2", "Unlimber in enemy
    ZOC 8"."""
    u = state.units[i]
    costs = ctx.tables.terrain["costs"]
    if ctx.board.spec(i).horse_artillery:
        return int(costs["notes"]["horse_artillery_change_mode"])
    if u.mode == "limbered" and u.cell in ctx.zoc(state, ENEMY[ctx.board.side(i)]):
        return ctx.tables.cost("unlimber_in_zoc", "limb") or 0
    return ctx.tables.cost("change_mode", ctx.column(i, u)) or 0


def mode_refusal(ctx: Ctx, state: AntietamState, i: int) -> IllegalDecision | None:
    if ctx.basic:
        return IllegalDecision("the basic game has no modes", "§IA2.1 #4")
    u = state.units[i]
    if u.routed:
        return IllegalDecision("a routed unit may not change mode", "§B4.3")
    cost = mode_cost(ctx, state, i)
    if u.op < cost:
        return IllegalDecision(f"changing mode costs {cost} operation points, {u.op} left", "§IA7.8")
    return None


def change_mode(ctx: Ctx, state: AntietamState, i: int, step: Step) -> AntietamState:
    u = state.units[i]
    new = other_mode(ctx, i, u)
    cost = mode_cost(ctx, state, i)
    name = ctx.board.spec(i).name
    ctx.tell(step, "mode", f"{name} changes to {new} mode", (ctx.board.side(i),), unit=ctx.board.spec(i).id, mode=new)
    return state.with_unit(i, replace(u, mode=new, op=u.op - cost))


def face(ctx: Ctx, state: AntietamState, i: int, facing: int) -> AntietamState:
    """§IA7.9 "Facing may be changed at any time during the operations phase at no cost"; "all units in a square
    will assume the facing of the last unit accessed in the square"."""
    cell = state.units[i].cell
    stack = ctx.occupants(state).get(cell, [i])
    return state.with_units({j: replace(state.units[j], facing=facing) for j in stack})


def face_refusal(ctx: Ctx, state: AntietamState, i: int, facing: object) -> IllegalDecision | None:
    if ctx.basic:
        return IllegalDecision("the basic game has no facing: units see all round", "§B3.3")
    if not isinstance(facing, int) or not 1 <= facing <= ctx.rules["facing"]["directions"]:
        return IllegalDecision("a facing is 1 to 8", "§IA7.9")
    if facing == state.units[i].facing:
        return IllegalDecision("the unit faces that way already", "§IA7.9")
    return None


def force_march_refusal(ctx: Ctx, state: AntietamState, i: int) -> IllegalDecision | None:
    fm = ctx.rules["force_march"]
    if ctx.basic:
        return IllegalDecision("the basic game has no force march", "§IA2.1 #4")
    u = state.units[i]
    if u.fatigue >= fm["fatigue_limit"]:
        return IllegalDecision(f"units with fatigue {fm['fatigue_limit']} or higher may not force march", "§IA7.10")
    if u.routed:
        return IllegalDecision("a routed unit may not force march", "§B4.3")
    return None


def force_march(ctx: Ctx, state: AntietamState, i: int, step: Step) -> AntietamState:
    """§IA7.10 "Pressing "X" command will increase the fatigue level by six and increment the operation points
    remaining by one"."""
    fm = ctx.rules["force_march"]
    u = state.units[i]
    return state.with_unit(i, replace(u, op=u.op + fm["op_per_press"], fatigue=u.fatigue + fm["fatigue_per_press"]))


def fortify_refusal(ctx: Ctx, state: AntietamState, i: int) -> IllegalDecision | None:
    """§IA7.11 "Fortifications are built by pressing the "B" key at a cost of operation and fatigue points":
    advanced game; infantry only (the costs table prints "P" for the others)."""
    if not ctx.has["build_fortify"]:
        return IllegalDecision("fortifications are built only in the advanced game", "§IA7.11")
    u = state.units[i]
    cost = ctx.tables.cost("fortify", ctx.column(i, u))
    if ctx.board.spec(i).type != "infantry" or cost is None:
        return IllegalDecision("only infantry builds fortifications", "Operations Costs Table")
    if u.routed:
        return IllegalDecision("a routed unit may not fortify", "§B4.3")
    if u.fort >= ctx.rules["fortification"]["max_level"]:
        return IllegalDecision(f"a fortification value is 0 to {ctx.rules['fortification']['max_level']}", "§IA7.11")
    if u.op < cost:
        return IllegalDecision(f"fortifying costs {cost} operation points, {u.op} left", "§IA7.11")
    return None


def fortify(ctx: Ctx, state: AntietamState, i: int, step: Step) -> AntietamState:
    u = state.units[i]
    f = ctx.rules["fortification"]
    cost = ctx.tables.cost("fortify", ctx.column(i, u)) or 0
    u = replace(u, fort=u.fort + 1, op=u.op - cost, fatigue=u.fatigue + f["build_fatigue"])
    spec = ctx.board.spec(i)
    ctx.tell(step, "fortify", f"{spec.name} fortifies to level {u.fort}", (spec.side,), unit=spec.id, level=u.fort)
    return state.with_unit(i, u)


def auto_fortify(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    """§IA7.11 "Units automatically fortify themselves when they have remaining operation points at the end of
    the combat phase of the Confederate turn in the INTERMEDIATE game" (AMB-11 reading: infantry of either side
    with 6 OP or more left, not in an enemy ZOC, +1 level up to 5, no fatigue)."""
    f = ctx.rules["fortification"]
    changed = {}
    for side in ("union", "confederate"):
        zoc = ctx.zoc(state, ENEMY[side])
        for i in ctx.side_units(state, side):
            u = state.units[i]
            ok = ctx.board.spec(i).type == "infantry" and not u.routed and u.cell not in zoc
            if ok and u.op >= f["auto_min_op"] and u.fort < f["max_level"]:
                changed[i] = replace(u, fort=u.fort + 1)
    if changed:
        ctx.tell(step, "fortify", f"{len(changed)} units dig in (§IA7.11)", count=len(changed))
    return state.with_units(changed)


# --- (Z) abort (§B3.3, §IA7.3, §IA7.5) ------------------------------------------------------------------------
def picked_up(state: AntietamState, i: int) -> AntietamState:
    """Unit ``i`` has just been picked up: what an abort would put back."""
    return replace(state, pick=Pick(((i, state.units[i]),), state.released, state.holders))


def track(before: AntietamState, after: AntietamState) -> AntietamState:
    """``after`` (an order to the accessed unit applied to ``before``) with the first record of every unit the
    order changed kept for an abort; units are compared by identity (a record not changed is the same object)."""
    pick = before.pick
    if pick is None or after.units is before.units:
        return after
    kept = {j for j, _ in pick.units}
    new = [(j, before.units[j]) for j in changed(before.units, after.units) if j not in kept]
    return replace(after, pick=replace(pick, units=(*pick.units, *new))) if new else after


def may_abort(state: AntietamState) -> bool:
    """§B3.3 whether Z may take back what the picked-up unit did: a unit is picked up and has done something since
    (asked by the legal set after every order)."""
    pick = state.pick
    if state.accessed < 0 or pick is None:
        return False
    return len(pick.units) > 1 or state.units[state.accessed] != pick.units[0][1] or state.released != pick.released


def abort(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    """§IA7.3 (Z) "The unit you have accessed will return to its original square, facing, and mode with its original
    operation points and fatigue": its whole record as picked up (a plot given since is cancelled too, §B3.3
    "cancels the actions of the unit"); the stack-mates its orders turned or tired get their facing and fatigue
    back; an early §B2.0 release its moves set off and a victory square they entered (AMB-18) are undone. What the
    seat saw on the way (an enemy next to a square it stepped into, §IA2.1 #5) it has seen: the view shows what is
    sighted from where the units now stand, as after any move."""
    pick = state.pick
    assert pick is not None
    i = state.accessed
    changed = {
        j: old if j == i else replace(state.units[j], facing=old.facing, fatigue=old.fatigue) for j, old in pick.units
    }
    state = replace(state.with_units(changed), released=pick.released, holders=pick.holders)
    spec, cell = ctx.board.spec(i), state.units[i].cell
    label = ctx.board.label(cell)
    ctx.tell(step, "abort", f"{spec.name} goes back to {label} (Z)", (spec.side,), unit=spec.id, to=label)
    return picked_up(state, i)
