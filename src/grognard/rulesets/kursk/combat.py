"""Combat results (§8): the one method every kind of fire uses, "attack strength / defense strength -
casualties" plus a random factor, with the digest's reading of its scale (AMB-9, constants in combat.toml).

For one firing side against one target stack: the attack strength against each class (AFV, SOFT) is the sum
over the firing systems of count x AS (after §8.1's substitutions and the fire kind's factors) x the firing
group's factors (terrain, supply, night); it is shared over the target's systems by their counts (§8.6):
A_i = S_class x n_i / N. Casualties_i = A_i / (DS_i x defence factors) x K x R, at most n_i, the fraction
kept by a last roll; disruption (§8.2) = D (A on soft targets) / N + 100 (AFVs destroyed) / N, at most 99, with
its own scale D (combat.toml) so that the casualty scale K can be calibrated without changing when defenders break.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from grognard.engine.events import Step
from grognard.engine.records import replace

from .board import Ctx
from .state import Group, Unit
from .tables import frac


@dataclass(frozen=True, slots=True)
class Firer:
    """A firing group with the factor on its whole strength (gully, unsupplied, night...)."""

    group: Group
    factor: Fraction = Fraction(1)


@dataclass(frozen=True, slots=True)
class Outcome:
    losses: Mapping[int, Mapping[str, int]]  # group id -> system -> lost
    disruption: int  # added to each target group
    strength_afv: Fraction
    strength_soft: Fraction


def strengths(
    ctx: Ctx, firers: Sequence[Firer], kind: str, i_bonus: Fraction = Fraction(1)
) -> tuple[Fraction, Fraction]:
    """The firing side's total attack strength against AFV and against SOFT targets (§8.1): the sum over the firing
    systems of count x AS x the group's factor (x ``i_bonus`` for I weapons against AFVs), each group's systems
    summed in whole numbers of the tables' ``scale`` first (the same exact sum)."""
    t = ctx.tables
    weapons, scaled = t.weapons, t.scaled
    afv = soft = Fraction(0)
    for f in firers:
        plain = with_bonus = soft_sum = 0
        for name, n in f.group.counts().items():
            w = weapons[name]
            if not n or not t.may_fire(w, kind, f.group.mode):
                continue
            a, b = scaled[(name, kind)]
            if w.wt == "I":
                with_bonus += n * a
            else:
                plain += n * a
            soft_sum += n * b
        afv += f.factor * (Fraction(plain, t.scale) + i_bonus * Fraction(with_bonus, t.scale))
        soft += f.factor * Fraction(soft_sum, t.scale)
    return afv, soft


def i_bonus(ctx: Ctx, attackers: Sequence[Group]) -> Fraction:
    """§8.1, AMB-10: in defensive fire the I weapons' AS against AFVs is multiplied by 1 + slope x (AFV/INF - 1),
    at most the cap, when the attacking AFVs outnumber the attacking INF squads (no INF: the cap)."""
    t = ctx.tables
    afv = sum(n for g in attackers for name, n in g.counts().items() if t.weapons[name].afv)
    inf = sum(g.count("INF") for g in attackers)
    if afv <= inf:
        return Fraction(1)
    b = t["weapons"]["i_defensive_bonus"]
    cap = frac(b["cap"])
    return cap if inf == 0 else min(cap, 1 + frac(b["slope"]) * (Fraction(afv, inf) - 1))


def defence_factor(ctx: Ctx, g: Group, cleared: Sequence[int]) -> Fraction:
    """§6.2 mode, §8.4 woods/town doubled, Soviet groups in a minefield doubled; multiplied (AMB-13)."""
    t = ctx.tables
    factor = t.modes[g.mode].defence
    factor *= frac(t["terrain"]["terrain"][ctx.map.terrain[g.cell]]["defence"])
    if g.side == "soviet" and ctx.map.has("minefield", g.cell) and g.cell not in cleared:
        factor *= frac(t["terrain"]["minefield"]["soviet_defence"])
    return factor


def gully_factor(ctx: Ctx, here: int, target: int) -> Fraction:
    """§8.4: out of a gully into other ground halved; into a gully from other ground doubled."""
    g = ctx.tables["terrain"]["terrain"]["gully"]
    a, b = ctx.map.terrain[here] == "gully", ctx.map.terrain[target] == "gully"
    if a and not b:
        return frac(g["attack_out_of"])
    if b and not a:
        return frac(g["attack_into_from_outside"])
    return Fraction(1)


def resolve(
    ctx: Ctx,
    step: Step,
    strength: tuple[Fraction, Fraction],
    targets: Sequence[Group],
    defence: Mapping[int, Fraction],
    why: str,
    forced_ds: int | None = None,
) -> Outcome:
    """Casualties and disruption of one fire (§8.0, §8.2, §8.6) on the combined ``targets``."""
    t = ctx.tables
    k = frac(t["combat"]["formula"]["k"])
    lo, hi = t["combat"]["formula"]["random_percent"]
    afv_s, soft_s = strength
    rows = [(g, t.weapons[name], n) for g in targets for name, n in sorted(g.counts().items()) if n]
    total = sum(n for _, _, n in rows)
    if not total or (afv_s == 0 and soft_s == 0):
        return Outcome({}, 0, afv_s, soft_s)
    r = int(lo) - 1 + step.roll(int(hi) - int(lo) + 1, f"{why}: random factor (per cent from {lo})")  # per cent
    losses: dict[int, dict[str, int]] = {}
    soft_count = 0
    afv_lost = 0
    # casualties = share / (DS x defence) x K x R with share = S x n / total (§8.6), worked out in whole numbers:
    # numerator over denominator, exactly the fraction's value
    for g, w, n in rows:
        fire = afv_s if w.afv else soft_s
        if not w.afv:
            soft_count += n
        ds = forced_ds if forced_ds is not None else w.defence
        factor = defence[g.id]
        num = fire.numerator * n * factor.denominator * k.numerator * r
        den = fire.denominator * total * ds * factor.numerator * k.denominator * 100
        whole, rest = divmod(num, den)
        # the roll names the weapon: only its owner may read it (§9.2: the other side learns counts only by recon)
        if rest and whole < n and step.chance(rest * 100 // den, f"{why}: a last {w.name} lost", (g.side,)):
            whole += 1
        lost = min(n, whole)
        if lost:
            losses.setdefault(g.id, {})[w.name] = lost
            if w.afv:
                afv_lost += lost
    d = t["combat"]["disruption"]
    scale = frac(d["soft_scale"])  # D x (the attack on soft targets, soft_s x their count / total) / total
    soft_part = (scale.numerator * soft_s.numerator * soft_count) // (
        scale.denominator * soft_s.denominator * total * total
    )
    disruption = min(int(d["cap"]), soft_part + (100 * afv_lost) // total)  # §8.2
    return Outcome(losses, disruption, afv_s, soft_s)


def apply_losses(g: Group, lost: Mapping[str, int]) -> Group:
    """Take ``lost`` systems out of the group's units, first unit first; a group with nothing left is destroyed."""
    left = dict(lost)
    units = []
    for u in g.units:
        weapons = []
        for name, n in u.weapons:
            take = min(n, left.get(name, 0))
            left[name] = left.get(name, 0) - take
            if n - take:
                weapons.append((name, n - take))
        if weapons:
            units.append(Unit(u.name, tuple(weapons)))
    return replace(g, units=tuple(units), alive=bool(units) and g.alive)


def disrupt(ctx: Ctx, g: Group, amount: int) -> Group:
    """§8.2: disruption accumulates up to 99 within a turn."""
    return replace(g, disruption=min(int(ctx.tables["combat"]["disruption"]["cap"]), g.disruption + amount))
