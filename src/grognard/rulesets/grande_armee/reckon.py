"""What La Grande Armée's computer general knows and reckons, from its seat's view alone.

A :class:`Picture` is built from one view: its own units in full, each enemy stack as the view shows it (the
unit on top and the stack's size, §3.5) with a guess at that unit's morale and fatigue and at the leaders
with it, and a *belief* state (an :class:`LGAState` holding only those units) on which the ruleset's own
helpers (zones of control, supply, movement costs, combat modifiers) are run. The game's state is never
seen. It also holds the combat table's expected results (§5.64) and the reach of units over the map.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from grognard.engine.records import replace

from . import play
from .play import Ctx, enemy_of
from .state import OFF_MAP, LGAState, Phase, Unit

FACES = range(1, 7)


@dataclass
class Foe:
    """An enemy stack as the view shows it, with the general's guesses about it."""

    cell: int
    top: str
    type: str
    power: str
    garrison: bool
    count: int | None  # None under a cavalry screen (§3.5)
    morale: float  # guessed morale of the unit on top
    fatigue: float  # guessed fatigue of the unit on top
    hq: float  # guessed HQ bonus in the area (§5.64)
    size: float  # guessed number of units, HQs included

    @property
    def units(self) -> float:
        """Guessed number of units that must be destroyed before the area is free."""
        return max(1.0, self.size)


@dataclass
class Intel:
    """What the general remembers between decisions: the morale it reckons each enemy unit has left, and the
    attack it has just made (to read its result from its own unit's losses)."""

    morale: dict[str, tuple[float, int]] = field(default_factory=dict)  # unit -> (morale, season number)
    hits: dict[str, tuple[int, int]] = field(default_factory=dict)  # unit -> (attacks this phase, phase key)
    pending: tuple[str, int, int, str, int, int] | None = None  # attacker, morale, fatigue, target, cell, modifier


def season_number(year: int, season: int) -> int:
    return year * 4 + season


class Picture:
    """One decision's picture of the war, built from the seat's view."""

    def __init__(self, ctx: Ctx, cfg: Mapping[str, Any], view: Mapping[str, Any], seat: str, intel: Intel) -> None:
        self.ctx = ctx
        self.cfg = cfg
        self.view = view
        self.seat = seat
        self.enemy = enemy_of(seat)
        tables = ctx.tables
        self.year: int = view["year"]
        self.season: int = tables.seasons.index(view["season"])
        self.now = season_number(self.year, self.season)
        end_year, end_season = ctx.scenario.end
        self.end = season_number(end_year, end_season)
        self.seasons_left = self.end - self.now  # seasons after this one
        # the last player turn of the game: nothing after it but the count (§5.2), units matter only for cities
        self.last_word = self.seasons_left == 0 and seat == [s for s in ("french", "allied") if ctx.powers(s)][-1]
        self.unit_weight = 1.0
        self._kept: dict[tuple[str, int], float] = {}
        self._next: LGAState | None = None  # the belief state as next season (for the muster roll)
        if self.seasons_left == 0:
            self.unit_weight = cfg["value"]["last_turn_units"] if self.last_word else cfg["value"]["final_season_units"]
        self.control: tuple[str, ...] = tuple(view["control"])
        own = [_own_unit(u) for u in view["units"]]
        self.mine = [u for u in own if u.cell != OFF_MAP]
        self.unbuilt = [u for u in own if u.cell == OFF_MAP]
        self.units = {u.id: u for u in self.mine}
        self.by_cell: dict[int, list[Unit]] = {}
        for u in self.mine:
            self.by_cell.setdefault(u.cell, []).append(u)
        self.supplied = frozenset(view.get("supplied_areas", ()))
        self.mp: dict[str, int] = dict(view["mp"])
        self.foes: dict[int, Foe] = {}
        self._read_foes(intel)
        self.belief = self._belief()
        self._levels()
        self.enemy_cells = frozenset(self.foes)
        self.enemy_zoc = play.zoc(ctx, self.belief, self.enemy)
        self.my_cells = frozenset(self.by_cell)
        self.my_zoc = play.zoc(ctx, self.belief, seat)

    # --- the enemy ------------------------------------------------------------------------------------------
    def _read_foes(self, intel: Intel) -> None:
        ctx, cfg = self.ctx, self.cfg["guess"]
        tables = ctx.tables
        hq_seen: dict[int, float] = {}
        placed: set[str] = set()
        seen_at: dict[int, int] = {}  # units last seen in each area (under a screen they may still be there)
        for s in self.view.get("last_seen", ()):
            if s["type"] != "hq":
                seen_at[s["cell"]] = seen_at.get(s["cell"], 0) + 1
            if s["type"] == "hq" and s["id"] in ctx.scenario.spec.leaders:
                hq_seen[s["cell"]] = hq_seen.get(s["cell"], 0) + ctx.scenario.spec.leaders[s["id"]].bonus
                placed.add(s["id"])
        for s in self.view["enemy"]:
            top = s["top"]
            ut = tables.units[top["type"]]
            count = s["count"]
            if count is not None:
                size = float(count)
            else:  # a cavalry screen (§3.5): the units last seen there, or a guess
                size = 1.0 + max(cfg["screened_units"], seen_at.get(s["cell"], 0))
            morale = estimate_morale(intel, top["id"], ut.max_morale, self.now, cfg)
            hits = intel.hits.get(top["id"])
            fatigue = float(hits[0]) if hits is not None and hits[1] == self.now else cfg["fatigue"]
            if top["type"] == "hq":
                placed.add(top["id"])
            self.foes[s["cell"]] = Foe(
                s["cell"],
                top["id"],
                top["type"],
                top["power"],
                top["garrison"],
                count,
                morale,
                fatigue,
                hq_seen.get(s["cell"], 0.0),
                size,
            )
        # leaders never seen: perhaps with the largest stack of their power (§6.0 names every side's leaders)
        for name, leader in sorted(ctx.scenario.spec.leaders.items()):
            if name in placed or ctx.scenario.side_of.get(leader.power) != self.enemy:
                continue
            stacks = [f for f in self.foes.values() if f.power == leader.power and f.units >= cfg["hq_stack_size"]]
            if stacks:
                big = max(stacks, key=lambda f: (f.units, -f.cell))
                big.hq = max(big.hq, leader.bonus * cfg["unseen_hq"])

    def _belief(self) -> LGAState:
        """A state holding the seat's own units and, for each enemy stack, its top unit over stand-ins."""
        units: list[Unit] = list(self.mine)
        for f in self.foes.values():
            units.append(Unit(f.top, f.power, f.type, f.cell, morale=round(f.morale), garrison=f.garrison, stack=2))
            under = "hq" if f.garrison or f.type == "hq" else "infantry"  # §3.5: garrisons above HQs only
            for i in range(max(0, round(f.size) - 1)):
                units.append(Unit(f"?{f.cell}.{i}", f.power, under, f.cell, stack=1))
        return LGAState(
            rng=0,
            year=self.year,
            season=self.season,
            seat=self.view["player"] or self.seat,
            phase=Phase(self.view["phase"]),
            control=self.control,
            units=tuple(units),
            mp=tuple(sorted(self.mp.items())),
        )

    # --- values ----------------------------------------------------------------------------------------------
    def _levels(self) -> None:
        """Each side's victory points as control stands (§5.2) and what the victory levels make of them."""
        ctx = self.ctx
        self.vp = {s: play.victory_points(ctx, self.belief, s) for s in (self.seat, self.enemy)}
        self.margin = self.rank_gap(self.vp[self.seat], self.vp[self.enemy])
        self._worth: dict[int, float] = {}

    def rank_gap(self, mine: int, theirs: int) -> int:
        """How many victory levels the seat stands above the enemy with these victory points (§5.2)."""
        ctx = self.ctx
        return play.LEVEL_RANK[play.level(ctx, self.seat, mine)] - play.LEVEL_RANK[play.level(ctx, self.enemy, theirs)]

    def city_swing(self, cell: int) -> float:
        """What holding ``cell`` rather than the enemy is worth, in VPs (§5.2): ours when held plus theirs, and
        more for each victory level its change of hands would win or lose now."""
        found = self._worth.get(cell)
        if found is not None:
            return found
        ctx = self.ctx
        ours = play.city_value(ctx, cell, self.seat)
        theirs = play.city_value(ctx, cell, self.enemy)
        worth = float(ours + theirs)
        holder = self.control[cell]
        mine, their = self.vp[self.seat], self.vp[self.enemy]
        if holder == self.seat:
            change = self.margin - self.rank_gap(mine - ours, their + theirs)
        elif holder == self.enemy:
            change = self.rank_gap(mine + ours, their - theirs) - self.margin
        else:  # a neutral country's city (§2.4): ours for the taking, nothing lost by the enemy
            change = self.rank_gap(mine + ours, their) - self.margin
            worth = float(ours)
        worth += abs(change) * self.cfg["value"]["level"]
        self._worth[cell] = worth
        return float(worth)

    def unit_value(self, type_: str, morale: float, bonus: int = 0) -> float:
        """A unit's worth in military points: its cost, its morale at the rally price, a leader's bonus; for a unit
        that musters (§5.4), what it is expected to keep after its next muster roll, which destroys many units
        left at morale 0 or 1 (the roll adds the morale)."""
        v = self.cfg["value"]
        ut = self.ctx.tables.units[type_]
        if type_ == "hq":
            kept = ut.cost * v["cost"] + max(0.0, morale) * v["morale"]
        else:
            kept = self._mustered(type_, max(0, round(morale)))
        return float((kept + bonus * v["hq_bonus"]) * self.unit_weight)

    def _mustered(self, type_: str, morale: int) -> float:
        """The expected worth of a unit of ``type_`` at ``morale`` after its next muster roll (§5.4), made with
        the modifier ``[value] muster`` (a guess at the area it will be in): its cost if it lives, its morale
        left at the rally price."""
        found = self._kept.get((type_, morale))
        if found is not None:
            return found
        v = self.cfg["value"]
        ut = self.ctx.tables.units[type_]
        total = 0.0
        for r in FACES:
            left = morale - self.ctx.tables.muster.read(r + morale + v["muster"])
            if left >= 0:
                total += (ut.cost * v["cost"] + left * v["morale"]) / 6
        self._kept[(type_, morale)] = total
        return total

    def muster_loss(self, unit: Unit, cell: int) -> float:
        """The military points ``unit`` is expected to lose at its next muster roll (§5.4, at the start of our
        next turn) if it ends its move in ``cell``: the roll adds its morale and the area's modifiers (a city
        shelters infantry and militia, forest, mountains and marsh wear them), winter's if next season is
        winter, and -1 for the French in Russia, Spain and Portugal; a unit falling below 0 is destroyed."""
        if unit.type == "hq" or cell in self.ctx.board.sea:
            return 0.0
        if self._next is None:
            self._next = replace(self.belief, season=(self.season + 1) % len(self.ctx.tables.seasons))
        ctx, v = self.ctx, self.cfg["value"]
        cost = ctx.tables.units[unit.type].cost * v["cost"]
        modifier = play.muster_modifier(ctx, self._next, replace(unit, cell=cell, supplied=True))
        lost = 0.0
        for r in FACES:
            loss = ctx.tables.muster.read(r + modifier)
            lost += (cost + unit.morale * v["morale"] if loss > unit.morale else loss * v["morale"]) / 6
        return lost * self.unit_weight

    def hq_here(self, cell: int) -> int:
        """§5.64: the best HQ of the seat in ``cell``."""
        return max((u.bonus for u in self.by_cell.get(cell, ()) if u.type == "hq"), default=0)


def _own_unit(u: Mapping[str, Any]) -> Unit:
    return Unit(
        u["id"],
        u["power"],
        u["type"],
        u["cell"],
        morale=u["morale"],
        fatigue=u["fatigue"],
        moves=u["moves"],
        garrison=u["garrison"],
        stack=u["stack"],
        supplied=u["supplied"],
        rallied=u["rallied"],
        reacted=u["reacted"],
        year=u.get("available") or 0,
        bonus=u.get("bonus", 0),
    )


def estimate_morale(intel: Intel, uid: str, max_morale: int, now: int, cfg: Mapping[str, Any]) -> float:
    """The morale an enemy unit is reckoned to have: what the general worked out, drifting back up by what a
    rally could give each season since, or the full morale less the usual wear of the muster (§5.4)."""
    known = intel.morale.get(uid)
    if known is None:
        return max(0.0, float(max_morale - cfg["wear"]))
    morale, when = known
    return max(0.0, min(float(max_morale), float(morale + cfg["recovery"] * max(0, now - when))))


# --- combat (§5.64) ------------------------------------------------------------------------------------------
def faces(ctx: Ctx, modifier: int) -> list[tuple[int, int]]:
    """(attacker's loss, defender's loss) on each face of the die at ``modifier`` (§5.64)."""
    t = ctx.tables
    return [(t.combat_attacker.read(r + modifier), t.combat_defender.read(r + modifier)) for r in FACES]


def spread(value: float, top: int) -> list[tuple[int, float]]:
    """A guessed number as two neighbouring whole numbers with weights, within 0..``top``."""
    value = min(max(value, 0.0), float(top))
    low = int(value)
    frac = value - low
    if frac < 1e-9 or low >= top:
        return [(low, 1.0)]
    return [(low, 1 - frac), (low + 1, frac)]


@dataclass(frozen=True, slots=True)
class Odds:
    value: float  # expected gain in military points, the attacker's losses counted against it
    kill: float  # chance the defender is destroyed
    lost: float  # expected morale the attacker loses
    dealt: float  # expected morale the defender loses


def attack_odds(
    pic: Picture,
    attacker: Unit,
    foe: Foe,
    *,
    morale: float | None = None,
    fatigue: float | None = None,
    hq: int | None = None,
) -> Odds:
    """The combat table's expectation for ``attacker`` attacking the top of ``foe``'s stack (§5.64), over the
    die and the guessed morale of the defender; ``morale`` and ``fatigue`` override the guesses, ``hq`` the
    attacker's leader bonus (the best leader in its area by default)."""
    ctx = pic.ctx
    d_morale = foe.morale if morale is None else morale
    d_fatigue = foe.fatigue if fatigue is None else fatigue
    ut = ctx.tables.units[foe.type]
    defender = Unit(foe.top, foe.power, foe.type, foe.cell, morale=round(d_morale), garrison=foe.garrison)
    situation = play.situation_modifier(ctx, attacker, defender)[0]
    bonus = pic.hq_here(attacker.cell) if hq is None else hq
    base = attacker.morale - attacker.fatigue + bonus + situation
    a_value = pic.unit_value(attacker.type, attacker.morale)
    value = kill = lost = dealt = 0.0
    for dm, pm in spread(d_morale, ut.max_morale):
        for df, pf in spread(d_fatigue, 9):
            # the defender's HQ: a guessed fraction of a bonus splits the same way
            for dh, ph in spread(foe.hq, 3):
                p = pm * pf * ph / 6
                modifier = base - dm + df - dh
                d_before = pic.unit_value(foe.type, dm)
                for a_loss, d_loss in faces(ctx, modifier):
                    gone = dm - d_loss < 0
                    d_after = 0.0 if gone else pic.unit_value(foe.type, dm - d_loss)
                    a_after = (
                        0.0 if attacker.morale - a_loss < 0 else pic.unit_value(attacker.type, attacker.morale - a_loss)
                    )
                    value += p * ((d_before - d_after) - (a_value - a_after))
                    kill += p * gone
                    lost += p * a_loss
                    dealt += p * d_loss
    return Odds(value, kill, lost, dealt)


@dataclass
class Onslaught:
    """A run of attacks on one enemy stack, reckoned on expectations (§5.64)."""

    value: float = 0.0  # expected gain (MP) of the attacks worth making
    first: str = ""  # the unit that attacks first
    used: list[str] = field(default_factory=list)  # the units that attack
    cleared: bool = False  # the stack is reckoned destroyed
    after: dict[str, tuple[float, float]] = field(default_factory=dict)  # attacker -> (morale, fatigue) after


def onslaught(
    pic: Picture,
    foe: Foe,
    attackers: Sequence[tuple[Unit, int]],
    max_attacks: int,
    first_min: float = float("-inf"),
) -> Onslaught:
    """The best run of attacks on ``foe`` by ``attackers`` (each placed where it attacks from, with the leader
    bonus there): at each step the attack with the best expected gain, every attack raising both units'
    fatigue (§5.64), so that a first attack that costs a little may open the way for those after it; the run
    is cut where its running total is highest. Each later attack counts for a share less (``discount``: the
    enemy may put a fresh unit on top, §5.65, and the dice stray from their expectation), and a run whose
    first attack is expected to lose more than ``-first_min`` is not made."""
    ctx = pic.ctx
    cfg = pic.cfg["guess"]
    morale = {u.id: float(u.morale) for u, _ in attackers}
    fatigue = {u.id: float(u.fatigue) for u, _ in attackers}
    d_morale, d_fatigue, left = foe.morale, foe.fatigue, foe.units
    total, order, weight = 0.0, [], 1.0
    best = Onslaught()
    for i in range(max_attacks):
        options = []
        for u, bonus in attackers:
            if morale[u.id] < 1:
                continue
            a = replace(u, morale=round(morale[u.id]), fatigue=round(fatigue[u.id]))
            odds = attack_odds(pic, a, foe, morale=d_morale, fatigue=d_fatigue, hq=bonus)
            options.append((odds.value, u.id, odds))
        if not options:
            break
        value, uid, odds = max(options, key=lambda o: (o[0], o[1]))
        if i == 0 and value < first_min:
            break
        total += value * weight
        weight *= pic.cfg["strike"]["discount"]
        order.append(uid)
        morale[uid] -= odds.lost
        fatigue[uid] += ctx.tables.combat_fatigue
        if odds.kill >= 0.5:
            left -= 1
            d_morale, d_fatigue = cfg["under_morale"], cfg["fatigue"]
        else:
            d_morale -= odds.dealt
            d_fatigue += ctx.tables.combat_fatigue
        if total > best.value:
            after = {u: (morale[u], fatigue[u]) for u in order}
            best = Onslaught(total, order[0], sorted(set(order)), left < 0.5, after)
        if left < 0.5:
            break
    return best


def read_attack(ctx: Ctx, modifier: int, lost: int, destroyed: bool) -> float:
    """The defender's expected loss given what the attacker lost (§5.64's table read backwards)."""
    rows = faces(ctx, modifier)
    fits = [d for a, d in rows if (a > lost if destroyed else a == lost)]
    if not fits:
        fits = [d for _, d in rows]
    return sum(fits) / len(fits)


# --- movement -------------------------------------------------------------------------------------------------
def reach(
    ctx: Ctx,
    state: LGAState,
    unit: Unit,
    moves: int,
    blocked: frozenset[int],
    zone: frozenset[int],
) -> dict[int, tuple[int, int]]:
    """Each area ``unit`` can end its move in with ``moves``, as (moves left, previous area): the terrain's
    cost (§2.3), one more to leave a zone of control (§3.2), no entering areas in ``blocked`` (enemy units:
    that is an attack); the sea costs all remaining moves to enter or leave, sailing nothing (§2.3)."""
    board = ctx.board
    start = unit.cell
    best: dict[int, tuple[int, int]] = {start: (moves, -1)}
    heap = [(-moves, start)]
    if start in board.sea:
        for s in play.sea_reach(ctx, unit):
            if s not in blocked:
                best[s] = (moves, start)
                heap.append((-moves, s))
        heapq.heapify(heap)
    while heap:
        neg, a = heapq.heappop(heap)
        left = -neg
        if best[a][0] != left or left <= 0:
            continue
        for b in board.neighbors[a]:
            if b in blocked or (b in best and best[b][0] >= left):
                continue
            if not play.may_enter(ctx, unit, b):
                continue
            if b in board.sea or a in board.sea:
                if b in board.sea and a in board.sea:
                    continue  # sailing is sea_reach's, from the start only
                after = 0
            else:
                cost = board.enter_cost(b) + (ctx.tables.zoc_exit_cost if a in zone else 0)
                if cost > left:
                    continue
                after = left - cost
            if b not in best or best[b][0] < after:
                best[b] = (after, a)
                heapq.heappush(heap, (-after, b))
    return best


def path_to(found: Mapping[int, tuple[int, int]], cell: int) -> list[int]:
    """The areas from the start (excluded) to ``cell`` in a :func:`reach` result."""
    out = []
    while cell in found and found[cell][1] >= 0:
        out.append(cell)
        cell = found[cell][1]
    return out[::-1]


def klass(unit: Unit) -> str:
    """Units that go the same ways (§2.5): each power's (the French keep out of the Hinterland, only the British
    cross the sea), and Spanish militia, which stay in Spain and Portugal."""
    return "spanish_militia" if unit.power == "spain" and unit.type == "militia" else unit.power


def distance_field(ctx: Ctx, state: LGAState, kind: str, targets: Sequence[int], sea_cost: int) -> list[float]:
    """Moves from every area to the nearest of ``targets`` for a unit of ``kind`` (:func:`klass`) where it may
    go (§2.5), ignoring units and zones of control; a landing or a putting to sea costs ``sea_cost`` (a season:
    §2.3)."""
    board = ctx.board
    power, type_ = ("spain", "militia") if kind == "spanish_militia" else (kind, "infantry")
    walker = Unit("?", power, type_, OFF_MAP)
    inf = float("inf")
    dist = [inf] * board.size
    heap: list[tuple[float, int]] = []
    for t in targets:
        dist[t] = 0.0
        heap.append((0.0, t))
    heapq.heapify(heap)
    while heap:
        d, b = heapq.heappop(heap)
        if d > dist[b]:
            continue
        enter = 0.0 if b in board.sea else float(board.enter_cost(b))  # stepping from a into b costs b's entry
        for a in board.neighbors[b]:
            if not play.may_enter(ctx, walker, a):
                continue
            step = float(sea_cost) if (a in board.sea) != (b in board.sea) else enter
            nd = d + step
            if nd < dist[a]:
                dist[a] = nd
                heapq.heappush(heap, (nd, a))
    return dist


def with_moves(state: LGAState, moved: Mapping[str, int], taken: Sequence[int], side: str) -> LGAState:
    """``state`` with units moved to new areas and the areas ``taken`` now controlled by ``side`` (§2.4)."""
    control = list(state.control)
    for c in taken:
        if control[c]:  # land: sea and prohibited areas have no controller
            control[c] = side
    units = tuple(replace(u, cell=moved[u.id]) if u.id in moved else u for u in state.units)
    return replace(state, units=units, control=tuple(control))


def source_stakes(pic: Picture) -> dict[int, float]:
    """For each supply source of either side (§2.3, §5.4), the worth (MP) of that side's units that would be
    out of supply if the enemy took it: a capital whose fall starves an army is worth that army."""
    ctx = pic.ctx
    out: dict[int, float] = {}
    for side in (pic.seat, pic.enemy):
        units = [u for u in pic.belief.units if u.cell != OFF_MAP and ctx.side(u) == side and u.type != "hq"]
        base = play.supplied_areas(ctx, pic.belief, side)
        for s in sorted(play.supply_sources(ctx, pic.belief, side)):
            control = list(pic.belief.control)
            control[s] = enemy_of(side)
            without = play.supplied_areas(ctx, replace(pic.belief, control=tuple(control)), side)
            cut = [
                u
                for u in units
                if u.cell in base
                and u.cell not in without
                and not play.in_supply(ctx, pic.belief, u, without)
                and u.cell not in ctx.board.capitals
            ]
            out[s] = sum(pic.unit_value(u.type, u.morale) for u in cut)
    return out
