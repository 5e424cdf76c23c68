"""The tactical execution & combat phase (§9), in the order of §9.0 and the digest's procedure (AMB-18):
bombardments, recon, then four segments of German movement, German attack resolution, Soviet movement and
Soviet attack resolution; groups act in ascending ID, attacked hexes resolve in ascending hex index.
Airstrikes (§9.1) come first (air.py)."""

from __future__ import annotations

from fractions import Fraction

from grognard.engine.events import Step
from grognard.engine.records import replace

from . import air, combat
from .board import Ctx, enemy_of
from .combat import Firer
from .plots import Parsed, parse
from .state import OFF_MAP, Group, KState, Report
from .tables import frac

Assaults = dict[int, list[tuple[int, bool]]]  # attacked hex -> (group, attack only)


def night(state: KState) -> bool:
    """§3.4: PM turns are night turns."""
    return state.turn % 2 == 0


def execute(ctx: Ctx, state: KState, step: Step) -> KState:
    """§9.0: the whole phase; the plots are revealed as they execute."""
    step.reveal()
    plans: dict[int, Parsed] = {}
    for gid, text in state.plots:
        p = parse(ctx, text)
        assert not isinstance(p, Exception)
        plans[gid] = p
    state = air.resolve(ctx, state, step)  # §9.0 (1)
    state = bombard(ctx, state, plans, step)
    state = recon(ctx, state, plans, step)
    cancelled: set[int] = set()
    for seg in range(int(ctx.tables["plots"]["segments"]["count"])):
        for side in ("german", "soviet"):  # §9.0: German movement and attacks, then Soviet
            # a marker both sides see (every turn has all eight): where the page's replay of the phase steps
            step.emit("segment", f"segment {seg + 1}: {side} movement and assaults", None, segment=seg + 1, side=side)
            state, assaults = move_half(ctx, state, plans, side, seg, cancelled, step)
            state = resolve_assaults(ctx, state, plans, side, seg, assaults, cancelled, step)
    groups = tuple(g for g in state.groups if g.alive)
    return replace(state, groups=groups, plots=(), committed=())


def _spend(g: Group) -> Group:
    """§5.4: one supply point for a hex moved or a fire."""
    return replace(g, supply=g.supply - 1)


def _night_factor(ctx: Ctx, state: KState, kind: str) -> Fraction:
    return frac(ctx.tables["fire"][kind]["night_factor"]) if night(state) else Fraction(1)


def _report(step: Step, side: str, kind: str, text: str, **data: object) -> None:
    step.emit(kind, text, (side,), **data)


def _attacked(ctx: Ctx, state: KState, targets: list[Group], out: combat.Outcome, morale: bool) -> KState:
    """Apply an outcome to the targets: losses, disruption (§8.2), morale -1 for being attacked (§8.7)."""
    changed = {}
    for g in targets:
        h = combat.disrupt(ctx, combat.apply_losses(g, out.losses.get(g.id, {})), out.disruption)
        if morale:
            h = replace(h, morale=max(0, h.morale - int(ctx.tables["combat"]["morale"]["loss_per_attacked"])))
        changed[g.id] = h
    return state.with_groups(changed)


# --- §9.2 bombardment and recon ------------------------------------------------------------------------------
def _target(ctx: Ctx, g: Group, dirs: tuple[int, ...]) -> int:
    cell = g.cell
    for d in dirs:
        cell = ctx.grid.neighbor(cell, d)
    return cell


def bombard(ctx: Ctx, state: KState, plans: dict[int, Parsed], step: Step) -> KState:
    """§6.6, §9.2: field howitzers at ½ AS, halved again at night, on the enemy groups in the target hex."""
    for gid in sorted(plans):
        p, g = plans[gid], state.find(gid)
        if p.kind != "bombard" or g is None or g.supply < 1:
            continue
        cell = _target(ctx, g, p.dirs)
        targets = [t for t in state.at(cell) if t.side != g.side]
        state = state.with_group(_spend(g))
        if not targets:
            _report(step, g.side, "bombardment", f"{g.label()} bombards {ctx.label(cell)}: no enemy there", cell=cell)
            continue
        firers = [Firer(g, _night_factor(ctx, state, "bombardment"))]
        defence = {t.id: combat.defence_factor(ctx, t, state.cleared) for t in targets}
        out = combat.resolve(ctx, step, combat.strengths(ctx, firers, "bombardment"), targets, defence, "bombardment")
        state = _attacked(ctx, state, targets, out, True)
        _report(
            step,
            g.side,
            "bombardment",
            f"{g.label()} bombards {ctx.label(cell)}: disruption {out.disruption}",
            group=g.tag,
            cell=cell,
            disruption=out.disruption,
        )
        _report(
            step,
            enemy_of(g.side),
            "bombardment",
            f"enemy artillery bombards {ctx.label(cell)}: disruption {out.disruption}",
            cell=cell,
            disruption=out.disruption,
            groups=[t.tag for t in targets],
            losses=_loss_text(out, targets),
        )
    return state


def _loss_text(out: combat.Outcome, targets: list[Group]) -> dict[str, dict[str, int]]:
    return {t.tag: dict(out.losses.get(t.id, {})) for t in targets}


def recon(ctx: Ctx, state: KState, plans: dict[int, Parsed], step: Step) -> KState:
    """§6.7, §9.2: the AFVs, artillery and infantry in the searched hex, before the movement segments."""
    t = ctx.tables
    reports = list(state.reports)
    for gid in sorted(plans):
        p, g = plans[gid], state.find(gid)
        if p.kind != "recon" or g is None:
            continue
        cell = ctx.grid.neighbor(g.cell, p.dirs[0])
        afv = art = inf = 0
        for e in state.at(cell):
            if e.side == g.side:
                continue
            for name, n in e.counts().items():
                col = t.weapons[name].column
                afv += n if col == "AFV" else 0
                art += n if col == "towed" else 0
                inf += n if col == "infantry" else 0
        reports.append(Report(g.side, cell, afv, art, inf))
        _report(
            step,
            g.side,
            "recon",
            f"recon of {ctx.label(cell)}: {afv} AFV, {art} artillery, {inf} infantry",
            cell=cell,
            afv=afv,
            artillery=art,
            infantry=inf,
        )
    return replace(state, reports=tuple(reports))


# --- §9.3-9.5 movement ---------------------------------------------------------------------------------------
def move_half(
    ctx: Ctx, state: KState, plans: dict[int, Parsed], side: str, seg: int, cancelled: set[int], step: Step
) -> tuple[KState, Assaults]:
    """One side's movement in one segment (§9.3): each plotted group in ascending ID."""
    assaults: Assaults = {}
    most = int(ctx.tables["plots"]["stacking"]["max_groups"])
    # the enemy's ZOC (§8.5): its groups stand still and fire no shot that moves or destroys them in this half
    zoc = ctx.zoc(state, side)
    for gid in sorted(plans):
        p, g = plans[gid], state.find(gid)
        if g is None or g.side != side or p.kind != "move" or seg >= len(p.dirs) or gid in cancelled:
            continue
        if g.disruption > g.morale:  # §8.3, §9.3
            cancelled.add(gid)
            continue
        d = p.dirs[seg]
        attack_only = p.attack_only and seg == len(p.dirs) - 1
        if d == 0:
            if side == "german" and ctx.minefield(state, g.cell):  # §9.4 a "0" in a minefield
                state = minefield_attack(ctx, state, g, step)
            continue
        there = ctx.grid.neighbor(g.cell, d)
        if there < 0 or g.supply < 1:  # §5.4 unsupplied groups neither move nor fire
            cancelled.add(gid)
            continue
        standing = state.at(there)
        assault = any(e.side != side for e in standing)  # §6.5, §9.6
        if not assault and attack_only:  # §6.5: S does not enter an empty hex (AMB-6)
            continue
        if not assault and len(standing) >= most:
            cancelled.add(gid)  # §9.3: the rest of the plot is aborted
            _report(
                step, side, "aborted", f"{g.label()} cannot enter {ctx.label(there)}: two groups there", group=g.tag
            )
            continue
        if side == "german" and ctx.minefield(state, g.cell):  # §9.4 leaving (or assaulting out of) a minefield
            state = minefield_attack(ctx, state, g, step)
            found = state.find(gid)
            if found is None or found.disruption > found.morale:
                cancelled.add(gid)
                continue
            g = found
        if assault:
            assaults.setdefault(there, []).append((gid, attack_only))
            continue
        state = step_into(ctx, state, g, there, step, zoc)
    return state, assaults


def step_into(ctx: Ctx, state: KState, g: Group, there: int, step: Step, zoc: frozenset[int] | None = None) -> KState:
    """A tactical move of one hex: rain (§10.2), supply (§5.4), town control (§11.1), opportunity fire (§9.5).
    ``zoc``: the enemy's ZOC, if the caller has it (no enemy group moves or leaves while a side moves)."""
    rain = state.weather == "rain"
    here = g.cell
    if zoc is None:
        zoc = ctx.zoc(state, g.side)
    extra = ctx.rain_disruption(g, here, there, rain)
    moved = combat.disrupt(ctx, replace(_spend(g), cell=there), extra)
    state = state.with_group(moved)
    _report(
        step,
        g.side,
        "moved",
        f"{g.label()} moves to {ctx.label(there)}" + (f", disruption +{extra} (rain)" if extra else ""),
        group=g.tag,
        to=there,
    )
    enemy = enemy_of(g.side)
    if there in zoc:  # in or next to an enemy group's hex: the enemy sees it
        _report(step, enemy, "sighted", f"an enemy group moves to {ctx.label(there)}", to=there)
    state = ctx.enter_town(state, g.side, there, step)
    if here in zoc and there in zoc:  # §8.5, §9.5: from an enemy ZOC directly into another
        state = opportunity_fire(ctx, state, g.id, here, there, step)
    return state


def minefield_attack(ctx: Ctx, state: KState, g: Group, step: Step) -> KState:
    """§9.4: first the group may destroy the minefield, (50 + ENGR)/180; else it attacks at 80 (§12 by
    level, AMB-17) against every system as DS 4 (§8.1)."""
    m = ctx.tables["minefields"]
    clear = m["clearing"]
    percent = min(
        100, (int(clear["base"]) + int(clear["per_engineer_squad"]) * ctx.engineers(g)) * 100 // int(clear["out_of"])
    )
    # the roll is seen by both sides: its words must not name the group (§4.5, the Soviet sees a symbol only)
    if step.chance(percent, f"a {g.side.capitalize()} group tries to clear the minefield at {ctx.label(g.cell)}"):
        step.emit("minefield", f"the minefield at {ctx.label(g.cell)} is destroyed", None, cell=g.cell)
        return replace(state, cleared=tuple(sorted({*state.cleared, g.cell})))
    level_shift = int(m["levels"]["historical_level"]) - ctx.level
    strength = Fraction(int(m["attack"]["strength"]) + int(m["levels"]["strength_per_level_below"]) * level_shift)
    out = combat.resolve(
        ctx,
        step,
        (strength, strength),
        [g],
        {g.id: Fraction(1)},
        "minefield attack",
        forced_ds=int(m["attack"]["target_ds"]),
    )
    state = _attacked(ctx, state, [g], out, False)
    _report(
        step,
        g.side,
        "minefield",
        f"a minefield attacks {g.label()}: disruption {out.disruption}",
        group=g.tag,
        disruption=out.disruption,
        losses=_loss_text(out, [g]),
    )
    return state


def opportunity_fire(ctx: Ctx, state: KState, gid: int, here: int, there: int, step: Step) -> KState:
    """§9.5: every enemy static group adjacent to both hexes fires, each on its own (AMB-18), its AFVs and
    towed guns at ½ AS, halved again at night; one supply point each (§5.4)."""
    mover = state.find(gid)
    assert mover is not None
    modes = ctx.tables["fire"]["opportunity"]["modes"]
    firers = [
        f
        for f in ctx.side_groups(state, enemy_of(mover.side))
        if f.mode in modes and f.supply >= 1 and ctx.grid.adjacent(f.cell, here) and ctx.grid.adjacent(f.cell, there)
    ]
    for f in sorted(firers, key=lambda x: x.id):
        target = state.find(gid)
        if target is None:
            break
        state = state.with_group(_spend(f))
        fire = [Firer(f, _night_factor(ctx, state, "opportunity"))]
        out = combat.resolve(
            ctx,
            step,
            combat.strengths(ctx, fire, "opportunity"),
            [target],
            {gid: combat.defence_factor(ctx, target, state.cleared)},
            "opportunity fire",
        )
        state = _attacked(ctx, state, [target], out, True)
        _report(
            step,
            mover.side,
            "opportunity_fire",
            f"opportunity fire on {mover.label()}: disruption {out.disruption}",
            group=mover.tag,
            disruption=out.disruption,
            losses=_loss_text(out, [target]),
        )
        _report(
            step,
            f.side,
            "opportunity_fire",
            f"{f.label()} fires on a group moving to {ctx.label(there)}: disruption {out.disruption}",
            group=f.tag,
            disruption=out.disruption,
        )
    return state


# --- §9.6-9.8 assault, retreat, advance ----------------------------------------------------------------------
def resolve_assaults(
    ctx: Ctx,
    state: KState,
    plans: dict[int, Parsed],
    side: str,
    seg: int,
    assaults: Assaults,
    cancelled: set[int],
    step: Step,
) -> KState:
    """§9.6: each attacked hex in ascending order, all its attackers combined."""
    c = ctx.tables["combat"]
    for cell in sorted(assaults):
        attackers = [
            g
            for gid, _ in assaults[cell]
            if (g := state.find(gid)) is not None and g.supply >= 1 and ctx.grid.adjacent(g.cell, cell)
        ]
        defenders = [g for g in state.at(cell) if g.side != side]
        if not attackers or not defenders:
            continue
        only = {gid for gid, a in assaults[cell] if a}
        # offensive and defensive fire from the numbers before the combat (§9.6 "simultaneously")
        off_firers = [Firer(g, combat.gully_factor(ctx, g.cell, cell)) for g in attackers]
        half = frac(ctx.tables["fire"]["defensive"]["unsupplied_factor"])
        def_firers = [Firer(g, Fraction(1) if g.supply >= 1 else half) for g in defenders]  # §5.4
        off = combat.resolve(
            ctx,
            step,
            combat.strengths(ctx, off_firers, "offensive"),
            defenders,
            {g.id: combat.defence_factor(ctx, g, state.cleared) for g in defenders},
            f"offensive fire on {ctx.label(cell)}",
        )
        dfn = combat.resolve(
            ctx,
            step,
            combat.strengths(ctx, def_firers, "defensive", combat.i_bonus(ctx, attackers)),
            attackers,
            {g.id: combat.defence_factor(ctx, g, state.cleared) for g in attackers},
            f"defensive fire from {ctx.label(cell)}",
        )
        state = state.with_groups({g.id: _spend(g) for g in attackers})
        state = state.with_groups({g.id: _spend(g) for g in defenders if g.supply >= 1})
        state = _attacked(ctx, state, [state.group(g.id) for g in defenders], off, True)
        state = _attacked(ctx, state, [state.group(g.id) for g in attackers], dfn, True)  # §8.7 -1 for assaulting
        enemy = enemy_of(side)
        words = f"assault on {ctx.label(cell)}: defender disruption +{off.disruption}, attacker +{dfn.disruption}"
        for who, own, fire in ((side, attackers, dfn), (enemy, defenders, off)):  # each side its own losses
            _report(
                step,
                who,
                "assault",
                words,
                cell=cell,
                groups=[g.tag for g in own],
                losses=_loss_text(fire, own),
                defender=off.disruption,
                attacker=dfn.disruption,
            )
        # §8.3, §9.7: retreat if disruption > morale and the attacker suffered at most the threshold (AMB-12)
        threshold = int(c["retreat"]["attacker_disruption_at_most"])
        for d in defenders:
            now = state.find(d.id)
            if now is not None and now.disruption > now.morale and dfn.disruption <= threshold:
                state = retreat(ctx, state, now, [a.cell for a in attackers], cancelled, step)
        vacated = not any(g.side != side for g in state.at(cell))
        # §9.8: up to two attackers advance, not S plots, not disrupted above their morale; others stop
        room = int(c["advance"]["max_groups"]) if vacated else 0
        for a in sorted(attackers, key=lambda x: x.id):
            now = state.find(a.id)
            if now is None:
                continue
            if room and a.id not in only and now.disruption <= now.morale and now.supply >= 1:
                room -= 1
                state = state.with_group(replace(_spend(now), cell=cell))
                state = ctx.enter_town(state, side, cell, step)
                _report(step, side, "advance", f"{now.label()} advances into {ctx.label(cell)}", group=now.tag)
            elif seg + 1 < len(plans[a.id].dirs):
                cancelled.add(a.id)  # §9.8: the rest of the plot is cancelled
        # §8.2, §9.8 relief (AMB-11: every attacker of a successful assault)
        rel = c["relief"]
        pct = frac(rel["success_percent_of_morale"] if vacated else rel["failure_percent_of_morale"])
        relieved = {}
        for a in attackers:
            now = state.find(a.id)
            if now is not None:
                cut = now.disruption * min(Fraction(100), now.morale * pct) / 100
                relieved[a.id] = replace(now, disruption=max(0, now.disruption - int(cut)))
        state = state.with_groups(relieved)
    return state


def retreat(ctx: Ctx, state: KState, g: Group, attackers: list[int], cancelled: set[int], step: Step) -> KState:
    """§9.7: into a hex not in an enemy ZOC (unless a friendly static or assault group holds it) nor holding two
    friendly groups, away from the attackers, fewest enemy ZOCs, lowest direction (AMB-18); else destroyed.
    A retreating group's supply becomes 0 and its mode mobile."""
    c = ctx.tables["combat"]["retreat"]
    zoc = ctx.zoc(state, g.side)
    enemies = ctx.enemy_cells(state, g.side)
    options = []
    for d in range(1, 7):
        n = ctx.grid.neighbor(g.cell, d)
        if n < 0 or n in enemies:
            continue
        friends = [f for f in ctx.side_groups(state, g.side) if f.cell == n]
        if len(friends) >= int(c["max_groups_in_hex"]):
            continue
        if n in zoc and not any(f.mode in c["no_enemy_zoc_unless_friendly_in"] for f in friends):
            continue
        near = sum(ctx.grid.distance(n, a) for a in attackers)
        zocs = sum(1 for e in enemies if ctx.grid.distance(n, e) <= 1)
        options.append((-near, zocs, d, n))
    cancelled.add(g.id)
    if not options:
        step.emit("destroyed", f"{g.label()} cannot retreat and is destroyed", (g.side,), group=g.tag)
        step.emit("destroyed", f"the enemy group at {ctx.label(g.cell)} is destroyed", (enemy_of(g.side),), cell=g.cell)
        return state.with_group(replace(g, alive=False, cell=OFF_MAP))
    to = min(options)[3]
    step.emit("retreat", f"{g.label()} retreats to {ctx.label(to)}", (g.side,), group=g.tag, to=to)
    step.emit("retreat", f"the enemy retreats from {ctx.label(g.cell)}", (enemy_of(g.side),), cell=g.cell)
    moved = replace(g, cell=to, supply=int(c["supply_after"]), mode=str(c["mode_after"]))
    return ctx.enter_town(state.with_group(moved), g.side, to, step)
