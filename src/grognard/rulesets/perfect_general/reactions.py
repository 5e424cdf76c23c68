"""Reactions a side may make while the other acts: return fire (p.13, p.29) and passing fire (p.14), with the
best shot and its chance, for the seat's reaction settings (``Ruleset.reaction``)."""

from __future__ import annotations

from grognard.engine.protocol import Reaction, ReactionKind

from . import decisions as D
from .combat import passing_fire_units, return_fire_targets, shot_chance
from .context import Ctx
from .phases import acting
from .state import PGState, Phase

KINDS = (
    ReactionKind("passing", "passing fire at an enemy unit moving in sight (p.14)"),
    ReactionKind("return", "return fire when one of your units is fired upon (p.13, p.29)"),
)


def pending(ctx: Ctx, state: PGState, seat: str) -> Reaction | None:
    """The reaction offered to ``seat`` now: the shot with the highest chance (the weaker unit on a tie, as the
    suggested direct fire, p.12), and holding fire to decline."""
    offer = state.offer
    if offer is None or state.phase is Phase.OVER or acting(state) != seat:
        return None
    if offer.kind == "return":
        unit = state.unit(offer.target)
        options = return_fire_targets(ctx, state, unit)
        if not options:
            return Reaction("return", None, None, D.HoldFire())
        target, chance = max(options, key=lambda o: (o[1], -ctx.tables.units[state.unit(o[0]).type].cost, o[0]))
        return Reaction("return", D.ReturnFire(unit.id, target), chance, D.HoldFire())
    mover = state.unit(offer.target)
    shots = [
        (f, c)
        for f in passing_fire_units(ctx, state, mover)
        if (c := shot_chance(ctx, state, state.unit(f), mover)) is not None
    ]
    if not shots:
        return Reaction("passing", None, None, D.HoldFire())
    firer, chance = max(shots, key=lambda s: (s[1], s[0]))
    return Reaction("passing", D.PassingFire(mover.id, firer), chance, D.HoldFire())


def phase_key(state: PGState) -> str:
    """The phase an offer interrupts (a side's movement or fire phase of one turn): "never ask this phase" holds
    for the rest of it."""
    return f"turn {state.turn}: {state.side} {state.phase.value}"
