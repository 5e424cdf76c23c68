"""The operation phase's movement (§B3.4-§B3.6, §IA7.4-§IA7.7) and the basic game's corps schedule (§B2.0)."""

from __future__ import annotations

from typing import Any

from grognard.engine.errors import IllegalDecision
from grognard.engine.events import Step
from grognard.engine.records import replace

from .activation import inactive
from .ctx import ENEMY, ONLY, Ctx
from .state import AntietamState, Unit


# --- §B2.0 the basic game's corps schedule ---------------------------------------------------------------
def schedule(ctx: Ctx) -> dict[str, int]:
    """Formation -> the first turn it may move (§B2.0); empty with the Activation option off (§IA2.1 #8)."""
    return ctx.schedule


def formation(ctx: Ctx, i: int) -> str:
    """The scheduled formation a Union unit belongs to (its corps, or Pleasonton's division), or ""."""
    return ctx.formations[i]


def locked(ctx: Ctx, state: AntietamState, i: int) -> str:
    """The formation that holds unit ``i`` in place this turn (§B2.0; §IA3.3 a division not activated), or ""."""
    f = formation(ctx, i)
    if f and state.turn < schedule(ctx)[f] and f not in state.released:
        return f
    return inactive(ctx, state, i)


def held_formations(ctx: Ctx, state: AntietamState) -> frozenset[str]:
    """The formations of the §B2.0 schedule that may not move this turn: a unit is ``locked`` by its formation
    exactly when that formation is one of these."""
    return frozenset(f for f, turn in schedule(ctx).items() if state.turn < turn and f not in state.released)


def held_refusal(ctx: Ctx, state: AntietamState, i: int) -> IllegalDecision | None:
    """Why unit ``i`` may not move this turn as activation goes (§B2.0, §IA3.3), or None."""
    f = locked(ctx, state, i)
    if not f:
        return None
    if f in ctx.schedule:
        return IllegalDecision(f"{f}'s command cannot move until turn {ctx.schedule[f]}", "§B2.0")
    what = "artillery" if ":" in f else "division"
    return IllegalDecision(f"{f.replace('corps:', '')}'s {what} is not activated", "§IA3.3")


def release_adjacent(ctx: Ctx, state: AntietamState, cell: int, step: Step) -> AntietamState:
    """§B2.0 "or if the enemy moves next to the above units": an enemy unit ending a move next to a unit of a
    held formation releases the formation at once (AMB-4)."""
    occ, sides = ctx.occupants(state), ctx.board.sides
    freed = []
    for i in sorted(j for c in ctx.board.neighbors[cell] for j in occ.get(c, ()) if sides[j] == "union"):
        f = locked(ctx, state, i)
        if f and f not in freed:
            freed.append(f)
    for f in freed:
        ctx.tell(step, "released", f"The enemy is at hand: {f}'s command may move (§B2.0)", formation=f)
    return replace(state, released=(*state.released, *freed)) if freed else state


def full_allowance(ctx: Ctx, state: AntietamState | None = None, i: int = -1) -> int:
    """§IA7.4 / §IA7.5: ten operation points, five out of command control."""
    return allowance(ctx, state is None or i < 0 or in_command(ctx, state, i))


def allowance(ctx: Ctx, commanded: bool) -> int:
    """§IA7.4 / §IA7.5: a phase's operation points in command control (ten) or out of it (five)."""
    op = ctx.rules["operation_points"]
    return int(op["per_phase"] if commanded else op["out_of_command"])


def in_command(ctx: Ctx, state: AntietamState, i: int) -> bool:
    """§IA4: whether unit ``i`` is in command control (always, but in the advanced game)."""
    return i not in state.out_of_command


def step_refusal(
    ctx: Ctx,
    state: AntietamState,
    i: int,
    b: int,
    occ: dict[int, list[int]],
    enemy_zoc: frozenset[int],
) -> tuple[IllegalDecision | None, int]:
    """Why unit ``i`` may not step into square ``b`` now (with the rule), or None and the OP it spends."""
    return Steps(ctx, state, i, occ, enemy_zoc).refusal(b)


class Steps:
    """The steps unit ``i`` may take now (§B3.4-§B3.6, §IA7.5-§IA7.7): what depends on the unit alone worked out
    once, then :meth:`refusal` for each square it considers (the move family checks eight)."""

    __slots__ = (
        "_allowed",
        "a",
        "around",
        "col",
        "costs",
        "ctx",
        "enemy_zoc",
        "held",
        "i",
        "occ",
        "road_mode",
        "state",
        "u",
    )

    def __init__(
        self, ctx: Ctx, state: AntietamState, i: int, occ: dict[int, list[int]], enemy_zoc: frozenset[int]
    ) -> None:
        self.ctx, self.state, self.i, self.occ, self.enemy_zoc = ctx, state, i, occ, enemy_zoc
        self.u = u = state.units[i]
        self.a = u.cell
        self._allowed: list[int] | None = None
        self.around = ctx.board.steps_from[u.cell] if u.cell >= 0 else {}
        self.held = held_refusal(ctx, state, i) is not None
        self.col = col = ctx.column(i, u)
        # note 2 "Infantry must be in column mode to use the road bonus" (the basic game has no modes: AMB-3)
        self.road_mode = ctx.basic or col != "inf" or u.mode == ctx.rules["modes"]["road_bonus_infantry_mode"]
        costs = ctx.tables.costs
        self.costs = (
            costs["enter_higher_elevation", col] or 0,
            costs["enter_or_leave_enemy_zoc", col] or 0,
            costs["zoc_to_zoc", col],
        )

    def allowed(self) -> list[int]:
        """The squares next to the unit that it may step into, in direction order (``refusal`` of each; read
        only, worked out once)."""
        if self._allowed is None:
            u, refusal = self.u, self.refusal
            # held, or routed and moved already: ``refusal`` refuses every square for that
            held = self.held or (u.routed and u.moved)
            self._allowed = [] if held else [b for b in self.around if refusal(b)[0] is None]
        return self._allowed

    def reads(self, state: AntietamState) -> tuple[Any, ...]:
        """What of ``state`` besides the unit's record the steps read: the turn and the formations released or
        activated (§B2.0, §IA3.3), command control (§IA4), the fords (§IA1.3)."""
        return state.turn, state.released, state.active, state.out_of_command, state.fords

    def refusal(self, b: int) -> tuple[IllegalDecision | None, int]:
        """Why the unit may not step into square ``b`` (with the rule), or None and the OP it spends."""
        ctx, state, i, u, a, occ, enemy_zoc = self.ctx, self.state, self.i, self.u, self.a, self.occ, self.enemy_zoc
        board = ctx.board
        step = self.around.get(b)
        if step is None:
            return IllegalDecision("a unit moves one square at a time, keys 1-8", "§B3.3"), 0
        if self.held:
            return held_refusal(ctx, state, i), 0
        if u.routed and u.moved:
            return IllegalDecision("a routed unit moves only one square a phase", "§B4.3"), 0
        here = occ.get(b)
        if here:
            if ctx.enemy_at(state, b, board.sides[i], occ):
                return IllegalDecision("units may not move onto enemy units", "§IA7.5"), 0
            why = ctx.stack_allows(state, i, b, occ)
            if why:
                return IllegalDecision(why, "§B3.5"), 0
        if not ctx.basic:
            refused = mode_refusal(ctx, state, i, a, b, enemy_zoc)
            if refused is not None:
                return refused, 0
        # the Operations Costs Table for the step
        diagonal, along_road = step
        col, moves = self.col, ctx.tables.moves
        terrain = board.terrain(state, b)
        base = moves[terrain, col, diagonal]
        if base is None:  # river, stream
            return IllegalDecision(f"{terrain} may not be entered but at a bridge or ford", "§IA7.5"), 0
        # note 2: never diagonal (AMB-27); §IA7.7 the road rate only into a road square no unit stands in
        road = self.road_mode and not diagonal and along_road and not here
        cost = base
        if road:
            bonus = moves["road_bonus", col, diagonal]
            cost = bonus if bonus is not None else base
        higher, zoc, zoc_to_zoc = self.costs
        if board.levels[b] > board.levels[a]:  # "Enter higher elevation" (note 3: 1 with the road bonus)
            up = ctx.tables.terrain["costs"]["notes"]["road_bonus_higher_elevation"] if road else None
            cost += up if up is not None else higher
        zoc_to_zoc_step = a in enemy_zoc and b in enemy_zoc
        if a in enemy_zoc or b in enemy_zoc:  # "Enter or leave enemy ZOC"
            cost += zoc
            if not ctx.basic and zoc_to_zoc_step:  # "Move ZOC to ZOC +8 +5 P P" (§IA7.6)
                if zoc_to_zoc is None:  # the artillery columns' "P"
                    return IllegalDecision("artillery may not move ZOC to ZOC", "§IA7.6"), 0
                cost += zoc_to_zoc
        # §B3.6 basic game: "A unit must have 10 operation points to move ZOC to ZOC."
        if ctx.basic and zoc_to_zoc_step:
            if board.spec(i).artillery:
                return IllegalDecision("artillery may not move ZOC to ZOC", "§B3.6"), 0
            need = ctx.rules["operation_points"]["basic_zoc_to_zoc_needs"]
            if u.op < need:
                return IllegalDecision(f"a unit must have {need} operation points to move ZOC to ZOC", "§B3.6"), 0
            return None, u.op  # the move spends the whole allowance (basic game, AMB-3)
        if cost <= u.op:
            return None, cost
        # §IA7.5 "Units may always move one square if activated at the cost of ... 10 operation points"
        if ctx.rules["operation_points"]["always_one_square"] and not u.moved and u.op >= full_allowance(ctx, state, i):
            return None, u.op
        return IllegalDecision(f"{cost} operation points needed, {u.op} left", "§B3.4"), 0


def mode_refusal(
    ctx: Ctx, state: AntietamState, i: int, a: int, b: int, enemy_zoc: frozenset[int]
) -> IllegalDecision | None:
    """The intermediate and advanced games' limits on a step by the unit's mode (§IA7.5, §IA7.6, §IA7.8)."""
    u = state.units[i]
    modes = ctx.rules["modes"]
    if u.mode == "unlimbered":
        return IllegalDecision("unlimbered artillery may not move: limber it first", "§IA7.8")
    if ctx.board.terrain(state, b) == "bridge" and u.mode not in modes["bridge_modes"]:
        return IllegalDecision("units must be limbered, mounted, or in column to cross a bridge", "§IA7.8")
    if a in enemy_zoc and b in enemy_zoc:
        if ctx.board.spec(i).artillery:
            return IllegalDecision("limbered artillery may not move ZOC to ZOC", "§IA7.6")
        if u.moved:
            return IllegalDecision("ZOC to ZOC only if no other movement has been made by that unit", "§IA7.6")
    return None


def move(ctx: Ctx, state: AntietamState, i: int, b: int, cost: int, step: Step) -> AntietamState:
    """Unit ``i`` steps into ``b``, spending ``cost`` OP and gaining fatigue (Fatigue Gain Table)."""
    board = ctx.board
    side = board.side(i)
    occ = ctx.occupants(state)
    u = state.units[i]
    # Fatigue Gain Table: "Enter square in normal mode 2, in column 1" (the basic game has no column, AMB-3;
    # mounted and limbered units march as a column does: reading)
    marching = u.mode in ctx.rules["modes"]["always_flanked"]
    gain = ctx.recovery["fatigue_gain"]["enter_square_column" if marching else "enter_square_normal"]
    a = u.cell
    moved = u.updated(cell=b, op=u.op - cost, moved=True, fatigue=u.fatigue + gain)
    if not ctx.basic:
        # §IA7.9 "facing automatically changes during movement as a unit faces the square it is moving into";
        # §IA7.11 fortifications stay behind (AMB-11)
        moved = replace(moved, facing=ctx.board.direction(a, b), fort=0)
    changed: dict[int, Unit] = {i: moved}
    extra = ctx.rules["stacking"]["routed_stacking_fatigue"] if u.routed else 0
    for j in occ.get(b, ()) if extra or not ctx.basic else ():
        # §IA7.7 "When routed units stack onto friendly units each unit gains five fatigue points"; "All units
        # in a square assume the direction of facing of the last unit to end its turn on the square"
        changed[j] = replace(state.units[j], fatigue=state.units[j].fatigue + extra, facing=moved.facing)
    state = state.with_units(changed)
    ctx.tell(
        step,
        "move",
        f"{board.spec(i).name} moves {board.label(a)} to {board.label(b)}",
        ONLY[side],
        unit=board.spec(i).id,
        at=board.label(a),
        to=board.label(b),
        op=cost,
    )
    state = enter(ctx, state, i, b)
    if side == "confederate":
        state = release_adjacent(ctx, state, b, step)
    return state


def enter(ctx: Ctx, state: AntietamState, i: int, cell: int) -> AntietamState:
    """A unit stands on ``cell``: a victory square is now its side's (AMB-18, the last unit to enter it)."""
    for k, (vcell, _, _) in enumerate(ctx.board.victory):
        if vcell == cell and state.holders[k] != ctx.board.side(i):
            holders = list(state.holders)
            holders[k] = ctx.board.side(i)
            return replace(state, holders=tuple(holders))
    return state


def enemy_zoc_of(ctx: Ctx, state: AntietamState, side: str) -> frozenset[int]:
    return ctx.zoc(state, ENEMY[side])
