"""The turn sequence (PG p.18-19): purchase and placement, mobile artillery plot, indirect fire, artillery
plot, first direct fire, movement, second direct fire, scoring; each phase the attacker's part, then the
defender's. Parts with nothing to decide pass by themselves (p.12: "the game will quickly cycle through this
phase without prompting you")."""

from __future__ import annotations

import hashlib

from grognard.engine.events import Step
from grognard.engine.records import replace

from .artillery import can_plot, resolve_indirect_fire
from .combat import can_fire_direct, targets
from .context import Ctx, enemy_units, own_units
from .moves import can_move, can_work, start_movement_phase
from .spotting import end_of_phase, spot_in_open
from .state import SIDES, PGState, Phase, Unit, other
from .words import count

TURN_PHASES = (Phase.MOBILE_PLOT, Phase.ARTILLERY_PLOT, Phase.FIRST_FIRE, Phase.MOVEMENT, Phase.SECOND_FIRE)


def region_cells(ctx: Ctx, state: PGState, side: str) -> frozenset[int]:
    """Where the current placement may put units: set-up region, reinforcement region or neutral country."""
    sc = ctx.board.scenario
    if state.region.startswith("neutral:"):
        name = state.region.split(":", 1)[1]
        return next(n.cells for n in sc.neutrals if n.name == name)
    if state.region == "reinforce":
        return sc.reinforce_regions[side]
    return sc.setup[side]


def cheapest(ctx: Ctx) -> int:
    return min(ctx.tables.units[t].cost for t in ctx.board.scenario.on_sale)


def new_unit_id(state: PGState, side: str) -> str:
    """An id that tells the enemy nothing about how many units a side has or in what order they were bought."""
    h = hashlib.blake2b(f"{state.secret}:{state.serial}".encode(), digest_size=4).hexdigest()
    return f"{side[0]}{h}"


# --- moving through the sequence -------------------------------------------------------------------------
def end_part(ctx: Ctx, state: PGState, step: Step) -> PGState:
    """The acting side has finished its part of the phase: spotting settles, then the next part begins."""
    ctx.emit(
        step,
        "phase_end",
        f"{state.side} ends {state.phase.value.replace('_', ' ')}",
        SIDES,
        phase=state.phase.value,
        side=state.side,
    )
    return _enter(ctx, state, step)


def begin_interrupt(ctx: Ctx, state: PGState, step: Step) -> PGState:
    """Pause the moving side's phase for the purchase and placement of a neutral country's defenders."""
    assert state.interrupt is not None
    it = state.interrupt
    return _enter(ctx, replace(state, phase=Phase.PURCHASE, side=it.side, region=it.region), step, advance=False)


def _next(ctx: Ctx, state: PGState, step: Step) -> tuple[PGState, bool]:
    """The part after the current one (running indirect fire and scoring on the way), and whether it is a
    fresh part (False when a paused phase resumes)."""
    phase, side = state.phase, state.side
    if phase is Phase.PURCHASE:
        return replace(state, phase=Phase.PLACEMENT), True
    if phase is Phase.PLACEMENT:
        state = state.with_side(side, placed=(), pool=(), points=0)  # points left unspent are lost
        if state.interrupt is not None:
            it = state.interrupt
            return replace(state, phase=it.resume_phase, side=it.resume_side, interrupt=None, region=""), False
        return _after_placement(ctx, state, step), True
    if side == "attacker":
        return replace(state, side="defender"), True
    i = TURN_PHASES.index(phase)
    if i + 1 < len(TURN_PHASES):
        return _phase_start(ctx, replace(state, phase=TURN_PHASES[i + 1], side="attacker"), step), True
    return _new_turn(ctx, _score(ctx, state, step), step), True


def _after_placement(ctx: Ctx, state: PGState, step: Step) -> PGState:
    side = state.side
    if state.region == "setup":
        if side == "attacker":
            return replace(state, phase=Phase.PURCHASE, side="defender")
        state = replace(state, region="")
        state = spot_in_open(ctx, state, step)  # all units start unspotted; rule a applies from now on
        return _phase_start(ctx, replace(state, phase=Phase.MOBILE_PLOT, side="attacker"), step)
    if state.region == "reinforce" and side == "attacker" and state.side_state("defender").points > 0:
        return replace(state, phase=Phase.PURCHASE, side="defender")
    return _phase_start(ctx, replace(state, phase=Phase.MOBILE_PLOT, side="attacker", region=""), step)


def _phase_start(ctx: Ctx, state: PGState, step: Step) -> PGState:
    """What happens as a phase begins: indirect fire resolves after the mobile artillery plot (p.18-19)."""
    if state.phase is Phase.ARTILLERY_PLOT:
        state = resolve_indirect_fire(ctx, state, step)
    return state


def _new_turn(ctx: Ctx, state: PGState, step: Step) -> PGState:
    if state.turn >= ctx.board.scenario.turns:
        ctx.emit(step, "game_over", "the last turn is over", SIDES)
        return replace(state, phase=Phase.OVER, side="")
    turn = state.turn + 1
    fresh = {
        u.id: replace(
            u, fired=False, moved=False, mp=0, plotted=False, pinned=False, unloaded=False, ignored=False, worked=False
        )
        for u in state.units
    }
    state = replace(state.with_units(fresh), turn=turn, barrages=(), prompt="")
    ctx.emit(
        step,
        "turn",
        f"turn {turn} begins ({', '.join(ctx.board.scenario.weather[turn - 1])})",
        SIDES,
        turn=turn,
        weather=list(ctx.board.scenario.weather[turn - 1]),
    )
    # reinforcement points: fixed ones for this turn, and those earned from towns (p.18)
    for side in SIDES:
        ss = state.side_state(side)
        fixed = sum(r.points for r in ctx.board.scenario.spec.reinforcements if r.turn == turn and r.side == side)
        points = fixed + ss.earned
        state = state.with_side(side, points=points, earned=0)
        if points:
            ctx.emit(
                step,
                "reinforcements",
                f"{side} receives {count(points, 'reinforcement point')}",
                SIDES,
                side=side,
                points=points,
            )
    first = next((s for s in SIDES if state.side_state(s).points > 0), None)
    if first is not None:
        return replace(state, phase=Phase.PURCHASE, side=first, region="reinforce")
    return _phase_start(ctx, replace(state, phase=Phase.MOBILE_PLOT, side="attacker"), step)


def _score(ctx: Ctx, state: PGState, step: Step) -> PGState:
    """Scoring (p.17): a town held by units of one side alone earns its points; some earn reinforcement
    points too (p.18)."""
    sc = ctx.board.scenario
    gains = dict.fromkeys(SIDES, 0)
    holders = town_holders(state, ctx)
    for town in sc.towns:
        holder = holders[town.name]
        if holder:
            gains[holder] += town.value
    for side in SIDES:
        if gains[side]:
            state = state.with_side(side, score=state.side_state(side).score + gains[side])
    for rt in sc.spec.reinforcement_towns:
        holder = holders[rt.town]
        if holder and state.turn in rt.turns:
            state = state.with_side(holder, earned=state.side_state(holder).earned + rt.points)
            ctx.emit(
                step,
                "earned",
                f"{holder} earns {count(rt.points, 'reinforcement point')} from {rt.town}",
                SIDES,
                side=holder,
                town=rt.town,
                points=rt.points,
            )
    a, d = state.side_state("attacker").score, state.side_state("defender").score
    ctx.emit(
        step,
        "score",
        f"end of turn {state.turn}: attacker {a} (+{gains['attacker']}), defender {d} (+{gains['defender']})",
        SIDES,
        turn=state.turn,
        attacker=a,
        defender=d,
        gains=gains,
        holders={k: v for k, v in holders.items() if v},
    )
    return replace(state, history=(*state.history, (a, d)))


def town_holders(state: PGState, ctx: Ctx) -> dict[str, str]:
    """Who holds each town now: the side alone in it, or "" (p.17)."""
    present: dict[int, set[str]] = {}
    towns = ctx.board.town_cells  # asked for every view: most units stand outside towns
    for u in state.units:
        if u.cell in towns and not u.carried_by:
            present.setdefault(u.cell, set()).add(u.side)
    out = {}
    for town in ctx.board.scenario.towns:
        sides: set[str] = set()
        for c in town.cells:
            sides |= present.get(c, set())
        out[town.name] = next(iter(sides)) if len(sides) == 1 else ""
    return out


# --- entering a part, and skipping empty ones -------------------------------------------------------------
def _enter(ctx: Ctx, state: PGState, step: Step, advance: bool = True) -> PGState:
    """Move on from the current part (``advance``) and on through every part with nothing to decide."""
    fresh = True
    for _ in range(200):
        if advance:
            if state.phase not in (Phase.PURCHASE, Phase.PLACEMENT):
                state = end_of_phase(ctx, state, step)
            state, fresh = _next(ctx, state, step)
        advance = True
        if state.phase is Phase.OVER:
            return state
        if fresh:
            state = _setup_part(ctx, state)
        if has_work(ctx, state):
            return state
    raise AssertionError("the sequence did not settle")


def _setup_part(ctx: Ctx, state: PGState) -> PGState:
    if state.phase is Phase.MOVEMENT:
        return start_movement_phase(ctx, state, state.side)
    if state.phase in (Phase.FIRST_FIRE, Phase.SECOND_FIRE):
        cleared = {u.id: replace(u, ignored=False) for u in state.units if u.ignored}
        if cleared:  # else the same units: what is kept by them (a side's units, its sight answers) stays
            state = state.with_units(cleared)
        return replace(state, prompt="")
    if state.phase is Phase.PURCHASE:
        return state.with_side(state.side, confirming=False)
    return state


def has_work(ctx: Ctx, state: PGState) -> bool:
    """Whether the acting side has anything to decide in this part."""
    side = state.side
    mine = own_units(state, side)
    if state.phase is Phase.PURCHASE:
        return state.side_state(side).points >= cheapest(ctx)
    if state.phase is Phase.PLACEMENT:
        return bool(state.side_state(side).pool)
    if state.phase in (Phase.MOBILE_PLOT, Phase.ARTILLERY_PLOT):
        return any(can_plot(ctx, state, u, state.phase) for u in mine)
    if state.phase in (Phase.FIRST_FIRE, Phase.SECOND_FIRE):
        # a target is a spotted enemy unit within the firer's reach and sight (combat.targets): a unit with none
        # of them near is not asked (most fire parts of a game have nothing to decide)
        spotted = [e.cell for e in enemy_units(state, side) if e.spotted]
        if not spotted:
            return False
        board = ctx.board
        vis = board.weather(state).visibility
        for u in mine:
            if fire_ready(ctx, state, u):
                far, reach = board.distance_row(u.cell), min(vis, board.fire_reach[u.type])
                if any(far[c] <= reach for c in spotted) and targets(ctx, state, u):
                    return True
        return False
    if state.phase is Phase.MOVEMENT:
        return any(can_move(ctx, u) or can_work(ctx, u) for u in mine)
    return False


def fire_ready(ctx: Ctx, state: PGState, unit: Unit) -> bool:
    return not unit.ignored and can_fire_direct(ctx, state, unit)


def acting(state: PGState) -> str:
    """The side the game waits for: the reacting side while a reaction is offered."""
    if state.phase is Phase.OVER:
        return ""
    if state.offer is not None:
        target_side = state.unit(state.offer.target).side
        return other(target_side) if state.offer.kind == "passing" else target_side
    return state.side
