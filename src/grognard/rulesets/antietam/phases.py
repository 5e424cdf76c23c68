"""The sequence of play (§IA2.3): fourteen phases a turn, turns 06:00 to 16:00 (§IA1.3), declared as the
engine's turn sequence. Only the operation phases ask for decisions in the basic game; the others resolve by
themselves. The intermediate and advanced games' activation cycle (§IA3.1) and command control (§IA4) are
the hooks left in ``activation`` and ``command_control``."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from grognard.engine.decisions import Legal
from grognard.engine.events import Step
from grognard.engine.records import remaker, replace
from grognard.engine.sequence import Part, TurnSequence

from . import leaders, victory
from .activation import start_cycle
from .combat import combat_phase
from .ctx import ENEMY, ONLY, Ctx
from .moves import allowance, enter, in_command, locked, schedule
from .orders import auto_fortify
from .state import OFF_MAP, AntietamState, Unit

OPS_PASSES = ("end_phase", "put_down")


def phase_names(ctx: Ctx) -> tuple[str, ...]:
    return ctx.phases


def operations_side(ctx: Ctx, part: int) -> str:
    """The side whose operation phase ``part`` is, or "" (``Ctx.phasing``)."""
    return ctx.phasing[part]


def turn_sequence(ctx: Ctx, legal: Callable[[AntietamState, str], Legal]) -> TurnSequence[AntietamState]:
    parts: list[Part[AntietamState]] = []
    for name in phase_names(ctx):
        side, _, what = name.partition("_")
        if what.startswith("operations_"):
            parts.append(
                Part(name, partial(_only, side), partial(begin_operations, ctx, side, what.endswith("2")), OPS_PASSES)
            )
        elif what.startswith("combat_"):
            parts.append(Part(name, begin=partial(begin_combat, ctx, side)))
        elif name == "activation":
            parts.append(Part(name, partial(_activating, ctx), partial(activation, ctx)))
        else:
            parts.append(Part(name, begin=partial(BEGIN[name], ctx)))

    def put(state: AntietamState, i: int) -> AntietamState:
        return replace(state, part=i, accessed=-1, pick=None)

    return TurnSequence(parts, legal, lambda s: s.part, put, partial(next_turn, ctx), lambda s: s.over)


def _only(side: str, state: AntietamState) -> tuple[str, ...]:
    return (side,)


def _activating(ctx: Ctx, state: AntietamState) -> tuple[str, ...]:
    """§IA3.1 the Union decides in the activation phase while the cycle offers divisions."""
    return ("union",) if ctx.cycle and state.offer else ()


def deciding_side(ctx: Ctx, state: AntietamState) -> str:
    """Who decides now: the phasing side of an operation phase, the Union in the activation cycle, or ""."""
    if state.part == ctx.activation_part:
        return "union" if ctx.cycle and state.offer else ""
    return ctx.phasing[state.part]


def phase_title(name: str) -> str:
    """``union_operations_1`` as §IA2.3 prints it: "Union 1st Operations Phase"."""
    words = name.split("_")
    if words[-1] in ("1", "2"):
        ordinal = "1st" if words[-1] == "1" else "2nd"
        return f"{words[0].capitalize()} {ordinal} {words[1].capitalize()} Phase"
    return " ".join(w.capitalize() for w in words) + " Phase"


def clock(ctx: Ctx, turn: int) -> str:
    """Turn 1 is 06:00 (§IA1.3)."""
    return f"{ctx.rules['game']['first_turn_hour'] + turn - 1:02d}:00"


# --- 1. activation (§B2.0 in the basic game; §IA3 later) -------------------------------------------------------
def activation(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    """§B2.0: Porter, Franklin and Pleasonton are held until their turns; "The above limits may be changed due to
    a random factor" (AMB-4 reading: each held formation is released with 1 chance in 6 a turn). The
    intermediate and advanced games have the activation cycle instead (§IA3.1-3.2)."""
    ctx.tell(step, "turn", f"Turn {state.turn}, {clock(ctx, state.turn)}", turn=state.turn)
    if ctx.cycle:
        return start_cycle(ctx, state, step)
    one_in = ctx.rules["activation"]["schedule"]["early_release_one_in"]
    freed = []
    for f, turn in schedule(ctx).items():
        held = state.turn < turn and f not in state.released
        if held and step.roll(one_in, f"{f}'s command released early (1 in {one_in})") == 1:
            freed.append(f)
            ctx.tell(step, "released", f"McClellan releases {f}'s command (§B2.0)", formation=f)
    return replace(state, released=(*state.released, *freed))


def command_control(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    """§IA4: advanced game only ("This phase is skipped for the INTERMEDIATE Game, (All units are always in command
    control)"; so in the basic game)."""
    return leaders.command_control(ctx, state, step) if ctx.has["command_control"] else state


# --- 3. recovery and rally (§IA5), 9. mid-turn recovery (§IA9) --------------------------------------------------
def recover(ctx: Ctx, state: AntietamState, step: Step, turn_start: bool) -> AntietamState:
    board, rec = ctx.board, ctx.recovery
    zocs = {s: ctx.zoc(state, ENEMY[s]) for s in ("union", "confederate")}
    column = 0 if turn_start else 1
    changed: dict[int, Unit] = {}
    units = state.units
    # the units with something to recover (the others roll nothing and stay as they are), the records' slots read
    # directly (3.11's specialised loads: every unit is asked)
    due = [
        i
        for i, u in enumerate(units)
        if u.cell >= 0 and (not u.ammo or u.disrupted or (turn_start and (u.routed or u.fatigue)))
    ]
    for i in due:
        u = units[i]
        spec = board.spec(i)
        side = spec.side
        in_zoc = u.cell in zocs[side]
        sides = ONLY[side]
        # §IA5.1 disruption recovery: morale above 40; in command control (always, basic); the leader is
        # assumed alive, as the table's note says of the intermediate game
        dr = rec["disruption_recovery"]
        # §IA4.4 "units out of command do not have ammo resupplied or disruption recovered. They may not rally."
        cc = in_command(ctx, state, i)
        if u.disrupted and cc and ctx.morale(i, u) > dr["morale_above"]:
            alive = leaders.brigade_leader_alive(ctx, state, i)
            row = "leader_alive_not_in_zoc" if alive and not in_zoc else "leader_dead_or_in_zoc"
            pct = dr["leader_dead_and_in_zoc" if not alive and in_zoc else row]
            if step.chance(pct, f"{spec.name} recovers from disruption", sides):
                u = u.updated(disrupted=False)
        if turn_start:
            # §IA5.2 rally
            ra = rec["rally"]
            men_ok = spec.artillery or u.strength > ra["more_than_men"][side]
            if u.routed and cc and ctx.morale(i, u) >= ra["morale_at_least"] and men_ok:
                u = u.updated(routed=False)
                ctx.tell(step, "rallied", f"{spec.name} rallies", sides, unit=spec.id)
            # §IA5.3 fatigue recovery (AMB-16: read swapped, rest away from the enemy recovers more)
            fr = rec["fatigue_recovery"]
            far, near = fr["in_enemy_zoc_divisor"], fr["not_in_zoc_divisor"]
            if fr["reading"] == "swapped":
                far, near = near, far
            fatigue = max(0, u.fatigue - spec.eff // (far if in_zoc else near))
            if fatigue != u.fatigue:
                u = _RESTED(u, fatigue)
        # §IA5.4 / §IA9 ammunition (basic: every unit goes to the Resupply Table, no leader to trace to)
        if not u.ammo and cc:
            table = rec["ammo_resupply"][side]["artillery" if spec.artillery else "small_arms"]
            eligible = leaders.ammo_eligibility(ctx, state, i) if ctx.has["leaders"] else 100
            ok = eligible is None or (  # "Auto - Resupply": the division leader is at hand, no table
                eligible > 0
                and (eligible == 100 or step.chance(eligible, f"{spec.name} eligible for ammunition", sides))
                and step.chance(table[column], f"{spec.name} resupplied with ammunition", sides)
            )
            if ok:
                u = u.updated(ammo=True)
        if u is not state.units[i]:  # a new record only where a value changed
            changed[i] = u
    return state.with_units(changed)  # each unit's recovery reads only itself and what this phase leaves alone


_RESTED = remaker(Unit, ("fatigue",))  # §IA5.3 (most units with fatigue, every turn)


def recovery_rally(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    return recover(ctx, state, step, turn_start=True)


def mid_turn_recovery(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    return recover(ctx, state, step, turn_start=False)


# --- 4. reinforcements (§B6.0, §IA6) ---------------------------------------------------------------------------
def reinforcement(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    """Units due this turn enter on their entry squares; "units are delayed if stacking would be violated or the
    entry squares are enemy occupied" (§IA6.0). A. P. Hill may come early (AMB-31)."""
    board = ctx.board
    sc = board.scenario
    early = state.early
    one_in = ctx.rules["reinforcements"]["early_chance_one_in"]
    # (a unit that may come early still waits: asked only while the division has not come early)
    waiting = not early and any(
        u.cell == OFF_MAP and board.spec(i).earliest_turn <= state.turn < sc.arrival(board.spec(i))
        for i, u in enumerate(state.units)
    )
    if waiting and step.roll(one_in, f"A. P. Hill arrives early (1 in {one_in})") == 1:
        early = True
        ctx.tell(step, "early", "A. P. Hill's division arrives from Harpers Ferry early")
    if early != state.early:
        state = replace(state, early=early)
    # the units that enter go into one new table at the end: who stands where is patched here as each enters (the
    # enemy and stacking tests read only that, and the fords), rather than asked of a new state each time
    occ, shared = ctx.occupants(state), True
    entered: dict[int, Unit] = {}
    for i, u in enumerate(state.units):
        if u.cell != OFF_MAP:
            continue
        spec = board.spec(i)
        due = sc.arrival(spec) <= state.turn or (early and spec.earliest_turn <= state.turn)
        if not due or not spec.entry:
            continue
        cells, first = entry_squares(ctx, spec.entry)
        if first >= 0 and ctx.enemy_at(state, first, spec.side, occ):  # OOB note: "in which case they are delayed"
            continue
        for c in cells:
            if not ctx.enemy_at(state, c, spec.side, occ) and not ctx.stack_allows(state, i, c, occ):
                entered[i] = arrive(ctx, i, replace(u, cell=c), True)
                if shared:  # the answer ``ctx`` gave stays as it was
                    occ, shared = dict(occ), False
                occ[c] = sorted([*occ.get(c, ()), i])  # in OOB order
                ctx.tell(
                    step,
                    "arrives",
                    f"{spec.name} arrives at {board.label(c)}",
                    (spec.side,),
                    unit=spec.id,
                    at=board.label(c),
                )
                break
    if entered:
        state = state.with_units(entered)
        for i, u in entered.items():  # the victory squares, in the order they entered
            state = enter(ctx, state, i, u.cell)
    return state


def entry_squares(ctx: Ctx, entry: str) -> tuple[list[int], int]:
    """A reinforcement entry's squares in the order a unit tries them, and the square whose enemy delays it (-1:
    none), worked out once a game."""
    kept = ctx.memo("entry squares", ())
    hit: tuple[list[int], int] | None = kept.get(entry)
    if hit is None:
        board = ctx.board
        cells = sorted(board.map.region(entry), key=board.grid.coord)
        gate = ctx.rules["reinforcements"]["delayed_while_enemy_on"].get(entry)
        first = -1
        if gate:
            first = board.grid.parse(gate)
            cells = sorted(cells, key=lambda c: int(board.dist[c, first]))  # "on the road from 33,1 to 32,4"
        hit = kept[entry] = (cells, first)
    return hit


def arrive(ctx: Ctx, i: int, u: Unit, reinforcement: bool) -> Unit:
    """A unit's mode and facing as it enters play in the intermediate and advanced games (rules.toml [modes]
    reinforcement, [facing] initial: readings, the manual prints neither)."""
    if ctx.basic:
        return u
    spec = ctx.board.spec(i)
    m = ctx.rules["modes"]
    mode = m["reinforcement"][spec.type] if reinforcement else m[spec.type][0]
    return replace(u, mode=mode, facing=ctx.rules["facing"]["initial"][spec.side])


# --- operation and combat phases --------------------------------------------------------------------------------
def begin_operations(ctx: Ctx, side: str, second: bool, state: AntietamState, step: Step) -> AntietamState:
    """§B3.4 / §IA7.4: ten operation points each phase; up to two unused carry into the turn's second phase.
    "Some Confederate units receive 0 operation points for the entire first turn" (AMB-10: McLaws, R. H.
    Anderson)."""
    op = ctx.rules["operation_points"]
    zero = frozenset(op["zero_on_turn_1_divisions"]) if state.turn == 1 else frozenset()
    changed: dict[int, Unit] = {}
    full, short, carry = allowance(ctx, True), allowance(ctx, False), op["carry_over_max"]
    specs, units = ctx.board.specs, state.units
    out = frozenset(state.out_of_command)  # §IA4 (``in_command``: the advanced game's units out of command)
    made, made_from = ctx.reset_made, ctx.reset_from
    ids = ctx.side_units(state, side)
    for i in ids:
        u = units[i]
        left = u.op  # the record's slots read directly (3.11's specialised loads, cheaper than a getter's tuple)
        base = 0 if zero and specs[i].division in zero else short if i in out else full
        points = base + (left if left < carry else carry) if second else base  # min(), without its call
        if left != points or u.moved or u.acted or u.plotted:  # a unit that has all this already stays as it is
            # a unit left alone since its last reset has the points of the record that reset was made from (they
            # alternate between a turn's first and second phase): that record, when it had no flags set
            was = made_from[i] if made[i] is u else None
            if was is not None and was.op == points and not (was.moved or was.acted or was.plotted):
                new = was
            else:
                new = _RESET(u, points, False, False, False)
            made[i], made_from[i] = new, u
            changed[i] = new
    ctx.tell(step, "operations", f"{side.capitalize()} operation phase", side=side)
    reset = state.with_units(changed)
    ctx.unmoved(units, reset.units)  # points and flags: who stands where holds as it was
    return reset


_RESET = remaker(Unit, ("op", "moved", "acted", "plotted"))


def begin_combat(ctx: Ctx, side: str, state: AntietamState, step: Step) -> AntietamState:
    state = combat_phase(ctx, state, side, step)
    if side == "confederate" and ctx.has["auto_fortify"]:  # §IA7.11, the intermediate game
        state = auto_fortify(ctx, state, step)
    return state


# --- 14. victory determination (§IA10) ------------------------------------------------------------------------------
def victory_determination(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    score = victory.points(ctx, state)
    ctx.tell(
        step, "score", f"Victory points: Union {score[0]}, Confederate {score[1]}", union=score[0], confederate=score[1]
    )
    return replace(state, score=score)


def next_turn(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    """§IA10.0 "After the eleventh turn (4:00 p.m.) is completed, the game ends"."""
    if state.turn >= ctx.board.scenario.spec.last_turn:
        ctx.tell(step, "game_over", "The battle is over")
        return replace(state, over=True)
    return replace(state, turn=state.turn + 1)


BEGIN: dict[str, Callable[[Ctx, AntietamState, Step], AntietamState]] = {
    "activation": activation,
    "command_control": command_control,
    "recovery_rally": recovery_rally,
    "reinforcement": reinforcement,
    "mid_turn_recovery": mid_turn_recovery,
    "victory_determination": victory_determination,
}

__all__ = ["locked", "turn_sequence"]
