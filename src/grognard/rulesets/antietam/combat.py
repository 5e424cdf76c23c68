"""The combat phase (§B4, §IA8): five fire steps and the melee, casualties from the Weapon/Range Casualty Table
with the modifiers of the charts, losses to a stack (§IA7.7), morale and rout (§IA8.6), disruption (§IA8.8),
ammunition (§IA8.9), retreats (§IA8.5) and advances (§B4.2, §IA8.7)."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import chain
from math import prod
from operator import itemgetter
from typing import NamedTuple

import numpy as np

from grognard.engine.events import Step
from grognard.engine.records import remaker, replace

from .board import IntArray
from .ctx import BOTH, ENEMY, ONLY, Ctx
from .leaders import bonus as leader_bonus
from .leaders import wound_checks
from .moves import enter, locked
from .state import GONE, AntietamState, Unit
from .tables import UnitSpec

LOSS_SLOT = {"infantry": 0, "cavalry": 1, "artillery": 2}


class Modifier(NamedTuple):
    """One row of the charts applied to a fire or a melee, in hundredths (a named pair: a fire makes ten)."""

    name: str
    percent: int


# a modifier as a fire's event keeps it: (name, percent), a plain tuple (``Modifier`` is one with names)
Mod = tuple[str, int]
_PERCENT = itemgetter(1)


def product(value: int, mods: Sequence[Mod], divisor: int = 1) -> int:
    """``value`` times every modifier, rounded down, in whole numbers (no floats in rules)."""
    percents: int = prod(map(_PERCENT, mods))
    hundreds: int = 100 ** len(mods)  # (typed: a power of an int may be a float)
    return value * percents // (divisor * hundreds)


class _Shared(dict[int, Mod]):
    """One modifier's (name, percent) tuples by percent, each made once and shared by the fires' events (a new
    tuple a fire would be one more object for the collector until it walks it): a few hundred percents at most
    (the charts' ranges), emptied past ``TEXTS``."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def __missing__(self, percent: int) -> Mod:
        if len(self) >= TEXTS:
            self.clear()
        m = self[percent] = (self.name, percent)
        return m


class FireRules:
    """What the combat phase reads of the charts and of each unit at every fire, worked out once a game (the tables,
    the options and the units' specs do not change: per unit, tuples by index), and the units each side may fire
    with at the squares last asked about (``in_reach``)."""

    __slots__ = (
        "density",
        "disrupted_why",
        "eff",
        "fatigue_gain",
        "gun_why",
        "heavy_share",
        "higher",
        "level",
        "limits",
        "loss_slot",
        "names",
        "nearest",
        "no_ammo",
        "out_percent",
        "out_why",
        "per_100_casualties",
        "percent_mods",
        "points_per_fatigue",
        "points_per_gun",
        "random_faces",
        "random_low",
        "random_why",
        "reach",
        "rout",
        "seen_by",
        "terrain",
        "terrain_at",
        "time",
    )

    def __init__(self, ctx: Ctx) -> None:
        board, c = ctx.board, ctx.combat
        o, cas = c["other"], c["casualties"]
        # by side: the squares' tuple, the enemy squares and the turn last asked about, and the answer
        self.reach: dict[str, tuple[tuple[int, ...], IntArray, int, Reach]] = {}
        # the sight table by the square seen, and by side: the enemy squares last asked about and every square's
        # distance to the nearest of them it sees
        self.seen_by = board.seen_by
        self.nearest: dict[str, tuple[IntArray, bytes]] = {}
        # each turn's sight limit by square (§IA8.3, AMB-15), by turn as asked
        self.limits: dict[int, array[int]] = {}
        # the fire modifiers that are the same at every fire: the defender's terrain by its row, the elevation, each
        # side's level, out of ammunition; the random modifier's range; the battle time's minimum and divisor
        rows = [row for row in ctx.tables.terrain["defence"] if row != "columns"]  # the table's rows, not its header
        # (plain tuples, as the fire's event keeps them)
        self.terrain: dict[str, Mod] = {row: (f"terrain {row}", defence(ctx, row, 0)) for row in rows}
        # and by square, where no random ford lies (``terrain_row``; None: a row the table has not, as a river)
        by_terrain = {t: self.terrain.get(defence_row(t)) for t in dict.fromkeys(board.map.terrain)}
        self.terrain_at = tuple(map(by_terrain.__getitem__, board.map.terrain))
        self.higher: Mod = ("higher elevation", defence(ctx, "higher_elevation", 0))
        self.level: dict[str, Mod] = {side: (f"level {ctx.options.level}", level_percent(ctx, side)) for side in ENEMY}
        self.no_ammo: Mod = ("ran out of ammo", c["ammo"]["out_of_ammo_fire_factor"])
        # the modifiers every fire works out a percent for, made once a percent
        self.percent_mods = tuple(_Shared(name) for name in ("density", "random", "battle time", "fatigue"))
        self.random_low = int(o["random_low"])
        self.random_faces = int(o["random_high"]) - self.random_low + 1
        self.time = (o["battle_time_min_op"], o["battle_time_divisor"])
        # losses: the heavy share of a stack, artillery's points a gun and a point of fatigue, disruption's percent a
        # 100 casualties, rout (men, morale, chance)
        self.heavy_share = cas["stack_heavy_share"]
        self.points_per_gun = cas["artillery_points_per_gun"]
        self.points_per_fatigue = cas["artillery_points_per_fatigue"]
        self.per_100_casualties = c["disruption"]["percent_per_100_casualties"]
        # density (men of no change, men a percent, the cap), the fatigue gain for losses (men a point's divisor, its
        # least and most in tenths) and each unit's effectiveness (its morale less its fatigue)
        self.density = (o["density_base_men"], o["density_men_per_percent"], int(o["density_cap_percent"]))
        g = ctx.recovery["fatigue_gain"]
        self.fatigue_gain = (
            g["large_unit_men_per_point_divisor"],
            g["large_unit_min"] * 10,
            g["large_unit_max"] * 10,
        )
        self.eff = tuple([s.eff for s in board.specs])  # (lists: quicker to make than from a generator)
        r = ctx.recovery["rout"]
        self.rout = (r["auto_rout_below_men"], r["morale_below"], r["chance_percent"])
        # each unit's chance of running out of ammunition, and the names and the reasons of its rolls
        ammo = c["ammo"]
        self.out_percent = tuple(
            [ammo["out_percent_artillery" if a else "out_percent_small_arms"] for a in board.artillery]
        )
        self.names = tuple([s.name for s in board.specs])
        # each unit's slot of the sides' loss counts (``counted``)
        self.loss_slot = tuple([loss_slot(s) for s in board.specs])
        self.out_why = tuple([f"{n} runs out of ammunition" for n in self.names])
        self.random_why = tuple([f"{n} fire, random modifier" for n in self.names])
        self.gun_why = tuple([f"{n} loses one more gun" for n in self.names])
        self.disrupted_why = tuple([f"{n} disrupted" for n in self.names])


def fire_rules(ctx: Ctx) -> FireRules:
    """The game's ``FireRules`` (one a game: a memo whose key never changes)."""
    kept = ctx.memo("fire rules", ())
    rules: FireRules | None = kept.get(None)
    if rules is None:
        rules = kept[None] = FireRules(ctx)
    return rules


# --- who fires where -------------------------------------------------------------------------------------
def can_fire(ctx: Ctx, state: AntietamState, i: int) -> bool:
    """Costs table "Fire ... LIMB. ART. P": limbered artillery does not fire (§IA7.8)."""
    return ctx.basic or ctx.tables.costs["fire_phase", ctx.column(i, state.units[i])] is not None


def in_range(ctx: Ctx, state: AntietamState, i: int, cell: int) -> bool:
    """§IA8.3: the square is within the weapon's range and the unit's sight (§IA7.9 its 90° view but in the
    basic game)."""
    board = ctx.board
    u = state.units[i]
    reach = min(board.weapon_range[i], board.sight_limit(u.cell, state.turn))
    return int(board.seen_at[u.cell, cell]) <= reach and ctx.in_cone(u, cell)


def choose_target(ctx: Ctx, state: AntietamState, i: int, occ: dict[int, list[int]]) -> int:
    """§B3.7 / §IA7.13: the priority square if it can be fired into, else the closest enemy in range and sight
    (ties: lowest x, then lowest y, AMB-21); -1 when there is none."""
    board = ctx.board
    u = state.units[i]
    return _target(ctx, state, i, u, occ, min(board.weapon_range[i], board.sight_limit(u.cell, state.turn)))


def _target(ctx: Ctx, state: AntietamState, i: int, u: Unit, occ: dict[int, list[int]], reach: int) -> int:
    """``choose_target`` with the unit's record and its reach, its weapon's range within its sight (§IA8.3)."""
    board = ctx.board
    side = board.sides[i]
    t = u.target
    if (
        t >= 0
        and ctx.enemy_at(state, t, side, occ)
        and board.seen_at.item(u.cell, t) <= reach  # ``in_range``
        and (not u.facing or board.cones[u.facing][u.cell, t])
    ):
        return t
    cells = ctx.enemy_squares(state, side)
    if not len(cells) or reach <= 0:
        return -1
    d = board.seen_at[u.cell, cells]
    ok = d <= reach
    if u.facing:  # §IA7.9 the 90° view
        ok &= board.cones[u.facing][u.cell, cells]
    found = ok.nonzero()[0]
    if not len(found):
        return -1
    near: list[int] = cells[found].tolist()
    return min(zip(d[found].tolist(), map(board.xy_order.__getitem__, near), near, strict=True))[2]  # nearest, x, y


# --- casualties --------------------------------------------------------------------------------------------
def density(
    ctx: Ctx, state: AntietamState, cell: int, occ: dict[int, list[int]], unit: Callable[[int], Unit] | None = None
) -> int:
    """ "Density Modifier = 1% more or less casualties per 12 men more or less than 650 men in square. No more or
    less casualties than 25%." Men of infantry and cavalry (guns are not men); ``unit``: each unit's record (the
    state's, or those a fire has pending)."""
    return density_percent(fire_rules(ctx), men_in(ctx, cell, occ, state.units.__getitem__ if unit is None else unit))


def men_in(ctx: Ctx, cell: int, occ: dict[int, list[int]], unit: Callable[[int], Unit]) -> int:
    """The men of infantry and cavalry in ``cell`` (guns are not men), each unit's record read by ``unit``."""
    artillery = ctx.board.artillery
    return sum([unit(j).strength for j in occ.get(cell, ()) if not artillery[j]])


def density_percent(fixed: FireRules, men: int) -> int:
    """``density``'s percent for ``men`` in the square."""
    base, per, cap = fixed.density
    diff = men - base
    pct = int(abs(diff) // per) * (1 if diff >= 0 else -1)
    return 100 + (cap if pct > cap else -cap if pct < -cap else pct)


def terrain_row(ctx: Ctx, state: AntietamState, cell: int) -> str:
    """The defender's row of the Terrain Modifiers (bridge and ford share one)."""
    return defence_row(ctx.board.terrain(state, cell))


def defence_row(terrain: str) -> str:
    return "bridge_ford" if terrain in ("bridge", "ford") else terrain


def level_percent(ctx: Ctx, side: str) -> int:
    """§IA2.1 #1: levels change the casualties each side inflicts (AMB-7 reading, rules.toml)."""
    return ctx.level_percent[side]


def random_percent(step: Step, why: str, fixed: FireRules, sides: tuple[str, ...]) -> int:
    """ "Random Modifier = + or - 50% (.5 to 1.5)": a whole percent from 50 to 150."""
    return fixed.random_low - 1 + step.roll(fixed.random_faces, why, sides)


def fire_modifiers(
    ctx: Ctx, state: AntietamState, i: int, cell: int, occ: dict[int, list[int]], step: Step, out_of_ammo: bool
) -> list[Modifier]:
    """Every modifier of the charts on one unit's fire into ``cell`` (basic game: no modes, facing, flanks,
    fortification or leaders, AMB-3 and AMB-14)."""
    pending = Pending(ctx, state)
    return [Modifier(*m) for m in _modifiers(ctx, pending, i, state.units[i], cell, occ, step, out_of_ammo)]


def _modifiers(
    ctx: Ctx, pending: Pending, i: int, u: Unit, cell: int, occ: dict[int, list[int]], step: Step, out_of_ammo: bool
) -> list[Mod]:
    """``fire_modifiers`` with the records ``pending`` holds (the men in the square may have changed since its state:
    its changes leave every unit's square, mode, facing and fortification as they were), as plain tuples (``u``:
    the firer's record)."""
    board, c, fixed = ctx.board, ctx.combat, pending.rules
    state = pending.state
    side = board.sides[i]
    ground = None if cell in state.fords else fixed.terrain_at[cell]  # ``terrain_row``, read once a game
    mods = [fixed.terrain[terrain_row(ctx, state, cell)] if ground is None else ground]
    if board.levels[cell] > board.levels[u.cell]:
        mods.append(fixed.higher)
    if u.routed or not ctx.basic:  # the basic game's one mode modifier is routed's
        mode = mode_modifier(ctx, i, u, 0)
        if mode is not None:
            mods.append((mode.name, mode.percent))
    if not ctx.basic:
        targets = [j for j in occ.get(cell, ()) if board.side(j) != side]
        if any(flanked(ctx, state, j, u.cell) for j in targets):
            mods.append(("flank", c["other"]["flank_attacker"]))
        fort = min((state.units[j].fort for j in targets), default=0)
        if fort:  # "Fortification = levelX.10" (AMB-13: 10% fewer casualties a level)
            mods.append((f"fortification {fort}", 100 - fort * c["other"]["fortification_percent_per_level"]))
    density, luck, battle_time, fatigue = fixed.percent_mods
    mods.append(density[density_percent(fixed, men_in(ctx, cell, occ, pending.unit))])
    # the roll names the firer, so only its side sees it (the target's side sees the casualties)
    mods.append(luck[random_percent(step, fixed.random_why[i], fixed, ONLY[side])])
    least_op, divisor = fixed.time
    mods.append(battle_time[max(u.op, least_op) * 100 // divisor])
    mods.append(fatigue[max(0, 100 - u.fatigue)])  # §IA8.10 "a proportional effect on fire strength"
    mods.append(fixed.level[side])
    if ctx.has["leaders"]:  # §IA7.12 "A leader with a bonus of 20 will increase casualties ... by 20%" (AMB-14)
        b = leader_bonus(ctx, state, i)
        if b:
            mods.append(("leader bonus", 100 + b * c["other"]["leader_bonus_percent_per_point"]))
    if out_of_ammo:
        mods.append(fixed.no_ammo)
    return mods


def mode_modifier(ctx: Ctx, i: int, u: Unit, column: int) -> Modifier | None:
    """MODE MODIFIERS ON FIRE AND MELEE STRENGTH ([fire, melee] by ``column``): routed (every game), infantry in
    column, mounted cavalry, dismounted cavalry (§IA7.8 "a .75 modifier ... (horse-holders)")."""
    m = ctx.combat["mode"]
    if u.routed:
        return Modifier("routed", m["routed"][column])
    if ctx.basic or not u.mode:
        return None
    row = f"{ctx.board.spec(i).type}_{u.mode}"
    return Modifier(u.mode, m[row][column]) if row in m else None


def flanked(ctx: Ctx, state: AntietamState, j: int, source: int) -> bool:
    """§IA7.9 "A unit fired at through a direction not in its line of sight is considered to be flanked";
    §IA7.8 column, limbered and mounted units are flanked from any direction (a square is flanked when any of
    its units is: reading)."""
    u = state.units[j]
    return ctx.flanked_mode(u) or not ctx.in_cone(u, source)


def c_terrain(ctx: Ctx, state: AntietamState, cell: int, column: int) -> int:
    return defence(ctx, terrain_row(ctx, state, cell), column)


def defence(ctx: Ctx, row: str, column: int) -> int:
    """The terrain table's modifier of ``row`` (column 0 fire, 1 melee)."""
    return int(ctx.tables.terrain["defence"][row][column])


def fire(ctx: Ctx, state: AntietamState, i: int, cell: int, step: Step, defensive: bool) -> AntietamState:
    """§IA8.2: unit ``i`` fires into ``cell``."""
    pending = Pending(ctx, state)
    _fire(ctx, pending, i, cell, step, defensive, ctx.occupants(state))
    return pending.made()


def _fire(
    ctx: Ctx, pending: Pending, i: int, cell: int, step: Step, defensive: bool, occ: dict[int, list[int]]
) -> None:
    """``fire``, changing ``pending``: the firer's record and the losses of the units it hits (``occ``: who stands
    where in its state, as the changes pending move no unit)."""
    board, fixed = ctx.board, pending.rules
    u = pending.unit(i)
    spec = board.specs[i]
    side = board.sides[i]
    artillery = board.artillery[i]
    d = int(board.dist[u.cell, cell])
    # §IA8.9 "Every time a unit fires it has a chance of running out of ammo"
    out = step.chance(fixed.out_percent[i], fixed.out_why[i], ONLY[side])
    mods = _modifiers(ctx, pending, i, u, cell, occ, step, out)
    base = ctx.tables.base_casualties(spec.weapon, d)
    total = product(base * u.strength, mods, 1 if artillery else 100)
    cost = ctx.fire_costs[i]
    spent = min(cost, u.op) if defensive else cost  # AMB-22: defensive fire spends OP down to 0
    pending.units[i] = _FIRED(u, u.op - spent, not out, cell)
    at, into = board.labels[u.cell], board.labels[cell]
    step.emit(
        "fire",
        f"{spec.name} at {at} fires into {into} at range {d}: {base} a {'gun' if artillery else '100 men'} x "
        f"{u.strength}, {', '.join(map(_MODIFIER_TEXT, mods))}: {total} casualties",
        ONLY[side],
        unit=spec.id,
        at=at,
        target=into,
        base=base,
        strength=u.strength,
        # (name, percent) pairs as plain tuples (the same JSON as lists), most shared by every fire: the collector
        # stops walking them once it has seen them (lists, or a Modifier, it would walk as long as the game keeps
        # its events)
        modifiers=tuple(mods),
        casualties=total,
    )
    step.emit("fired_on", f"Fire into {into}: {total} casualties", ONLY[ENEMY[side]], target=into)
    if total > 0:
        here = recipients(ctx, occ, cell, artillery, d, step)  # the fire moved no unit: who stands where is ``occ``
        _distribute(ctx, pending, cell, total, artillery, step, False, here)


class Pending:
    """The records of units and the sides' losses that a fire has changed, put in a state at once when the fire is
    done (one unit table and one state a fire instead of one a unit touched), or earlier when a rule must read
    the whole state (a unit eliminated or routed, a leader's wound). The changes move no unit (points, ammunition,
    men, fatigue, disruption, plots), so who stands where is known for the new table without asking."""

    __slots__ = ("ctx", "losses", "rules", "state", "units")

    def __init__(self, ctx: Ctx, state: AntietamState) -> None:
        self.ctx = ctx
        self.rules = fire_rules(ctx)
        self.state = state
        self.units: dict[int, Unit] = {}
        # the sides' loss counts once a loss is pending (counted in place: one tuple when the state is made, rather
        # than a list and a tuple a unit hit)
        self.losses: list[int] | None = None

    def unit(self, i: int) -> Unit:
        u = self.units.get(i)
        return self.state.units[i] if u is None else u

    def put(self, i: int, u: Unit) -> None:
        self.units[i] = u

    def lose(self, slot: int, lost: int) -> None:
        """``lost`` more in ``slot`` of the sides' losses (:func:`loss_slot`)."""
        losses = self.losses
        if losses is None:
            losses = self.losses = list(self.state.losses)
        losses[slot] += lost

    def made(self) -> AntietamState:
        """The state with every change so far (nothing pending after)."""
        state = self.state
        if self.losses is not None:
            state = state.with_units_and_losses(self.units, tuple(self.losses))
        else:
            state = state.with_units(self.units)
        self.ctx.unmoved(self.state.units, state.units)
        self.restart(state)
        return state

    def restart(self, state: AntietamState) -> None:
        """Go on from ``state`` (made by ``made`` and changed by the rules since), with nothing pending."""
        self.state, self.units, self.losses = state, {}, None


class _Texts(dict[Mod, str]):
    """Each modifier as the fire's message names it ("density 104%"), kept by the modifier (its name and its percent,
    a whole number: ``product``): a game's fires name a few hundred (the charts' rows, each with the percents it
    takes), at most ``TEXTS``."""

    def __missing__(self, m: Mod) -> str:
        if len(self) >= TEXTS:
            self.clear()
        text = self[m] = f"{m[0]} {m[1]}%"
        return text


TEXTS = 4096
_MODIFIER_TEXT = _Texts().__getitem__
_FIRED = remaker(Unit, ("op", "ammo", "fired_at"))  # a unit that fired (some thousand a game)
_LOSSES = remaker(Unit, ("strength", "fatigue"))  # a unit that took losses


def recipients(
    ctx: Ctx, occ: dict[int, list[int]], cell: int, by_artillery: bool, distance: int, step: Step
) -> list[int]:
    """§IA7.7 who shares the casualties of a fire into ``cell`` (``occ``: who stands where): artillery only if
    alone in the square or fired on by artillery; artillery fire at range 1 strikes one unit (AMB-13 reading)."""
    board = ctx.board
    here = list(occ.get(cell, ()))
    if not by_artillery:
        artillery = board.artillery
        others = [j for j in here if not artillery[j]]
        here = others or here
    if by_artillery and distance == 1 and len(here) > 1:
        side = board.side(here[0])
        k = step.roll(len(here), f"canister at {board.label(cell)}: the unit struck", BOTH[side]) - 1
        here = [here[k]]
    return here


def distribute(
    ctx: Ctx,
    state: AntietamState,
    cell: int,
    total: int,
    by_artillery: bool,
    distance: int,
    step: Step,
    melee: bool,
    among: list[int] | None = None,
) -> AntietamState:
    """§IA7.7: "casualties are distributed among the defenders with one of the defending units receiving 3 times
    the casualties of the others"."""
    if total <= 0:
        return state
    units = among if among is not None else recipients(ctx, ctx.occupants(state), cell, by_artillery, distance, step)
    pending = Pending(ctx, state)
    _distribute(ctx, pending, cell, total, by_artillery, step, melee, units)
    return pending.made()


def _distribute(
    ctx: Ctx, pending: Pending, cell: int, total: int, by_artillery: bool, step: Step, melee: bool, units: list[int]
) -> None:
    """``distribute``'s casualties among ``units``, changing ``pending``."""
    if len(units) <= 1:  # one unit takes them all (no roll)
        if units:
            _take_losses(ctx, pending, units[0], total, by_artillery or melee, step)
        return
    side = ctx.board.side(units[0])
    k = step.roll(len(units), f"losses at {ctx.board.label(cell)}: the unit hit hardest", BOTH[side]) - 1
    shares = [1] * len(units)
    shares[k] = pending.rules.heavy_share
    whole = sum(shares)
    parts = [total * s // whole for s in shares]
    parts[shares.index(max(shares))] += total - sum(parts)
    for j, n in zip(units, parts, strict=True):
        _take_losses(ctx, pending, j, n, by_artillery or melee, step)


def fatigue_for_losses(ctx: Ctx, men: int, lost: int) -> int:
    """Fatigue Gain Table "Per 2 casualties in men 1", less for units over 600 men (AMB-19: men lost per point =
    men / 200, held between 2 and 5)."""
    return fatigue_gain(fire_rules(ctx), men, lost)


def fatigue_gain(fixed: FireRules, men: int, lost: int) -> int:
    """``fatigue_for_losses`` with the table's figures read once a game."""
    divisor, least, most = fixed.fatigue_gain
    tenths = men * 10 // divisor
    tenths = least if tenths < least else most if tenths > most else tenths
    return int(lost * 10 // tenths)


def take_losses(ctx: Ctx, state: AntietamState, i: int, casualties: int, guns_lost: bool, step: Step) -> AntietamState:
    """One unit takes ``casualties`` (§IA8.2), then checks disruption (§IA8.8) and morale (§IA8.6)."""
    pending = Pending(ctx, state)
    _take_losses(ctx, pending, i, casualties, guns_lost, step)
    return pending.made()


def _take_losses(ctx: Ctx, pending: Pending, i: int, casualties: int, guns_lost: bool, step: Step) -> None:
    """``take_losses``, changing ``pending``."""
    if casualties <= 0:
        return
    board, fixed = ctx.board, pending.rules
    u = pending.unit(i)
    spec = board.specs[i]
    side = board.sides[i]
    artillery = board.artillery[i]
    if artillery:
        # §IA8.2 guns are lost only to artillery (and in melee); fatigue from every fire (AMB-13 reading)
        lost = 0
        if guns_lost:
            per = fixed.points_per_gun
            lost = casualties // per
            rest = casualties % per
            if rest and step.chance(rest * 100 // per, fixed.gun_why[i], BOTH[side]):
                lost += 1
        lost = min(lost, u.strength)
        gain = casualties // fixed.points_per_fatigue
    else:
        lost = min(casualties, u.strength)
        gain = fatigue_gain(fixed, u.strength, lost)
    men = u.strength
    u = pending.units[i] = _LOSSES(u, men - lost, u.fatigue + gain)
    if ctx.has["leaders"] and pending.state.leaders:
        state = wound_checks(ctx, pending.made(), i, casualties, men, step)
        u = state.units[i]
        if lost:
            state = count_loss(ctx, state, i, lost)
        pending.restart(state)
    elif lost:
        pending.lose(fixed.loss_slot[i], lost)  # the slot read once a game
    step.emit(
        "losses",
        f"{spec.name} loses {lost} {'guns' if artillery else 'men'}",
        ONLY[side],
        unit=spec.id,
        lost=lost,
        fatigue=gain,
    )
    if u.strength <= 0:
        pending.restart(eliminate(ctx, pending.made(), i, step, "destroyed"))
        return
    # §IA8.8 "about a 40% chance of becoming disrupted per 100 casualties" (AMB-23: 0.4% a casualty)
    pct = min(100, casualties * fixed.per_100_casualties // 100)
    if not u.disrupted and pct and step.chance(pct, fixed.disrupted_why[i], ONLY[side]):
        u = replace(u, disrupted=True, target=-1, melee=False)  # "A disrupted unit loses its priority fire plot"
        pending.put(i, u)
        ctx.tell(step, "disrupted", f"{spec.name} is disrupted", ONLY[side], unit=spec.id)
    if not u.routed and routs(ctx, fixed, i, u, step):
        pending.restart(rout(ctx, pending.made(), i, step))


def routs(ctx: Ctx, fixed: FireRules, i: int, u: Unit, step: Step) -> bool:
    """§IA8.6: "Units with less than 80 men will automatically rout when they take losses"; "A unit with a
    morale of less than 15 has a 40% chance of routing" (men: infantry and cavalry, not guns)."""
    fewer_men, morale_below, chance = fixed.rout
    board = ctx.board
    if not board.artillery[i] and u.strength < fewer_men:
        return True
    morale = fixed.eff[i] - u.fatigue  # ``ctx.morale``
    if morale < morale_below:
        return step.chance(chance, f"{fixed.names[i]} routs (morale {morale})", ONLY[board.sides[i]])
    return False


def count_loss(ctx: Ctx, state: AntietamState, i: int, lost: int) -> AntietamState:
    return replace(state, losses=counted(state.losses, loss_slot(ctx.board.specs[i]), lost))


def counted(losses: tuple[int, ...], slot: int, lost: int) -> tuple[int, ...]:
    """The losses of both sides (men, cavalrymen, guns) with ``lost`` more in ``slot`` (:func:`loss_slot`)."""
    out = list(losses)
    out[slot] += lost
    return tuple(out)


def loss_slot(spec: UnitSpec) -> int:
    """Where a unit's losses are counted: the Union's men, cavalrymen and guns, then the Confederacy's."""
    return LOSS_SLOT[spec.type] + (0 if spec.side == "union" else 3)


def eliminate(ctx: Ctx, state: AntietamState, i: int, step: Step, how: str) -> AntietamState:
    """The unit leaves the map; the men or guns it still had are lost (§IA10.1)."""
    u = state.units[i]
    spec = ctx.board.spec(i)
    if u.strength > 0:
        state = count_loss(ctx, state, i, u.strength)
    state = state.with_unit(i, replace(u, cell=GONE, strength=0, target=-1, melee=False))
    ctx.tell(step, "eliminated", f"{spec.name} is {how}", ONLY[spec.side], unit=spec.id)
    ctx.tell(step, "enemy_eliminated", f"An enemy unit is {how}", (ENEMY[spec.side],))
    return state


# --- rout and retreat ----------------------------------------------------------------------------------------
def rout(ctx: Ctx, state: AntietamState, i: int, step: Step) -> AntietamState:
    """§IA8.6 "When a unit routs it retreats four squares."""
    u = replace(state.units[i], routed=True, target=-1, melee=False)
    state = state.with_unit(i, u)
    ctx.tell(step, "routed", f"{ctx.board.spec(i).name} routs", (ctx.board.side(i),), unit=ctx.board.spec(i).id)
    return retreat(ctx, state, i, ctx.recovery["rout"]["retreat_squares"], step, until_clear=False)


def retreat(ctx: Ctx, state: AntietamState, i: int, squares: int, step: Step, until_clear: bool) -> AntietamState:
    """§IA8.5: up to ``squares`` squares away from the enemy toward the side's rear corner (Confederate upper
    right, Union lower left: map regions ``confederate_rear`` and ``union_rear``). A routed unit that must enter
    an enemy ZOC, or can go nowhere, is eliminated in the basic game (§B3.6). A unit retreating from a melee
    stops once it is out of every enemy ZOC (``until_clear``)."""
    board = ctx.board
    side = board.side(i)
    rear = next(iter(board.rear[side]))
    # only the unit moves: the enemy's zone of control holds throughout, and who stands where differs from ``occ``
    # only by the unit itself, which the enemy and stacking tests do not count (it is of its own side, and stacking
    # leaves it out) and whose own record each square's changes set last; the records changed go into the state at
    # once at the end (no rule here reads the unit table: ``enter`` reads the victory squares' holders)
    occ = ctx.occupants(state)
    column, move_cost, units, dist = board.column(i), ctx.tables.move_cost, state.units, board.dist
    changed: dict[int, Unit] = {}
    u = units[i]
    for n in range(squares):
        if until_clear and n > 0 and not ctx.in_enemy_zoc(u.cell, side, occ):
            break
        options = []
        for c in board.neighbors[u.cell]:
            # (an empty square holds no enemy and takes any unit)
            if c in occ and (ctx.enemy_at(state, c, side, occ) or ctx.stack_allows(state, i, c, occ)):
                continue
            if move_cost(board.terrain(state, c), column, False) is None:  # as it marches
                continue
            options.append((ctx.in_enemy_zoc(c, side, occ), dist.item(c, rear), c))
        if not options:
            if u.routed:
                return eliminate(ctx, state.with_units(changed), i, step, "eliminated: its retreat is cut off (§B3.6)")
            break
        in_zoc, _, c = min(options)
        if in_zoc and u.routed:
            state = state.with_units(changed)
            if ctx.basic:
                return eliminate(ctx, state, i, step, "eliminated retreating into an enemy zone of control (§B3.6)")
            # §IA7.6 "Routed units forced to retreat through an enemy ZOC suffer losses and stop their retreat"
            # (AMB-20: 10% of the men, at least 10); it stops where it stands
            z = ctx.rules["zoc"]
            loss = max(z["routed_into_zoc_loss_min"], u.strength * z["routed_into_zoc_loss_percent"] // 100)
            ctx.tell(step, "retreat", f"{board.spec(i).name} is caught retreating (§IA7.6)", ONLY[side])
            return take_losses(ctx, state, i, loss, False, step)
        extra = ctx.rules["retreat"]["retreated_onto_fatigue"]
        for j in occ.get(c, ()):
            w = changed.get(j) or units[j]
            changed[j] = replace(w, fatigue=w.fatigue + extra)
        u = changed[i] = replace(u, cell=c)
        state = enter(ctx, state, i, c)
        ctx.tell(
            step,
            "retreat",
            f"{board.spec(i).name} retreats to {board.label(c)}",
            ONLY[side],
            unit=board.spec(i).id,
            to=board.label(c),
        )
        if in_zoc:
            break
    return state.with_units(changed)


# --- the combat phase ----------------------------------------------------------------------------------------
def fire_step(ctx: Ctx, state: AntietamState, side: str, artillery: bool, defensive: bool, step: Step) -> AntietamState:
    """One of the four fire steps of §IA8.1: every unit of ``side`` of the kind fires if it can."""
    pending = Pending(ctx, state)
    _fire_step(ctx, pending, side, artillery, defensive, step)
    return pending.made()


def _fire_step(ctx: Ctx, pending: Pending, side: str, artillery: bool, defensive: bool, step: Step) -> None:
    """``fire_step``, changing ``pending``: the step's fires make one new state when the phase's steps are done; a
    rule that reads or writes the whole state (a unit eliminated or routed, a leader's wound) makes one earlier,
    and only then can a unit have moved. The records pending (of this step or earlier ones) move no unit and leave
    every mode, facing and fortification as it was: who stands where, who may fire (``can_fire``) and the
    modifiers read them from the state."""
    costs, basic = ctx.fire_costs, ctx.basic
    made = pending.state
    occ, enemy = ctx.occupants(made), ctx.enemy_squares(made, side)
    # only a unit with some enemy square in range and sight looks for a target (a unit's fire changes only the enemy
    # and itself, so who may fire holds through the step while the enemy stands where it stood)
    reach = _in_reach(ctx, pending.rules, made, side, enemy)
    order, reaches, k = reach.shooters[artillery], reach.reaches[artillery], 0
    while k < len(order):  # the step's units in order (``ctx.shooters``), those in reach alone
        i, r = order[k], reaches[k]
        k += 1
        u = pending.unit(i)
        if u.disrupted or not u.ammo:  # §IA8.8, §IA8.9 "Units without ammo may not fire"
            continue
        if not defensive:
            if u.op < costs[i]:  # AMB-22: offensive fire needs its cost
                continue
            if artillery and u.moved:  # §B3.4 "If you move an artillery unit, it may not fire until the next phase"
                continue
        if not (basic or can_fire(ctx, made, i)):
            continue
        target = _target(ctx, made, i, u, occ, r)
        if target >= 0:
            _fire(ctx, pending, i, target, step, defensive, occ)
            if pending.state is not made:  # a new state: the enemy may stand elsewhere (losses, rout, retreat)
                made = pending.state
                occ, moved = ctx.occupants(made), ctx.enemy_squares(made, side)
                if moved is not enemy:  # who has a square in reach, from here on (the units after ``i``)
                    enemy = moved
                    reach = _in_reach(ctx, pending.rules, made, side, enemy)
                    order, reaches = reach.shooters[artillery], reach.reaches[artillery]
                    k = bisect_right(order, i)


class Reach(NamedTuple):
    """A side's units with some enemy square in range and sight, in order for each fire step (by ``artillery``,
    False or True: ``ctx.shooters``' order), and each one's reach (its weapon's range within its sight, §IA8.3)."""

    shooters: tuple[list[int], list[int]]
    reaches: tuple[list[int], list[int]]


def in_reach(ctx: Ctx, state: AntietamState, side: str, enemy: IntArray) -> frozenset[int]:
    """The units of ``side`` on the map with some square of ``enemy`` in range and sight (§IA8.3), all round:
    where ``choose_target`` may find a target (it keeps to the 90° view of §IA7.9), for all the side's units at once.
    Kept for the side while its units and the enemy stand where they stood (a phase's artillery and other fire
    steps of a side mostly ask of the same squares)."""
    return frozenset(chain(*_in_reach(ctx, fire_rules(ctx), state, side, enemy).shooters))


def _in_reach(ctx: Ctx, fixed: FireRules, state: AntietamState, side: str, enemy: IntArray) -> Reach:
    """``in_reach``, with the units of each fire step in order and each unit's reach (``fixed``: the game's
    ``FireRules``)."""
    cells = ctx.cells(state)
    last = fixed.reach.get(side)
    # the squares' tuple and the enemy's array are the same objects while no unit moves (``Ctx``): kept alive here,
    # they are not another's
    if last is not None and last[0] is cells and last[1] is enemy and last[2] == state.turn:
        return last[3]
    answer = Reach(([], []), ([], []))
    if len(enemy):
        board = ctx.board
        nearest, limit = nearest_enemy(fixed, side, enemy), fixed.limits.get(state.turn)
        if limit is None:
            limit = fixed.limits[state.turn] = array("h", board.limits[state.turn].astype(np.int16).tobytes())
        ranges, artillery = board.weapon_range, board.artillery
        shooters, reaches = answer
        for i in ctx.ids[side]:  # some hundred units, each square's nearest enemy read from a row of bytes
            c = cells[i]
            if c < 0:  # not on the map
                continue
            r, sight = ranges[i], limit[c]
            if sight < r:
                r = sight
            if nearest[c] <= r:
                shooters[artillery[i]].append(i)
                reaches[artillery[i]].append(r)
    fixed.reach[side] = (cells, enemy, state.turn, answer)
    return answer


def nearest_enemy(fixed: FireRules, side: str, enemy: IntArray) -> bytes:
    """Every square's sight distance (``board.seen_at``) to the nearest square of ``enemy`` it sees (255: none), by
    square, kept for the side while the enemy's squares are the same array (``Ctx``: while the enemy stands where
    it stood; an operation phase moves one side, so the other side's answer often holds into the next combat
    phase)."""
    last = fixed.nearest.get(side)
    if last is not None and last[0] is enemy:
        return last[1]
    # the table's rows of the enemy squares, each square's nearest one down the columns
    nearest: bytes = np.minimum.reduce(fixed.seen_by.take(enemy, axis=0), axis=0).tobytes()
    fixed.nearest[side] = (enemy, nearest)
    return nearest


def combat_phase(ctx: Ctx, state: AntietamState, phasing: str, step: Step) -> AntietamState:
    """§B4.1 / §IA8.1: the six steps, all automatic."""
    defender = ENEMY[phasing]
    units = state.units
    # the squares fired into are the last phase's; the units with a melee plot, asked once: the phase only clears
    # plots (disruption, rout, elimination), so the melee and the phase's end need ask no other unit
    marked = [i for i, u in enumerate(units) if u.fired_at >= 0 or u.melee]  # every unit asked once
    plotted = [i for i in marked if units[i].melee]
    ctx.tell(step, "combat", f"{phasing.capitalize()} combat phase")
    # the four steps' fires and the squares fired at cleared: one new state at the steps' end (no fire reads a
    # square fired at: the melee does)
    pending = Pending(ctx, state)
    for i in marked:
        if units[i].fired_at >= 0:
            pending.units[i] = _UNFIRED(units[i], -1)
    _fire_step(ctx, pending, defender, True, True, step)  # defensive artillery fire
    _fire_step(ctx, pending, phasing, True, False, step)  # offensive artillery fire
    _fire_step(ctx, pending, defender, False, True, step)  # defensive fire
    _fire_step(ctx, pending, phasing, False, False, step)  # offensive fire
    state = pending.made()
    if not plotted:
        return state
    state = melee_phase(ctx, state, phasing, step, plotted)  # defensive melee fire, then melee
    # the melee plots are spent (§B3.8 plots are made in the operation phase before each combat)
    units = state.units
    return state.with_units({i: _UNPLOTTED_MELEE(units[i], False) for i in plotted if units[i].melee})


# a phase's start (every unit asked once: the records' slots read directly, 3.11's specialised loads) and end
_UNFIRED, _UNPLOTTED_MELEE = remaker(Unit, ("fired_at",)), remaker(Unit, ("melee",))


def melee_attackers(
    ctx: Ctx, state: AntietamState, phasing: str, plotted: Sequence[int] | None = None
) -> dict[int, list[int]]:
    """§B3.8 / §IA8.4: plotted, undisrupted units adjacent to the square they fired into, by that square
    (``plotted``: the units that may have a melee plot, in order; every unit when None)."""
    board = ctx.board
    out: dict[int, list[int]] = {}
    units = state.units
    for i in range(len(units)) if plotted is None else plotted:
        u = units[i]
        if not u.melee or board.sides[i] != phasing or u.cell < 0 or u.disrupted or u.routed:
            continue
        if u.fired_at < 0 or u.fired_at != u.target or not board.adjacent(u.cell, u.fired_at):
            continue
        out.setdefault(u.fired_at, []).append(i)
    return out


def melee_phase(
    ctx: Ctx, state: AntietamState, phasing: str, step: Step, plotted: Sequence[int] | None = None
) -> AntietamState:
    board = ctx.board
    defender = ENEMY[phasing]
    groups = melee_attackers(ctx, state, phasing, plotted)
    # the defensive melee fire: defenders fire at the attackers first (§IA8.4), disrupted ones too (§IA8.8)
    for cell in sorted(groups):
        for j in ctx.occupants(state).get(cell, ()):
            u = state.units[j]
            if board.side(j) != defender or not u.ammo:
                continue
            squares = sorted(
                {state.units[a].cell for a in groups[cell] if state.units[a].cell >= 0}, key=board.grid.coord
            )
            if squares:
                state = fire(ctx, state, j, squares[0], step, defensive=True)
    melee_cost = ctx.tables.cost("melee_attack", "inf") or 0
    for cell in sorted(groups):
        attackers = [
            a
            for a in groups[cell]
            if state.units[a].cell >= 0
            and not state.units[a].disrupted
            and not state.units[a].routed
            and board.adjacent(state.units[a].cell, cell)
        ]
        # §IA8.4 "Units must have enough operation points to fire and melee the same square"
        attackers = [a for a in attackers if state.units[a].op >= melee_cost]
        defenders = [j for j in ctx.occupants(state).get(cell, ()) if board.side(j) == defender]
        if attackers and defenders:
            state = melee(ctx, state, cell, attackers, defenders, step)
    return state


def melee_strength(
    ctx: Ctx, state: AntietamState, i: int, cell: int, attacking: bool, sources: tuple[int, ...] = ()
) -> int:
    """A unit's melee strength: men (guns x the AMB-13 reading) times the melee column of the charts."""
    board, c = ctx.board, ctx.combat
    u = state.units[i]
    spec = board.spec(i)
    men = u.strength * (c["casualties"]["artillery_melee_men_per_gun"] if spec.artillery else 1)
    mods: list[Modifier] = []
    mode = mode_modifier(ctx, i, u, 1)
    if mode is not None:
        mods.append(mode)
    if not attacking and not ctx.basic and any(flanked(ctx, state, i, a) for a in sources):
        mods.append(Modifier("flanked", c["other"]["flank_defender"]))  # "Flank Modifier to defender = .50"
    if not u.ammo:  # §IA8.9 "may melee at reduced strength" (reading: the out-of-ammo factor)
        mods.append(Modifier("no ammo", c["ammo"]["out_of_ammo_fire_factor"]))
    if attacking:
        if board.level(cell) > board.level(u.cell):
            mods.append(Modifier("higher elevation", defence(ctx, "higher_elevation", 1)))
        if terrain_row(ctx, state, u.cell) == "bridge_ford":  # "* attacker on bridge/ford"
            mods.append(Modifier("on bridge/ford", defence(ctx, "bridge_ford", 1)))
    return product(men, mods)


def melee_row(ctx: Ctx, diff: int) -> dict[str, int]:
    for row in ctx.combat["melee"]["rows"]:
        if row["from"] <= diff <= row["to"]:
            return dict(row)
    raise AssertionError(diff)


def melee(
    ctx: Ctx, state: AntietamState, cell: int, attackers: list[int], defenders: list[int], step: Step
) -> AntietamState:
    """§IA8.4 and the Melee Combat Results Table."""
    board, m = ctx.board, ctx.combat["melee"]
    phasing = board.side(attackers[0])
    sides = (phasing, ENEMY[phasing])
    # the defender's square, melee column (the bridge/ford .80 counts where the attacker stands: melee_strength)
    ground = terrain_row(ctx, state, cell)
    terrain = 100 if ground == "bridge_ford" else c_terrain(ctx, state, cell, 1)
    a_str = sum(melee_strength(ctx, state, a, cell, True) for a in attackers)
    a_str = product(
        a_str,
        [
            Modifier("terrain", terrain),
            Modifier("random", random_percent(step, "melee attack, random modifier", fire_rules(ctx), sides)),
        ],
    )
    sources = tuple(state.units[a].cell for a in attackers)
    d_str = sum(melee_strength(ctx, state, d, cell, False, sources) for d in defenders)
    d_luck = random_percent(step, "melee defence, random modifier", fire_rules(ctx), sides)
    d_str = product(d_str, [Modifier("random", d_luck)])
    diff = int((a_str - d_str) / m["divisor"])  # AMB-17: truncated toward zero
    row = melee_row(ctx, diff)
    r = m["random_losses"]
    a_loss = step.roll(r, "melee: attacker's losses, random of 25", sides) - 1 + row["attacker_plus"]
    d_loss = step.roll(r, "melee: defender's losses, random of 25", sides) - 1 + row["defender_plus"]
    a_loss = a_loss * level_percent(ctx, ENEMY[phasing]) // 100
    d_loss = d_loss * level_percent(ctx, phasing) // 100
    ctx.tell(
        step,
        "melee",
        f"Melee at {board.label(cell)}: {a_str} against {d_str}, differential {diff}; "
        f"attackers lose {a_loss}, defenders {d_loss}",
        target=board.label(cell),
        differential=diff,
    )
    # OP: "Melee attack 2", "Melee defence 1 / 2" (down to 0 for the defender, AMB-22)
    melee_cost = ctx.tables.cost("melee_attack", "inf") or 0
    changed = {a: replace(state.units[a], op=state.units[a].op - melee_cost) for a in attackers}
    for d in defenders:
        col = "unlimb" if board.spec(d).artillery else board.column(d)
        cost = ctx.tables.cost("melee_defence", col) or 0
        changed[d] = replace(state.units[d], op=max(0, state.units[d].op - cost))
    state = state.with_units(changed)
    state = distribute(ctx, state, cell, d_loss, False, 1, step, melee=True, among=defenders)
    a_cell = state.units[attackers[0]].cell
    state = distribute(
        ctx, state, a_cell, a_loss, False, 1, step, melee=True, among=[a for a in attackers if state.units[a].cell >= 0]
    )
    # "Defender's retreat is checked first and then the Attacker is checked"; never both (routed aside)
    standing = [d for d in defenders if state.units[d].cell == cell and not state.units[d].routed]
    limit = ctx.combat["casualties"]["artillery_melee_fatigue_retreat"]
    if (
        standing
        and row["defender_retreat"]
        and step.chance(row["defender_retreat"], "melee: the defender retreats", sides)
    ):
        for d in standing:
            state = retreat(ctx, state, d, ctx.rules["retreat"]["max_squares"], step, until_clear=True)
    elif row["attacker_retreat"] and step.chance(row["attacker_retreat"], "melee: the attacker retreats", sides):
        for a in attackers:
            if state.units[a].cell >= 0 and not state.units[a].routed:
                state = retreat(ctx, state, a, ctx.rules["retreat"]["max_squares"], step, until_clear=True)
    for d in defenders:  # §IA8.5 "Unlimbered artillery is forced to retreat when it gains over 75% fatigue"
        u = state.units[d]
        if u.cell == cell and board.spec(d).artillery and u.fatigue > limit:
            state = retreat(ctx, state, d, ctx.rules["retreat"]["max_squares"], step, until_clear=True)
    return advance(ctx, state, cell, attackers, step)


def advance(ctx: Ctx, state: AntietamState, cell: int, attackers: list[int], step: Step) -> AntietamState:
    """§B4.2 advances are automatic: the attackers move into a square its defenders have left (§IA8.7, ZOC to
    ZOC allowed, no OP), as stacking allows."""
    board = ctx.board
    occ = ctx.occupants(state)
    if occ.get(cell):
        return state
    for a in attackers:
        u = state.units[a]
        if u.cell < 0 or u.routed or u.disrupted or not board.adjacent(u.cell, cell):
            continue
        # §IA7.13 / §IA8.7 only plotted units advance; units not activated do not (§IA3.3, AMB-8)
        if not ctx.basic and (not u.advance or locked(ctx, state, a)):
            continue
        occ = ctx.occupants(state)
        if ctx.stack_allows(state, a, cell, occ):
            continue
        if not ctx.basic:  # §IA7.9 it faces the square it moves into; §IA7.11 its fortification stays behind
            u = replace(u, facing=board.direction(u.cell, cell), fort=0)
        state = enter(ctx, state.with_unit(a, replace(u, cell=cell)), a, cell)
        ctx.tell(
            step,
            "advance",
            f"{board.spec(a).name} advances into {board.label(cell)}",
            (board.side(a),),
            unit=board.spec(a).id,
            to=board.label(cell),
        )
    return state
