"""The computer general's plan for one season's movement (§5.6), made as phase V begins and again for the
units with moves left once the attacks are over.

In order: the units sent to reopen the supply of those cut off (§5.4); the garrisons already in the capitals
that supply it; the enemy stacks to strike (a leader and the units that can join it next to the stack, where
the combat table's expected results say the attacks pay, §5.64); a garrison in each threatened capital or
major city of its own (§3.6); enough units in its key cities to match the threat (sources of supply, cities
whose loss would cost a victory level, §5.2); the empty enemy cities to take (§2.4); where each army marches
(towards the objective worth most for the seasons it takes, together with its leader); and last a check that
every unit ends in an area its side can supply (§5.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from grognard.engine.records import replace

from . import play
from .reckon import (
    Foe,
    Picture,
    distance_field,
    faces,
    klass,
    onslaught,
    path_to,
    reach,
    source_stakes,
    with_moves,
)
from .state import Unit

GARRISONS = ("militia", "infantry", "guard")  # who garrisons first: the cheapest (§3.6 allows these three)
FIELDS_KEPT = 256  # distance fields a general keeps (a whole game needs under 50; each ~2.5 KB of one map)


@dataclass
class Order:
    """Where one unit is to end its move this season, and why."""

    unit: str
    dest: int
    role: str  # relieve, garrison, hold, strike, take, march, supplied
    target: int = -1  # the enemy area it strikes or the city it takes
    garrison: bool = False


@dataclass
class Plan:
    season: int
    wave: int = 1  # plans made this season: a new one once the attacks are over
    orders: dict[str, Order] = field(default_factory=dict)


class Planner:
    """Makes the season's :class:`Plan` from a :class:`Picture` and the units that may move."""

    def __init__(
        self,
        pic: Picture,
        cfg: Mapping[str, Any],
        level: Mapping[str, Any],
        movers: list[Unit],
        fields: dict[tuple[str, tuple[int, ...]], list[float]],
        aims: dict[str, int] | None = None,
    ) -> None:
        self.pic = pic
        self.ctx = pic.ctx
        self.cfg = cfg
        self.level = level
        self.movers = sorted(movers, key=lambda u: u.id)
        self.fields = fields
        self.aims = aims if aims is not None else {}  # army (leader) or unit -> the objective it marches on
        board = self.ctx.board
        self.reach = {
            u.id: reach(self.ctx, pic.belief, u, u.moves, pic.enemy_cells, pic.enemy_zoc) for u in self.movers
        }
        self.can_attack, self.can_enter = self._threats()
        self.plan = Plan(pic.now)
        self.free = {u.id for u in self.movers}
        self.fixed_units = [u for u in pic.mine if u.id not in self.free]
        self.ends: dict[int, list[Unit]] = {}  # planned stacks at the end of the move
        for u in self.fixed_units:
            self.ends.setdefault(u.cell, []).append(u)
        self.vp_cities = [c for c in board.vp_cities if c in board.land]
        self.stakes = source_stakes(pic)
        self.sources = frozenset(play.supply_sources(self.ctx, pic.belief, pic.seat))
        self.cuttable: dict[int, float] | None = None  # supplied areas the enemy could cut off (lazily)
        self.cleared: set[int] = set()  # enemy stacks the plan's strikes are reckoned to destroy
        self.vital: set[int] = set()  # supply sources most of our units depend on
        self._dangers: dict[tuple[int, int, int, bool, int, int], float] = {}
        # units that began the turn out of supply: they cannot move (§5.4) and die at its end unless relieved
        self.cut_off = [
            u
            for u in pic.mine
            if not u.supplied and not _always_supplied(self.ctx, u, u.cell) and u.cell not in board.capitals
        ]

    # --- the enemy's next turn ----------------------------------------------------------------------------
    def _threats(self) -> tuple[dict[int, list[Foe]], dict[int, list[Foe]]]:
        """Which enemy stacks could attack each area, and which could walk into it, in their next turn."""
        pic, ctx = self.pic, self.ctx
        board = ctx.board
        attack: dict[int, list[Foe]] = {}
        enter: dict[int, list[Foe]] = {}
        self.close: set[int] = set()  # areas an enemy stack can step into with few moves (it may cut supply)
        self.within: set[int] = set()  # areas an enemy stack can step into this season
        near = self.cfg["danger"]["cut_moves"]
        for f in sorted(pic.foes.values(), key=lambda f: f.cell):
            if f.type == "hq" or (f.garrison and f.units <= 1):
                continue  # a lone leader or a garrison alone does not come out (§3.3, §3.6)
            moves = ctx.tables.units[f.type].moves
            stand_in = Unit(f.top, f.power, f.type, f.cell, morale=round(f.morale), moves=moves)
            found = reach(ctx, pic.belief, stand_in, moves, pic.my_cells, pic.my_zoc)
            for cell, (left, _) in found.items():
                enter.setdefault(cell, []).append(f)
                if cell not in pic.my_cells:
                    self.within.add(cell)
                    if moves - left <= near:
                        self.close.add(cell)
                if left >= 1:
                    for n in board.neighbors[cell]:
                        if n in board.land:
                            attack.setdefault(n, [])
                            if f not in attack[n]:
                                attack[n].append(f)
        return attack, enter

    def danger(self, cell: int, unit: Unit, hq: int) -> float:
        """Military points ``unit`` is expected to lose on top of a stack in ``cell`` to the attacks the enemy
        stacks that can reach it would gain by (§5.64), its leader and the ground counted."""
        pic, ctx = self.pic, self.ctx
        foes = self.can_attack.get(cell, ())
        if not foes or unit.type == "hq" or pic.last_word:
            return 0.0
        cfg = self.cfg["danger"]
        mods = ctx.tables.combat_mods
        terrain = ctx.board.terrain[cell]
        shelter = -mods["into_mountains"] if terrain == "mountain" else 0
        shelter -= mods["into_marsh"] if terrain == "marsh" else 0
        guard = unit.morale - unit.fatigue + hq + shelter
        lost = 0.0
        for f in foes:
            rows = faces(ctx, round(f.morale + f.hq - guard))
            net = sum(d - a for a, d in rows) / 6
            if net > 0:
                lost += net * min(f.units, cfg["attacks_per_stack"])
        lost *= cfg["chance"]
        value = pic.unit_value(unit.type, unit.morale)
        return float(value * min(1.0, lost / (unit.morale + 1)))

    def _cuttable(self) -> dict[int, float]:
        """For each area now supplied (§5.4), the share of the cost of losing its supply that the enemy's next
        turn puts on it: ``cut`` where one enemy stack stepping a little nearer (``cut_moves``) would cut it,
        taking the area it steps into (§2.4) and putting its zone of control around it (§3.2), ``cut_far``
        where it would need the whole of its move."""
        pic, ctx = self.pic, self.ctx
        board = ctx.board
        cfg = self.cfg["danger"]
        power = next(iter(pic.foes.values())).power
        edge = {n for c in pic.supplied for n in board.neighbors[c]} | set(pic.supplied)
        out: dict[int, float] = {}
        for cell in sorted(self.within if cfg["cut_far"] else self.close):
            if cell not in edge or cell not in board.land or pic.control[cell] == "neutral":
                continue
            share = cfg["cut"] if cell in self.close else cfg["cut_far"]
            control = list(pic.control)
            control[cell] = pic.enemy
            state = replace(
                pic.belief, control=tuple(control), units=(*pic.belief.units, Unit("?cut", power, "infantry", cell))
            )
            for c in pic.supplied - play.supplied_areas(ctx, state, pic.seat):
                out[c] = max(out.get(c, 0.0), share)
        return out

    def supply_risk(self, unit: Unit, cell: int) -> float:
        """0 when ``cell`` will surely be supplied at the start of the next turn (§5.4), 1 when it will not,
        a share (``cut``) when the enemy could cut it by moving. Our own sources are always supplied; in a
        capital taken from the enemy a unit cut off is not destroyed but cannot move or attack (§2.3, §5.4),
        which costs a share (``frozen``) of losing it."""
        ctx, pic = self.ctx, self.pic
        if pic.last_word or _always_supplied(ctx, unit, cell) or cell in self.sources:
            return 0.0
        risk = 1.0 if not self.supplied_after(unit, cell) else 0.0
        if not risk and pic.foes:
            if self.cuttable is None:
                self.cuttable = self._cuttable()
            risk = self.cuttable.get(cell, 0.0)
        if cell in ctx.board.capitals:
            risk *= self.cfg["danger"]["frozen"]
        return float(risk)

    def stack_danger(self, cell: int, units: list[Unit], hq: int) -> float:
        """What the enemy stacks that can reach ``cell`` next season are expected to gain (MP) by attacking a
        stack of ``units`` there, with their best attack after best attack on its top unit, each raising its
        fatigue (§5.64): the way we attack, turned against us."""
        pic = self.pic
        field_units = sorted((u for u in units if u.type != "hq"), key=lambda u: (u.morale - u.fatigue, u.id))
        foes = [f for f in self.can_attack.get(cell, ()) if f.cell not in self.cleared]
        if not foes or pic.last_word:
            return 0.0
        if not field_units:
            return pic.unit_value("hq", 0, hq) if hq else 0.0  # a leader alone is taken by any attack (§3.5)
        top = field_units[-1]
        key = (cell, top.morale, top.fatigue, top.garrison, len(field_units), hq)
        found = self._dangers.get(key)
        if found is not None:
            return found
        board = self.ctx.board
        guess = self.cfg["guess"]
        attackers: list[tuple[Unit, int]] = []
        for f in foes:
            origin = (
                f.cell
                if cell in board.neighbors[f.cell]
                else min(
                    (n for n in board.neighbors[cell] if n in board.land),
                    key=lambda n: (board.grid.distance(n, f.cell), n),
                )
            )
            for i in range(min(round(f.units), self.cfg["danger"]["attackers_per_stack"])):
                type_ = f.type if i == 0 and f.type != "hq" else "infantry"
                morale = round(f.morale) if i == 0 else round(guess["under_morale"])
                attackers.append((Unit(f"{f.top}#{i}", f.power, type_, origin, morale=morale), round(f.hq)))
        me = Foe(
            cell=cell,
            top=top.id,
            type=top.type,
            power=top.power,
            garrison=top.garrison,
            count=len(field_units),
            morale=float(top.morale),
            fatigue=float(top.fatigue),
            hq=float(hq),
            size=float(len(field_units)),
        )
        run = onslaught(pic, me, attackers, self.cfg["strike"]["max_attacks"])
        chance = self.cfg["danger"]["stack_chance"]
        found = float(run.value * chance)
        if run.cleared:  # the area is lost, and the leader with it
            found += pic.unit_value("hq", 0, hq) * chance if hq else 0.0
            if cell in self.vp_cities:
                found += pic.city_swing(cell) * self.cfg["value"]["vp"] * chance
        self._dangers[key] = found
        return found

    def supplied_after(self, unit: Unit, cell: int) -> bool:
        """Whether ``cell`` will be in supply once ``unit`` has marched there (§5.4): already supplied, or joined
        to the supplied areas by the areas its march takes (§2.4) with none of them in an enemy zone of control
        (supply enters a zone but does not pass through it)."""
        pic, ctx = self.pic, self.ctx
        if cell in pic.supplied or _always_supplied(ctx, unit, cell):
            return True
        found = self.reach.get(unit.id)
        if found is None or cell not in found:
            return False
        prev = found[cell][1]
        while prev >= 0:
            if prev in pic.enemy_zoc and prev not in self.sources:
                return False
            if prev in pic.supplied:
                return True
            prev = found[prev][1]
        return False

    # --- the plan --------------------------------------------------------------------------------------------
    def relief(self, cleared: set[int], taken: set[int]) -> float:
        """The worth of the units now out of supply that would be supplied again (§5.4) if the enemy stacks in
        ``cleared`` were destroyed and the areas ``taken`` were ours."""
        if not self.cut_off:
            return 0.0
        pic, ctx = self.pic, self.ctx
        control = list(pic.control)
        for c in taken | cleared:
            control[c] = pic.seat
        units = tuple(u for u in pic.belief.units if not (u.cell in cleared and ctx.side(u) == pic.enemy))
        state = replace(pic.belief, control=tuple(control), units=units)
        areas = play.supplied_areas(ctx, state, pic.seat)
        return sum(pic.unit_value(u.type, u.morale, u.bonus) for u in self.cut_off if u.cell in areas)

    def _relieve(self) -> None:
        """§5.4: units cut off get their supply back if the enemy areas on the way are taken again (§2.4): each
        enemy-held area near them whose taking would supply some, with the unit that can get there."""
        if not self.cut_off:
            return
        pic, ctx = self.pic, self.ctx
        grid = ctx.board.grid
        taken: set[int] = set()
        near = sorted(
            c
            for c in ctx.board.land
            if pic.control[c] == pic.enemy
            and c not in pic.enemy_cells
            and min(grid.distance(c, u.cell) for u in self.cut_off) <= self.cfg["march"]["relief_reach"]
        )
        base = self.relief(set(), taken)
        for _ in range(3):
            gains = [(self.relief(set(), taken | {c}) - base, c) for c in near if c not in taken]
            gains = [g for g in gains if g[0] > 0]
            if not gains:
                return
            gain, c = max(gains)
            takers = [
                u
                for u in (self._unit(uid) for uid in sorted(self.free))
                if u.type != "hq"
                and ctx.tables.units[u.type].control
                and self._left(u, c) >= 0
                and not self._last_in_city(u)
            ]
            if not takers:
                near.remove(c)
                continue
            best = min(takers, key=lambda u: (pic.unit_value(u.type, u.morale), u.id))
            self._order(best, c, "relieve", target=c)
            taken.add(c)
            base += gain

    def _last_in_city(self, unit: Unit) -> bool:
        """Whether ``unit`` is the only unit holding a capital or major city of its side (§2.4, §5.2)."""
        pic = self.pic
        if unit.cell not in self.vp_cities or pic.control[unit.cell] != pic.seat:
            return False
        return [u.id for u in pic.by_cell.get(unit.cell, []) if u.type != "hq"] == [unit.id]

    def make(self) -> Plan:
        self._hold_cities(in_place=True)  # capitals keep the garrisons already in them
        self._relieve()
        self._guard_vital()
        self._strike()
        self._hold_cities()
        self._defend()
        self._take_cities()
        self._march()
        self._keep_supplied()
        return self.plan

    def _order(self, unit: Unit, dest: int, role: str, target: int = -1, garrison: bool = False) -> None:
        self.plan.orders[unit.id] = Order(unit.id, dest, role, target, garrison)
        self.free.discard(unit.id)
        self.ends.setdefault(dest, []).append(unit)

    def _unit(self, uid: str) -> Unit:
        return self.pic.units[uid]

    def _left(self, unit: Unit, cell: int) -> int:
        found = self.reach[unit.id].get(cell)
        return -1 if found is None else found[0]

    def threat(self, cell: int) -> float:
        """The strength of the enemy stacks that could attack or enter ``cell`` next season: their units'
        guessed morale and leaders (§5.64)."""
        foes = {f.cell: f for f in (*self.can_attack.get(cell, ()), *self.can_enter.get(cell, ()))}
        return float(sum(f.units * (f.morale + f.hq + 1) for f in foes.values() if f.cell not in self.cleared))

    def strength(self, units: list[Unit]) -> float:
        return sum(u.morale + 1 for u in units if u.type != "hq") + max(
            (u.bonus for u in units if u.type == "hq"), default=0
        )

    def _hold_cities(self, in_place: bool = False) -> None:
        """§3.6: a garrison for each capital and major city of ours that the enemy could reach next season: a unit
        already there, else the cheapest that can get there and is not marching with a leader (unless the city
        is a capital of ours)."""
        pic = self.pic
        mine = [c for c in self.vp_cities if pic.control[c] == pic.seat]
        mine.sort(key=lambda c: (-pic.city_swing(c), c))
        grid = self.ctx.board.grid
        watch = self.cfg["march"]["source_watch"]
        for c in mine:
            if in_place and c not in self.stakes:
                continue
            near = c in self.stakes and any(grid.distance(c, f) <= watch for f in pic.foes)
            if not self.threat(c) and not near:
                continue
            here = pic.by_cell.get(c, [])
            if any(u.garrison for u in here):
                for u in here:
                    if u.garrison and u.id in self.free:
                        self._order(u, c, "hold", garrison=True)
                continue
            home = play.city_value(self.ctx, c, pic.seat) >= self.ctx.tables.vp["friendly_capital"]
            candidates = []
            for uid in sorted(self.free):
                u = self._unit(uid)
                if u.type not in GARRISONS or u.morale <= 0:
                    continue
                if u.cell == c:
                    candidates.append(u)
                elif (
                    not in_place
                    and self._left(u, c) >= 1
                    and (home or not any(x.type == "hq" for x in pic.by_cell[u.cell]))
                ):
                    if pic.control[u.cell] == pic.seat and u.cell in self.vp_cities and self.threat(u.cell):
                        continue  # it holds a city of its own
                    candidates.append(u)
            if not candidates:
                continue
            best = min(
                candidates,
                key=lambda u: (not self._source_keeper(u, c), u.cell != c, GARRISONS.index(u.type), -u.morale, u.id),
            )
            self._order(best, c, "garrison", garrison=True)
        # §2.3: a British garrison makes a port a source of supply for the Allies
        for c in sorted(self.ctx.board.ports):
            here = pic.by_cell.get(c, [])
            if any(u.garrison for u in here) or c in pic.enemy_cells:
                continue
            keepers = [u for u in here if u.id in self.free and self._source_keeper(u, c)]
            if keepers and not any(o.dest == c and o.garrison for o in self.plan.orders.values()):
                self._order(min(keepers, key=lambda u: (GARRISONS.index(u.type), u.id)), c, "garrison", garrison=True)

    def _defend(self) -> None:
        """Our supply sources, and the cities whose loss would cost a victory level, threatened by more than
        the units planned to stand in them: the units that can get there stay or come, the strongest first,
        until they match the threat (§2.3: a lost capital supplies no one; §5.2). Every such city first gets
        a share of what it needs, then each is filled up, none past ``most_held`` units (only the unit on top
        meets an attack, §3.5)."""
        pic, cfg = self.pic, self.cfg["march"]
        key_cities = [
            c
            for c in self.vp_cities
            if pic.control[c] == pic.seat
            and (self.stakes.get(c, 0.0) > 0 or pic.city_swing(c) >= cfg["key_city"])
            and self.threat(c) > 0
        ]
        key_cities.sort(key=lambda c: (-(self.stakes.get(c, 0.0) + pic.city_swing(c) * self.cfg["value"]["vp"]), c))
        hopeless: set[int] = set()
        for share in (cfg["hold_first"], cfg["hold_ratio"]):
            for c in key_cities:
                if c in hopeless:
                    continue
                need = self.threat(c) * share
                helpers = self._can_come(c, leaders=True)
                short = self.strength(self.ends.get(c, []) + helpers) < self.threat(c) * cfg["hold_hope"]
                if short and c not in self.vital:
                    hopeless.add(c)  # it cannot be held: the units are better kept for elsewhere
                    continue
                for u in helpers:
                    held = self.ends.get(c, [])
                    if self.strength(held) >= need or sum(x.type != "hq" for x in held) >= cfg["most_held"]:
                        break
                    if u.type == "hq" and any(x.type == "hq" for x in held):
                        continue
                    self._order(u, c, "hold", target=c)

    def _guard_vital(self) -> None:
        """A supply source whose loss would leave most of our units out of supply (§2.3, §5.4: Paris for the
        French) keeps its best units in it until they match ``hold_first`` of the threat, up to ``vital_units``
        of them, before any strike takes them away: it is held to the last, never given up."""
        pic, cfg = self.pic, self.cfg["march"]
        total = sum(pic.unit_value(u.type, u.morale) for u in pic.mine if u.type != "hq")
        self.vital = {c for c, stake in self.stakes.items() if c in self.sources and stake >= cfg["vital"] * total}
        for c in sorted(self.vital):
            if not self.threat(c):
                continue
            for u in self._can_come(c, leaders=False):
                held = self.ends.get(c, [])
                if self.strength(held) >= self.threat(c) * cfg["hold_first"]:
                    break
                if sum(x.type != "hq" for x in held) >= cfg["vital_units"]:
                    break
                self._order(u, c, "hold", target=c)

    def _can_come(self, c: int, leaders: bool) -> list[Unit]:
        """The free units already in ``c`` or able to get there this season, leaders only if ``leaders``, no unit at
        morale 0: those there first, then the freshest."""
        return sorted(
            (
                u
                for u in (self._unit(uid) for uid in sorted(self.free))
                if (u.cell == c or self._left(u, c) >= 0) and (leaders if u.type == "hq" else u.morale > 0)
            ),
            key=lambda u: (u.cell != c, -(u.morale - u.fatigue), u.id),
        )

    def _source_keeper(self, unit: Unit, cell: int) -> bool:
        """A British unit that would make the port ``cell`` an Allied source of supply by garrisoning it (§2.3)."""
        return (
            self.pic.seat == "allied"
            and unit.power == "britain"
            and unit.type in GARRISONS
            and cell in self.ctx.board.ports
        )

    def _take_cities(self) -> None:
        """§2.4: walk into the enemy's empty capitals and major cities that units can reach this season, the
        most valuable first, each with the unit that loses least by going (cavalry first)."""
        pic, ctx = self.pic, self.ctx
        targets = [c for c in self.vp_cities if pic.control[c] != pic.seat and c not in pic.enemy_cells]
        targets.sort(key=lambda c: (-pic.city_swing(c), c))
        for c in targets:
            candidates = [
                u
                for u in (self._unit(uid) for uid in sorted(self.free))
                if u.type != "hq" and ctx.tables.units[u.type].control and self._left(u, c) >= 0
            ]
            if not candidates:
                continue
            value = pic.city_swing(c) * self.cfg["value"]["vp"]
            best = min(candidates, key=lambda u: (pic.unit_value(u.type, u.morale) + self.danger(c, u, 0), u.id))
            risk = self.danger(c, best, 0)
            if value * self._hold_chance(c) > risk * self.level["caution"]:
                self._order(best, c, "take", target=c)

    def _hold_chance(self, cell: int) -> float:
        """How likely a city taken now still counts when the game ends (§5.2)."""
        pic = self.pic
        if pic.seasons_left == 0 and pic.seat == "allied":
            return 1.0  # the Allies move last in the last season
        if self.can_enter.get(cell) or self.can_attack.get(cell):
            return float(self.cfg["value"]["retaken"])
        return 1.0

    # --- strikes ---------------------------------------------------------------------------------------------
    def _strike(self) -> None:
        """Concentrate: for each enemy stack, the area next to it where a leader and the most units can gather
        with a move left to attack; the plan with the best expected gain first (§5.64)."""
        pic = self.pic
        done: set[int] = set()
        hqs_used: set[str] = set()
        for _ in range(len(pic.foes)):
            best: tuple[float, int, int, list[Unit], Unit | None, bool] | None = None
            for f in sorted(pic.foes.values(), key=lambda f: f.cell):
                if f.cell in done:
                    continue
                for stage in self._stages(f):
                    value, used, hq, cleared = self._strike_value(f, stage, hqs_used)
                    if used and (best is None or value > best[0]):
                        best = (value, f.cell, stage, used, hq, cleared)
            if best is None or best[0] < self.level["strike_min"]:
                return
            value, target, stage, used, hq, cleared = best
            done.add(target)
            if cleared:
                self.cleared.add(target)
            for u in used:
                self._order(u, stage, "strike", target=target)
            if hq is not None:
                hqs_used.add(hq.id)
                if hq.id in self.free:
                    self._order(hq, stage, "strike", target=target)

    def _stages(self, foe: Foe) -> list[int]:
        board = self.ctx.board
        return [n for n in board.neighbors[foe.cell] if n in board.land and n not in self.pic.enemy_cells]

    def _strike_value(self, foe: Foe, stage: int, hqs_used: set[str]) -> tuple[float, list[Unit], Unit | None, bool]:
        """The expected gain of attacking ``foe`` from ``stage`` with every free unit that can get there with a
        move to spare and the best leader that can, attacks made while each pays (§5.64)."""
        pic, _ctx, cfg = self.pic, self.ctx, self.cfg
        attackers = []
        for uid in sorted(self.free):
            u = self._unit(uid)
            if u.type == "hq" or u.morale <= 0:
                continue
            if u.cell == stage or self._left(u, stage) >= 1:
                attackers.append(u)
        if not attackers:
            return 0.0, [], None, False
        leaders = [
            self._unit(uid)
            for uid in sorted(self.free)
            if self._unit(uid).type == "hq"
            and (self._unit(uid).cell == stage or self._left(self._unit(uid), stage) >= 0)
        ]
        leaders += [u for u in self.ends.get(stage, []) if u.type == "hq"]
        leaders = [h for h in leaders if h.id not in hqs_used]
        hq = max(leaders, key=lambda h: (h.bonus, h.id)) if leaders else None
        bonus = hq.bonus if hq is not None else pic.hq_here(stage)
        placed = [(replace(u, cell=stage), bonus) for u in attackers]
        run = onslaught(pic, foe, placed, cfg["strike"]["max_attacks"], self.level["first_min"])
        if not run.used:
            return 0.0, [], None, False
        used = [u for u in attackers if u.id in run.used]
        total = run.value
        if run.cleared:
            total += pic.city_swing(foe.cell) * cfg["value"]["vp"] * self._hold_chance(foe.cell)
            total += self.relief({foe.cell}, set())
        # what the enemy's next turn costs the stack left there, tired by its attacks, and the supply it may lack
        after = [
            replace(u, morale=max(0, round(run.after[u.id][0])), fatigue=round(run.after[u.id][1]))
            if u.id in run.after
            else u
            for u in used
        ]
        total -= self.stack_danger(stage, after + self.ends.get(stage, []), bonus) * self.level["caution"]
        short = sum(self.supply_risk(u, stage) for u in used)
        total -= short * self.cfg["march"]["unsupplied"] * (cfg["strike"]["cleared_supply"] if run.cleared else 1.0)
        return total, used, hq, run.cleared

    # --- marching --------------------------------------------------------------------------------------------
    def _field(self, unit: Unit, targets: tuple[int, ...]) -> list[float]:
        kind = klass(unit)
        key = (kind, targets)
        found = self.fields.get(key)
        if found is None:
            found = distance_field(self.ctx, self.pic.belief, kind, targets, self.cfg["march"]["sea_cost"])
            if len(self.fields) >= FIELDS_KEPT:  # a size that does not grow with play: the oldest goes first
                del self.fields[next(iter(self.fields))]
            self.fields[key] = found
        return found

    def _objectives(self) -> list[tuple[float, int, float]]:
        """Where the armies are going, with what each is worth and the enemy strength there: the enemy's capitals
        and major cities, the enemy stacks, our own cities under threat."""
        pic, cfg = self.pic, self.cfg["march"]
        # ahead in victory levels, hold what we have; behind, go and take (§5.2: only the end counts)
        ahead = "ahead" if pic.margin > 0 else "behind" if pic.margin < 0 else "level"
        attack, defend = cfg["posture"][ahead]
        out: list[tuple[float, int, float]] = []
        for c in self.vp_cities:
            f = pic.foes.get(c)
            held = f.units * (f.morale + f.hq + 1) if f is not None else 0.0
            held += self.threat(c) * cfg["support"]
            stake = self.stakes.get(c, 0.0) * cfg["source"]
            if pic.control[c] != pic.seat:  # the enemy's, or a neutral country's (§2.4)
                out.append(((pic.city_swing(c) * cfg["enemy_city"] + stake) * attack, c, held))
            elif pic.control[c] == pic.seat:
                threat = self.threat(c)
                guard = self.strength(self.ends.get(c, []))
                if threat > guard and self._reinforceable(c, threat):
                    worth = (pic.city_swing(c) * cfg["defend"] + stake) * defend
                    out.append((worth * (threat - guard) / threat, c, 0.0))
        for f in pic.foes.values():
            if f.cell not in self.vp_cities and f.type != "hq":
                held = f.units * (f.morale + f.hq + 1)
                out.append((pic.unit_value(f.type, f.morale) * f.units * cfg["stack"], f.cell, held))
        return sorted(out, key=lambda o: (-o[0], o[1]))

    def _reinforceable(self, cell: int, threat: float) -> bool:
        """Whether the units that can reach ``cell`` within a season could stand up to ``threat`` there."""
        near = [
            u for u in (self._unit(uid) for uid in sorted(self.free)) if u.cell == cell or self._seasons(u, cell) <= 1.0
        ]
        return bool(self.strength(self.ends.get(cell, []) + near) >= threat * self.cfg["march"]["hold_hope"])

    def _march(self) -> None:
        """Armies: each free unit joins the nearest leader; each army picks the objective worth most for its
        strength and the seasons it takes, and marches there as one stack as far as all its units can go.
        Units far from every leader go on alone; a leader without units joins the strongest stack it reaches."""
        grid = self.ctx.board.grid
        free = [self._unit(uid) for uid in sorted(self.free)]
        hqs = sorted((u for u in free if u.type == "hq"), key=lambda h: (-h.bonus, h.id))
        armies: dict[str, list[Unit]] = {h.id: [] for h in hqs}
        loose: list[Unit] = []
        for u in free:
            if u.type == "hq":
                continue
            near = sorted((grid.distance(u.cell, h.cell), -h.bonus, h.id) for h in hqs)
            if near and near[0][0] <= self.cfg["march"]["join"]:
                armies[near[0][2]].append(u)
            else:
                loose.append(u)
        objectives = self._objectives()
        for h in hqs:
            members = armies[h.id]
            if not members:
                continue
            aim = self._army_aim(h.id, members, objectives)
            # an objective one army goes for is worth less to the next: armies spread over the objectives
            share = self.cfg["march"]["shared"]
            objectives = [(v * share if c == aim else v, c, held) for v, c, held in objectives]
            dest = self._army_end(h, members, aim)
            for u in members:
                if self._left(u, dest) >= 0:
                    self._order(u, dest, "march", target=aim)
            for u in members:
                if u.id in self.free:
                    self._order(u, self._best_end(u, dest), "march", target=dest)
            self._order(h, dest if self._left(h, dest) >= 0 else self._leader_end(h), "march", target=aim)
        loose.sort(key=lambda u: (self.ctx.tables.units[u.type].moves, u.id))
        camps = sorted(
            {o.dest for o in self.plan.orders.values() if o.role == "march" and self._unit(o.unit).type == "hq"}
        )
        for u in loose:
            aim = self._army_aim(u.id, [u], objectives)
            if u.type != "cavalry" and camps:  # far from every leader: foot units join the nearest army ahead
                camp = min(camps, key=lambda c: (self._seasons(u, c), c))
                ahead = aim < 0 or self._field(u, (aim,))[camp] <= self._field(u, (aim,))[u.cell]
                if ahead and (aim < 0 or self._seasons(u, camp) < self._seasons(u, aim)):
                    aim = camp
            self._order(u, self._best_end(u, aim), "march", target=aim)
        for h in hqs:
            if h.id in self.free:
                self._order(h, self._leader_end(h), "march")

    def _seasons(self, unit: Unit, cell: int) -> float:
        dist = self._field(unit, (cell,))[unit.cell]
        return dist / self.ctx.tables.units[unit.type].moves

    def _army_aim(self, key: str, members: list[Unit], objectives: list[tuple[float, int, float]]) -> int:
        """The objective worth most to an army (or a unit alone, ``key`` naming it): its worth, times the army's
        share of the strength there, less a share for each season the slowest of its units takes to get there.
        The objective it marched on before counts for more (``keep``): an army that changes its mind every
        season gets nowhere."""
        decay = self.cfg["march"]["decay"]
        power = self.strength(members)
        before = self.aims.get(key, -1)
        best, best_value, near = -1, 0.0, False
        for value, cell, held in objectives:
            seasons = max(self._seasons(u, cell) for u in members)
            if seasons > self.pic.seasons_left + 1:
                continue
            v = value * decay**seasons * power / (power + held * self.cfg["march"]["odds"])
            if cell == before:
                v *= self.cfg["march"]["keep"]
            close = seasons <= self.cfg["march"]["horizon"]  # an objective within reach beats any far one
            if (close, v) > (near, best_value):
                best, best_value, near = cell, v, close
        if best >= 0:
            self.aims[key] = best
        return best

    def _army_end(self, hq: Unit, members: list[Unit], aim: int) -> int:
        """The area the army ends in: one every unit can reach, nearest the aim, in supply, out of harm's way."""
        pic = self.pic
        cfg = self.cfg["march"]
        cells = set(self.reach[hq.id])
        for u in members:
            cells &= set(self.reach[u.id])
        cells -= pic.enemy_cells
        if not cells:
            return hq.cell if any(u.cell == hq.cell for u in members) else members[0].cell
        slow = min(members, key=lambda u: (self.ctx.tables.units[u.type].moves, u.id))
        field_ = self._field(slow, (aim,)) if aim >= 0 else None
        moves = self.ctx.tables.units[slow.type].moves
        best, best_score = hq.cell, float("-inf")
        for cell in sorted(cells):
            score = 0.0
            if field_ is not None and field_[cell] < float("inf"):
                score += (field_[slow.cell] - field_[cell]) / moves * cfg["progress"] * len(members)
            short = sum(self.supply_risk(u, cell) for u in members)
            score -= short * cfg["unsupplied"]
            score -= self.stack_danger(cell, members + self.ends.get(cell, []), hq.bonus) * self.level["caution"]
            spent = sum(self._left(u, cell) == 0 and u.cell != cell for u in members)
            score -= spent * cfg["long_march"]
            score -= sum(pic.muster_loss(u, cell) for u in members) * cfg["muster"]
            if score > best_score:
                best, best_score = cell, score
        return best

    def _best_end(self, unit: Unit, aim: int) -> int:
        """The area this season's move should end in: nearest the aim, in supply, in a city in the bad season,
        with friends and a leader, out of harm's way."""
        pic, ctx, cfg = self.pic, self.ctx, self.cfg["march"]
        found = self.reach[unit.id]
        field_ = self._field(unit, (aim,)) if aim >= 0 else None
        moves = ctx.tables.units[unit.type].moves
        now = field_[unit.cell] if field_ is not None else 0.0
        best, best_score = unit.cell, float("-inf")
        for cell in sorted(found):
            left = found[cell][0]
            if cell in pic.enemy_cells:
                continue
            score = 0.0
            if field_ is not None and field_[cell] < float("inf"):
                score += (now - field_[cell]) / moves * cfg["progress"]
            score -= self.supply_risk(unit, cell) * cfg["unsupplied"]
            score -= pic.muster_loss(unit, cell) * cfg["muster"]
            friends = self.ends.get(cell, [])
            hq = max((f.bonus for f in friends if f.type == "hq"), default=0)
            if hq:
                score += cfg["with_leader"]
            score += min(len(friends), 3) * cfg["together"]
            score -= self.danger(cell, unit, hq) * self.level["caution"]
            if left == 0 and ctx.tables.units[unit.type].long_march and cell != unit.cell:
                score -= cfg["long_march"]
            if score > best_score:
                best, best_score = cell, score
        return best

    def _leader_end(self, hq: Unit) -> int:
        """A leader without an army ends where the most of its side's strength will stand within its reach and
        no other leader is (one bonus counts per area, §5.64)."""
        pic = self.pic
        found = self.reach[hq.id]
        best, best_score = hq.cell, float("-inf")
        for cell in sorted(found):
            if cell in pic.enemy_cells:
                continue
            stack = [u for u in self.ends.get(cell, []) if u.type != "hq"]
            if not stack or any(u.type == "hq" for u in self.ends.get(cell, [])):
                continue
            score = sum(u.morale + 1 for u in stack) - (10 if cell not in pic.supplied else 0)
            if score > best_score:
                best, best_score = cell, score
        return best

    # --- supply -----------------------------------------------------------------------------------------------
    def _keep_supplied(self) -> None:
        """§5.4: a unit whose planned area will be out of supply once every move is made looks again, among the
        areas that will be supplied."""
        pic, ctx = self.pic, self.ctx
        moved = {uid: o.dest for uid, o in self.plan.orders.items()}
        taken = [c for uid, o in self.plan.orders.items() for c in path_to(self.reach[uid], o.dest)]
        after = with_moves(pic.belief, moved, taken, pic.seat)
        areas = play.supplied_areas(ctx, after, pic.seat)
        for uid, order in sorted(self.plan.orders.items()):
            u = self._unit(uid)
            if order.role == "strike":
                continue  # the attacks may clear the way; the units step back into supply after them
            if order.dest in areas or _always_supplied(ctx, u, order.dest) or order.dest in self.sources:
                continue
            options = [c for c in self.reach[uid] if c in areas and c not in pic.enemy_cells]
            if not options:
                continue
            field_ = self._field(u, (order.target,)) if order.target >= 0 else None
            order.dest = min(options, key=lambda c: ((field_[c] if field_ is not None else 0), c))
            order.role = "supplied"


def _always_supplied(ctx: play.Ctx, unit: Unit, cell: int) -> bool:
    """§5.4: Spanish units never lack supply, Russians in the Hinterland neither, British at sea have the fleet."""
    return unit.power == "spain" or (unit.power == "russia" and cell in ctx.board.hinterland) or cell in ctx.board.sea
