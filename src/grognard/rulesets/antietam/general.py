"""Battle of Antietam's computer general, one player for the Union or the Confederate seat.

It decides from its seat's ``Observation`` only: the view (its own units' displays, the enemy units it sights,
the victory squares and their holders) and the legal decisions; the map, the weapon ranges and the move costs come
from a ruleset of its own built from the observation's static facts. It keeps no memory between decisions (each
operation phase is read afresh from the view: a unit already picked up shows ``acted``), so a general started
mid-game decides as one that played from the start. Its weights are tuning, in ``data/general.toml``.

- The Union (§IA11 "Union Strategy"): each corps is given one objective, the Confederate-held victory square its
  value and distance favour most, and marches on it; a unit steps into the enemy's zone of control only with
  enough friends within two squares to support it (the push goes in together), and units far from any fight are
  sent where the enemy line shows routed units (reserves where the line breaks); once a unit of a corps is in
  contact the rest closes with less support. It melees where its units adjacent to a square are at least as many
  as the enemy units in it.
- The Confederate (§IA11 "Confederate Strategy", "Let the Union come to you"): units in contact or on a victory
  square or a ridge (level 3-4) hold; the rest are a reserve sent to the victory square the seen Union units press
  hardest; units out of contact step onto lost victory squares within reach (on the last turn any unit that can,
  since the Confederate moves last, §IA2.3), and Sharpsburg's road square 33,1 always has a unit on it. Each
  unit fires where the casualty table pays most in points (range, the target's terrain and elevation, 150 points
  a gun for batteries), its cavalry rides to the rear from an enemy four squares away, and it melees only routed
  attackers (or, at ``hard``, a square it outnumbers two to one).
- Both sides: routed or worn-out units (morale under the level's threshold) walk toward their rear corner, out of
  fire, to rally (§IA5.2); artillery stops where an enemy is in its range and does not close to melee distance;
  batteries and cavalry pull back from an enemy two squares away (guns and troopers are dear in points, §IA10.1;
  a lone Confederate battery joins its infantry first, where infantry fire does not strike it, §IA7.7);
  batteries fire at enemy guns, the rest at men (§IA8.2, §IA7.7); lone batteries are meleed.
- Intermediate and advanced games: a computer Union answers the activation cycle by the §B2.0 schedule (§IA3.2);
  units deploy from marching modes near the enemy, batteries limber to move (§IA7.8), and face the enemy (§IA7.9).

Levels (``[levels]`` in the tuning file): ``easy`` sends each unit at the nearest enemy with no support check and
plots only fire; ``normal`` plays the plan above; ``hard`` also demands more support, garrisons 32,7 as well as
33,1, and counterattacks by numbers.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from grognard.ai.base import Player, derived_seed, tuning_at
from grognard.ai.observation import Observation
from grognard.engine import Decision, Legal
from grognard.engine.rng import Dice, seed_state

from . import decisions as D
from .board import Board
from .rules import Antietam
from .tables import DATA

Unit = Mapping[str, Any]


class General(Player):
    """Union: concentrated, supported pushes on victory squares. Confederate: hold, shift reserves, counterattack."""

    kind = "general"

    def __init__(self, seed: int = 0, level: int = 1) -> None:
        super().__init__(seed, level)
        self.cfg, self.lv = tuning_at(DATA / "general.toml", level)
        self._fields: dict[tuple[int, tuple[str, ...], str], dict[int, int]] = {}  # a pure cache: the static map
        self._retakes: tuple[Picture, dict[str, int]] | None = None  # a cache of the decision's picture

    # --- entry point -----------------------------------------------------------------------------------------
    def choose(self, obs: Observation) -> Decision:
        d = self._decide(obs) if obs.legal else None
        if d is None or d not in obs.legal:
            d = _ending(obs.legal)
        if d is None:  # nothing sensible: a legal decision drawn from a seed the view fixes
            v = obs.view["state"]
            d = obs.legal.sample(Dice(seed_state(derived_seed(self.seed, obs.seat, v["turn"], v["phase"]))))
        return d

    def _decide(self, obs: Observation) -> Decision | None:
        rules = self.rules(obs)
        assert isinstance(rules, Antietam)
        pic = Picture(rules.ctx.board, obs.view["state"], obs.seat)
        if obs.legal.of_kind("activate"):
            return self._activate(rules, pic, obs.view["state"]["activation"])
        if pic.accessed is not None:
            return self._advance(pic, obs.legal, pic.accessed)
        for u in pic.mine:
            if self._wants_to_move(pic, u):
                return D.Access(u["id"])
        plot = self._plot(pic, obs.legal)
        if plot is not None:
            return plot
        return D.EndPhase()

    # --- §IA3 activation --------------------------------------------------------------------------------------
    def _activate(self, rules: Antietam, pic: Picture, cycle: Mapping[str, Any]) -> Decision:
        """§IA3.2 "When the computer plays the Union, it will follow the restrictions placed on the Union player
        in the BASIC game (see 2.0 ...)": a division of Porter's, Franklin's or Pleasonton's command is bypassed
        before its §B2.0 turn unless an enemy stands next to one of its units (the release the view shows; the
        random early release is a roll of the basic game's rules, not the player's). Of the others it activates
        those in or near the fight first: a rear division is bypassed while the divisions still to be offered
        can use the activations left."""
        ctx = rules.ctx
        offer, left = list(cycle["offer"]), int(cycle["limit"])
        division = offer[0]
        units = [u for u in pic.mine if u["division"] == division]
        schedule = {k: v for k, v in ctx.rules["activation"]["schedule"].items() if k[0].isupper()}
        if ctx.cavalry_turn and "Pleasonton" in schedule:  # the IBM version's cavalry turn (AMB-6)
            schedule["Pleasonton"] = ctx.cavalry_turn
        held_until = next((schedule[n] for n in (ctx.corps_of.get(division, ""), division) if n in schedule), 0)
        if pic.view["turn"] < held_until and not any(pic.enemy_distance(u["cell"]) <= 1 for u in units):
            return D.Bypass(division)
        if any(pic.enemy_distance(u["cell"]) <= self.cfg["activation"]["fight_distance"] for u in units):
            return D.Activate(division)
        return D.Activate(division) if len(offer) <= left else D.Bypass(division)

    # --- where each unit goes --------------------------------------------------------------------------------
    def _wants_to_move(self, pic: Picture, u: Unit) -> bool:
        if u["acted"] or u["op"] <= 0 or (u["routed"] and u["moved"]):
            return False
        if "mode" in u and not u["routed"] and (self._mode_wanted(pic, u) or self._facing_wanted(pic, u)):
            return True  # §IA7.8, §IA7.9: the intermediate and advanced games' orders, held units too (AMB-8)
        if u["held"]:
            return False
        goal = self._goal(pic, u)
        return goal is not None and self._field(pic, goal[0], _column(u)).get(u["cell"], 0) > goal[1]

    # --- §IA7.8 modes and §IA7.9 facing (intermediate and advanced games) ----------------------------------
    def _mode_wanted(self, pic: Picture, u: Unit) -> bool:
        """Whether the unit should change mode now: to its fighting mode (normal, dismounted, unlimbered) with an
        enemy within reach, since the marching modes fire at .75 (artillery not at all) and are flanked from
        every side; a battery to limbered when its goal lies elsewhere (unlimbered artillery does not move)."""
        near = pic.enemy_distance(u["cell"])
        marching = u["mode"] in pic.board.tables.rules["modes"]["bridge_modes"]
        if u["type"] == "artillery":
            reach = pic.board.weapon_range[pic.board.index[u["id"]]]
            if marching:
                return near <= reach or self._goal(pic, u) is None
            goal = None if u["held"] else self._goal(pic, u)
            return (
                near > reach and goal is not None and self._field(pic, goal[0], _column(u)).get(u["cell"], 0) > goal[1]
            )
        return marching and near <= int(self.cfg["modes"]["deploy_distance"])

    def _facing_wanted(self, pic: Picture, u: Unit) -> int | None:
        """The facing (1-8) whose 90° view holds the most seen enemy units within six squares, nearer ones
        counting more, when the unit's own facing holds fewer (§IA7.9 fire only into the V; flank fire from
        outside it); None to keep it."""
        near = pic.enemies_near(u["cell"], int(self.cfg["modes"]["face_reach"]))
        if not near:
            return None
        cones = pic.board.cones

        def weight(f: int) -> int:
            row = cones[f][u["cell"]]
            return sum(10 - int(pic.board.dist[u["cell"], e["cell"]]) for e in near if row[e["cell"]])

        best = max(range(1, 9), key=lambda f: (weight(f), -f))
        return best if weight(best) > weight(int(u["facing"])) else None

    def _goal(self, pic: Picture, u: Unit) -> tuple[int, int] | None:
        """(square, distance to stop at) for unit ``u``, or None to stay."""
        cell = u["cell"]
        near = pic.enemy_distance(cell)
        if self._withdrawing(u):
            # §IA5.2 rally: out of fire, toward the rear corner (§IA8.5 retreats go there too)
            return (pic.rear, 0) if near <= self.cfg["rally"]["safe_distance"] else None
        artillery = u["type"] == "artillery"
        if self._guarded(pic, u, near):
            return self._refuge(pic, u, int(self.cfg["refuge"]["distance"])), 0  # 3 points a trooper (§IA10.1)
        if self._trapped(pic, u):
            return self._refuge(pic, u, int(self.cfg["refuge"]["trapped_distance"])), 0
        cover = self._cover(pic, u, near) if artillery and not u["held"] else None
        if cover is not None:
            return cover, 0  # a lone battery under threat joins its infantry (§IA7.7)
        guarded = u["type"] in ("artillery", "cavalry") and near <= self.lv["guard_distance"] and not u["held"]
        if guarded and not (artillery and self._covered(pic, u)):
            return pic.rear, 0  # a gun is 150 points, a trooper 3 (§IA10.1): out of melee's reach before it comes
        if artillery and near <= self._battery_reach(pic, u):
            return None  # an enemy in range: stay and fire (a moved battery may not fire, §B3.4)
        if self.lv["naive"]:
            target = pic.nearest_enemy(cell)
            if target is None:
                target = pic.objective(u, self.cfg)
            return (target, 2 if artillery else 1) if target is not None else None
        if pic.seat == "union":
            return self._union_goal(pic, u, near, artillery)
        return self._confederate_goal(pic, u, near, artillery)

    def _withdrawing(self, u: Unit) -> bool:
        """Routed, or worn out (morale under the level's ``withdraw_below_morale``)."""
        return bool(u["routed"] or u["morale"] < self.lv["withdraw_below_morale"])

    def _covered(self, pic: Picture, u: Unit) -> bool:
        """A Confederate battery stacked with infantry of its own that is not routed, at levels that keep it there
        (``battery_stays_covered``): infantry fire strikes a square's artillery only when it is alone there
        (§IA7.7), and a battery that moves may not fire (§B3.4)."""
        if pic.seat != "confederate" or not self.lv["battery_stays_covered"]:
            return False
        return any(f["type"] == "infantry" and not f["routed"] and f["cell"] == u["cell"] for f in pic.mine)

    def _cover(self, pic: Picture, u: Unit, near: int) -> int | None:
        """For a lone Confederate battery with an enemy within ``battery_cover_distance`` squares (0: never), the
        nearest square of its own infantry (not routed, no battery there) that it reaches this phase by a way that
        never steps next to a seen enemy: a square's artillery takes infantry fire only when alone there (§IA7.7),
        and the greedy Union melees a lone battery whenever it reaches one (its guns are lost in melee, §IA8.2)."""
        reach = int(self.lv["battery_cover_distance"])
        if pic.seat != "confederate" or not reach or near > reach or self._covered(pic, u):
            return None
        b = pic.board
        guns = {f["cell"] for f in pic.mine if f["type"] == "artillery" and f["id"] != u["id"]}
        wanted = {
            f["cell"]
            for f in pic.mine
            if f["type"] == "infantry"
            and not f["routed"]
            and f["cell"] not in guns
            and b.map.terrain[f["cell"]] not in b.one_unit
        }
        if not wanted:
            return None
        spent = self._reach(pic, u, int(u["op"]), pic.enemy_distances() > 1)
        found = [c for c in wanted if c in spent]
        return min(found, key=lambda c: (spent[c], c)) if found else None

    def _fleeing(self, pic: Picture, u: Unit) -> bool:
        """A guarded trooper or a trapped unit: it keeps no operation points and steps next to no enemy."""
        return self._guarded(pic, u, pic.enemy_distance(u["cell"])) or self._trapped(pic, u)

    def _guarded(self, pic: Picture, u: Unit, near: int) -> bool:
        """A Confederate trooper with an enemy within ``confederate_cavalry_guard`` squares: kept out of the fight."""
        return pic.seat == "confederate" and u["type"] == "cavalry" and near <= self.lv["confederate_cavalry_guard"]

    def _trapped(self, pic: Picture, u: Unit) -> bool:
        """A Confederate unit in contact with fewer than ``escape_squares`` squares around it clear of the seen
        enemy's zone of control, not on a victory square and not on the last turn: once none is left, a rout
        eliminates it (§B3.6), as the greedy attacker closes on it from every side."""
        need = int(self.lv["escape_squares"])
        cell = u["cell"]
        if pic.seat != "confederate" or not need or pic.enemy_distance(cell) > 1:
            return False
        if cell in pic.victory_cells or pic.view["turn"] >= int(pic.view["last_turn"]):
            return False
        far = pic.enemy_distances()
        cost = self._cost(pic, _column(u))
        clear = [n for n in pic.board.grid.neighbors(cell) if far[n] > 1 and cost(n, False) is not None]
        return len(clear) < need

    def _refuge(self, pic: Picture, u: Unit, distance: int) -> int:
        """The nearest square, within ``reach`` operation points by a path that never steps next to a seen enemy,
        of those farthest from the seen enemy (up to ``distance`` squares; then nearer the rear corner): the rear
        may lie behind the enemy (Hampton's brigade arrives at 17,0 among the IX Corps, east of the creek)."""
        cfg = self.cfg["refuge"]
        b = pic.board
        far = np.minimum(pic.enemy_distances(), distance)
        spent = self._reach(pic, u, int(cfg["reach"]), far > 1)
        rear = b.dist[pic.rear]
        return max(spent, key=lambda c: (int(far[c]), -spent[c], -int(rear[c]), -c))

    def _reach(self, pic: Picture, u: Unit, limit: int, open_: Any) -> dict[int, int]:
        """Operation points from unit ``u``'s square to each square within ``limit`` by its costs, through squares
        where ``open_`` is true (its own aside)."""
        b = pic.board
        cost = self._cost(pic, _column(u))
        start = u["cell"]
        out = {start: 0}
        todo = [(0, start)]
        while todo:
            d, c = heapq.heappop(todo)
            if d > out[c]:
                continue
            for n in b.grid.neighbors(c):
                if not open_[n]:
                    continue
                step = cost(n, b.grid.direction(c, n) % 2 == 0)
                if step is None or d + step > limit or d + step >= out.get(n, 1 << 30):
                    continue
                out[n] = d + step
                heapq.heappush(todo, (d + step, n))
        return out

    def _battery_reach(self, pic: Picture, u: Unit) -> int:
        """The distance a battery stops at to fire: its weapon's range, for the Union at most ``battery_reach``
        squares (the Weapon/Range Casualty Table gives a gun 1-2 casualties beyond 3 squares, 2-6 within)."""
        b = pic.board
        reach = int(b.weapon_range[b.index[u["id"]]])
        if pic.seat == "union" and not self.lv["naive"]:
            return min(reach, int(self.cfg["union"]["battery_reach"]))
        return reach

    def _union_goal(self, pic: Picture, u: Unit, near: int, artillery: bool) -> tuple[int, int] | None:
        cfg = self.cfg["union"]
        reach = int(self.lv["union_strike_reach"])
        if near <= reach:  # the fight is here: close with the enemy unit that pays best
            if near <= 1 and not artillery:
                return None  # in contact: stay and fire or melee (§B3.8)
            target = pic.strike_target(u["cell"], reach)
            if target is not None:
                return target, 0
        if near > cfg["reserve_distance"] and pic.breaks:  # reserves to where the enemy line shows routed units
            broken = min(pic.breaks, key=lambda c: (int(pic.board.dist[u["cell"], c]), c))
            if int(pic.board.dist[u["cell"], broken]) <= cfg["reserve_reach"]:
                return broken, 2 if artillery else 1
        target = pic.corps_objective(u, self.cfg)
        if target is None:
            return None
        return target, (cfg["artillery_stand_off"] if artillery else 0)

    def _confederate_goal(self, pic: Picture, u: Unit, near: int, artillery: bool) -> tuple[int, int] | None:
        cfg = self.cfg["confederate"]
        cell = u["cell"]
        retake = self._confederate_retakes(pic).get(u["id"])
        if retake is not None:
            return retake, 0  # §IA10.1 a square a Confederate stands on gives the Union nothing
        if near <= cfg["contact_distance"] or cell in pic.victory_cells:
            return None  # hold: in contact, or on a victory square
        post = pic.garrisons(int(self.lv["garrison_points"])).get(u["id"])
        if post is not None:
            return post, 0  # §IA10.1 a square a Confederate stands on gives the Union nothing
        if self._on_ridge_post(pic, u):
            return None  # hold the ridge line
        threat = pic.threatened(cfg)
        if threat is None:
            return None
        return threat, (cfg["artillery_stand_off"] if artillery else cfg["reserve_stop"])

    def _on_ridge_post(self, pic: Picture, u: Unit) -> bool:
        """A Confederate unit on a ridge (level ``ridge_level`` or higher) within ``post_distance`` squares of a seen
        enemy: it holds the line there (§IA11 "Let the Union come to you")."""
        cfg = self.cfg["confederate"]
        cell = u["cell"]
        return bool(pic.enemy_distance(cell) <= cfg["post_distance"] and pic.board.level(cell) >= cfg["ridge_level"])

    def _confederate_retakes(self, pic: Picture) -> dict[str, int]:
        """Unit id -> the victory square it makes for: a square the Union possesses (its last holder, §IA10.1
        AMB-18: the only squares that give it points) and no seen enemy stands on, most valuable
        first, for the nearest fit unit within ``retake_reach`` operation points that is not in contact. Entering
        makes the Confederates its holder (AMB-18), and the Confederate moves last in a turn (§IA2.3): on the last
        turn every unit may go, as far as its operation points left this turn carry it."""
        if self._retakes is not None and self._retakes[0] is pic:
            return self._retakes[1]
        plan: dict[str, int] = {}
        self._retakes = (pic, plan)
        least = int(self.lv["retake_points"])
        cfg = self.cfg["confederate"]
        last = pic.view["turn"] >= int(pic.view["last_turn"])
        later = int(pic.board.tables.rules["operation_points"]["per_phase"]) if pic.view["phase"].endswith("_1") else 0
        reach = int(cfg["retake_reach"])
        held = {u["cell"] for u in pic.mine}
        enemy = set(pic.enemy_cells)
        free = [
            u
            for u in pic.mine
            if u["type"] != "artillery"
            and not u["routed"]
            and (not u["acted"] or u["id"] == pic.accessed)  # the unit in hand keeps its errand
            and not u["held"]
            and u["op"] > 0
        ]
        if not last:  # troopers only at the end (3 points each, §IA10.1); the ridge line's holders stay on it
            free = [
                u
                for u in free
                if u["type"] == "infantry"
                and pic.enemy_distance(u["cell"]) > cfg["contact_distance"]
                and not self._on_ridge_post(pic, u)
            ]
        for c, points, holder in sorted(pic.victory, key=lambda v: (-v[1], v[0])):
            if points < least or c in held or c in enemy or not free:
                continue
            if holder != "union":
                continue  # gives the Union nothing (§IA10.1: only a square "in possession" scores)
            cost = {f["id"]: self._field(pic, c, _column(f)).get(f["cell"], 1 << 30) for f in free}
            fit = [f for f in free if cost[f["id"]] <= (f["op"] + later if last else reach)]
            if not fit:
                continue
            u = min(fit, key=lambda f: (cost[f["id"]], f["id"]))
            free.remove(u)
            plan[u["id"]] = c
        if last:
            self._confederate_screens(pic, plan, free, later, least)
        return plan

    def _confederate_screens(
        self, pic: Picture, plan: dict[str, int], free: list[Unit], later: int, least: int
    ) -> None:
        """On the last turn, a unit next to each victory square the Union keeps: "(500 if in ZOC)" (§IA10.1) halves
        a square the Union possesses that lies in the Confederate zone of control, and the Confederate moves last
        (§IA2.3). Most valuable first, the nearest unit whose operation points left this turn carry it to a free
        square next to it (none when a Confederate already stands there)."""
        b = pic.board
        enemy = set(pic.enemy_cells)
        taken = set(plan.values())
        mine = [u["cell"] for u in pic.mine if u["id"] not in plan and u["id"] != pic.accessed]
        for c, points, holder in sorted(pic.victory, key=lambda v: (-v[1], v[0])):
            if points < least or holder != "union" or c in taken or not free:
                continue
            if any(b.grid.adjacent(m, c) for m in mine):
                continue  # already in the Confederate zone of control
            best: tuple[int, str, int] | None = None
            for f in free:
                column = _column(f)
                cost = self._cost(pic, column)
                ways = [n for n in b.grid.neighbors(c) if n not in enemy and cost(n, False) is not None]
                if not ways:
                    continue
                # to the square next to it: the way to the square itself, less the step into it
                d = self._field(pic, c, column).get(f["cell"], 1 << 30) - (cost(c, False) or 0)
                if d <= f["op"] + later and (best is None or (d, f["id"]) < best[:2]):
                    dist = b.dist[f["cell"]]
                    best = (d, f["id"], min(ways, key=lambda n: (int(dist[n]), n)))
            if best is None:
                continue
            free[:] = [f for f in free if f["id"] != best[1]]
            plan[best[1]] = best[2]
            mine.append(best[2])

    def _field(self, pic: Picture, goal: int, column: str = "inf") -> dict[int, int]:
        """Operation points from each square to ``goal`` by the costs of a column of the Operations Costs Table
        (streams only at bridges and fords, the random fords included): a pure cache of the static map."""
        key = (goal, pic.fords, column)
        hit = self._fields.get(key)
        if hit is not None:
            return hit
        b = pic.board
        cost = self._cost(pic, column)
        out = {goal: 0}
        todo = [(0, goal)]
        while todo:
            d, c = heapq.heappop(todo)
            if d > out.get(c, 1 << 30):
                continue
            step_in = cost(c, False)
            if step_in is None and c != goal:
                continue
            for n in b.grid.neighbors(c):
                if cost(n, False) is None:
                    continue
                diagonal = b.grid.direction(c, n) % 2 == 0  # even directions are diagonal (§IA1.3)
                nd = d + (cost(c, diagonal) or 2)
                if nd < out.get(n, 1 << 30):
                    out[n] = nd
                    heapq.heappush(todo, (nd, n))
        self._fields[key] = out
        return out

    def _cost(self, pic: Picture, column: str) -> Callable[[int, bool], int | None]:
        """The operation points to enter a square (orthogonally or diagonally; None: prohibited) in a column of the
        Operations Costs Table, the random fords included."""
        b = pic.board
        terrain = b.map.terrain
        fords = {b.grid.parse(f) for f in pic.fords}
        move = b.tables.terrain["move"]
        k = move["columns"].index(column)

        def cost(c: int, diagonal: bool) -> int | None:
            t = "ford" if c in fords else terrain[c]
            row = move[t][k]
            return None if row == "P" else int(row[1] if diagonal else row[0])

        return cost

    def _advance(self, pic: Picture, legal: Legal, uid: str) -> Decision | None:
        """One square further for the unit in hand, or put it down."""
        u = pic.by_id[uid]
        if "mode" in u and not u["routed"]:
            if self._mode_wanted(pic, u) and D.Mode(uid) in legal:
                return D.Mode(uid)
            if u["type"] == "artillery" and u["mode"] == "unlimbered":
                return self._put_down(pic, legal, u)  # unlimbered artillery does not move (§IA7.8)
        goal = None if u["held"] else self._goal(pic, u)
        if goal is None or u["op"] <= self._op_reserve(pic, u):
            return self._put_down(pic, legal, u)
        field = self._field(pic, goal[0], _column(u))
        here = field.get(u["cell"], 1 << 30)
        if here <= goal[1]:
            return self._put_down(pic, legal, u)
        best: tuple[int, int, str] | None = None
        for fam in legal.of_kind("move"):
            for to in fam.values():
                c = pic.board.parse(to)
                if c is None or field.get(c, 1 << 30) >= here:
                    continue
                if not self._may_enter(pic, u, c):
                    continue
                key = (field[c], pic.board.grid.coord(c)[0], to)
                if best is None or key < best:
                    best = key
        if best is None:
            return self._put_down(pic, legal, u)
        return D.Move(uid, u["square"], best[2])

    def _put_down(self, pic: Picture, legal: Legal, u: Unit) -> Decision:
        """Face the enemy before putting the unit down (§IA7.9, no cost), where the game has facing."""
        if "facing" in u and not u["routed"]:
            f = self._facing_wanted(pic, u)
            if f is not None and D.Face(u["id"], f) in legal:
                return D.Face(u["id"], f)
        return D.PutDown()

    def _op_reserve(self, pic: Picture, u: Unit) -> int:
        """Operation points kept for the plot: fire, and the melee for the attacker (Operations Costs Table); none
        for a Confederate retaking a victory square (the square is worth more than a shot)."""
        if self._withdrawing(u):
            return 0
        if pic.seat == "confederate" and u["id"] in self._confederate_retakes(pic):
            return 0
        if self._fleeing(pic, u):
            return 0
        if u["type"] == "artillery" and self._cover(pic, u, pic.enemy_distance(u["cell"])) is not None:
            return 0  # a moving battery may not fire (§B3.4): it keeps nothing back
        return int(self.lv["op_reserve"])

    def _may_enter(self, pic: Picture, u: Unit, c: int) -> bool:
        """§B3.6: into the enemy's zone of control only with support (the push goes in together)."""
        if u["routed"] or u["type"] == "artillery":
            return pic.enemy_distance(c) > 1 or u["routed"]
        if self._fleeing(pic, u):
            return pic.enemy_distance(c) > 1
        if pic.enemy_distance(c) > 1 or self.lv["naive"]:
            return True
        if pic.seat == "confederate" and u["id"] in self._confederate_retakes(pic):
            return True  # a lost victory square is worth the risk (§IA10.1)
        adjacent = pic.enemies_near(c, 1)
        if all(e["routed"] for e in adjacent):
            return True
        friends = sum(1 for f in pic.mine if f["id"] != u["id"] and int(pic.board.dist[f["cell"], c]) <= 2)
        return friends >= self._support(pic, u)

    def _support(self, pic: Picture, u: Unit) -> int:
        """Friends needed within two squares to step into a zone of control: fewer once the unit's corps is in
        contact (the push is on: the rest of the corps closes at once instead of waiting at the edge)."""
        prefix = "union_" if pic.seat == "union" else ""
        if pic.engaged(u):
            return int(self.lv[f"{prefix}engaged_support"])
        return int(self.lv[f"{prefix}support"])

    # --- fire and melee plots ----------------------------------------------------------------------------------
    def _plot(self, pic: Picture, legal: Legal) -> Decision | None:
        fams = [f for f in legal.of_kind("plot") if len(f)]
        if not fams:
            return None
        suggested = legal.suggested
        if not isinstance(suggested, D.Plot):
            return None
        if self.lv["naive"]:
            return D.Plot(tuple(o.rstrip("!") for o in suggested.orders))
        b = pic.board
        orders: dict[str, str] = {}
        shooters = {o.partition("@")[0]: o.partition("@")[2].rstrip("!") for o in suggested.orders}
        # how many of our plotting units can reach each enemy square (the suggested square is in range and sight)
        reach: dict[int, int] = {}
        for uid in shooters:
            for e in pic.enemies_near(pic.by_id[uid]["cell"], 12):
                reach[e["cell"]] = reach.get(e["cell"], 0) + 1
        for uid, default in shooters.items():
            u = pic.by_id[uid]
            best = b.parse(default)
            options = [
                e["cell"] for e in pic.enemies_near(u["cell"], 12) if D.Plot((f"{uid}@{b.label(e['cell'])}",)) in legal
            ]
            storm = [c for c in options if self._storm(pic, c) and self._melee(pic, u, c)]
            if storm:
                best = storm[0]  # the last turn: fire into the victory square to melee it
            elif options and self.lv["focus_fire"] and pic.seat == "confederate":
                best = max(options, key=lambda c: (self._confederate_fire_value(pic, u, c), reach.get(c, 0), -c))
            elif options and self.lv["focus_fire"]:
                gunner = u["type"] == "artillery"
                best = max(
                    options,
                    key=lambda c: (
                        pic.routed_at(c),
                        pic.pays(c, gunner),
                        reach.get(c, 0),
                        -int(b.dist[u["cell"], c]),
                        -c,
                    ),
                )
            if best is None:
                continue
            melee = self._melee(pic, u, best)
            order = f"{uid}@{b.label(best)}{'!' if melee else ''}"
            if melee and D.Plot((order,)) not in legal:
                order = order[:-1]
            orders[uid] = order
        plot = D.Plot(tuple(orders.values()))
        return plot if plot in legal else D.Plot(tuple(o.rstrip("!") for o in suggested.orders))

    def _confederate_fire_value(self, pic: Picture, u: Unit, target: int) -> float:
        """The points a fire into ``target`` is worth, as the Weapon/Range Casualty Table and the defender's terrain
        and elevation modifiers give them (combat.toml); a battery's casualties among guns count 150 points a gun
        at 20 casualty points a gun (§IA10.1, §IA8.2), infantry's at artillery alone only tire it (§IA7.7);
        troopers count 3 points a man (§IA10.1); routed targets count half again (a second rout can cut off their
        retreat, §B3.6)."""
        b = pic.board
        spec = b.spec(b.index[u["id"]])
        here = [e for e in pic.enemies if e["cell"] == target]
        if not here:
            return 0.0
        value = float(b.tables.base_casualties(spec.weapon, int(b.dist[u["cell"], target])))
        defence = b.tables.terrain["defence"]
        t = b.map.terrain[target]
        value *= int(defence.get("bridge_ford" if t in ("bridge", "ford") else t, defence["clear"])[0]) / 100
        if b.level(target) > b.level(u["cell"]):
            value *= int(defence["higher_elevation"][0]) / 100
        guns = sum(e["type"] == "artillery" for e in here)
        if u["type"] == "artillery":
            per_gun = float(self.cfg["confederate"]["gun_points"])
            value *= 1 + (per_gun - 1) * guns / len(here)
        elif guns == len(here):
            value *= 0.1
        troopers = len([e for e in here if e["type"] == "cavalry"])
        value *= 1 + (float(self.cfg["confederate"]["trooper_points"]) - 1) * troopers / len(here)
        if any(e["routed"] for e in here):
            value *= 1.5
        return value

    def _melee(self, pic: Picture, u: Unit, target: int) -> bool:
        """§B3.8: melee an adjacent square when it pays: routed defenders, or numbers."""
        b = pic.board
        if u["type"] == "artillery" or u["routed"] or u["disrupted"] or not b.grid.adjacent(u["cell"], target):
            return False
        if u["morale"] < self.lv["confederate_melee_morale" if pic.seat == "confederate" else "melee_morale"]:
            return False
        defenders = [e for e in pic.enemies if e["cell"] == target]
        if defenders and all(e["routed"] for e in defenders):
            return True  # counterattack the broken attacker
        if defenders and all(e["type"] == "artillery" for e in defenders):
            return True  # a battery alone: its guns are lost in melee (§IA8.2), 150 points each (§IA10.1)
        if pic.seat == "union" and not self.lv["naive"]:
            return self._melee_by_men(pic, target, defenders, int(self.lv["union_melee_strength"]))
        guns = int(self.lv["confederate_melee_guns"])
        if guns and any(e["type"] == "artillery" for e in defenders):
            return self._melee_by_men(pic, target, defenders, guns)
        if self._storm(pic, target):
            return self._melee_by_men(pic, target, defenders, int(self.lv["confederate_storm_strength"]))
        ours = sum(1 for f in pic.mine if f["type"] != "artillery" and b.grid.adjacent(f["cell"], target))
        ratio = int(self.lv["union_melee_ratio" if pic.seat == "union" else "confederate_melee_ratio"])
        return ratio > 0 and ours >= ratio * max(1, len(defenders))

    def _storm(self, pic: Picture, target: int) -> bool:
        """The last turn's storm of a victory square the Union possesses (§IA10.1) at levels that do it
        (``confederate_storm_strength``): a melee costs the attacker 0-24 men (more only at a differential of -5 or
        worse) and a defender that retreats leaves the square to the attackers' advance (Melee Combat Results
        Table, §B4.2), which makes the Confederates its holder (AMB-18) with the Union's turn over (§IA2.3)."""
        if pic.seat != "confederate" or not self.lv["confederate_storm_strength"]:
            return False
        if pic.view["turn"] < int(pic.view["last_turn"]):
            return False
        least = int(self.lv["retake_points"])
        return any(c == target and holder == "union" and points >= least for c, points, holder in pic.victory)

    def _melee_by_men(self, pic: Picture, target: int, defenders: list[Unit], percent: int) -> bool:
        """§IA8.4 melee by strength: the men of the general's units next to the square that can melee (not routed
        or disrupted, the 2 OP of a melee kept) against the defenders' men as the order of battle lists them (the
        view does not show an enemy's losses), guns counted as their melee men (combat.toml); melee when the
        attackers are at least ``percent`` per cent of that (the level's Union, gun or storm strength). A lost
        melee costs the attacker little (0-24 men short of the -5 differential) while a won one drives the defender
        off: §IA8.5 retreat."""
        b = pic.board
        ours = sum(
            int(f.get("men", 0))
            for f in pic.mine
            if f["type"] != "artillery"
            and not f["routed"]
            and not f["disrupted"]
            and f["op"] >= self.cfg["union"]["melee_op"]
            and b.grid.adjacent(f["cell"], target)
        )
        per_gun = int(b.tables.combat["casualties"]["artillery_melee_men_per_gun"])
        theirs = sum(
            (per_gun if e["type"] == "artillery" else 1) * b.specs[b.index[e["id"]]].strength for e in defenders
        )
        return ours * 100 >= percent * theirs


def _column(u: Unit) -> str:
    """The unit's column of the Operations Costs Table as it marches: the basic game's (cavalry mounted, artillery
    limbered, AMB-3), dismounted cavalry as infantry."""
    if u["type"] == "cavalry" and u.get("mode") != "dismounted":
        return "cav"
    return "limb" if u["type"] == "artillery" else "inf"


def _ending(legal: Legal) -> Decision | None:
    for kind, d in (("put_down", D.PutDown()), ("end_phase", D.EndPhase())):
        if legal.of_kind(kind) and d in legal:
            return d
    return None


class Picture:
    """What the seat's view shows, read once a decision: its units on the map, the enemy units it sights, the
    victory squares, and what the plan needs from them."""

    def __init__(self, board: Board, view: Mapping[str, Any], seat: str) -> None:
        self.board, self.seat, self.view = board, seat, view
        units = view["units"]
        self.mine = [u for u in units if u["side"] == seat and u.get("on_map")]
        self.by_id = {u["id"]: u for u in self.mine}
        self.enemies = [u for u in units if u["side"] != seat]
        self.accessed: str | None = view.get("accessed")
        self.fords = tuple(view["fords"])
        self.rear = min(board.rear[seat], key=lambda c: (board.grid.coord(c), c))
        self.victory = [(board.grid.parse(v["square"]), v["points"], v["holder"]) for v in view["victory_squares"]]
        self.victory_cells = frozenset(c for c, _, _ in self.victory)
        self.breaks = [e["cell"] for e in self.enemies if e["routed"]]
        self.enemy_cells = [e["cell"] for e in self.enemies]  # the squares of the seen enemy units
        self._near: dict[int, int] = {}
        self._threat: tuple[bool, int | None] = (False, None)
        self._objectives: dict[str, int | None] = {}
        self._engaged: dict[str, bool] = {}
        self._garrisons: dict[str, int] | None = None
        self._distances: Any = None

    def enemy_distance(self, cell: int) -> int:
        hit = self._near.get(cell)
        if hit is None:
            dist = self.board.dist[cell]
            hit = self._near[cell] = min((int(dist[c]) for c in self.enemy_cells), default=99)
        return hit

    def enemy_distances(self) -> Any:
        """Each square's distance to the nearest seen enemy unit (99 with none seen), an array by cell."""
        if self._distances is None:
            dist = self.board.dist
            cells = self.enemy_cells
            self._distances = dist[:, cells].min(axis=1) if cells else np.full(dist.shape[0], 99, dtype=dist.dtype)
        return self._distances

    def enemies_near(self, cell: int, reach: int) -> list[Unit]:
        dist = self.board.dist[cell]
        return [e for e in self.enemies if int(dist[e["cell"]]) <= reach]

    def nearest_enemy(self, cell: int) -> int | None:
        dist = self.board.dist[cell]
        return min(self.enemy_cells, key=lambda c: (int(dist[c]), c), default=None)

    def routed_at(self, cell: int) -> bool:
        return any(e["routed"] for e in self.enemies if e["cell"] == cell)

    def pays(self, cell: int, gunner: bool) -> bool:
        """§IA8.2, §IA7.7: guns (150 points each, §IA10.1) are lost only to artillery, and a square's artillery
        takes infantry fire only when alone there: a battery's fire pays at enemy guns, the others' at men."""
        here = [e for e in self.enemies if e["cell"] == cell]
        return any((e["type"] == "artillery") == gunner for e in here)

    def objective(self, u: Unit, cfg: Mapping[str, Any]) -> int | None:
        """The victory square the unit's side wants most from ``cell``: value over distance (Union: those it does
        not hold; Confederate: those it does not hold either, to retake)."""
        cell = u["cell"]
        dist = self.board.dist[cell]
        wanted = [(c, p) for c, p, h in self.victory if h != self.seat]
        if not wanted:
            return None
        k = cfg["union"]["distance_scale"]
        return max(wanted, key=lambda cp: (cp[1] / (k + int(dist[cp[0]])), -cp[0]))[0]

    def corps_objective(self, u: Unit, cfg: Mapping[str, Any]) -> int | None:
        """One objective for the whole corps (division for those with none), from the corps' centre: the push is
        concentrated."""
        key = u["corps"] or u["division"]
        if key not in self._objectives:
            group = [f for f in self.mine if (f["corps"] or f["division"]) == key]
            xs = sorted(self.board.grid.coord(f["cell"])[0] for f in group)
            ys = sorted(self.board.grid.coord(f["cell"])[1] for f in group)
            centre = self.board.grid.parse(f"{xs[len(xs) // 2]},{ys[len(ys) // 2]}")
            self._objectives[key] = self.objective({"cell": centre}, cfg)
        return self._objectives[key]

    def engaged(self, u: Unit) -> bool:
        """Some unit of ``u``'s corps (division for those with none) stands next to an enemy unit."""
        key = u["corps"] or u["division"]
        hit = self._engaged.get(key)
        if hit is None:
            hit = self._engaged[key] = any(
                self.enemy_distance(f["cell"]) <= 1 for f in self.mine if (f["corps"] or f["division"]) == key
            )
        return hit

    def strike_target(self, cell: int, reach: int) -> int | None:
        """The Union's target among the seen enemy units within ``reach`` of ``cell``: a battery first (its guns are
        lost in melee, §IA8.2, 150 points each, §IA10.1; canister is the Union's worst loss), then routed units
        (a retreat into a zone of control eliminates them, §B3.6), then cavalry (3 points a man), nearer first."""
        dist = self.board.dist[cell]
        rank = {"artillery": 3, "cavalry": 1}
        best: tuple[int, int] | None = None
        for e in self.enemies_near(cell, reach):
            key = (rank.get(e["type"], 0) + 2 * e["routed"] - int(dist[e["cell"]]), -e["cell"])
            if best is None or key > (best[0], -best[1]):
                best = (key[0], e["cell"])
        return None if best is None else best[1]

    def garrisons(self, min_points: int) -> dict[str, int]:
        """Unit id -> the victory square (worth ``min_points`` or more, most valuable first) it is sent to hold
        because no unit of the seat stands there: the nearest infantry not in contact and not routed."""
        if self._garrisons is None:
            self._garrisons = {}
            held = {u["cell"] for u in self.mine}
            free = [u for u in self.mine if u["type"] == "infantry" and not u["routed"] and not u["held"]]
            free = [u for u in free if u["cell"] not in self.victory_cells and self.enemy_distance(u["cell"]) > 1]
            for c, points, _ in sorted(self.victory, key=lambda v: (-v[1], v[0])):
                if points < min_points or c in held or not free:
                    continue
                dist = self.board.dist[c]
                u = min(free, key=lambda f: (int(dist[f["cell"]]), f["id"]))
                free.remove(u)
                self._garrisons[u["id"]] = c
        return self._garrisons

    def threatened(self, cfg: Mapping[str, Any]) -> int | None:
        """The victory square the seen enemy presses hardest (value over the enemy's distance), or None."""
        if not self._threat[0]:
            best: tuple[float, int] | None = None
            reach = cfg["threat_reach"]
            for c, points, _ in self.victory:
                dist = self.board.dist[c]
                press = sum(points / (1 + int(dist[e])) for e in self.enemy_cells if int(dist[e]) <= reach)
                if press > 0 and (best is None or press > best[0]):
                    best = (press, c)
            self._threat = (True, best[1] if best else None)
        return self._threat[1]


__all__ = ["General"]
