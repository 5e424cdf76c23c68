"""Air missions (§7.1) and their resolution (§9.1): up to five airstrikes a side each AM turn, bombers with
fighter escorts against a hex, every unassigned fighter flying CAP; interception, air-to-air accuracy, flak
and the bombers' attack. The pools are a reading (AMB-8, air.toml); losses are permanent."""

from __future__ import annotations

from fractions import Fraction

from grognard.engine.errors import IllegalDecision
from grognard.engine.events import Step
from grognard.engine.records import replace
from grognard.engine.rng import Dice

from . import combat
from .board import Ctx, enemy_of
from .state import KState
from .tables import frac


def pools(ctx: Ctx) -> tuple[tuple[str, int, int], ...]:
    """Each side's fighters and bombers in points of 4 aircraft at the start (AMB-8 reading)."""
    p = ctx.tables["air"]["pools"]
    return tuple((s, int(p[f"{s}_fighters"]), int(p[f"{s}_bombers"])) for s in ("soviet", "german"))


def pool(state: KState, side: str) -> tuple[int, int]:
    for s, f, b in state.air:
        if s == side:
            return f, b
    return 0, 0


def available(state: KState, side: str) -> tuple[int, int]:
    """Fighters and bombers not yet given to this turn's strikes."""
    f, b = pool(state, side)
    for s, _, bombers, escorts in state.strikes:
        if s == side:
            f, b = f - escorts, b - bombers
    return f, b


def day(ctx: Ctx, state: KState) -> bool:
    """§7.1 "each AM turn" (AMB-8: none at night)."""
    return ("AM" if state.turn % 2 else "PM") in ctx.tables["air"]["missions"]["turns"]


def strikes_left(ctx: Ctx, state: KState, side: str) -> int:
    used = sum(1 for s, *_ in state.strikes if s == side)
    return int(ctx.tables["air"]["missions"]["strikes_per_turn"]) - used


def refusal(ctx: Ctx, state: KState, side: str, strike: object) -> IllegalDecision | None:
    """Why ``strike`` (target hex, bombers, escorts) may not be flown now (§7.1), or None."""
    if not day(ctx, state):
        return IllegalDecision("airstrikes are planned on AM turns only (AMB-8)", "§7.1")
    if strikes_left(ctx, state, side) <= 0:
        return IllegalDecision("up to 5 airstrikes each AM turn", "§7.1")
    if not (isinstance(strike, tuple) and len(strike) == 3 and all(isinstance(x, int) for x in strike)):
        return IllegalDecision("an airstrike is target hex / bombers / escorts", "§7.1")
    target, bombers, escorts = strike
    if not 0 <= target < ctx.grid.size:
        return IllegalDecision("the target must be a hex of the map", "§7.1")
    f, b = available(state, side)
    if not 1 <= bombers <= b:
        return IllegalDecision(f"1 to {b} bomber points are available", "§7.1")
    if not 0 <= escorts <= f:
        return IllegalDecision(f"0 to {f} fighter points are available", "§7.1")
    if side == "soviet" and not any(ctx.grid.distance(g.cell, target) == 1 for g in state.side_groups("soviet")):
        return IllegalDecision("Soviet airstrikes only against a hex next to a Soviet group", "§7.1")
    return None


def sample(ctx: Ctx, state: KState, side: str, dice: Dice) -> tuple[int, int, int]:
    """A legal strike at random: a hex next to one of the side's groups."""
    mine = sorted(g.cell for g in state.side_groups(side))
    f, b = available(state, side)
    while True:
        near = ctx.grid.neighbors(mine[dice.below(len(mine))])
        strike = (near[dice.below(len(near))], 1 + dice.below(min(b, 20)), dice.below(min(f, 10) + 1))
        if refusal(ctx, state, side, strike) is None:
            return strike


def may_plan(ctx: Ctx, state: KState, side: str) -> bool:
    bombers = available(state, side)[1]
    return day(ctx, state) and strikes_left(ctx, state, side) > 0 and bombers > 0 and any(state.side_groups(side))


def plan(ctx: Ctx, state: KState, side: str, strike: tuple[int, int, int], step: Step) -> KState:
    target, bombers, escorts = strike
    step.emit(
        "air_plan",
        f"airstrike on {ctx.label(target)}: {bombers} bombers, {escorts} escorts",
        (side,),
        target=target,
        bombers=bombers,
        escorts=escorts,
    )
    return replace(state, strikes=(*state.strikes, (side, target, bombers, escorts)))


def _hits(step: Step, firing: int, percent: int, why: str, seen: tuple[str, ...]) -> int:
    """§9.1 (AMB-14): one roll per firing point against its accuracy, one enemy point lost per hit."""
    return sum(1 for _ in range(firing) if step.chance(percent, why, seen)) if percent > 0 else 0


def resolve(ctx: Ctx, state: KState, step: Step) -> KState:
    """§9.1: each strike in the order planned: CAP (half of the CAP still flying) against the escort and the
    bombers, flak, then the bombs on the groups in the hex."""
    a = ctx.tables["air"]
    cap_left = {s: available(state, s)[0] for s in ("soviet", "german")}  # unassigned fighters fly CAP (§7.1)
    losses = {s: [0, 0] for s in ("soviet", "german")}  # fighters, bombers
    for side, target, bombers, escorts in state.strikes:
        enemy = enemy_of(side)
        both = (side, enemy)
        share = frac(a["interception"]["cap_share_per_strike"])
        interceptors = int(cap_left[enemy] * share)
        vs_escort = min(interceptors, escorts)
        vs_bombers = max(0, interceptors - escorts)
        acc = a["accuracy"]
        own_f, their_f = acc[f"{side}_fighter"], acc[f"{enemy}_fighter"]
        escort_lost = _hits(step, vs_escort, int(their_f[0]), "CAP against the escort", both)
        cap_lost = _hits(step, vs_escort, int(own_f[0]), "the escort against CAP", both)
        bombers_lost = _hits(step, vs_bombers, int(their_f[1]), "CAP against the bombers", both)
        cap_lost += _hits(step, bombers if vs_bombers else 0, int(acc["bomber"][0]), "the bombers against CAP", both)
        escort_lost, bombers_lost = min(escort_lost, escorts), min(bombers_lost, bombers)
        cap_lost = min(cap_lost, interceptors)
        cap_left[enemy] -= cap_lost
        flying = bombers - bombers_lost
        flak = _hits(step, flying, int(a["flak"]["loss_percent"]), "flak", both)  # §9.1 3% a bomber
        flying -= flak
        losses[side][0] += escort_lost
        losses[side][1] += bombers - flying
        losses[enemy][0] += cap_lost
        full = int(a["bomber_effectiveness"]["full_cap"])
        effect = Fraction(1) + Fraction(max(0, full - interceptors), full)  # AMB-14: linear between the rows
        targets = [g for g in state.at(target) if g.side == enemy]
        words = (
            f"airstrike on {ctx.label(target)}: {interceptors} CAP intercept, {escort_lost} escorts, "
            f"{bombers - flying} bombers and {cap_lost} CAP fighters lost"
        )
        if flying and targets:
            bas = a["bombers"][f"{side}_as"]
            strength = (flying * frac(bas["afv"]) * effect, flying * frac(bas["soft"]) * effect)
            defence = {g.id: combat.defence_factor(ctx, g, state.cleared) for g in targets}
            out = combat.resolve(ctx, step, strength, targets, defence, f"bombs on {ctx.label(target)}")
            changed = {}
            for g in targets:
                h = combat.disrupt(ctx, combat.apply_losses(g, out.losses.get(g.id, {})), out.disruption)
                changed[g.id] = replace(h, morale=max(0, h.morale - 1))  # §8.7 attacked
            state = state.with_groups(changed)
            words += f"; disruption {out.disruption}"
        step.emit("airstrike", words, both, target=target)
    air = tuple((s, max(0, f - losses[s][0]), max(0, b - losses[s][1])) for s, f, b in state.air)
    return replace(state, air=air, strikes=())
