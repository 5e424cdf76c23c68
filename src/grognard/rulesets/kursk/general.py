"""Objective Kursk's computer general, one player for either seat, and the quick ratings of the greedy player.

It sees what its seat sees and nothing more: ``Observation.view`` (own groups, enemy symbols in contact, towns)
and ``Observation.legal``. Its weights are tuning, kept in ``data/general.toml``; docs/ai/kursk.md describes it.

- Supply (§5): a depot from the entry road nearest the groups in need, driven toward them (the mechanized
  spearheads first; the German's by the cheapest route round the enemy, remembering the hexes refused this
  phase), (S)UPPLY when any is within 2 hexes; a new depot while groups still need one, up to the level's count
  (the German's by his other entry road once one reached no one).
- The German's raid (``normal``, ``hard``): each mechanized group drives on a town the Soviet holds (the near
  ones first), or one of his that no group holds, among those its route reaches on its supply, by the cheapest
  route round the enemy groups it sees, in mobile mode (by road far behind the front), assaulting a town held
  against it, waiting in static mode when left without supply; one with no town in reach attacks a seen enemy
  group next to it on open ground off the Soviet's start hexes, or waits; the group on a town he took garrisons
  it (static); his infantry screens in static mode; his depots drive onto the Soviet towns they can reach; he
  ends the game (§3.5) once it is won even had the Soviet lost nothing, or on the last turn when no spearhead can
  reach a town. At ``easy`` the first plan: each mechanized group drives on the nearest goal town, in assault
  mode in contact, attacking what it touches.
- The Soviet holds its front (static), sends its tank and mechanized corps against the Germans it sees within the
  level's counterattack radius (mobile, then assault in contact), and moves the groups far from any German by
  road toward Oboyan and Prokhorovka.
- Air (§7.1): strikes on the seen enemy hexes most of its assault and mobile groups touch.
- The plot (§6.4-6.7): groups in contact attack the enemy hex most of their side can reach, the nearest the goal
  among equals (concentration); others move toward the goal (the Soviet's armour toward the nearest German it
  sees) and stop in contact; static groups with field howitzers bombard the hex most of their side assaults.

Levels: 0 "easy" (no air, no bombardment, no concentration, no counterattacks, the German's first plan, two
depots), 1 "normal", 2 "hard" (wider counterattacks, more depots, attacking panzers drive through).
``perturb_hidden`` is the fog-honesty check's
hook (``Kursk.perturb_hidden``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, cast

from grognard.ai.base import Player, tuning_at
from grognard.ai.observation import Observation
from grognard.engine import Decision, Legal
from grognard.engine.movement import EdgeCosts, Reach, edge_costs, reach
from grognard.engine.rng import Dice, seed_state

from . import decisions as D
from . import supply
from .board import Ctx
from .scenario import order_of_battle
from .state import OFF_MAP, KState
from .tables import DATA

GOALS = ("Oboyan", "Prokhorovka")


def _goal_cells(ctx: Ctx, names: tuple[str, ...] | list[str] = GOALS) -> list[int]:
    return [ctx.map.place(n).cells[0] for n in names]


def _toward(ctx: Ctx, here: int, goal: int, avoid: Set[int]) -> int:
    """The direction (1-6) of the neighbour nearest ``goal``, not into ``avoid``; 0 if none gets nearer."""
    grid = ctx.grid
    best, best_d = 0, grid.distance(here, goal)
    for d in range(1, 7):
        n = grid.neighbor(here, d)
        if n >= 0 and n not in avoid and grid.distance(n, goal) < best_d:
            best, best_d = d, grid.distance(n, goal)
    return best


def _through(ctx: Ctx, here: int, d: int, ahead: int, full: Set[int]) -> str:
    """A mobile panzer group's plot: the attack in direction ``d``, then on toward ``ahead`` should the hex empty
    (§9.8 advance), four symbols at most (§6.4), never into ``full`` hexes (§9.3)."""
    plot = str(d)
    here = ctx.grid.neighbor(here, d)
    while len(plot) < 4 and (step := _toward(ctx, here, ahead, full)):
        here = ctx.grid.neighbor(here, step)
        plot += str(step)
    return plot


def suggest_plot(ctx: Ctx, view: Mapping[str, Any], gid: int) -> str | None:
    """A plot for the group from the seat's view: attack an adjacent seen enemy, else head for the goal."""
    g = next((x for x in view["groups"] if x["id"] == gid), None)
    if g is None:
        return None
    enemies = {int(e["cell"]) for e in view["enemies"]}
    return _plot_for(ctx, g, enemies, {}, _goal_cells(ctx))


def _guns(g: Mapping[str, Any]) -> bool:
    """The group has field howitzers, the weapons that bombard (§6.6)."""
    return any(str(w).endswith("FH") for u in g["units"] for w in u["weapons"])


def _plot_for(
    ctx: Ctx,
    g: Mapping[str, Any],
    enemies: set[int],
    focus: Mapping[int, int],
    goals: list[int],
    full: frozenset[int] = frozenset(),
    chase: int = 6,
    exploit: bool = False,
) -> str | None:
    """The group's plot: bombard or recon from static mode; attack the adjacent enemy hex most of the side can
    reach (the nearest the goal among equals), a mobile mechanized group that may ``exploit`` going on toward the
    goal should the hex empty; else move toward the nearest seen enemy within ``chase`` hexes or
    the goal, never through ``full`` hexes (two groups, §9.3), stopping in contact."""
    grid = ctx.grid
    here = int(g["cell"])
    near = [d for d in range(1, 7) if grid.neighbor(here, d) in enemies]
    mode = g["mode"]
    if mode == "static":
        if _guns(g):  # §6.6: bombard the hex most of the side assaults (the nearest the goal among equals)
            reach: dict[int, str] = {}
            for d1 in range(1, 7):
                a = grid.neighbor(here, d1)
                if a in enemies:
                    reach.setdefault(a, f"B{d1}")
                for d2 in range(1, 7) if a >= 0 else ():
                    b = grid.neighbor(a, d2)
                    if b in enemies and grid.distance(here, b) == 2:
                        reach.setdefault(b, f"B{d1}{d2}")
            if reach:
                ahead = min(goals, key=lambda c: grid.distance(here, c)) if goals else here
                best = max(reach, key=lambda c: (focus.get(c, 0), -grid.distance(c, ahead), -c))
                return reach[best]
        return f"R{near[0]}" if near else None
    if mode not in ("assault", "mobile"):
        return None
    if near:  # concentrate on the hex most of the side can reach
        ahead = min(goals, key=lambda c: grid.distance(here, c)) if goals else here
        d = max(
            near,
            key=lambda x: (focus.get(grid.neighbor(here, x), 0), -grid.distance(grid.neighbor(here, x), ahead), -x),
        )
        if exploit and mode == "mobile" and g["symbol"] == "oval":
            return _through(ctx, here, d, ahead, full)
        return str(d)
    mech = g["symbol"] == "oval"
    steps = (4 if mech else 2) if mode == "mobile" else 1
    nearest = min(enemies, key=lambda c: (grid.distance(here, c), c)) if enemies else -1
    if nearest >= 0 and grid.distance(here, nearest) <= chase:
        goal = nearest  # close with the enemy seen (the Soviet's counterattack, the German's spearhead)
    elif goals:
        goal = min(goals, key=lambda c: grid.distance(here, c))
    else:
        return None
    plot = ""
    for _ in range(steps):
        d = _toward(ctx, here, goal, enemies | full)
        if d == 0:
            break
        here = grid.neighbor(here, d)
        plot += str(d)
        if any(grid.distance(here, e) <= 1 for e in enemies):
            break  # in contact: the next turn attacks
    return plot or None


def german_lead_bound(ctx: Ctx, view: Mapping[str, Any], soviet_weapons: int) -> int:
    """The most the Soviet can lead by now (§11.1: towns and each surviving weapon's AS + DS), from the German's
    view: the towns as it shows them, his own weapons exactly, and every Soviet weapon of the order of battle
    counted as surviving (he does not know the Soviet's losses)."""
    towns, weapons = ctx.tables["victory"]["towns"], ctx.tables.weapons
    vp = {"german": 0, "soviet": soviet_weapons}
    for name, side in view["control"].items():
        vp[side] += int(towns[name])
    for g in view["groups"]:
        for u in g["units"]:
            for w, n in u["weapons"].items():
                vp["german"] += n * (weapons[w].attack + weapons[w].defence)
    return vp["soviet"] - vp["german"]


def german_win_line(ctx: Ctx) -> int:
    """The largest Soviet lead that is still a German victory (§11.2: the top of the German Marginal row)."""
    return max(int(hi) for _, hi, name in ctx.tables["victory"]["levels"]["rows"] if str(name).startswith("German"))


def _entry_costs(ctx: Ctx, mine: int) -> EdgeCosts:
    """A step's cost for the spearheads' routes: one a hex, ``mine`` more into a minefield (§9.4: leaving it is
    attacked)."""
    return edge_costs(ctx.grid, lambda a, b, d: 1 + (mine if ctx.map.has("minefield", b) else 0))


def _route(
    ctx: Ctx, costs: EdgeCosts, view: Mapping[str, Any], here: int, goal: int, full: Set[int], zoc_cost: int
) -> list[int]:
    """The cheapest route (cells after ``here``) to ``goal`` round the enemy groups seen and through no hex with
    two friendly groups (§9.3), a hex next to a seen enemy costing ``zoc_cost`` more (§9.5 opportunity fire from
    ZOC to ZOC); the goal itself may hold an enemy (the route ends in an assault, §9.6). Empty if none."""
    grid = ctx.grid
    enemies = {int(e["cell"]) for e in view["enemies"]}
    cleared = {int(c) for c in view["cleared_minefields"]}
    zoc = {n for e in enemies for n in grid.neighbors(e)} - enemies
    hooked = zoc | cleared

    def hook(a: int, b: int, c: int, first: bool) -> int:
        base = 1 if b in cleared else c
        return base + (zoc_cost if b in zoc else 0)

    blocked = (enemies | set(full)) - {goal, here}
    found = reach(costs, here, 10_000, blocked=blocked, hook=hook, hook_cells=hooked)
    return found.path(goal)[1:] if found.can_reach(goal) else []


@dataclass(frozen=True)
class _Weather:
    weather: str


def _directions(ctx: Ctx, here: int, cells: list[int]) -> str:
    out = ""
    for c in cells:
        out += str(next(d for d in range(1, 7) if ctx.grid.neighbor(here, d) == c))
        here = c
    return out


def rate(ctx: Ctx, view: Mapping[str, Any], seat: str, d: Decision) -> int:
    """Higher is better: supply the groups, plot every group, move the German toward the goals."""
    view = view.get("state", view)
    match d:
        case D.Distribute():
            return 50
        case D.Plot():
            return 20
        case D.NewDepot():
            return 5 if view.get("depot") is None else -5
        case D.MoveDepot(direction=x):
            # toward the front: the German north, the Soviet west
            return 3 if (seat == "german" and x in (1, 2, 6)) or (seat == "soviet" and x in (5, 6)) else -1
        case D.SetMode(mode=mode):
            if seat == "german":
                return 4 if mode == "assault" else -2
            return 4 if mode == "static" else -2
        case D.EndGame():
            return -100
        case D.EndPhase() | D.Commit():
            return 0
    return -1


def _end(legal: Legal) -> Decision | None:
    for kind in ("commit", "end_phase"):
        fam = legal.of_kind(kind)
        if fam:
            return fam[0].make(None)
    return None


def _fingerprint(legal: Legal) -> list[tuple[Any, ...]]:
    """What a seat's legal decisions tell it: each family and, where they are listed, its members."""
    return [(c.key, tuple(c.values()) if c.listed else None) for c in legal.choices]


def perturb_hidden(ctx: Ctx, state: KState, seat: str, dice: Dice, legal: Callable[[KState, str], Legal]) -> KState:
    """``state`` with what ``seat`` may not know changed, for the fog-honesty check (``Kursk.perturb_hidden``):
    the generator; one of the other side's hidden plots (§6.4) and its planned airstrikes (§7.1) dropped; the
    supply, morale, disruption and mode of one enemy group the seat does not see changed; and one unseen enemy
    group on the map removed, chosen among those whose absence leaves the seat's legal decisions as they were
    (road movement and depots may not come next to an enemy, §5.1, §6.3: the refusal is what the seat learns)."""
    from .view import seen_enemies

    new = replace(state, rng=seed_state(dice.bits32()))
    theirs = [(gid, text) for gid, text in state.plots if state.group(gid).side != seat]
    if theirs:
        drop = dice.pick(theirs)
        new = replace(new, plots=tuple(p for p in state.plots if p != drop))
    new = replace(new, strikes=tuple(s for s in state.strikes if s[0] == seat))
    seen = {g.id for g in seen_enemies(ctx, state, seat)}
    unseen = [g for g in state.groups if g.alive and g.side != seat and g.id not in seen]
    if unseen:
        g = dice.pick(unseen)
        modes = sorted(ctx.tables.modes)
        new = new.with_group(
            replace(g, supply=dice.below(13), morale=dice.below(100), disruption=dice.below(50), mode=dice.pick(modes))
        )
    before = _fingerprint(legal(state, seat))
    on_map = [g for g in unseen if g.on_map]
    for _ in range(min(6, len(on_map))):
        g = dice.pick(on_map)
        gone = new.with_group(replace(new.group(g.id), alive=False, cell=OFF_MAP))
        if _fingerprint(legal(gone, seat)) == before:
            return gone
    return new


class General(Player):
    """Plays either side with the plan of the module's docstring."""

    kind = "general"

    def __init__(self, seed: int = 0, level: int = 1) -> None:
        super().__init__(seed, level)
        self.cfg, self.lv = tuning_at(DATA / "general.toml", level)
        self.depots: dict[tuple[int, str], int] = {}  # depots asked for, by turn and side
        self.trail: set[int] = set()  # cells the current depot has been on
        self.gave = False  # the current depot has supplied groups
        self.entry = -1  # the entry road of the current depot (§5.3)
        # the entry roads whose depot reached no one this supply phase, by turn and side
        self.dry: tuple[tuple[int, str], set[int]] = ((0, ""), set())
        # the hexes a depot was refused this supply phase (next to an enemy it does not see, §5.1), by turn and side
        self.refused: tuple[tuple[int, str], set[int]] = ((0, ""), set())
        self._depot_costs: dict[str, EdgeCosts] = {}  # §5.1's German depot costs by weather (static)
        self._costs: EdgeCosts | None = None
        # a cache of the spearheads' routes, kept while the enemies seen and the full stacks stay the same
        self._routes: tuple[Any, dict[tuple[int, int], list[int]]] = (
            None,
            {},
        )  # the spearheads' step costs (static: from the map)
        self._soviet_weapons: int | None = None  # the Soviet order of battle's AS + DS (§11.1), a static fact
        self._dug_in: frozenset[int] | None = None  # the Soviet's start hexes (§13), a static fact

    def choose(self, pc: Observation) -> Decision:
        d = self._decide(pc)
        if d is None or d not in pc.legal:
            d = _end(pc.legal)
        return d if d is not None else pc.legal.sample(self.dice)

    def _decide(self, pc: Observation) -> Decision | None:
        ctx: Ctx = self.rules(pc).ctx  # type: ignore[attr-defined]  # its own ruleset, built from the facts
        view = pc.view["state"]
        kinds = {c.cls.kind for c in pc.legal.choices}
        if "commit" in kinds:
            return self._plot(ctx, view, pc.legal, pc.seat)
        if "end_game" in kinds:
            return D.EndGame() if self._won(ctx, view) else None  # §3.5, §4.6; no adjustments (§4)
        if "divide" in kinds:
            return None  # §4: no adjustments
        if "new_depot" in kinds:
            return self._supply(ctx, view, pc.legal, pc.seat)
        if "airstrike" in kinds:
            return self._air(ctx, view, pc.legal, pc.seat)
        if "mode" in kinds or "road" in kinds:
            return self._modes(ctx, view, pc.legal, pc.seat)
        return None

    # --- §3.5 the German's right to end the game --------------------------------------------------------------
    def _won(self, ctx: Ctx, view: Mapping[str, Any]) -> bool:
        """Whether the German ends the game (§3.5): he has a victory (§11.2) even if the Soviet lost nothing, so
        that no counterattack or later turn can take it back; or it is the last turn and no spearhead can reach
        another town in it."""
        if not self.lv["end"]:
            return False
        if self._soviet_weapons is None:
            weapons = ctx.tables.weapons
            self._soviet_weapons = sum(
                n * (weapons[w].attack + weapons[w].defence)
                for g in order_of_battle(ctx.tables, ctx.level)
                if g.side == "soviet"
                for w, n in g.counts().items()
            )
        if german_lead_bound(ctx, view, self._soviet_weapons) <= german_win_line(ctx):
            return True
        # the last turn (§3.5): its execution can take back the towns his stranded garrisons hold and give him
        # none, unless a spearhead still carries the supply to reach one (§5.4: a point a hex)
        if int(view["turn"]) < int(view["last_turn"]):
            return False
        towns = [c for c, name in ctx.towns.items() if view["control"].get(name) != "german"]
        step = ctx.tables.modes["mobile"].mech_move  # the hexes of one turn in mobile mode (§6.2)
        return not any(
            g["symbol"] == "oval"
            and g["cell"] >= 0
            and any(ctx.grid.distance(g["cell"], c) <= min(step, g["supply"]) for c in towns)
            for g in view["groups"]
        )

    # --- where each group is going ---------------------------------------------------------------------------
    def _plan(self, ctx: Ctx, view: Mapping[str, Any]) -> dict[int, int]:
        """The German's raid on the towns (§11.1): the group on a town he holds (the lowest ID) garrisons it, so
        that the Soviet cannot walk back in; every other mechanized group drives on a town the Soviet holds (the
        near ones first, ``raid_goals``: the far ones are out of the depots' reach), the nearest within its
        supply (§5.4) counting each town's points as hexes (``hex_value``) and a crowd of groups already sent
        there. Group ID -> the hex it makes for."""
        cfg = self.cfg["german"]
        grid, values = ctx.grid, ctx.tables["victory"]["towns"]
        plan: dict[int, int] = {}
        garrisoned: set[int] = set()
        own = sorted((g for g in view["groups"] if g["cell"] >= 0), key=lambda g: g["id"])
        for g in own:
            c = int(g["cell"])
            name = ctx.towns.get(c)
            if name and view["control"].get(name) == "german" and c not in garrisoned:
                garrisoned.add(c)
                plan[g["id"]] = c
        theirs = [c for c, name in ctx.towns.items() if view["control"].get(name) != "german"]
        targets = [c for c in theirs if ctx.towns[c] in cfg["raid_goals"]] or theirs
        if self.lv["grind"]:  # a town his depot took, or whose garrison fell, is walked back into unless held
            targets += [c for c in ctx.towns if c not in theirs and c not in garrisoned]
        if not targets:
            return plan
        sent: dict[int, int] = {}
        grind = bool(self.lv["grind"])
        carry = ctx.tables.modes["mobile"].max_supply  # a spearhead drives in mobile mode (§6.2: 12 at most)
        for g in own:
            if g["symbol"] != "oval" or g["id"] in plan:
                continue
            here = int(g["cell"])
            if grind:  # §5.4: a hex a supply point; only the towns its route reaches on what it carries
                steps = {c: len(self._raid_route(ctx, view, g, c)) for c in targets}
                limit = int(g["supply"]) if g["mode"] == "road" else min(int(g["supply"]), carry)
                within = [c for c in targets if 0 < steps[c] <= limit]
                if not within:
                    continue  # no town within its supply: it fights where it stands (``_grind_mode``)
            else:  # a town out of reach is no goal while one is within it
                within = [c for c in targets if grid.distance(here, c) <= int(g["supply"])] or targets
            best = min(
                within,
                key=lambda c: (
                    grid.distance(here, c)
                    - int(values[ctx.towns[c]]) / float(cfg["hex_value"])
                    + int(cfg["crowd"]) * sent.get(c, 0),
                    c,
                ),
            )
            sent[best] = sent.get(best, 0) + 1
            plan[g["id"]] = best
        return plan

    def _raid_route(self, ctx: Ctx, view: Mapping[str, Any], g: Mapping[str, Any], goal: int) -> list[int]:
        if self._costs is None:
            self._costs = _entry_costs(ctx, int(self.cfg["german"]["mine_cost"]))
        count: dict[int, int] = {}
        for x in view["groups"]:
            count[int(x["cell"])] = count.get(int(x["cell"]), 0) + 1
        full = frozenset(c for c, n in count.items() if n >= 2)
        where = (frozenset(int(e["cell"]) for e in view["enemies"]), full, tuple(view["cleared_minefields"]))
        if self._routes[0] != where:  # the routes of one phase share the enemies seen and the stacks
            self._routes = (where, {})
        key = (int(g["cell"]), goal)
        if key not in self._routes[1]:
            zoc = int(self.cfg["german"]["zoc_cost"])
            self._routes[1][key] = _route(ctx, self._costs, view, key[0], goal, full, zoc)
        return self._routes[1][key]

    def _goal(self, ctx: Ctx, view: Mapping[str, Any], seat: str, here: int) -> int:
        """The German's spearheads: the nearest goal town the German does not hold (§11.1), Kursk once he holds
        them all. The Soviet's reserves: the nearest of the towns they gather at."""
        names = list(self.cfg[seat]["goals"])
        if seat == "german":
            names = [n for n in names if view["control"].get(n) != "german"] or [str(self.cfg["german"]["last"])]
        return min(_goal_cells(ctx, names), key=lambda c: (ctx.grid.distance(here, c), c))

    # --- §5 supply -----------------------------------------------------------------------------------------
    def _needy(self, ctx: Ctx, view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        caps = {m: ctx.tables.modes[m].max_supply for m in ctx.tables.modes}
        need = int(self.cfg["supply"]["need"])
        return [
            g for g in view["groups"] if g["cell"] >= 0 and not g["supplied"] and g["supply"] < caps[g["mode"]] - need
        ]

    def _supply(self, ctx: Ctx, view: Mapping[str, Any], legal: Legal, seat: str) -> Decision | None:
        grid = ctx.grid
        needy = self._needy(ctx, view)
        depot = view.get("depot")
        routes = bool(self.lv["depot_routes"]) and seat == "german"
        hunt = routes and bool(self.lv["hunt"])
        key = (int(view["turn"]), seat)
        if depot is not None:
            cell = int(depot["cell"])
            if legal.of_kind("supply") and any(grid.distance(cell, g["cell"]) <= 2 for g in needy):
                self.gave = True
                return D.Distribute()
            if routes:  # the neighbours the depot may not enter: next to an enemy it may not see (§5.1)
                allowed = {grid.neighbor(cell, d) for c in legal.of_kind("depot") for d in c.values()}
                self.refused = (key, self.refused[1] if self.refused[0] == key else set())
                self.refused[1].update(set(grid.neighbors(cell)) - allowed)
            # §11.1: a town is the last to move a group or a depot onto it
            route = self._town_route(ctx, view, cell, int(depot["level"] * 4), self.refused[1]) if hunt else []
            if route and (move := D.MoveDepot(int(_directions(ctx, cell, route[:1])))) in legal:
                self.trail.add(route[0])
                self.gave = self.gave or len(route) == 1  # it takes a town: the road served
                return move
            if needy and depot["level"] >= int(self.cfg["supply"]["low_level"]) and routes:
                route = self._depot_route(ctx, view, cell, needy, self.refused[1])
                if route and (move := D.MoveDepot(int(_directions(ctx, cell, route[:1])))) in legal:
                    self.trail.add(route[0])
                    return move
            if needy and depot["level"] >= int(self.cfg["supply"]["low_level"]):
                # the spearheads first (§5: mechanized groups burn a point a hex), then the nearest
                target = min(needy, key=lambda g: (g["symbol"] != "oval", grid.distance(cell, g["cell"]), g["id"]))
                moves = [v for c in legal.of_kind("depot") for v in c.values()]
                options = [
                    (grid.distance(grid.neighbor(cell, d), target["cell"]), d)
                    for d in moves
                    if grid.neighbor(cell, d) not in self.trail
                ]
                if options:
                    dist, d = min(options)
                    if dist < grid.distance(cell, target["cell"]) or dist <= 2:
                        self.trail.add(grid.neighbor(cell, d))
                        return D.MoveDepot(d)
        if self.dry[0] != key:
            self.dry = (key, set())
        if depot is not None and routes and not self.gave:
            # the cheapest route from this entry road reached no one: the next depot from it would not either,
            # but one from another road (§5.3: the German has two) may reach the groups on the other flank
            self.dry[1].add(self.entry)
        most = int(self.lv["depots" if seat == "soviet" else "german_depots"])
        if self.depots.get(key, 0) >= most:
            return None
        entries = [v for c in legal.of_kind("new_depot") for v in c.values() if v not in self.dry[1]]
        roads = ctx.entries[seat]
        full = supply.start_quarters(ctx)
        refused = self.refused[1] if self.refused[0] == key else set()
        towns = [i for i in entries if hunt and self._town_route(ctx, view, roads[i], full, refused)]
        if towns:
            e = towns[0]
        elif needy and entries:
            e = min(entries, key=lambda i: (min(grid.distance(roads[i], g["cell"]) for g in needy), i))
        else:
            return None
        self.depots[key] = self.depots.get(key, 0) + 1
        self.trail = {roads[e]}
        self.entry = e
        self.gave = False
        return D.NewDepot(e)

    def _depot_reach(self, ctx: Ctx, view: Mapping[str, Any], cell: int, budget: int, refused: Set[int]) -> Reach:
        """Where a German depot at ``cell`` may go on ``budget`` quarter points (§5.1's costs, roads at a quarter,
        no river in rain off the road), never next to a seen enemy nor into a hex it was ``refused``."""
        weather = str(view["weather"])
        if weather not in self._depot_costs:
            state = cast(KState, _Weather(weather))  # depot_cost reads only the weather
            rain = weather == "rain"

            def cost(a: int, b: int, d: int) -> int | None:
                if rain and ctx.river_between(a, b, True) and not (a in ctx.roads and b in ctx.roads):
                    return None  # §5.1: German depots cross no river in rain but along a road
                return supply.depot_cost(ctx, state, a, b)

            self._depot_costs[weather] = edge_costs(ctx.grid, cost)
        enemies = {int(e["cell"]) for e in view["enemies"]}
        blocked = enemies | {n for e in enemies for n in ctx.grid.neighbors(e)} | set(refused)
        return reach(self._depot_costs[weather], cell, budget, blocked=blocked - {cell})

    def _town_route(self, ctx: Ctx, view: Mapping[str, Any], cell: int, budget: int, refused: Set[int]) -> list[int]:
        """The German depot's cheapest route from ``cell`` onto a town the Soviet holds (§11.1: the last group or
        depot to move onto a town holds it), as far as ``budget`` quarter points take it round what it knows of
        the enemy (``_depot_reach``); empty if none."""
        theirs = [c for c, name in ctx.towns.items() if view["control"].get(name) != "german" and c != cell]
        if not theirs:
            return []
        found = self._depot_reach(ctx, view, cell, budget, refused)
        towns = [c for c in theirs if found.can_reach(c)]
        return found.path(min(towns, key=lambda c: (found.cost[c], c)))[1:] if towns else []

    def _depot_route(
        self, ctx: Ctx, view: Mapping[str, Any], cell: int, needy: list[Mapping[str, Any]], refused: Set[int]
    ) -> list[int]:
        """The depot's cheapest route (§5.1's costs, roads at a quarter) to within 2 hexes (§5.2) of a group in
        need, the mechanized ones first, never next to a seen enemy (§5.1); else toward the nearest such group
        as far as its level goes, round the hexes it was ``refused`` this phase. The cells after ``cell``."""
        grid = ctx.grid
        found = self._depot_reach(ctx, view, cell, int(view["depot"]["level"] * 4), refused)
        order = sorted(needy, key=lambda g: (g["symbol"] != "oval", grid.distance(cell, g["cell"]), g["id"]))
        for g in order:
            ring = {int(g["cell"]), *grid.neighbors(int(g["cell"]))}
            ring.update(n for c in list(ring) for n in grid.neighbors(c))
            near = [c for c in ring if found.can_reach(c) and c != cell]
            if near:
                return found.path(min(near, key=lambda c: (found.cost[c], c)))[1:]
        g = order[0]
        best = min(found.reached, key=lambda c: (grid.distance(c, g["cell"]), found.cost[c], c))
        return found.path(best)[1:]

    # --- §6.2-6.3 modes and road movement ------------------------------------------------------------------
    def _modes(self, ctx: Ctx, view: Mapping[str, Any], legal: Legal, seat: str) -> Decision | None:
        grid = ctx.grid
        plan = self._plan(ctx, view) if seat == "german" and self.lv["raid"] else None
        for fam in legal.of_kind("road"):
            gid = fam.fixed["group"]
            dests = list(fam.values())
            here = next(int(x["cell"]) for x in view["groups"] if x["id"] == gid)
            if dests:
                goal = plan[gid] if plan and gid in plan else self._goal(ctx, view, seat, here)
                best = min(dests, key=lambda c: (grid.distance(c, goal), c))
                if grid.distance(best, goal) < grid.distance(here, goal):
                    return D.RoadMove(gid, best)
        enemies = [int(e["cell"]) for e in view["enemies"]]
        front = [int(g["cell"]) for g in view["groups"] if any(grid.distance(g["cell"], e) <= 1 for e in enemies)]
        mech = [int(g["cell"]) for g in view["groups"] if g["symbol"] == "oval" and g["cell"] >= 0]
        for fam in legal.of_kind("mode"):
            gid = fam.fixed["group"]
            g = next(x for x in view["groups"] if x["id"] == gid)
            here = int(g["cell"])
            near = min((grid.distance(here, e) for e in enemies), default=99)
            to_front = min((grid.distance(here, c) for c in front), default=99)
            escort = min((grid.distance(here, c) for c in mech if c != here), default=99)
            if plan is not None:
                want = self._raid_mode(ctx, view, g, plan, near, to_front)
            else:
                want = self._mode_for(ctx, view, seat, g, near, to_front, escort)
            if want != g["mode"] and want in fam.values():
                return D.SetMode(gid, want)
        return None

    def _mode_for(
        self, ctx: Ctx, view: Mapping[str, Any], seat: str, g: Mapping[str, Any], near: int, front: int, escort: int
    ) -> str:
        """The mode a group wants (§6.2): ``near`` is the distance to the nearest seen enemy, ``front`` to the
        nearest own group in contact, ``escort`` to the nearest other own mechanized group."""
        mech = g["symbol"] == "oval"
        here = int(g["cell"])
        goal = ctx.grid.distance(here, self._goal(ctx, view, seat, here))
        if seat == "german":
            cfg = self.cfg["german"]
            if near <= 1 and not (mech and self.lv["exploit"]):
                return "assault"  # towed guns fire and full defence in contact (§6.2)
            if mech:  # by road to the front when far behind it, then mobile spearheads
                far = front > int(cfg["road_behind"]) and near > int(cfg["road_behind"])
                return "road" if far and goal > int(cfg["road_behind"]) else "mobile"
            if self.lv["follow"] and escort <= int(cfg["follow"]):
                return "mobile"  # infantry follows the panzers to hold what they take
            return "static"  # infantry away from the spearheads screens the flanks
        cfg = self.cfg["soviet"]
        if mech and near <= 1 and self.lv["counterattack"]:
            return "assault"
        if mech and near <= int(self.lv["counterattack"]):
            return "mobile"  # a tank or mechanized corps closes with a penetration
        if near <= int(cfg["front"]) or goal <= 2:
            return "static"  # the rifle divisions hold their belts; the reserves hold the goals
        return "road"

    def _raid_mode(
        self, ctx: Ctx, view: Mapping[str, Any], g: Mapping[str, Any], plan: Mapping[int, int], near: int, front: int
    ) -> str:
        """The German's mode on the raid (§6.2): a garrison, the infantry and a spearhead left without supply
        static (x1.5, their howitzers bombard, §6.6); a spearhead mobile round the enemy, assault when its town is
        held against it (towed guns fire, full defence) or when it is walled in, by road when far behind the
        front."""
        here, gid = int(g["cell"]), g["id"]
        goal = plan.get(gid)
        if goal is None and self.lv["grind"] and g["symbol"] == "oval":
            if int(g["supply"]) < 1 or not self._grind_targets(ctx, view, g):
                return "static"
            return "mobile" if self.lv["exploit"] else "assault"  # at `hard` on through the hex should it empty
        if goal is None or goal == here:
            return "static"
        if int(g["supply"]) < 1:  # §5.4: it can neither move nor fire this turn; static defends at x1.5 (§6.2)
            return "static"
        route = self._raid_route(ctx, view, g, goal)
        if not route:  # walled in: attack (at `hard` in mobile mode, to drive through should the hex empty)
            return "assault" if near <= 1 and not self.lv["exploit"] else "mobile"
        if any(int(e["cell"]) == route[0] for e in view["enemies"]):
            return "assault"
        behind = int(self.cfg["german"]["road_behind"])
        far = front > behind and near > behind and ctx.grid.distance(here, goal) > behind
        return "road" if far else "mobile"

    def _grind_targets(self, ctx: Ctx, view: Mapping[str, Any], g: Mapping[str, Any]) -> list[int]:
        """The seen enemy hexes next to ``g`` worth an assault by a group with no town in reach: no stronger
        defence than ``grind_defence`` for the ground (§8.4: woods and towns double it, a Soviet minefield not
        cleared doubles it) and at most ``grind_stack`` groups; the best first (the most of his assault groups
        next to it, §9.6, then infantry before armour)."""
        grid, cfg = ctx.grid, self.cfg["german"]
        here = int(g["cell"])
        cleared = {int(c) for c in view["cleared_minefields"]}
        terrain = ctx.tables["terrain"]["terrain"]
        count: dict[int, int] = {}
        armour: dict[int, int] = {}
        for e in view["enemies"]:
            c = int(e["cell"])
            if grid.distance(here, c) == 1:
                count[c] = count.get(c, 0) + 1
                armour[c] = armour.get(c, 0) + (e["symbol"] == "oval")
        ok = []
        if self._dug_in is None:  # the Soviet's start hexes (§13): his dug-in positions, static in their belts
            self._dug_in = frozenset(
                x.cell for x in order_of_battle(ctx.tables, ctx.level) if x.side == "soviet" and x.cell >= 0
            )
        for c, n in count.items():
            if c in self._dug_in and not self.cfg["german"]["grind_dug_in"]:
                continue
            factor = float(Fraction(*terrain[ctx.map.terrain[c]]["defence"]))
            if ctx.map.has("minefield", c) and c not in cleared:
                factor *= 2
            if factor <= float(cfg["grind_defence"]) and n <= int(cfg["grind_stack"]):
                ok.append(c)
        mine = [int(x["cell"]) for x in view["groups"] if x["cell"] >= 0 and x["mode"] in ("assault", "mobile")]

        def focus(c: int) -> int:
            return sum(1 for m in mine if grid.distance(m, c) == 1)

        return sorted(ok, key=lambda c: (-focus(c), armour[c], c))

    # --- §7 air --------------------------------------------------------------------------------------------
    def _air(self, ctx: Ctx, view: Mapping[str, Any], legal: Legal, seat: str) -> Decision | None:
        if not self.lv["air"]:
            return None
        grid = ctx.grid
        info = legal.info
        bombers, fighters, left = int(info["bombers"]), int(info["fighters"]), int(info["strikes_left"])
        if bombers <= 0 or left <= 0:
            return None
        mine = [int(g["cell"]) for g in view["groups"] if g["cell"] >= 0 and g["mode"] in ("assault", "mobile")]
        contact: dict[int, int] = {}
        for e in view["enemies"]:
            c = int(e["cell"])
            contact[c] = sum(1 for m in mine if grid.distance(m, c) == 1)
        planned = {int(s["target"]) for s in view["strikes"]}
        targets = sorted((n, c) for c, n in contact.items() if n and c not in planned)
        if not targets:
            return None
        target = targets[-1][1]
        share = max(1, bombers // left)
        strike = (target, share, min(fighters // 4, share // 2))
        d = D.Airstrike(strike)
        return d if d in legal else None

    # --- §6.4-6.7 the plot ---------------------------------------------------------------------------------
    def _plot(self, ctx: Ctx, view: Mapping[str, Any], legal: Legal, seat: str) -> Decision | None:
        grid = ctx.grid
        enemies = {int(e["cell"]) for e in view["enemies"]}
        groups = {g["id"]: g for g in view["groups"]}
        focus: dict[int, int] = {}
        for g in view["groups"]:
            if g["cell"] >= 0 and g["mode"] in ("assault", "mobile"):
                for n in grid.neighbors(int(g["cell"])):
                    if n in enemies:
                        focus[n] = focus.get(n, 0) + 1
        if not self.lv["concentrate"]:
            focus = {}
        count: dict[int, int] = {}
        for g in view["groups"]:
            count[int(g["cell"])] = count.get(int(g["cell"]), 0) + 1
        full = frozenset(c for c, n in count.items() if n >= 2)
        plan = self._plan(ctx, view) if seat == "german" and self.lv["raid"] else {}
        for fam in legal.of_kind("plot"):
            g = groups.get(fam.fixed["group"])
            if g is None:
                continue
            if g["id"] in plan and g["mode"] in ("assault", "mobile"):
                route = self._raid_route(ctx, view, g, plan[g["id"]])[: int(g["move"])]
                for i, c in enumerate(route):
                    if c in enemies:  # the town's holder: assault it (§9.6)
                        route = route[: i + 1]
                        break
                if route:
                    d = D.Plot(g["id"], _directions(ctx, int(g["cell"]), route))
                    if d in legal:
                        return d
            grinds = g["id"] not in plan and g["mode"] in ("assault", "mobile") and g["symbol"] == "oval"
            if grinds and seat == "german" and self.lv["raid"] and self.lv["grind"]:
                aims = self._grind_targets(ctx, view, g)  # no town within its supply: it fights where it stands
                if aims:
                    here = int(g["cell"])
                    at = grid.direction(here, aims[0])
                    d = D.Plot(g["id"], str(at))
                    if g["mode"] == "mobile" and self.lv["exploit"]:  # §9.8: through the breach, toward a town
                        d = D.Plot(g["id"], _through(ctx, here, at, self._goal(ctx, view, seat, here), full))
                    if d in legal:
                        return d
            if g["mode"] == "static" and not self.lv["bombard"]:
                continue
            goal = self._goal(ctx, view, seat, int(g["cell"]))
            chase = 6 if seat == "soviet" else 0  # the Soviet's armour closes with what it sees; the German drives on
            exploit = bool(self.lv["exploit"]) and seat == "german"
            text = _plot_for(ctx, g, enemies, focus, [goal], full, chase, exploit)
            if text is not None:
                d = D.Plot(g["id"], text)
                if d in legal:
                    return d
        return D.Commit()
