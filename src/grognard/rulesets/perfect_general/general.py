"""The computer general for The Perfect General.

It sees what its seat sees and nothing more: each decision starts from ``Observation.view`` (rebuilt into a
*belief*: a state holding only its own units and the enemy units the view shows) and ``Observation.legal``.
The ruleset's helpers (hit chances, assault odds, reach, line of sight) are run on that belief, never on the
game's state, through a ruleset of its own built from the observation's static facts (``Player.rules``): its
board's caches see only beliefs. What it remembers within a part of a phase (the units already ordered, their
goals, the crossing chosen) is rebuilt from the seat's earlier observations when it starts cold
(``Player.catch_up``); the distance fields it keeps are a pure cache. Its weights are tuning, kept in
``data/general.toml``. Its long loops call ``pause_point`` between units (the server's worker answers another
game's reaction there; a no-op elsewhere).

Levels: 0 "easy", 1 "normal" (the default), 2 "hard".
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress, count, repeat
from operator import eq, itemgetter, ne
from typing import Any

from grognard.ai.base import Player, derived_seed, tuning_at
from grognard.ai.driver import pause_point
from grognard.ai.observation import Observation
from grognard.engine import Decision, Legal
from grognard.engine.movement import UNREACHED, Costs, steps_of
from grognard.engine.rng import Dice, seed_state

from . import decisions as D
from .combat import assault_odds, shot_chance
from .context import Ctx
from .moves import BRIDGEABLE
from .rules import PerfectGeneral
from .state import Barrage, Mine, PGState, Phase, Plot, SideState, Unit, other
from .tables import DATA

BUCKETS = 64  # the buckets _dijkstra makes at once (a crossing of the Lauter map costs up to ~60 half points)
SHOTS_KEPT = 50_000  # shots' chances kept for the general's exposure (_shots_kept): about 150 bytes each


# --- what the general knows ---------------------------------------------------------------------------------
_ID = itemgetter("id")


def _believed_unit(u: Mapping[str, Any], own: bool) -> Unit:
    """A unit as a view shows it: cargo only of one's own (a view names no enemy cargo)."""
    return Unit(
        u["id"],
        u["type"],
        u["side"],
        u["cell"],
        u["hp"],
        fired=u["fired"],
        moved=u["moved"],
        mp=u.get("mp") or 0,
        spotted=u["spotted"],
        cargo=(u.get("cargo") or "") if own else "",
        carried_by=(u.get("carried_by") or "") if own else "",
        unloaded=bool(u.get("unloaded")),
        plotted=bool(u.get("plotted")),
        pinned=bool(u.get("pinned")),
        ignored=bool(u.get("ignored")),
        worked=bool(u.get("worked")),
    )


def belief(
    ctx: Ctx,
    view: Mapping[str, Any],
    seat: str,
    known: dict[Any, Any] | None = None,
    only: Collection[str] | None = None,
) -> PGState:
    """A state holding only what ``seat``'s view shows: its own units in full, the enemy units in sight (``only``:
    of those, the units of these ids alone).

    ``known``, if given, is a pure cache the caller keeps between decisions: what the last view said of each unit
    and the unit made from it, so that a unit the view shows as before is the same object as before (most are:
    one decision changes a few units) and the caches keyed by it still answer."""
    entries: list[Mapping[str, Any]] = view["units"] if only is None else [u for u in view["units"] if u["id"] in only]
    ids = list(map(_ID, entries))
    last: tuple[list[str], list[Mapping[str, Any]], list[Unit]] | None = known.get(seat) if known is not None else None
    if last is not None and ids[: len(last[0])] == last[0]:
        # the units of the last view in the same order, and maybe more after them (as a view lists them from one
        # decision to the next, a unit placed coming last, but when a unit is spotted or lost): each entry
        # compared with the one before it in bulk, and the units the view says something new of made again
        built = list(last[2])
        for i in compress(count(), map(ne, entries, last[1])):
            built[i] = _believed_unit(entries[i], entries[i]["side"] == seat)
        built.extend([_believed_unit(u, u["side"] == seat) for u in entries[len(built) :]])
    else:
        before = dict(zip(last[0], zip(last[1], last[2], strict=True), strict=True)) if last is not None else {}
        built = []
        add = built.append
        for u in entries:
            found = before.get(u["id"])
            add(found[1] if found is not None and found[0] == u else _believed_unit(u, u["side"] == seat))
    if known is not None:
        known[seat] = (ids, entries, built)
    units = tuple(built)
    types = {u["id"]: u["type"] for u in view["units"]} if view["plots"] else {}  # read for the plots alone
    mine = view["sides"][seat]
    sides = tuple(
        SideState(points=mine.get("points", 0), pool=tuple(mine.get("pool", ())), score=mine["score"])
        if s == seat
        else SideState(score=view["sides"][s]["score"])
        for s in ("attacker", "defender")
    )
    phase = Phase(view["phase"])
    return PGState(
        rng=0,
        secret=0,
        turn=view["turn"],
        phase=phase,
        side=view["side"] or seat,
        region="",
        units=units,
        sides=(sides[0], sides[1]),
        plots=tuple(
            Plot(p["unit"], seat, types.get(p["unit"], "light_artillery"), p["cell"], p["barrage"], p["turn"])
            for p in view["plots"]
        ),
        barrages=tuple(Barrage(b["cell"], b["strike"]) for b in view["barrages"]),
        mines=tuple(Mine(m["cell"], m["side"], m["charges"]) for m in view["mines"]),
        terrain=tuple((t["cell"], t["terrain"]) for t in view["terrain"]),
        cut_roads=tuple(view["cut_roads"]),
    )


@dataclass
class Town:
    name: str
    value: int
    cells: tuple[int, ...]
    holder: str | None
    mine: int = 0  # own units inside
    foes: int = 0  # enemy units seen inside
    near_foes: int = 0  # enemy units seen within 4 hexes


@dataclass
class Know:
    """One decision's picture of the battle, from the view alone."""

    seat: str
    view: Mapping[str, Any]
    state: PGState
    mine: list[Unit]
    foes: list[Unit]
    counted: list[Town] | Callable[[], list[Town]]  # the towns, or what counts them when first asked (towns)
    ghosts: list[Mapping[str, Any]] = field(default_factory=list)
    neutral: frozenset[int] = frozenset()  # locations of neutral countries nobody has entered yet (p.18)

    @property
    def towns(self) -> list[Town]:
        """The view's towns with the units counted in and near them."""
        if callable(self.counted):
            self.counted = self.counted()
        return self.counted


class General(Player):
    """Buys a combined force, places it by the towns that matter, shoots the best odds first, takes and holds
    towns under cover, assaults when the odds are good."""

    kind = "general"
    remembers = True

    def __init__(self, seed: int = 0, level: int = 1) -> None:
        super().__init__(seed, level)
        self.cfg, self.lv = tuning_at(DATA / "general.toml", level)
        # a pure cache: distances by map and weather, each an array of C integers, which the garbage collector
        # does not walk through (lists of a map's worth of integers each would be, at every full collection)
        self._fields: dict[tuple[Any, ...], array[int]] = {}
        self._near_towns: dict[tuple[Any, ...], frozenset[int]] = {}  # a pure cache: a town's surroundings
        self._homes: dict[tuple[str, tuple[int, ...]], bool] = {}  # a pure cache: the towns on our ground
        self._units: dict[str, Any] = {}  # a pure cache: the units of the last belief (see belief)
        self._heats: tuple[Ctx, tuple[Any, ...], dict[int, list[float]]] | None = None  # _heats_kept
        self._shots: tuple[Ctx, Any, int, Any, dict[tuple[str, int, str, int], int]] | None = None  # _shots_kept
        # a pure cache: the placement scores of a type's region by what they depend on (_placement_base)
        self._place_base: dict[tuple[Any, ...], tuple[dict[int, float], dict[int, str], Callable[[int], None]]] = {}
        self.forget()

    def forget(self) -> None:
        self._done: tuple[Any, set[str]] = ((), set())  # units already ordered in this part of a phase
        self._goals: tuple[Any, dict[str, str]] = ((), {})
        self._etas: tuple[Any, dict[str, tuple[Unit, int]]] = ((), {})  # a pure cache: each unit's way to its goal
        self._site: tuple[Any, int | None] = ((), None)  # the crossing chosen for this part of the phase

    # --- entry points -------------------------------------------------------------------------------------
    def choose(self, pc: Observation) -> Decision:
        self.catch_up(pc)
        d = self._decide(pc)
        if d is None or d not in pc.legal:
            d = _ending(pc.legal)
        if d is None:  # nothing sensible to say: a legal decision drawn from a seed the context fixes
            view = pc.view.get("state", pc.view)
            seed = derived_seed(self.seed, pc.seat, view.get("turn"), view.get("phase"), len(pc.legal))
            d = pc.legal.sample(Dice(seed_state(seed)))
        self.decided(pc)
        return d

    def interject(self, pc: Observation) -> Decision | None:
        return self.choose(pc) if pc.legal else None

    def reflex(self, pc: Observation) -> Decision | None:
        legal = pc.legal
        if legal.of_kind("confirm"):
            return D.ConfirmPurchase(True)
        if legal.of_kind("passing_fire") and not legal.of_kind("return_fire") and self._passing_short(legal):
            return D.HoldFire()  # answered from the offer's chances alone: the view (hundreds of units) not built
        return None

    def _decide(self, pc: Observation) -> Decision | None:
        d = self.reflex(pc)  # the driver asks it first; here for an observation relived (catch_up)
        if d is not None:
            return d
        legal = pc.legal
        pause_point()
        rules = self.rules(pc)
        assert isinstance(rules, PerfectGeneral)
        ctx = rules.ctx
        envelope = pc.view
        view = envelope.get("state", envelope)
        pause_point()
        offer = (view.get("offer") or {}).get("kind")
        if legal.of_kind("return_fire") or offer == "return":
            return self._return_fire(ctx, self._glance(ctx, view, pc.seat, legal), legal)
        if legal.of_kind("passing_fire") or offer == "passing":
            return self._passing_fire(ctx, self._glance(ctx, view, pc.seat, legal), legal)
        k = self._know(ctx, view, pc.seat)
        phase = view["phase"]
        if phase == Phase.PURCHASE:
            return self._buy(ctx, k, legal)
        if phase == Phase.PLACEMENT:
            return self._place(ctx, k, legal)
        if phase in (Phase.MOBILE_PLOT, Phase.ARTILLERY_PLOT):
            return self._plot(ctx, k, legal)
        if phase in (Phase.FIRST_FIRE, Phase.SECOND_FIRE):
            return self._fire(ctx, k, legal)
        if phase == Phase.MOVEMENT:
            return self._move(ctx, k, legal)
        return None

    def _know(self, ctx: Ctx, view: Mapping[str, Any], seat: str) -> Know:
        state = belief(ctx, view, seat, self._units)
        mine, foes = [], []
        for u in state.units:
            if u.side != seat:
                foes.append(u)
            elif not u.carried_by:
                mine.append(u)

        def towns() -> list[Town]:  # counted when first asked: buying and firing never ask
            return self._towns(ctx, view, [u.cell for u in mine], [u.cell for u in foes])

        entered = {n["name"] for n in view.get("neutrals", ()) if n["entered"]}
        neutral = frozenset(c for n in ctx.board.scenario.neutrals if n.name not in entered for c in n.cells)
        return Know(seat, view, state, mine, foes, towns, list(view.get("ghosts", ())), neutral)

    def _glance(self, ctx: Ctx, view: Mapping[str, Any], seat: str, legal: Legal) -> Know:
        """The picture a fire offer is answered from (asked at every step of an enemy's move in sight): the units
        its decisions name (the unit fired on and its targets, or the mover and our firers) and the towns as
        :meth:`_know` counts them; the other units are left out of its state, ``mine`` and ``foes``."""
        named = {v for c in legal.choices for v in (*c.fixed.values(), *c.values()) if isinstance(v, str)}
        state = belief(ctx, view, seat, only=named)
        entries = view["units"]

        def towns() -> list[Town]:  # counted only if asked: most offers are declined without them
            mine = [e["cell"] for e in entries if e["side"] == seat and not e.get("carried_by")]
            return self._towns(ctx, view, mine, [e["cell"] for e in entries if e["side"] != seat])

        units = state.units
        return Know(
            seat,
            view,
            state,
            [u for u in units if u.side == seat and not u.carried_by],
            [u for u in units if u.side != seat],
            towns,
        )

    def _towns(self, ctx: Ctx, view: Mapping[str, Any], mine: list[int], foes: list[int]) -> list[Town]:
        """The view's towns with the side's units (at locations ``mine``) and the enemy's seen (``foes``) in them
        and near them."""
        towns = []
        # the counts by location of the units in a town (ours) or near one (the enemy's) only: most stand elsewhere
        in_towns = ctx.board.town_cells
        around = self._near(ctx, tuple(sorted(in_towns)))
        my_cells = Counter([c for c in mine if c in in_towns])
        foe_cells = Counter([c for c in foes if c in around])
        for t in view["towns"]:
            cells = tuple(t["cells"])
            near = self._near(ctx, cells)
            towns.append(
                Town(
                    t["name"],
                    t["value"],
                    cells,
                    t["holder"],
                    mine=sum([my_cells.get(c, 0) for c in set(cells)]),
                    foes=sum([foe_cells.get(c, 0) for c in set(cells)]),
                    near_foes=sum([n for c, n in foe_cells.items() if c in near]),
                )
            )
        return towns

    def _near(self, ctx: Ctx, cells: tuple[int, ...]) -> frozenset[int]:
        """The locations within 4 of a town's (a pure cache: a general plays one map)."""
        key = ("near", cells)
        found = self._near_towns.get(key)
        if found is None:
            found = self._near_towns[key] = frozenset(c for t in cells for c in ctx.board.grid.within(t, 4))
        return found

    # --- values ---------------------------------------------------------------------------------------------
    def value(self, ctx: Ctx, u: Unit) -> float:
        v = self.cfg["value"]
        base = ctx.tables.units[u.type].cost * v.get(u.type, 100) / 100
        if u.cell in ctx.board.town_cells:
            base = base * v["town_occupant"] / 100
        return max(float(v["minimum"]), float(base))

    def _frailty(self, ctx: Ctx, type_id: str) -> int:
        """How easily a unit of this type is overrun in close assault (p.31): garrisons want the sturdiest."""
        ut = ctx.tables.units[type_id]
        if ut.has("mine"):
            return 1000
        return ctx.tables.assault.get(("medium_tank", type_id), 100)

    # --- buying ---------------------------------------------------------------------------------------------
    def _buy(self, ctx: Ctx, k: Know, legal: Legal) -> Decision | None:
        ss = k.view["sides"][k.seat]
        pool: list[str] = list(ss.get("pool", ()))
        points = ss.get("points", 0)
        wants = self.shopping_list(ctx, k, points + sum(ctx.tables.units[t].cost for t in pool))
        buyable = set(legal.of_kind("buy")[0].values()) if legal.of_kind("buy") else set()
        bought = Counter(pool)  # what is bought already: counted down as the list is gone through
        for t in wants:
            if bought[t] > 0:
                bought[t] -= 1
            elif t in buyable:
                return D.Buy(t)
        for t in self.cfg["buy"]["leftover"]:
            if t in buyable:
                return D.Buy(t)
        return D.EndPurchase()

    def shopping_list(self, ctx: Ctx, k: Know, points: int) -> list[str]:
        """The units to buy with ``points``: each type's share of the points, the most valuable first."""
        region = k.state.turn > 1 or bool(k.mine)
        shares: dict[str, float] = dict(self.cfg["buy"]["reinforcement" if region else k.seat])
        sale = set(ctx.board.scenario.on_sale)
        if "engineer" in shares and not _river_matters(ctx, k.seat):
            shares.pop("engineer")
        shares = {t: s for t, s in shares.items() if t in sale}
        if not shares:  # a scenario that sells none of the usual types: spread over what it sells
            shares = {t: 1.0 / len(sale) for t in sale}
        total = sum(shares.values())
        out: list[str] = []
        left = points
        for t in sorted(shares, key=lambda t: -ctx.tables.units[t].cost):
            cost = ctx.tables.units[t].cost
            n = int(points * shares[t] / total) // cost
            n = min(n, left // cost)
            out.extend([t] * n)
            left -= n * cost
        return out

    # --- placement ------------------------------------------------------------------------------------------
    def _place(self, ctx: Ctx, k: Know, legal: Legal) -> Decision | None:
        families = legal.of_kind("place")
        if not families:
            return D.EndPlacement()
        # the sturdiest first, so that they get the town locations; mines last, clear of everyone
        fam = min(families, key=lambda c: (self._frailty(ctx, c.fixed["type"]), c.fixed["type"]))
        cells = fam.values()
        if not cells:
            others = [c for c in families if len(c)]
            if not others:
                return D.EndPlacement()
            fam, cells = others[0], others[0].values()
        t = fam.fixed["type"]
        scores = self._placement_scores(ctx, k, t, cells)
        best = max(scores)
        return D.Place(t, min(compress(cells, map(eq, scores, repeat(best)))))  # the lowest location on a tie

    def _placement_scores(self, ctx: Ctx, k: Know, type_id: str, cells: Sequence[int]) -> list[float]:
        p = self.cfg["place"]
        ut = ctx.tables.units[type_id]
        home, _ = self._town_roles(ctx, k)
        garrison = p["garrison"][k.seat] + self.lv["garrison_extra"]
        base, town_at, work = self._placement_base(ctx, k, type_id)
        for c in set(cells).difference(base):
            work(c)
        if ut.has("mine"):  # never next to our own units
            out: list[float] = []
            occupied = {u.cell for u in k.mine}
            neighbors = ctx.board.neighbors
            for c in cells:
                s = base[c]
                if any(n in occupied for n in neighbors[c]):
                    s -= 60
                out.append(s)
            return out
        # a town of ours still short of its garrison wants foot soldiers, then armour (town_at: foot and armour)
        bonus = 500 if ut.has("foot") else 1000
        short = {t.name: bonus + t.value for t in home if t.mine < garrison}
        out = list(map(base.__getitem__, cells))
        if short:  # the few locations in such a town
            for i in compress(count(), map(town_at.__contains__, cells)):
                town = town_at[cells[i]]
                if town in short:
                    out[i] = short[town]
        return out

    def _placement_base(
        self, ctx: Ctx, k: Know, type_id: str
    ) -> tuple[dict[int, float], dict[int, str], Callable[[int], None]]:
        """The placement score of a location for a unit type but for what the units placed so far change (its
        town short of a garrison, a mine's neighbours), and the town of ours a location is in where a garrison
        counts, by location, with what works them out for a location (``work``): a pure cache, the same for
        every placement of the type while the weather and the terrain stand."""
        key = (k.seat, type_id, ctx.board.weather(k.state).move_percent, k.state.terrain, k.state.cut_roads)
        found = self._place_base.get(key)
        if found is not None:
            return found
        p = self.cfg["place"]
        board = ctx.board
        seat = k.seat
        ut = ctx.tables.units[type_id]
        front = self._enemy_ground_distance(ctx, seat)
        home, targets = self._town_roles(ctx, k)
        homes = [(t.name, t.cells) for t in home]
        home_dist = self._bfs_cached(ctx, ("home", seat), [c for t in home for c in t.cells])
        target_dist = self._bfs_cached(ctx, ("target", seat), [c for t in targets for c in t.cells])
        home_front = min((front[x] for t in home for x in t.cells), default=0)
        # what depends on the unit type alone, once (every cell of the region is scored)
        is_mine, is_foot = ut.has("mine"), ut.has("foot")
        fixed_artillery = ut.has("artillery") and ut.move == 0
        terrain = board.terrain_row(k.state)
        roads = board.map.cell_features.get("road", ()), board.map.cell_features.get("track", ())
        # the armour's way to the towns it faces: one field for every cell (the attacker's, or one without towns)
        armour_field = (
            self._field(ctx, k.state, targets[0].cells if targets else home[0].cells, type_id)
            if not (is_mine or fixed_artillery or is_foot) and (seat == "attacker" or not home)
            else None
        )
        base: dict[int, float] = {}
        town_at: dict[int, str] = {}

        def work(c: int) -> None:
            terr = ctx.tables.terrain[terrain[c]]
            cover = p["cover"] if terr.blocks_sight else 0
            road = p["road"] if (c in roads[0] or c in roads[1]) else 0
            d_home = min(home_dist[c], 20)
            d_target = min(target_dist[c], 20)
            town = next((name for name, cells in homes if c in cells), None)  # the first, as home is sorted
            s = 0.0
            if is_mine:
                # on the enemy's likely roads into a town of ours (never next to our own units: the caller)
                if home and 1 <= d_home <= p["mine_reach"] and front[c] < home_front:
                    s = 50 + road * 5 - d_home * 3
                else:
                    s = -100 - d_home
            elif fixed_artillery:
                # far from the enemy, hidden, and still in range of the towns that matter
                reach_ok = d_target <= ut.indirect_range - 2 or d_home <= ut.indirect_range - 2
                s = front[c] * p["artillery_back"] + cover * 2 + (0 if reach_ok else -500)
            else:
                if is_foot:
                    s = -4 * d_home + cover * 1.5 - (30 if c in board.town_cells and town is None else 0)
                    if seat == "attacker" and type_id == "engineer":
                        s = -3 * d_target + cover
                elif armour_field is not None:  # armour: the attacker masses facing its objective
                    s = -armour_field[c] / 2 + cover + road
                else:  # the defender's armour stands by its towns
                    s = -3 * abs(d_home - 2) + cover - front[c] * 0.5 + road
                if town is not None:
                    town_at[c] = town
            base[c] = s

        if len(self._place_base) >= 64:
            self._place_base.clear()
        found = self._place_base[key] = (base, town_at, work)
        return found

    def _town_roles(self, ctx: Ctx, k: Know) -> tuple[list[Town], list[Town]]:
        """Towns on the side's own ground (to hold) and the others (to take), each sorted by value."""
        home = [t for t in k.towns if self._home_ground(ctx, k.seat, t.cells)]
        targets = [t for t in k.towns if t not in home]
        home.sort(key=lambda t: -t.value)
        targets.sort(key=lambda t: -t.value)
        return home, targets

    def _home_ground(self, ctx: Ctx, seat: str, cells: tuple[int, ...]) -> bool:
        """Whether a town's locations are nearer the side's own set-up region than the enemy's (a pure cache: a
        general plays one map; asked at every placement)."""
        key = (seat, cells)
        found = self._homes.get(key)
        if found is None:
            front = self._enemy_ground_distance(ctx, seat)
            back = self._enemy_ground_distance(ctx, other(seat))
            found = self._homes[key] = min(back[c] for c in cells) <= min(front[c] for c in cells)
        return found

    def _enemy_ground_distance(self, ctx: Ctx, seat: str) -> array[int]:
        """Hex distance from every location to the enemy's set-up region (static)."""
        return self._bfs_cached(ctx, ("ground", seat), ctx.board.scenario.setup[other(seat)])

    def _bfs_cached(self, ctx: Ctx, key: tuple[str, str], cells: Collection[int]) -> array[int]:
        if key not in self._fields:
            self._fields[key] = array("i", _bfs(ctx, set(cells)))
        return self._fields[key]

    def _field(self, ctx: Ctx, state: PGState, cells: Sequence[int], type_id: str) -> array[int]:
        """Movement cost (half points) from every location to ``cells`` for a unit type, ignoring units."""
        # one field per movement class (armour or foot): the types within a class differ only in forest cost
        ut = ctx.tables.units["medium_tank" if ctx.tables.units[type_id].has("armor") else "infantry"]
        key = ("field", tuple(cells), ut.id, ctx.board.weather(state).move_percent, state.terrain, state.cut_roads)
        found = self._fields.get(key)
        if found is None:
            if len(self._fields) > 300:
                self._fields = {k: v for k, v in self._fields.items() if k[0] != "field"}
            found = self._fields[key] = array("i", _dijkstra(ctx.board.whole_costs(state, ut), cells))
        return found

    # --- artillery ------------------------------------------------------------------------------------------
    def _plot(self, ctx: Ctx, k: Know, legal: Legal) -> Decision | None:
        families = [c for c in legal.of_kind("plot") if not c.fixed["barrage"]]
        next_turn = k.view["phase"] == Phase.ARTILLERY_PLOT
        if next_turn and k.state.turn >= k.view["turns"]:
            return D.EndPlot()  # light and heavy artillery would fire after the last turn (p.29)
        p = self.cfg["plot"]
        best: tuple[float, Decision] | None = None
        heat = self._heats_kept(ctx, k, next_turn)
        for fam in families:
            pause_point()
            unit = k.state.unit(fam.fixed["unit"])
            # a plot costs the turn's direct fire (p.29 e): worth it for less when there is nothing to shoot at
            shots = self._direct_options(ctx, k, unit)
            if next_turn and shots > 0:
                continue  # it can shoot now: keep the shot
            need = p["min_score"] if shots else p["min_score_idle"]
            splash = ctx.tables.units[unit.type].splash
            if splash not in heat:
                heat[splash] = self._plot_heat(ctx, k, splash, next_turn)
            h = heat[splash]
            for c in fam.values():
                if h[c] >= need and (best is None or h[c] - need > best[0]):
                    best = (h[c] - need, D.Plot(unit.id, False, c))
        if best is None:
            return D.EndPlot()
        choice = best[1]
        assert isinstance(choice, D.Plot)
        if ctx.tables.units[k.state.unit(choice.unit).type].has("barrage") and self._barrage_is_safe(ctx, k, choice):
            return D.Plot(choice.unit, True, choice.cell)
        return choice

    def _barrage_is_safe(self, ctx: Ctx, k: Know, plot: D.Plot) -> bool:
        """A barrage (p.29-30) also bars the locations it covers to everyone for the turn it lands and hides
        what lies behind them: fire one only where none of our units stands or is heading, after drift."""
        grid = ctx.board.grid
        ut = ctx.tables.units[k.state.unit(plot.unit).type]
        clear = self.cfg["plot"]["barrage_clear"] + ut.drift + (1 if ut.has("wide_barrage") else 0)
        if any(grid.distance(u.cell, plot.cell) <= clear for u in k.mine):
            return False
        if any(grid.distance(c, plot.cell) <= clear for c in self._goal_cells(ctx, k)):
            return False
        goals = set(self._goals[1].values()) if self._goals[0] else set()
        ours = [c for t in k.towns if t.name in goals or t.holder == k.seat for c in t.cells]
        return not any(grid.distance(c, plot.cell) <= clear for c in ours)

    def _direct_options(self, ctx: Ctx, k: Know, unit: Unit) -> int:
        sight = ctx.board.sight(k.state)
        vis = ctx.board.weather(k.state).visibility
        return sum(
            1
            for e in k.foes
            if e.spotted
            and (shot_chance(ctx, k.state, unit, e) or 0) >= self.lv["fire_min_first"]
            and sight.sees(unit.cell, e.cell, vis)
        )

    def _heats_kept(self, ctx: Ctx, k: Know, next_turn: bool) -> dict[int, list[float]]:
        """The heat of every location by splash (:meth:`_plot_heat`) for this decision: a pure cache, kept from
        one plot to the next while all it is worked out from stands (the units' types and locations, the ghosts,
        the towns' holders, the turn and the terrain), as it does while a side plots unit after unit."""
        key = (
            k.seat,
            next_turn,
            k.state.turn,
            k.state.terrain,
            tuple([(u.type, u.cell) for u in k.mine]),
            tuple([(e.type, e.cell) for e in k.foes]),
            tuple([(g["type"], g["cell"], g["turn"]) for g in k.ghosts]),
            tuple([t.holder for t in k.towns]),
        )
        kept = self._heats
        if kept is None or kept[0] is not ctx or kept[1] != key:
            kept = self._heats = (ctx, key, {})
        return kept[2]

    def _plot_heat(self, ctx: Ctx, k: Know, splash: int, next_turn: bool) -> list[float]:
        """The expected worth of aiming a shot at each location: enemy value near it, less our own."""
        p = self.cfg["plot"]
        w = p["weight"]
        grid = ctx.board.grid
        heat = [0.0] * grid.size

        def spread(cell: int, worth: float, keep: int = 0) -> None:
            for c in grid.within(cell, len(w) - 1 + keep):
                d = max(0, grid.distance(cell, c) - keep)
                heat[c] += worth * w[d] * (1 if d == 0 else splash / 50)

        for e in k.foes:
            moving = next_turn and ctx.tables.units[e.type].move > 0 and e.cell not in ctx.board.town_cells
            spread(e.cell, self.value(ctx, e) * (0.4 if moving else 1.0))
        for g in k.ghosts:
            age = max(1, k.state.turn - g["turn"] + 1)
            spread(g["cell"], p["ghost"] * ctx.tables.units[g["type"]].cost / age)
        keep = p["own_keep_away"] if next_turn else 0
        for u in k.mine:
            spread(u.cell, -p["own_penalty"] * self.value(ctx, u), keep)
        if next_turn:
            for c in self._goal_cells(ctx, k):
                heat[c] -= 50  # our own units are heading there
            if self.lv["ambush_plots"] and k.mine:
                self._add_ambush(ctx, k, heat)
        return heat

    def _goal_cells(self, ctx: Ctx, k: Know) -> set[int]:
        """Locations near the towns our units may enter before a next-turn shot lands."""
        grid = ctx.board.grid
        out: set[int] = set()
        for t in k.towns:
            if t.holder != k.seat and any(
                grid.distance(u.cell, t.cells[0]) <= ctx.tables.units[u.type].move + 3
                for u in k.mine
                if ctx.tables.units[u.type].move  # artillery does not walk into towns
            ):
                for c in t.cells:
                    out.update(grid.within(c, 2))
        return out

    def _add_ambush(self, ctx: Ctx, k: Know, heat: list[float]) -> None:
        """Empty locations that hide units, on the enemy's side of our nearest units: likely ambushes."""
        p = self.cfg["plot"]
        front = self._enemy_ground_distance(ctx, k.seat)
        near = _bfs(ctx, {u.cell for u in k.mine})
        lo, hi = p["ambush_range"]
        line = min(front[u.cell] for u in k.mine)
        terrain = ctx.tables.terrain
        for c in range(len(heat)):
            if (
                lo <= near[c] <= hi
                and front[c] <= line
                and heat[c] < p["ambush"] * 2
                and terrain[ctx.board.terrain(k.state, c)].blocks_sight
            ):
                heat[c] += p["ambush"] + (2 if c in ctx.board.town_cells else 0)

    # --- direct fire ----------------------------------------------------------------------------------------
    def _fire(self, ctx: Ctx, k: Know, legal: Legal) -> Decision | None:
        chances: Mapping[str, Mapping[str, int]] = legal.info.get("chances", {})
        ready = {c.fixed["unit"] for c in legal.of_kind("fire")}
        second = k.view["phase"] == Phase.SECOND_FIRE
        floor = self.lv["fire_min_second" if second else "fire_min_first"]
        best: tuple[float, str, str] | None = None
        for uid in sorted(ready):
            pause_point()
            firer = k.state.find(uid)
            if firer is None:
                continue
            need = floor + (0 if firer.spotted else self.cfg["fire"]["hidden_extra"])
            for tid, pct in sorted(chances.get(uid, {}).items()):
                target = k.state.find(tid)
                if target is None or pct < need:
                    continue
                s = pct * self.value(ctx, target) - self._return_risk(ctx, k, target, firer)
                if best is None or s > best[0]:
                    best = (s, uid, tid)
        if best is None or best[0] <= 0:
            return D.EndFire()
        return D.Fire(best[1], best[2])

    def _return_risk(self, ctx: Ctx, k: Know, target: Unit, firer: Unit) -> float:
        """What the target's return fire may cost us before our shot lands (p.29)."""
        if target.fired or not firer.spotted:
            return 0.0
        pct = shot_chance(ctx, k.state, target, firer) or 0
        return float(self.cfg["fire"]["return_risk"] * pct * self.value(ctx, firer))

    def _return_fire(self, ctx: Ctx, k: Know, legal: Legal) -> Decision | None:
        fams = legal.of_kind("return_fire")
        if not fams:
            return D.HoldFire()
        uid = fams[0].fixed["unit"]
        chances = legal.info.get("chances", {}).get(uid, {})
        shooter = legal.info.get("shooter")
        me = k.state.find(uid)
        best: tuple[float, str] | None = None
        for tid in fams[0].values():
            target = k.state.find(tid)
            if target is None:
                continue
            pct = chances.get(tid, 0)
            s = pct * self.value(ctx, target)
            if tid == shooter and me is not None:  # killing the shooter first saves our unit (p.29)
                s += pct * (shot_chance(ctx, k.state, target, me) or 0) * self.value(ctx, me) / 100
            if best is None or s > best[0]:
                best = (s, tid)
        if best is None:
            return D.HoldFire()
        return D.ReturnFire(uid, best[1])

    def _passing_short(self, legal: Legal) -> bool:
        """Whether no firer of a passing fire offer has the chance :meth:`_passing_fire` asks of any firer (the
        lower bar, near a town of ours; an unspotted firer's is higher): it holds fire, whatever the view says."""
        floor = self.lv["passing_min"] * 0.5 + min(self._hidden_extra(True), self._hidden_extra(False))
        chances: Mapping[str, int] = legal.info.get("chances", {})
        return all((chances.get(fid) or 0) < floor for fid in legal.of_kind("passing_fire")[0].values())

    def _hidden_extra(self, spotted: bool) -> float:
        """What a passing shot's bar rises by for a firer the enemy has not spotted (it would give itself away)."""
        return 0.0 if spotted else self.cfg["fire"]["hidden_extra"] / 2

    def _passing_fire(self, ctx: Ctx, k: Know, legal: Legal) -> Decision | None:
        fams = legal.of_kind("passing_fire")
        if not fams or not len(fams[0]):
            return D.HoldFire()
        mover = k.state.find(fams[0].fixed["target"])
        chances: Mapping[str, int] = legal.info.get("chances", {})
        if mover is None:
            return D.HoldFire()
        grid = ctx.board.grid
        near: list[bool] = []  # whether the mover is near a town of ours: worked out the first time it matters

        def near_town() -> bool:
            if not near:
                reach = self.cfg["fire"]["passing_near_town"]
                ours = [c for t in k.towns if t.holder == k.seat or t.mine for c in t.cells]
                near.append(any(grid.distance(mover.cell, c) <= reach for c in ours))
            return near[0]

        best: tuple[float, str] | None = None
        for fid in fams[0].values():
            firer = k.state.find(fid)
            pct = chances.get(fid) or 0
            if firer is None:
                continue
            extra = self._hidden_extra(firer.spotted)
            if pct < self.lv["passing_min"] * 0.5 + extra:
                continue  # short even of the lower bar near a town of ours
            if pct < self.lv["passing_min"] + extra and not near_town():
                continue
            s = pct * self.value(ctx, mover) - self.value(ctx, firer)
            if best is None or s > best[0]:
                best = (s, fid)
        if best is None:
            return D.HoldFire()
        return D.PassingFire(mover.id, best[1])

    # --- movement -------------------------------------------------------------------------------------------
    def _move(self, ctx: Ctx, k: Know, legal: Legal) -> Decision | None:
        part = (k.state.turn, k.view["phase"], k.seat)
        if self._done[0] != part:
            self._done = (part, set())
            self._goals = (part, self._assign_goals(ctx, k))
        done = self._done[1]
        goals = self._goals[1]
        # 1. assaults with good odds, the best first
        assault = self._best_assault(ctx, k, legal, done)
        if assault is not None:
            done.add(assault.unit)
            return assault
        # 2. engineers' work where it helps
        for fam in legal.of_kind("build_bridge"):
            for uid in fam.values():
                if uid not in done and k.seat == "attacker":
                    done.add(uid)
                    return D.BuildBridge(uid)
        for fam in legal.of_kind("clear_mine"):
            uid = fam.fixed["unit"]
            enemy = [c for c in fam.values() if any(m["cell"] == c and m["side"] != k.seat for m in k.view["mines"])]
            if uid not in done and enemy:
                done.add(uid)
                return D.ClearMine(uid, enemy[0])
        # 3. moves: the units nearest their goals first, so that those behind are not held up
        movers = [c for c in legal.of_kind("move") if c.fixed["unit"] not in done]
        if not movers:
            return D.EndMovement()
        pause_point()
        wade = self._engineer_to_crossing(ctx, k, movers, done)
        if wade is not None:
            return wade

        # a unit's way to its goal stands while the unit, its goal (this part's) and the terrain do: kept from
        # one decision of the part to the next (a pure cache: every unit is sorted at every decision)
        ground = (k.state.terrain, k.state.cut_roads)
        if self._etas[0] != (part, ground):
            self._etas = ((part, ground), {})
        etas = self._etas[1]

        def eta(c: Any) -> int:
            u = k.state.unit(c.fixed["unit"])
            found = etas.get(u.id)
            if found is not None and found[0] is u:
                return found[1]
            goal = goals.get(u.id)
            town = next((t for t in k.towns if t.name == goal), None)
            value = self._field(ctx, k.state, town.cells, u.type)[u.cell] if town else 0
            etas[u.id] = (u, value)
            return value

        movers.sort(key=lambda c: (eta(c), c.fixed["unit"]))
        for fam in movers:
            pause_point()
            uid = fam.fixed["unit"]
            done.add(uid)
            unit = k.state.unit(uid)
            town = next((t for t in k.towns if t.name == goals.get(uid)), None)
            if town is not None and unit.cell in town.cells and not town.foes:
                continue  # a garrison in place holds its town
            dest = self._best_destination(ctx, k, unit, fam.values(), goals.get(uid))
            if dest is not None:
                return D.Move(uid, dest)
        return D.EndMovement()

    def _engineer_to_crossing(self, ctx: Ctx, k: Know, movers: list[Any], done: set[str]) -> D.Move | None:
        """An attacking engineer walks to the river location whose bridge would most shorten the armour's way
        to its objective, to build it the next turn (p.14: "move your Engineer right into the river. Next turn
        you can order the engineer to build a bridge in that location")."""
        if k.seat != "attacker":
            return None
        engineers = [c for c in movers if ctx.tables.units[k.state.unit(c.fixed["unit"]).type].has("engineer")]
        if not engineers:
            return None
        if self._site[0] != self._done[0]:  # once per part of the phase
            self._site = (self._done[0], self._crossing(ctx, k))
        site = self._site[1]
        if site is None:
            return None
        for fam in engineers:
            unit = k.state.unit(fam.fixed["unit"])
            if unit.cell == site:
                continue
            to_site = self._field(ctx, k.state, (site,), unit.type)
            cells = [c for c in fam.values() if to_site[c] < to_site[unit.cell]]
            done.add(unit.id)
            if cells:
                return D.Move(unit.id, min(cells, key=lambda c: (to_site[c], c)))
            return None  # the only engineer goes nowhere else this turn
        return None

    def _crossing(self, ctx: Ctx, k: Know) -> int | None:
        """The river location (or blown bridge) where a bridge saves our armour the most movement on its way to
        the town most of it is heading for, if that is at least ``move.bridge_gain`` half points."""
        tables = ctx.tables
        armour = [u for u in k.mine if tables.units[u.type].has("armor") and tables.units[u.type].move]
        goals = self._goals[1]
        wanted = [goals[u.id] for u in armour if u.id in goals]
        if not wanted:
            return None
        aim = max(sorted(set(wanted)), key=wanted.count)
        town = next(t for t in k.towns if t.name == aim)
        to_goal = self._field(ctx, k.state, town.cells, "medium_tank")
        now = min(to_goal[u.cell] for u in armour)
        from_us = _dijkstra(
            ctx.board.whole_costs(k.state, tables.units["medium_tank"]), sorted({u.cell for u in armour})
        )
        board = ctx.board
        taken = {u.cell for u in k.foes} | {u.cell for u in k.mine} | {m["cell"] for m in k.view["mines"]}
        best: tuple[int, int] | None = None
        for c in range(board.grid.size):
            if board.terrain(k.state, c) not in BRIDGEABLE or c in taken:
                continue
            near = min((from_us[n] for n in board.neighbors[c]), default=UNREACHED)
            far = min((to_goal[n] for n in board.neighbors[c]), default=UNREACHED)
            if near >= UNREACHED or far >= UNREACHED:
                continue
            gain = now - (near + 1 + 2 + far)  # onto the bridge (a road, p.24), off it, then on to the town
            if best is None or gain > best[0]:
                best = (gain, c)
        if best is None or best[0] < self.cfg["move"]["bridge_gain"]:
            return None
        return best[1]

    def _assign_goals(self, ctx: Ctx, k: Know) -> dict[str, str]:
        """A town for every unit that can move: garrisons stay, the rest go where the points are."""
        cfg = self.cfg["move"]
        turns_left = max(1, k.view["turns"] - k.state.turn + 1)
        goals: dict[str, str] = {}
        load: dict[str, int] = {t.name: 0 for t in k.towns}
        garrison = 1 + self.lv["garrison_extra"] + (1 if k.seat == "defender" else 0)
        # garrisons: the units already in a town of ours stay, foot soldiers first
        for t in k.towns:
            inside = sorted((u for u in k.mine if u.cell in t.cells), key=lambda u: (self._frailty(ctx, u.type), u.id))
            want = garrison + (1 if t.near_foes else 0)
            for u in inside[:want]:
                goals[u.id] = t.name
                load[t.name] += 1
        status = cfg["status"]
        for u in sorted(k.mine, key=lambda u: -ctx.tables.units[u.type].move):
            if u.id in goals or ctx.tables.units[u.type].move == 0:
                continue
            speed = 2 * ctx.tables.units[u.type].move
            best: tuple[float, str] | None = None
            for t in k.towns:
                pause_point()
                if k.neutral.intersection(t.cells):
                    continue  # entering a neutral country hands the enemy its buy points (p.18)
                dist = self._field(ctx, k.state, t.cells, u.type)[u.cell]
                if dist >= UNREACHED:
                    continue
                turns = dist / speed
                if turns > turns_left + 0.5:
                    continue  # out of reach before the game ends
                if t.foes and not t.mine:
                    st = status["enemy"]
                elif t.foes:
                    st = status["contested"]
                elif t.holder == k.seat or t.mine:
                    st = status["threatened"] if t.near_foes else status["mine"]
                elif t.holder is not None:
                    st = status["enemy"]
                else:
                    st = status["empty"]
                s = t.value * st / (1 + turns) / (1 + cfg["crowd"] * load[t.name])
                if best is None or s > best[0]:
                    best = (s, t.name)
            if best is not None:
                goals[u.id] = best[1]
                load[best[1]] += 1
        return goals

    def _best_assault(self, ctx: Ctx, k: Know, legal: Legal, done: set[str]) -> D.Assault | None:
        if not k.foes:
            return None  # only a location where an enemy in sight stands is weighed: none to list assaults for
        best: tuple[float, D.Assault] | None = None
        foe_at: dict[int, Unit] = {}
        for e in reversed(k.foes):  # the first foe listed at a location, as a search of the list finds
            foe_at[e.cell] = e
        for fam in legal.of_kind("assault"):
            uid = fam.fixed["unit"]
            if uid in done:
                continue
            me = k.state.find(uid)
            if me is None:
                continue
            for cell in fam.values():
                foe = foe_at.get(cell)
                if foe is None:
                    continue
                odds = assault_odds(ctx, k.state, me, foe)
                if odds < self.lv["assault_min"]:
                    continue
                town_bonus = 1.5 if cell in ctx.board.town_cells else 1.0
                s = odds * self.value(ctx, foe) * town_bonus - (100 - odds) * self.value(ctx, me)
                if s > 0 and (best is None or s > best[0]):
                    best = (s, D.Assault(uid, cell))
        return best[1] if best else None

    def _best_destination(self, ctx: Ctx, k: Know, u: Unit, cells: Sequence[int], goal: str | None) -> int | None:
        """The best place for ``u`` to end its move, or None to stay."""
        cfg = self.cfg["move"]
        town = next((t for t in k.towns if t.name == goal), None)
        blunder = self.lv.get("blunder", 0)
        if blunder and cells:  # the easy general sometimes moves a unit anywhere (repeatable: seeded by the view)
            dice = Dice(seed_state(derived_seed(self.seed, k.state.turn, u.id)))
            if dice.below(100) < blunder:
                return cells[dice.below(len(cells))]
        ut = ctx.tables.units[u.type]
        speed = 2 * max(1, ut.move)
        fld = self._field(ctx, k.state, town.cells, u.type) if town else None
        threats = self._threats(ctx, k, u)
        sight = ctx.board.sight(k.state)
        vis = ctx.board.weather(k.state).visibility
        shots = self._shots_kept(ctx, k.state, sight, vis)
        held = {c for t in k.towns if t.holder == k.seat for c in t.cells}
        blocks = {name: spec.blocks_sight for name, spec in ctx.tables.terrain.items()}
        # our own plots that land at the start of next turn, before anyone moves again (p.19, p.29)
        landing = [ctx.board.distance_row(p["cell"]) for p in k.view["plots"] if p["turn"] > k.state.turn]
        near_plot = [w * self.cfg["plot"]["own_penalty"] for w in self.cfg["plot"]["weight"]]
        worth = self.value(ctx, u)

        def score(c: int) -> float:
            s = 0.0
            if fld is not None and fld[c] < UNREACHED and fld[u.cell] < UNREACHED:
                s += cfg["progress"] * (fld[u.cell] - fld[c]) / speed
            if town is not None and c in town.cells:
                s += cfg["in_goal"] + (cfg["hold"] if c == u.cell else 0)
            elif c in ctx.board.town_cells and c not in held:
                s += cfg["in_other_town"]
            if blocks[ctx.board.terrain(k.state, c)]:
                s += cfg["cover"]
            s -= self._exposure(ctx, k, u, c, threats, sight, vis, shots)
            for from_aim in landing:  # a drifting shot or its splash may catch us there
                d = from_aim[c]
                if d < len(near_plot):
                    s -= near_plot[d] * worth
            return s

        stay = score(u.cell)
        best_cell, best = None, stay
        # mines and barrages destroy what enters them (p.22, p.30); neutral countries are better left alone
        deadly = k.neutral | {m["cell"] for m in k.view["mines"]} | {b["cell"] for b in k.view["barrages"]}
        for c in cells:
            if c in deadly:
                continue
            s = score(c)
            if s > best + 1e-9 or (abs(s - best) < 1e-9 and best_cell is not None and c < best_cell):
                best_cell, best = c, s
        return best_cell

    def _threats(self, ctx: Ctx, k: Know, u: Unit) -> list[tuple[Unit, float, int]]:
        """Known and remembered enemies that could fire at ``u`` wherever it moves: (unit, weight, reach)."""
        cfg = self.cfg["move"]
        distance = ctx.board.distance_row(u.cell)  # capped far beyond any reach
        span = 2 * ctx.tables.units[u.type].move  # roads halve costs: the farthest it could go
        candidates = [(e, cfg["fired_enemy"] if e.fired else 1.0) for e in k.foes if e.spotted or ctx.full_view]
        for g in k.ghosts:
            candidates.append((Unit(g["id"], g["type"], other(k.seat), g["cell"], 1), cfg["ghost_threat"]))
        out = []
        for e, w in candidates:
            reach_ = ctx.tables.max_range[(e.type, u.type)] + 1  # +1: firing from higher ground (p.23)
            if reach_ > 1 and distance[e.cell] <= reach_ + span:
                out.append((e, w, reach_))
        return out

    def _exposure(
        self,
        ctx: Ctx,
        k: Know,
        u: Unit,
        cell: int,
        threats: list[tuple[Unit, float, int]],
        sight: Any,
        vis: int,
        shots: dict[tuple[str, int, str, int], int],
    ) -> float:
        """The expected loss of standing at ``cell`` under the fire of the enemies we know of."""
        weight = self.lv["exposure"] * self.cfg["move"]["exposure"]
        if not weight or not threats:
            return 0.0
        distance = ctx.board.distance_row(cell)  # asked of every threat at every cell a unit may go to
        me: Unit | None = None
        loss = 0.0
        for e, w, reach_ in threats:
            if distance[e.cell] > reach_:
                continue
            key = (e.type, e.cell, u.type, cell)  # what the shot's chance and its line of sight depend on
            pct = shots.get(key)
            if pct is None:
                if me is None:
                    me = Unit(u.id, u.type, u.side, cell, u.hp)
                pct = shot_chance(ctx, k.state, e, me) or 0
                if pct and self.lv["use_sight"] and not sight.sees(e.cell, cell, vis):
                    pct = 0
                shots[key] = pct
            if pct:
                loss += w * pct / 100
        return float(weight * min(1.0, loss) * self.value(ctx, u))

    def _shots_kept(self, ctx: Ctx, state: PGState, sight: Any, vis: int) -> dict[tuple[str, int, str, int], int]:
        """The chances of the shots :meth:`_exposure` has weighed (0: none, or out of sight), by firer type and
        location and target type and location: a pure cache, kept while the ruleset, the line of sight, the
        visibility and the terrain (defensive terrain, p.23-24) stand (at most ``SHOTS_KEPT``; one movement part
        asks about the same enemies and locations for unit after unit)."""
        kept = self._shots
        if (
            kept is None
            or kept[0] is not ctx
            or kept[1] is not sight
            or kept[2] != vis
            or kept[3] != state.terrain
            or len(kept[4]) >= SHOTS_KEPT
        ):
            kept = self._shots = (ctx, sight, vis, state.terrain, {})
        return kept[4]


# --- helpers ---------------------------------------------------------------------------------------------------
def _ending(legal: Legal) -> Decision | None:
    """The decision that ends the current part, when there is one."""
    for kind, d in (
        ("done_firing", D.EndFire()),
        ("done_moving", D.EndMovement()),
        ("done_plotting", D.EndPlot()),
        ("done_placing", D.EndPlacement()),
        ("done_buying", D.EndPurchase()),
        ("hold_fire", D.HoldFire()),
    ):
        if legal.of_kind(kind) and d in legal:
            return d
    return None


def _bfs(ctx: Ctx, sources: frozenset[int] | set[int]) -> list[int]:
    """Hex steps from every location to the nearest of ``sources``."""
    n = ctx.board.grid.size
    dist = [n] * n
    frontier = sorted(sources)
    for c in frontier:
        dist[c] = 0
    while frontier:
        nxt = []
        for c in frontier:
            for m in ctx.board.neighbors[c]:
                if dist[m] > dist[c] + 1:
                    dist[m] = dist[c] + 1
                    nxt.append(m)
        frontier = nxt
    return dist


def _dijkstra(costs: Costs, sources: Sequence[int]) -> list[int]:
    """Movement cost from the nearest of ``sources`` to every location (a bucket queue: costs are small; the
    buckets a crossing of the map usually needs are made at once, more when a cost goes past them)."""
    dist = [UNREACHED] * len(costs)
    buckets: list[list[int]] = [[] for _ in range(BUCKETS)]
    buckets[0] = list(sources)
    for c in sources:
        dist[c] = 0
    d = 0
    while d < len(buckets):
        for u in buckets[d]:
            if dist[u] == d:  # else reached more cheaply after it was put in this bucket
                for v, c in costs[u] or steps_of(costs, u):
                    if d + c < dist[v]:
                        dist[v] = nd = d + c
                        try:
                            buckets[nd].append(v)
                        except IndexError:
                            buckets.extend([] for _ in range(nd + 1 - len(buckets)))
                            buckets[nd].append(v)
        d += 1
    return dist


def _river_matters(ctx: Ctx, seat: str) -> bool:
    """Whether engineers are worth buying: the map has ground armour cannot enter (rivers, blown bridges) and
    the side is the one that must cross it to attack. A rough test: it does not look at where the river runs."""
    board = ctx.board
    if not any(ctx.tables.terrain[t].prohibited == ("armor",) for t in set(board.base_terrain)):
        return False
    return seat == "attacker"
