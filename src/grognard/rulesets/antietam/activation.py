"""Union activation (§IA3, intermediate and advanced games): each turn the Union player is offered his divisions
on the map one by one and activates up to a limit; units of divisions not activated may not move (§IA3.3).
The basic game's corps schedule (§B2.0) is in ``moves``."""

from __future__ import annotations

from grognard.engine.events import Step
from grognard.engine.records import replace

from .ctx import Ctx
from .state import AntietamState


def group(ctx: Ctx, i: int) -> str:
    """What activates unit ``i``: its division; corps artillery goes with any division of its corps (§IA3.3,
    written ``corps:NAME``); the cavalry artillery is of the cavalry division in the OOB already."""
    s = ctx.board.spec(i)
    return s.division or (f"corps:{s.corps}" if s.corps else "")


def divisions_on_map(ctx: Ctx, state: AntietamState) -> tuple[str, ...]:
    """§IA3.1 "All Union divisions on the map", in the order of the OOB; the IBM version's cavalry not before its
    turn (§IA3.2 "In the IBM version, Union cavalry units may not be activated until turn 3")."""
    out: list[str] = []
    for i in ctx.side_units(state, "union"):
        d = ctx.board.spec(i).division
        held = state.turn < ctx.cavalry_turn and d and ctx.board.spec(ctx.first_of[d]).type == "cavalry"
        if d and d not in out and not held:
            out.append(d)
    return tuple(sorted(out, key=lambda d: ctx.first_of[d]))


def activation_limit(ctx: Ctx, state: AntietamState, step: Step) -> int:
    """§IA3.2 "a base number of four divisions per turn with a random number added to that. In addition, as your
    score goes up and the day wears on, you will be allowed to activate additional divisions." The formula is
    AMB-7's reconstruction (rules.toml [activation]): 4 + random 0-2 + (level - 3) + 1 from turn 5, +1 more from
    turn 9, + 1 per full 3000 Union points (at most 2)."""
    a = ctx.rules["activation"]
    low, high = a["random_extra_min"], a["random_extra_max"]
    n: int = a["base_divisions"] + low - 1 + step.roll(high - low + 1, "activation limit, random divisions")
    n += ctx.rules["options"]["level"][str(ctx.options.level)]["activations"]
    n += max((v for k, v in a["from_turn_extra"].items() if state.turn >= int(k)), default=0)
    n += min(state.score[0] // a["per_union_points"], a["per_union_points_max"])
    return max(0, n)


def start_cycle(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    """§IA3.1-3.2: a new turn's cycle; "Being activated one turn does not ensure activation the next turn"."""
    limit = activation_limit(ctx, state, step)
    offer = divisions_on_map(ctx, state)
    ctx.tell(step, "activation", f"McClellan allows {limit} divisions to be activated this turn (§IA3.2)", limit=limit)
    return replace(state, active=(), offer=offer if limit else (), limit=limit)


def answer(ctx: Ctx, state: AntietamState, division: str, activate: bool, step: Step) -> AntietamState:
    """The Union player activates or bypasses the division offered; the cycle ends at the limit (§IA3.1)."""
    offer = state.offer[1:]
    if not activate:
        return replace(state, offer=offer)
    limit = state.limit - 1
    ctx.tell(step, "activated", f"{division}'s division is activated (§IA3.1)", ("union",), division=division)
    return replace(state, active=(*state.active, division), offer=offer if limit else (), limit=limit)


def inactive(ctx: Ctx, state: AntietamState, i: int) -> str:
    """The group (division, or the corps of corps artillery) that holds Union unit ``i`` this turn because it
    is not activated (§IA3.3), or ""; Confederates are always active (§IA3.4)."""
    if not ctx.cycle or ctx.board.side(i) != "union":
        return ""
    g = group(ctx, i)
    if not g or g in state.active:
        return ""
    if g.startswith("corps:") and any(ctx.corps_of.get(d) == g[6:] for d in state.active):
        return ""
    return g
