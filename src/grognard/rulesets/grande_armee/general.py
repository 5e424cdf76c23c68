"""La Grande Armée's computer general, one player for the French or the Allied seat.

It sees what its seat sees and nothing more: every decision starts from ``Observation.view`` (read into a
:class:`~.reckon.Picture`) and ``Observation.legal``, and the ruleset's helpers are run on the picture's
belief state, never on the game's, through a ruleset of its own built from the observation's static facts
(``Player.rules``). What it remembers (the morale it reckons the enemy's units have left, its plan for the phase,
its armies' objectives) is rebuilt from the seat's earlier observations when it starts cold
(``Player.catch_up``); its distance fields and the reaction picture last found quiet are pure caches. Its
weights are tuning, kept in ``data/general.toml``.

- Phase IV (§5.5): British aid to the power that needs it, leaders rebuilt first, then whichever of a rally or
  a new unit buys most strength for its military points.
- Phase V (§5.6): a plan made as the phase begins (:mod:`.campaign`): garrisons, cities to take, strikes,
  marches. Every move is made before the first attack (the enemy may react only after it, §5.66), then the
  attacks while the combat table says they pay, then the empty cities the attacks opened, then garrisons.
- The enemy's phase V (§5.65-5.67): the best unit on top of a threatened stack, weak units withdrawn when the
  rout roll costs less than staying, threatened cities reinforced.

Levels: 0 "easy", 1 "normal" (the default), 2 "hard".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.ai.base import Player, derived_seed, tuning_at
from grognard.ai.observation import Observation
from grognard.engine import Decision, Legal
from grognard.engine.rng import Dice, seed_state

from . import decisions as D
from . import play
from .campaign import Order, Plan, Planner, _always_supplied
from .play import Ctx
from .reckon import Foe, Intel, Picture, estimate_morale, faces, onslaught, path_to, reach, read_attack
from .rules import GrandeArmee
from .state import Phase, Unit
from .tables import DATA


class General(Player):
    """Plans each season's moves, strikes with leaders at good odds, holds its cities, keeps supplied."""

    kind = "general"
    remembers = True

    def __init__(self, seed: int = 0, level: int = 1) -> None:
        super().__init__(seed, level)
        self.cfg, self.lv = tuning_at(DATA / "general.toml", level)
        self.fields: dict[tuple[str, tuple[int, ...]], list[float]] = {}  # a pure cache: distances on the map
        self.forget()

    def forget(self) -> None:
        self.intel = Intel()
        self.plan: Plan | None = None
        self.aims: dict[str, int] = {}  # each army's (leader's) and lone unit's objective, kept between seasons
        self._quiet: Any = None  # the reaction picture last found to need nothing, with what it was reckoned from

    # --- entry points --------------------------------------------------------------------------------------
    def choose(self, pc: Observation) -> Decision:
        self.catch_up(pc)
        d = self._decide(pc)
        if d is None or d not in pc.legal:
            d = _ending(pc.legal)
        if d is None:  # nothing sensible to say: a legal decision drawn from a seed the context fixes
            view = pc.view["state"]
            seed = derived_seed(self.seed, pc.seat, view["year"], view["season"], view["phase"], len(pc.legal))
            d = pc.legal.sample(Dice(seed_state(seed)))
        self.decided(pc)
        return d

    def interject(self, pc: Observation) -> Decision | None:
        if not pc.legal or not self.lv["react"]:
            return None
        self.catch_up(pc)
        d = self._react(pc)
        if d is None or d not in pc.legal:
            return None
        self.decided(pc)
        return d

    def _ctx(self, pc: Observation) -> Ctx:
        rules = self.rules(pc)
        assert isinstance(rules, GrandeArmee)
        return rules.ctx

    def _picture(self, pc: Observation) -> tuple[Ctx, Picture]:
        ctx = self._ctx(pc)
        return ctx, Picture(ctx, self.cfg, pc.view["state"], pc.seat, self.intel)

    def _decide(self, pc: Observation) -> Decision | None:
        phase = pc.view["state"]["phase"]
        if phase == Phase.BUILD:
            ctx, pic = self._picture(pc)
            return self._build(ctx, pic, pc.legal)
        if phase == Phase.MOVE:
            self._read_last_attack(pc)
            ctx, pic = self._picture(pc)
            return self._move(ctx, pic, pc.legal)
        return None

    # --- phase IV: build and rally (§5.5) ---------------------------------------------------------------------
    def _build(self, ctx: Ctx, pic: Picture, legal: Legal) -> Decision | None:
        cfg = self.cfg["build"]
        options: list[tuple[float, str, Decision]] = []
        for fam in legal.of_kind("build"):
            uid = fam.fixed["unit"]
            unit = next((u for u in pic.unbuilt if u.id == uid), None)
            sites = list(fam.values())
            if unit is None or not sites:
                continue
            ut = ctx.tables.units[unit.type]
            worth = pic.unit_value(unit.type, ut.max_morale, unit.bonus) * cfg.get(unit.type, 1.0)
            site = min(sites, key=lambda c: (self._front_distance(ctx, pic, c), c))
            options.append((worth / ut.cost, f"b{uid}", D.Build(uid, site)))
        for fam in legal.of_kind("rally"):
            for uid in fam.values():
                u = pic.units.get(uid)
                if u is None:
                    continue
                cost = ctx.tables.rally_cost[u.morale]
                worth = pic.cfg["value"]["morale"]
                if u.morale <= 1:
                    worth += pic.unit_value(u.type, 0) * cfg["save_weak"]
                if self._front_distance(ctx, pic, u.cell) <= cfg["front"]:
                    worth *= cfg["at_front"]
                options.append((worth / cost, f"r{uid}", D.Rally(uid)))
        aid = self._aid(ctx, pic, legal)
        if aid is not None:
            return aid
        if not options:
            return D.EndBuild()
        score, _, best = max(options, key=lambda o: (o[0], o[1]))
        if score < self.lv["spend_min"]:
            return D.EndBuild()
        return best

    def _front_distance(self, ctx: Ctx, pic: Picture, cell: int) -> int:
        """Areas from ``cell`` to the nearest enemy stack seen (the front)."""
        grid = ctx.board.grid
        return min((grid.distance(cell, f) for f in pic.foes), default=99)

    def _aid(self, ctx: Ctx, pic: Picture, legal: Legal) -> Decision | None:
        """§5.5: Britain gives its points, one at a time, to the ally with units to rally or rebuild nearest the
        front, keeping what its own units at war need."""
        fams = legal.of_kind("aid")
        if not fams or not len(fams[0]):
            return None
        keep = self.cfg["build"]["britain_keeps"]
        british = [u for u in pic.mine if u.power == "britain"]
        if british and pic.mp.get("britain", 0) <= keep:
            return None
        need: list[tuple[float, str]] = []
        for p in fams[0].values():
            units = [u for u in pic.mine if u.power == p]
            unbuilt = [u for u in pic.unbuilt if u.power == p and u.year <= pic.year]
            if not units and not unbuilt:
                continue
            wants = sum(
                ctx.tables.rally_cost.get(u.morale, 0)
                for u in units
                if u.type != "hq" and u.morale < ctx.tables.units[u.type].max_morale
            ) + sum(ctx.tables.units[u.type].cost for u in unbuilt)
            near = min((self._front_distance(ctx, pic, u.cell) for u in units), default=20)
            if wants > pic.mp.get(p, 0):
                need.append(((wants - pic.mp.get(p, 0)) / (1 + near), p))
        if not need:
            return None
        return D.Aid(max(need)[1])

    # --- phase V: movement and combat (§5.6) ------------------------------------------------------------------
    def _move(self, ctx: Ctx, pic: Picture, legal: Legal) -> Decision | None:
        movers = [pic.units[f.fixed["unit"]] for f in legal.of_kind("move") if f.fixed["unit"] in pic.units]
        if self.plan is None or self.plan.season != pic.now:
            self.plan = Planner(pic, self.cfg, self.lv, movers, self.fields, self.aims).make()
        while True:
            d = self._carry_out(ctx, pic, legal, movers)
            if d is not None:
                return d
            # the attacks may have opened the way: a new plan for the units with moves left
            plan = self.plan
            if plan.wave >= self.lv["waves"]:
                break
            keep = {uid for uid, o in plan.orders.items() if o.garrison or (o.role == "take" and o.dest == o.target)}
            again = [u for u in movers if u.moves > 0 and u.id not in keep]
            new = Planner(pic, self.cfg, self.lv, again, self.fields, self.aims).make()
            new.wave = plan.wave + 1
            for uid, o in plan.orders.items():
                new.orders.setdefault(uid, o)
            self.plan = new
        # back into supply, units that can (§5.4)
        back = self._resupply(ctx, pic, legal)
        if back is not None:
            return back
        # garrisons (§3.6)
        fams = legal.of_kind("garrison")
        if fams:
            for uid in fams[0].values():
                order = self.plan.orders.get(uid)
                if order is not None and order.garrison and pic.units[uid].cell == order.dest:
                    return D.Garrison(uid)
        return D.EndMovement()

    def _carry_out(self, ctx: Ctx, pic: Picture, legal: Legal, movers: list[Unit]) -> Decision | None:
        """The plan's next decision: its moves first (the enemy may react only after the first attack, §5.66),
        the strongest unit of a stack last so that it ends on top (§3.5); then the attacks while they pay;
        then the empty enemy cities within reach."""
        assert self.plan is not None
        for u in sorted(movers, key=lambda u: (u.morale - u.fatigue, u.id)):
            order = self.plan.orders.get(u.id)
            if order is None or order.dest == u.cell or u.moves <= 0:
                continue
            step = self._next_step(ctx, pic, u, order.dest, legal)
            if step is not None:
                return D.Move(u.id, step)
            order.dest = u.cell  # cannot get on (fog of war, §5.63): stay
        attack = self._best_attack(ctx, pic, legal)
        if attack is not None:
            return attack
        return self._take_now(ctx, pic, legal)

    def _next_step(self, ctx: Ctx, pic: Picture, u: Unit, dest: int, legal: Legal) -> int | None:
        found = reach(ctx, pic.belief, u, u.moves, pic.enemy_cells, pic.enemy_zoc)
        if dest not in found:
            return None
        path = path_to(found, dest)
        if not path or path[0] in pic.enemy_cells:
            return None
        fam = legal.family(D.Move(u.id, path[0]))
        return path[0] if fam is not None and path[0] in fam else None

    def _best_attack(self, ctx: Ctx, pic: Picture, legal: Legal) -> Decision | None:
        """The first attack of the best run of attacks on one enemy stack (§5.64), if the run pays."""
        can: dict[int, list[tuple[Unit, int]]] = {}
        for fam in legal.of_kind("move"):
            u = pic.units.get(fam.fixed["unit"])
            if u is None or self._keeps_a_post(u):
                continue
            for to in fam.values():
                if to in pic.foes:
                    can.setdefault(to, []).append((u, pic.hq_here(u.cell)))
        best: tuple[float, int, str] | None = None
        for to in sorted(can):
            foe = pic.foes[to]
            run = onslaught(pic, foe, can[to], self.cfg["strike"]["max_attacks"], self.lv["first_min"])
            if not run.used:
                continue
            value = run.value
            if run.cleared and ctx.board.kind(to) in ("capital", "major"):
                value += pic.city_swing(to) * self.cfg["value"]["vp"] * self.cfg["value"]["retaken"]
            if best is None or value > best[0]:
                best = (value, to, run.first)
        if best is None or best[0] < self.lv["attack_min"]:
            return None
        value, to, uid = best
        u = pic.units[uid]
        foe = pic.foes[to]
        modifier = round(u.morale - u.fatigue + pic.hq_here(u.cell) - foe.morale + foe.fatigue - foe.hq)
        self.intel.pending = (uid, u.morale, u.fatigue, foe.top, to, modifier)
        return D.Move(uid, to)

    def _keeps_a_post(self, u: Unit) -> bool:
        """Whether the plan keeps ``u`` in a city of ours to hold it (a garrison, or a unit matching the threat):
        it does not attack from there, which would leave the city to the enemy's next turn weakened (§5.64)."""
        order = self.plan.orders.get(u.id) if self.plan is not None else None
        return order is not None and order.role in ("garrison", "hold") and order.dest == u.cell

    def _read_last_attack(self, pc: Observation) -> None:
        """Read the result of the attack just made from what its attacker lost (§5.64's table backwards)."""
        pending = self.intel.pending
        if pending is None:
            return
        self.intel.pending = None
        uid, morale, _, target, cell, modifier = pending
        view = pc.view["state"]
        ctx = self._ctx(pc)
        me = next((u for u in view["units"] if u["id"] == uid), None)
        if me is None:
            return
        destroyed = me["cell"] < 0
        lost = morale - me["morale"] if not destroyed else morale + 1
        dealt = read_attack(ctx, modifier, lost, destroyed)
        now = _season_of(ctx, view)
        top = ctx.tables.units[_type_of(view, target, ctx)].max_morale
        before = estimate_morale(self.intel, target, top, now, self.cfg["guess"])
        self.intel.morale[target] = (before - dealt, now)
        hits = self.intel.hits.get(target)
        self.intel.hits[target] = ((hits[0] if hits and hits[1] == now else 0) + 1, now)
        still = any(s["cell"] == cell and s["top"]["id"] == target for s in view["enemy"])
        if not still and before - dealt < 0.5:
            del self.intel.morale[target]  # destroyed: if it comes back it is rebuilt at full morale (§5.5)

    def _resupply(self, ctx: Ctx, pic: Picture, legal: Legal) -> Decision | None:
        """A unit standing out of supply with moves left steps towards the nearest supplied area (§5.4)."""
        sources = play.supply_sources(ctx, pic.belief, pic.seat)
        for fam in legal.of_kind("move"):
            uid = fam.fixed["unit"]
            u = pic.units.get(uid)
            if u is None or u.cell in pic.supplied or _always_supplied(ctx, u, u.cell) or u.cell in sources:
                continue
            found = reach(ctx, pic.belief, u, u.moves, pic.enemy_cells, pic.enemy_zoc)
            options = [c for c in found if c in pic.supplied]
            if not options:
                continue
            dest = max(options, key=lambda c: (found[c][0], -c))
            path = path_to(found, dest)
            if path and path[0] in fam:
                if self.plan is not None and uid in self.plan.orders:
                    self.plan.orders[uid].dest = dest
                return D.Move(uid, path[0])
        return None

    def _take_now(self, ctx: Ctx, pic: Picture, legal: Legal) -> Decision | None:
        """After the attacks: step into an empty enemy capital or major city next to a unit with moves left, which
        takes it (§2.4), and stay there to keep it; a unit the plan needs to hold a city of ours only if no other
        can, and it goes back to that city after."""
        assert self.plan is not None
        found: list[tuple[bool, str, int]] = []
        for fam in legal.of_kind("move"):
            uid = fam.fixed["unit"]
            u = pic.units.get(uid)
            if u is None or u.type == "hq" or not ctx.tables.units[u.type].control:
                continue
            order = self.plan.orders.get(uid)
            if order is not None and (order.garrison or (order.role == "take" and order.dest == u.cell)):
                continue  # it garrisons, or keeps the city it took
            for to in sorted(fam.values()):
                if to in pic.enemy_cells or pic.control[to] == pic.seat:
                    continue
                if ctx.board.kind(to) in ("capital", "major"):
                    found.append((order is not None and order.role == "hold", uid, to))
        if not found:
            return None
        holds, uid, to = min(found)
        if not holds:  # it stays to keep the city; a unit holding one of ours only passes through, taking it
            self.plan.orders[uid] = Order(uid, to, "take", to)
        return D.Move(uid, to)

    # --- the enemy's phase V: reinforce, withdraw, the unit on top (§5.65-5.67) --------------------------------
    def _react(self, pc: Observation) -> Decision | None:
        view = pc.view["state"]
        key = (
            tuple((u["id"], u["cell"], u["morale"], u["fatigue"], u["reacted"]) for u in view["units"]),
            tuple((s["cell"], s["top"]["id"], s["count"]) for s in view["enemy"]),
            tuple(sorted(self.intel.morale.items())),  # the picture's guesses: a pure cache of what it was built from
            tuple(sorted(self.intel.hits.items())),
        )
        if key == self._quiet:
            return None
        ctx, pic = self._picture(pc)
        d = (
            self._save_leader(ctx, pic, pc.legal)
            or self._set_top(ctx, pic, pc.legal)
            or self._withdraw(ctx, pic, pc.legal)
        )
        d = d or self._reinforce(ctx, pic, pc.legal)
        if d is None:
            self._quiet = key
        return d

    def _adjacent_foes(self, ctx: Ctx, pic: Picture, cell: int) -> list[Foe]:
        return [pic.foes[n] for n in ctx.board.neighbors[cell] if n in pic.foes and pic.foes[n].type != "hq"]

    def _top(self, ctx: Ctx, pic: Picture, cell: int) -> Unit | None:
        from .play import stack_order

        stack = pic.by_cell.get(cell, [])
        return stack_order(ctx, stack)[0] if stack else None

    def _risk(self, ctx: Ctx, pic: Picture, unit: Unit, cell: int) -> float:
        """Military points ``unit`` is expected to lose where it stands to attacks from the enemy next to it."""
        foes = self._adjacent_foes(ctx, pic, cell)
        if not foes:
            return 0.0
        guard = unit.morale - unit.fatigue + pic.hq_here(cell) + (2 if unit.garrison else 0)
        value = pic.unit_value(unit.type, unit.morale)
        lost = 0.0
        for f in foes:
            per = sum(d for _, d in faces(ctx, round(f.morale + f.hq - guard))) / 6
            lost += per
        lost *= self.cfg["react"]["attack_chance"]
        return float(value * min(1.0, lost / (unit.morale + 1)))

    def _save_leader(self, ctx: Ctx, pic: Picture, legal: Legal) -> Decision | None:
        """§3.5: a leader left with no unit in its area is taken by the first attack on it; next to the enemy it
        withdraws, to the area with the most of its side's units."""
        for fam in legal.of_kind("withdraw"):
            u = pic.units[fam.fixed["unit"]]
            if u.type != "hq" or any(x.type != "hq" for x in pic.by_cell.get(u.cell, [])):
                continue
            if not self._adjacent_foes(ctx, pic, u.cell):
                continue
            to = max(fam.values(), key=lambda c: (len([x for x in pic.by_cell.get(c, []) if x.type != "hq"]), -c))
            return D.Withdraw(u.id, to)
        return None

    def _set_top(self, ctx: Ctx, pic: Picture, legal: Legal) -> Decision | None:
        fams = legal.of_kind("set_top")
        if not fams:
            return None
        for uid in sorted(fams[0].values()):
            u = pic.units[uid]
            if not self._adjacent_foes(ctx, pic, u.cell):
                continue
            top = self._top(ctx, pic, u.cell)
            if top is None or top.id == uid:
                continue
            best = max(
                (x for x in pic.by_cell[u.cell] if x.id in fams[0] or x.id == top.id),
                key=lambda x: (x.morale - x.fatigue, x.id == top.id, x.id),
            )
            if best.id == uid and (u.morale - u.fatigue) - (top.morale - top.fatigue) >= self.cfg["react"]["top_gain"]:
                return D.SetTop(uid)
        return None

    def _withdraw(self, ctx: Ctx, pic: Picture, legal: Legal) -> Decision | None:
        cfg = self.cfg["react"]
        best: tuple[float, str, int] | None = None
        for fam in legal.of_kind("withdraw"):
            uid = fam.fixed["unit"]
            u = pic.units[uid]
            top = self._top(ctx, pic, u.cell)
            if top is None or top.id != uid or u.type == "hq":
                continue
            if self._keeps_a_city(ctx, pic, u) and u.cell in play.supply_sources(ctx, pic.belief, pic.seat):
                continue  # the last defender of a source of supply stays (§2.3, §5.4)
            stay = self._risk(ctx, pic, u, u.cell)
            stack = pic.by_cell.get(u.cell, [])
            if ctx.board.kind(u.cell) in ("capital", "major") and len([x for x in stack if x.type != "hq"]) == 1:
                # a lone defender keeps the city only if it lives through the attacks
                lives = 1 - stay / max(1e-9, pic.unit_value(u.type, u.morale))
                stay -= pic.city_swing(u.cell) * self.cfg["value"]["vp"] * cfg["leave_city"] * lives
            for to in sorted(fam.values()):
                cost = self._rout_cost(ctx, pic, u, to)
                gain = stay - cost
                if gain > cfg["withdraw_min"] and (best is None or gain > best[0]):
                    best = (gain, uid, to)
        return D.Withdraw(best[1], best[2]) if best is not None else None

    def _keeps_a_city(self, ctx: Ctx, pic: Picture, u: Unit) -> bool:
        """Whether ``u`` is the last unit holding a capital or major city of its side (§2.4, §5.2)."""
        if ctx.board.kind(u.cell) not in ("capital", "major") or pic.control[u.cell] != pic.seat:
            return False
        return [x for x in pic.by_cell.get(u.cell, []) if x.type != "hq"] == [u]

    def _rout_cost(self, ctx: Ctx, pic: Picture, u: Unit, to: int) -> float:
        """§5.67: the expected loss of the rout roll (military points)."""
        if not ctx.tables.units[u.type].rout:
            return 0.0
        mods = ctx.tables.rout_mods
        total = u.morale
        if ctx.board.river(u.cell, to):
            total += mods["over_river"]
        if ctx.board.terrain[to] == "marsh":
            total += mods["into_marsh"]
        value = pic.unit_value(u.type, u.morale)
        out = 0.0
        for r in range(1, 7):
            loss = ctx.tables.rout.read(r + total)
            out += (value if loss > u.morale else loss * self.cfg["value"]["morale"]) / 6
        return out

    def _reinforce(self, ctx: Ctx, pic: Picture, legal: Legal) -> Decision | None:
        cfg = self.cfg["react"]
        best: tuple[float, str, int] | None = None
        for fam in legal.of_kind("reinforce"):
            uid = fam.fixed["unit"]
            u = pic.units[uid]
            if u.type == "hq" or u.morale < cfg["reinforce_morale"]:
                continue
            leaving = 0.0  # what the city it holds alone is worth, if it leaves it
            if self._keeps_a_city(ctx, pic, u):
                sources = play.supply_sources(ctx, pic.belief, pic.seat)
                exposed = u.cell in sources or bool(self._adjacent_foes(ctx, pic, u.cell))
                leaving = pic.city_swing(u.cell) * self.cfg["value"]["vp"] * (1.0 if exposed else cfg["empty_city"])
            mods = ctx.tables.reinforcement_mods
            arrive = sum(not ctx.tables.reinforcement.read(r + u.morale + mods.get(u.type, 0)) for r in range(1, 7)) / 6
            for to in sorted(fam.values()):
                if not self._adjacent_foes(ctx, pic, to):
                    continue
                top = self._top(ctx, pic, to)
                gain = 0.0
                if ctx.board.kind(to) in ("capital", "major") and pic.control[to] == pic.seat:
                    held = [x for x in pic.by_cell.get(to, []) if x.type != "hq"]
                    if not held or max(x.morale for x in held) <= 1:
                        gain += pic.city_swing(to) * self.cfg["value"]["vp"]
                if top is not None and top.type != "hq":
                    gain += max(0.0, (u.morale - u.fatigue) - (top.morale - top.fatigue)) * cfg["better_top"]
                gain = gain * arrive - self._risk(ctx, pic, u, to) * cfg["exposure"] - leaving * arrive
                if gain > cfg["reinforce_min"] and (best is None or gain > best[0]):
                    best = (gain, uid, to)
        return D.Reinforce(best[1], best[2]) if best is not None else None


def _season_of(ctx: Ctx, view: Mapping[str, Any]) -> int:
    return int(view["year"]) * 4 + ctx.tables.seasons.index(view["season"])


def _type_of(view: Mapping[str, Any], uid: str, ctx: Ctx) -> str:
    for s in view["enemy"]:
        if s["top"]["id"] == uid:
            return str(s["top"]["type"])
    for s in view.get("last_seen", ()):
        if s["id"] == uid:
            return str(s["type"])
    return "infantry"


def _ending(legal: Legal) -> Decision | None:
    for kind, d in (("end_movement", D.EndMovement()), ("end_build", D.EndBuild())):
        if legal.of_kind(kind):
            return d
    return None
