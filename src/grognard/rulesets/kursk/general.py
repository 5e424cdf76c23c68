"""Objective Kursk's computer general, one player for either seat, and the quick ratings of the greedy player.

It sees what its seat sees and nothing more: ``Observation.view`` (own groups, enemy symbols in contact, towns)
and ``Observation.legal``. Its weights are tuning, kept in ``data/general.toml``; docs/ai/kursk.md describes it.

- Supply (§5): a depot from the entry road nearest the groups in need, driven toward them (the mechanized
  spearheads first), (S)UPPLY when any is within 2 hexes; a new depot while groups still need one, up to the
  level's count.
- Modes and road movement (§6.2-6.3): the German drives each mechanized group on the nearest goal town it does
  not hold (Oboyan, Prokhorovka, Korocha; Kursk once they are taken), by road while far behind the front, in
  mobile mode near it, in assault mode in contact; his infantry follows the panzers in mobile mode and screens
  the flanks in static mode elsewhere. The Soviet holds its front (static), sends its tank and mechanized corps
  against the Germans it sees within the level's counterattack radius (mobile, then assault in contact), and
  moves the groups far from any German by road toward Oboyan and Prokhorovka.
- Air (§7.1): strikes on the seen enemy hexes most of its assault and mobile groups touch.
- The plot (§6.4-6.7): groups in contact attack the enemy hex most of their side can reach, the nearest the goal
  among equals (concentration); others move toward the goal (the Soviet's armour toward the nearest German it
  sees) and stop in contact; static groups with field howitzers bombard the hex most of their side assaults.

Levels: 0 "easy" (no air, no bombardment, no concentration, no counterattacks, German infantry stays put, two
depots), 1 "normal", 2 "hard" (wider counterattacks, more depots). ``perturb_hidden`` is the fog-honesty check's
hook (``Kursk.perturb_hidden``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set
from dataclasses import replace
from typing import Any

from grognard.ai.base import Player, tuning_at
from grognard.ai.observation import Observation
from grognard.engine import Decision, Legal
from grognard.engine.rng import Dice, seed_state

from . import decisions as D
from .board import Ctx
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
        plot = str(d)
        if exploit and mode == "mobile" and g["symbol"] == "oval":  # §9.8: through the breach if the hex empties
            here = grid.neighbor(here, d)
            while len(plot) < 4 and (step := _toward(ctx, here, ahead, full)):
                here = grid.neighbor(here, step)
                plot += str(step)
        return plot
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
        if "end_game" in kinds or "divide" in kinds:
            return None  # §4: no adjustments; never ends the game early
        if "new_depot" in kinds:
            return self._supply(ctx, view, pc.legal, pc.seat)
        if "airstrike" in kinds:
            return self._air(ctx, view, pc.legal, pc.seat)
        if "mode" in kinds or "road" in kinds:
            return self._modes(ctx, view, pc.legal, pc.seat)
        return None

    # --- where each group is going ---------------------------------------------------------------------------
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
        if depot is not None:
            cell = int(depot["cell"])
            if legal.of_kind("supply") and any(grid.distance(cell, g["cell"]) <= 2 for g in needy):
                return D.Distribute()
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
        key = (int(view["turn"]), seat)
        if not needy or self.depots.get(key, 0) >= int(self.lv["depots"]):
            return None
        entries = [v for c in legal.of_kind("new_depot") for v in c.values()]
        if not entries:
            return None
        roads = ctx.entries[seat]
        e = min(entries, key=lambda i: (min(grid.distance(roads[i], g["cell"]) for g in needy), i))
        self.depots[key] = self.depots.get(key, 0) + 1
        self.trail = {roads[e]}
        return D.NewDepot(e)

    # --- §6.2-6.3 modes and road movement ------------------------------------------------------------------
    def _modes(self, ctx: Ctx, view: Mapping[str, Any], legal: Legal, seat: str) -> Decision | None:
        grid = ctx.grid
        for fam in legal.of_kind("road"):
            gid = fam.fixed["group"]
            dests = list(fam.values())
            here = next(int(x["cell"]) for x in view["groups"] if x["id"] == gid)
            if dests:
                goal = self._goal(ctx, view, seat, here)
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
        for fam in legal.of_kind("plot"):
            g = groups.get(fam.fixed["group"])
            if g is None:
                continue
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
