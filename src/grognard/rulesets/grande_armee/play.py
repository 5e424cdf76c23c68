"""The rules of play: zones of control and supply (§3.2, §5.4), movement and its restrictions (§2.3, §2.5,
§5.6), combat (§5.64), reinforce and withdraw (§2.13, §5.65-5.67), building and rallying (§5.5), victory and
military points (§5.2-5.3), muster (§5.4) and siege (§5.7)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from operator import attrgetter

from grognard.engine.decisions import Choice
from grognard.engine.events import Step
from grognard.engine.records import replace

from .board import Board
from .display import power_name, side_name
from .scenario import LEVELS, LGAScenario
from .state import OFF_MAP, SEATS, LGAState, Sighting, Unit
from .tables import Tables


@dataclass(frozen=True, slots=True)
class Ctx:
    board: Board
    tables: Tables
    scenario: LGAScenario

    def side(self, unit: Unit) -> str:
        return self.scenario.side_of[unit.power]

    def powers(self, seat: str) -> list[str]:
        return [p for p, side in self.scenario.side_of.items() if side == seat]

    def emit(self, step: Step, kind: str, text: str, seen_by: Iterable[str] | None = None, **data: object) -> None:
        step.emit(kind, text, seen_by, **data)


def enemy_of(side: str) -> str:
    return "allied" if side == "french" else "french"


def on_map(state: LGAState) -> list[Unit]:
    return [u for u in state.units if u.cell != OFF_MAP]


class Front:
    """One side's units on the map as the other side meets them: the areas they hold, their zone of control, and
    the destinations of the other side's units, which depend on nothing else of the position but the areas whose
    top unit withdrew (§2.13: attacking it costs two moves). Positions alike in these share one front."""

    __slots__ = ("_cells", "_zoc", "moves", "ordered", "ordered_at", "reach", "units", "units_at", "withdrawn")

    def __init__(self, units: tuple[Unit, ...], withdrawn: frozenset[int]) -> None:
        self.units = units
        self.withdrawn = withdrawn
        self._cells: frozenset[int] | None = None
        self._zoc: frozenset[int] | None = None
        self.ordered: tuple[Unit, ...] | None = None  # ``in_order``, once asked for
        # where each unit stands in ``units`` and in ``ordered``, by ID, once asked for: a front made from this one by
        # putting changed units in their old places shares them
        self.units_at: dict[str, int] | None = None
        self.ordered_at: dict[str, int] | None = None
        # an enemy unit's destinations (``destinations``), by the unit object's identity (hashing a unit reads its
        # 17 fields); the unit is kept beside them, so its identity is not reused meanwhile
        self.reach: dict[int, tuple[Unit, list[int]]] = {}
        # an enemy unit's family of legal moves (``rules``), kept alike: it reads nothing else (FAMILIES_KEPT)
        self.moves: dict[int, tuple[Unit, Choice]] = {}

    def cells(self) -> frozenset[int]:
        if self._cells is None:
            self._cells = frozenset(u.cell for u in self.units)
        return self._cells

    def zoc(self, ctx: Ctx) -> frozenset[int]:
        if self._zoc is None:
            self._zoc = _zoc(ctx, self.units)
        return self._zoc

    def in_order(self, ctx: Ctx) -> tuple[Unit, ...]:
        """The units in the order a player's units are listed: by type (the tables' order), then by ID."""
        if self.ordered is None:
            kinds = ctx.tables.units
            self.ordered = tuple(sorted(self.units, key=lambda u: (kinds[u.type].order, u.id)))
        return self.ordered

    def patched(self, changed: list[Unit], withdrawn: frozenset[int]) -> Front:
        """This front with each unit of ``changed`` in the place of the one of its ID (the same units otherwise)."""
        at = self.units_at
        if at is None:
            at = self.units_at = {u.id: i for i, u in enumerate(self.units)}
        units = list(self.units)
        for u in changed:
            units[at[u.id]] = u
        front = Front(tuple(units), withdrawn)
        front.units_at = at
        ordered = self.ordered
        if ordered is not None:
            ordered_at = self.ordered_at
            if ordered_at is None:
                ordered_at = self.ordered_at = {u.id: i for i, u in enumerate(ordered)}
            listed = list(ordered)
            for u in changed:
                listed[ordered_at[u.id]] = u
            front.ordered, front.ordered_at = tuple(listed), ordered_at
        return front


class Standing:
    """Who stands where, worked out once for one tuple of units: the rules ask it again and again of one position
    (every unit's destinations and reactions, the sequence, the prompt), and a decision that moves no unit keeps
    the tuple. Each answer is worked out when first asked for, or taken from ``last`` (the position asked about
    before) where the units it reads are the same: a decision changes a unit or two. A side's :class:`Front` is the
    one of the position asked about before when that side's units and withdrawn tops are the same."""

    __slots__ = (
        "_at",
        "_ctx",
        "_fronts",
        "_garrisons",
        "_prior",
        "_stacks",
        "_tops",
        "_withdrawn",
        "_withdrew",
        "changes",
        "units",
    )

    def __init__(self, ctx: Ctx, units: tuple[Unit, ...], last: Standing | None = None) -> None:
        self._ctx = ctx
        self.units = units
        self._prior = dict(last._fronts) if last is not None else {}
        self._fronts: dict[str, Front] = {}
        self._stacks: dict[int, list[Unit]] | None = None
        self._tops: dict[int, Unit | None] = {}
        self._withdrawn: frozenset[int] | None = None
        self._withdrew: frozenset[int] | None = None
        self._at: dict[str, int] | None = None  # where each unit stands in ``units``, by ID
        self._garrisons: frozenset[int] | None = None
        # the units of ``last`` and each (old, new) pair of units that differ, when they are the same units in the
        # same places: a decision changes a unit or two
        self.changes: tuple[tuple[Unit, ...], list[tuple[Unit, Unit]]] | None = None
        if last is not None and len(last.units) == len(units):
            self._take(last)

    def _take(self, last: Standing) -> None:
        """What ``last`` worked out that the units changed since leave as it was: the units by ID, the stacks (a
        changed unit in place of its old self), the tops of the other areas, the withdrawn tops if no unit that
        withdrew is involved, and each side's front (the untouched side's as it was, the other's units patched)."""
        pairs = [(a, b) for a, b in zip(last.units, self.units, strict=True) if a is not b]
        if len(pairs) > CHANGED_AT_MOST:  # another position than the one it was made from (a search visits many)
            return
        cells = set()
        for a, b in pairs:
            if a.id != b.id:
                return  # not the same units in the same places
            cells.add(a.cell)
            cells.add(b.cell)
        self.changes = (last.units, pairs)
        self._at = last._at  # the same units in the same places
        if last._garrisons is not None and not any(a.garrison or b.garrison for a, b in pairs):
            self._garrisons = last._garrisons
        if last._stacks is not None:
            stacks = dict(last._stacks)
            for a, b in pairs:
                stacks[a.cell] = [x for x in stacks[a.cell] if x is not a]
                stacks[b.cell] = [*stacks.get(b.cell, ()), b]
            self._stacks = stacks
            tops = self._tops = last._tops.copy()
            for c in cells:
                tops.pop(c, None)
        if last._withdrew is None or last._withdrawn is None:
            return
        if cells & last._withdrew or any(a.withdrew or b.withdrew for a, b in pairs):
            return
        self._withdrew, self._withdrawn = last._withdrew, last._withdrawn
        side_of = self._ctx.scenario.side_of
        if any(side_of[a.power] != side_of[b.power] or (a.cell == OFF_MAP) != (b.cell == OFF_MAP) for a, b in pairs):
            return  # a unit entered or left the map: its side's units are listed afresh
        for side, front in last._fronts.items():
            changed = [b for a, b in pairs if a.cell != OFF_MAP and side_of[a.power] == side]
            self._fronts[side] = front.patched(changed, self._withdrawn) if changed else front

    def garrisons(self) -> frozenset[int]:
        """The areas that hold a garrison (§3.6)."""
        if self._garrisons is None:
            self._garrisons = frozenset(u.cell for u in self.units if u.garrison and u.cell != OFF_MAP)
        return self._garrisons

    def unit(self, uid: str) -> Unit | None:
        i = self._places().get(uid)
        return None if i is None else self.units[i]

    def units_with(self, unit: Unit) -> tuple[Unit, ...]:
        """The units with ``unit`` in the place of the one of its ID (``LGAState.units_with``, by the kept places)."""
        i = self._places().get(unit.id)
        units = self.units
        return units if i is None else (*units[:i], unit, *units[i + 1 :])

    def _places(self) -> dict[str, int]:
        if self._at is None:
            self._at = {u.id: i for i, u in enumerate(self.units)}
        return self._at

    def front(self, side: str) -> Front:
        found = self._fronts.get(side)
        if found is None:
            side_of = self._ctx.scenario.side_of
            mine = tuple(u for u in self.units if u.cell != OFF_MAP and side_of[u.power] == side)
            withdrawn = self.withdrawn()
            prior = self._prior.get(side)
            if prior is not None and prior.units == mine and prior.withdrawn == withdrawn:
                found = prior
            else:
                found = Front(mine, withdrawn)
            self._fronts[side] = found
        return found

    def side(self, side: str) -> tuple[Unit, ...]:
        return self.front(side).units

    def cells(self, side: str) -> frozenset[int]:
        return self.front(side).cells()

    def zoc(self, side: str) -> frozenset[int]:
        return self.front(side).zoc(self._ctx)

    def withdrawn(self) -> frozenset[int]:
        """Areas whose top unit withdrew this season (§2.13)."""
        if self._withdrawn is None:
            self._withdrew = frozenset(u.cell for u in self.units if u.withdrew and u.cell != OFF_MAP)
            self._withdrawn = frozenset(c for c in self._withdrew if getattr(self.top(c), "withdrew", False))
        return self._withdrawn

    def at(self, cell: int) -> list[Unit]:
        """The units in ``cell``, in no particular order (a stack's order is :func:`stack_order`'s)."""
        if self._stacks is None:
            stacks: dict[int, list[Unit]] = {}
            for u in self.units:
                stacks.setdefault(u.cell, []).append(u)
            self._stacks = stacks
        return self._stacks.get(cell, [])

    def top(self, cell: int) -> Unit | None:
        if cell in self._tops:
            return self._tops[cell]
        stack = self.at(cell)
        found = self._tops[cell] = stack_order(self._ctx, stack)[0] if stack else None
        return found


CHANGED_AT_MOST = 8  # a Standing is taken from the last one when at most this many units differ
SIGHTING_KEY = attrgetter("seat", "unit")
STANDINGS_KEPT = 8  # a search step and the sequence's look-ahead ask of a few positions in turn


def standing(ctx: Ctx, state: LGAState) -> Standing:
    """The :class:`Standing` of ``state``'s units, kept for the last few tuples of units asked about."""
    kept = ctx.board.standings
    units = state.units
    found = kept.get(id(units))
    if found is None or found.units is not units:
        last = next(reversed(kept.values()), None)
        if len(kept) >= STANDINGS_KEPT:
            del kept[next(iter(kept))]
        found = kept[id(units)] = Standing(ctx, units, last)
    return found


def units_at(state: LGAState, cell: int) -> list[Unit]:
    return [u for u in state.units if u.cell == cell]


def side_units(ctx: Ctx, state: LGAState, side: str) -> tuple[Unit, ...]:
    return standing(ctx, state).side(side)


def occupied(ctx: Ctx, state: LGAState, side: str) -> frozenset[int]:
    """Areas holding units of ``side``."""
    return standing(ctx, state).cells(side)


# --- stacking (§3.5) ---------------------------------------------------------------------------------------
def stack_order(ctx: Ctx, units: list[Unit]) -> list[Unit]:
    """A stack top first (:func:`stack_rank`)."""
    return sorted(units, key=lambda u: stack_rank(u.type, u.garrison, u.stack, u.id))


def stack_rank(unit_type: str, garrison: bool, stack: int, uid: str) -> tuple[int, int, str]:
    """A unit's place in its stack, the lowest on top: field units by arrival (last on top), then garrisons, then
    HQs (§3.5)."""
    return (2 if unit_type == "hq" else 1 if garrison else 0, -stack, uid)


def top_unit(ctx: Ctx, state: LGAState, cell: int) -> Unit | None:
    """The unit an attack on ``cell`` meets, and the one the enemy sees (§3.5)."""
    return standing(ctx, state).top(cell)


def tops(ctx: Ctx, state: LGAState, cells: Collection[int] | None = None) -> dict[int, Unit]:
    """The unit on top of each stack on the map (of the stacks in ``cells``, if given)."""
    st = standing(ctx, state)
    if cells is None:
        cells = {u.cell for u in st.units if u.cell != OFF_MAP}
    found = {c: st.top(c) for c in cells if c != OFF_MAP}
    return {c: u for c, u in found.items() if u is not None}


# --- zones of control and supply (§3.2, §5.4) -----------------------------------------------------------------
def zoc(ctx: Ctx, state: LGAState, side: str) -> frozenset[int]:
    """Land areas in the zone of control of ``side``'s units: next to a unit that exerts one, not a garrison, not
    an HQ, not at sea (§3.2: "Units exert a ZOC into adjacent land areas")."""
    return standing(ctx, state).zoc(side)


def _zoc(ctx: Ctx, units: Iterable[Unit]) -> frozenset[int]:
    board = ctx.board
    kinds = ctx.tables.units
    out: set[int] = set()
    for u in units:
        if u.garrison or not kinds[u.type].zoc or u.cell in board.sea:
            continue
        out.update(board.land_neighbors[u.cell])
    return frozenset(out)


def supply_sources(ctx: Ctx, state: LGAState, side: str) -> set[int]:
    """§2.3, §5.4: Paris for the French; for the Allies any capital of an allied power they hold but Madrid
    (a captured capital is no source: §2.3 "occupying an enemy countries' capital will ... eliminate it as a
    source of supply"), and ports with a British garrison."""
    board = ctx.board
    enemy_cells = occupied(ctx, state, enemy_of(side))
    allies = ctx.powers(side)
    out: set[int] = set()
    for cell, place in board.capitals.items():
        if state.control[cell] != side or cell in enemy_cells:
            continue
        if side == "french" and place.name == "Paris":
            out.add(cell)
        if side == "allied" and place.name != "Madrid" and _home_power(ctx, cell) in allies:
            out.add(cell)
    if side == "allied":
        for u in side_units(ctx, state, side):
            if u.power == "britain" and u.garrison and u.cell in board.ports and u.cell not in enemy_cells:
                out.add(u.cell)
    return out


def supplied_areas(ctx: Ctx, state: LGAState, side: str) -> frozenset[int]:
    """Areas joined to a source by controlled areas free of enemy units; supply enters an enemy ZOC but does
    not pass through it, even where a friendly unit stands (§5.4)."""
    board = ctx.board
    enemy_cells = occupied(ctx, state, enemy_of(side))
    enemy_zoc = zoc(ctx, state, enemy_of(side))
    sources = sorted(supply_sources(ctx, state, side))
    seen = set(sources)
    frontier = list(sources)
    while frontier:
        a = frontier.pop()
        if a in enemy_zoc and a not in sources:
            continue
        for b in board.neighbors[a]:
            if b in seen or state.control[b] != side or b in enemy_cells:
                continue
            seen.add(b)
            frontier.append(b)
    return frozenset(seen)


def in_supply(ctx: Ctx, state: LGAState, unit: Unit, areas: frozenset[int]) -> bool:
    """§5.4: Spanish units are never out of supply; Russians in the Hinterland always in supply. British units
    at sea are supplied by the fleet (docs/rules/grande-armee.md)."""
    if unit.power == "spain":
        return True
    if unit.power == "russia" and unit.cell in ctx.board.hinterland:
        return True
    if unit.cell in ctx.board.sea:
        return True
    return unit.cell in areas


# --- victory and military points (§5.2-5.3) -------------------------------------------------------------------
def city_value(ctx: Ctx, cell: int, side: str) -> int:
    """§2.3, §5.2: friendly capitals 4 and major cities 2; occupied enemy (and minor countries') ones 1."""
    kind = ctx.board.kind(cell)
    if kind not in ("capital", "major"):
        return 0
    home = [p for p in ctx.powers(side) if p == _home_power(ctx, cell)]
    vp = ctx.tables.vp
    if home:
        return vp["friendly_capital"] if kind == "capital" else vp["friendly_major_city"]
    return vp["enemy_capital"] if kind == "capital" else vp["enemy_major_city"]


def _home_power(ctx: Ctx, cell: int) -> str:
    """The major power a city belongs to, or "" for the minor countries' cities."""
    place = ctx.board.places[cell]
    return str(place.data.get("country", ""))


def victory_points(ctx: Ctx, state: LGAState, side: str, country: str | None = None) -> int:
    total = 0
    for cell in ctx.board.places:
        if state.control[cell] == side and (country is None or ctx.board.country.get(cell) == country):
            total += city_value(ctx, cell, side)
    return total


def level(ctx: Ctx, side: str, vp: int) -> str:
    """§5.2: the highest level whose threshold the VPs reach; below SD is Absolute Defeat (AD)."""
    thresholds = ctx.scenario.spec.victory[side]
    found = "AD"
    for name, need in zip(LEVELS, thresholds, strict=True):
        if vp >= need:
            found = name
    return found


LEVEL_RANK = {"AD": 0, **{name: i + 1 for i, name in enumerate(LEVELS)}}


def count_victory_points(ctx: Ctx, state: LGAState, step: Step) -> LGAState:
    """Phase I (§5.2)."""
    vp = tuple((s, victory_points(ctx, state, s)) for s in ("french", "allied"))
    text = ", ".join(f"{side_name(s)} {v} VP ({level(ctx, s, v)})" for s, v in vp)
    when = "Victory points" if state.seat else "The final count of victory points"
    ctx.emit(step, "victory_points", f"{when}: {text}", None, vp=dict(vp))
    return replace(state, vp=vp)


def allocate_military_points(ctx: Ctx, state: LGAState, step: Step) -> LGAState:
    """Phase II, spring (§5.3): one MP per VP plus one per four unspent; Austria, Prussia, Russia and Spain from
    the VPs inside their borders only; what the Allies hold elsewhere goes to Britain."""
    side = state.seat
    per_vp = ctx.tables.mp["per_victory_point"]
    per_unspent = ctx.tables.mp["unspent_per_point"]
    powers = ctx.powers(side)
    bordered = ctx.tables.mp_from_own_borders
    for power in powers:
        if side == "french":
            vp = victory_points(ctx, state, side)
        elif power in bordered:
            vp = victory_points(ctx, state, side, power)
        elif power == "britain":
            vp = victory_points(ctx, state, side) - sum(
                victory_points(ctx, state, side, p) for p in powers if p in bordered
            )
        else:
            vp = 0
        old = state.points(power)
        gain = vp * per_vp + old // per_unspent
        state = state.with_points(power, old + gain)
        ctx.emit(
            step,
            "military_points",
            f"{power_name(power)} receives {gain} MPs ({vp} VPs, {old} unspent)",
            None,
            power=power,
            gain=gain,
        )
    return state


# --- movement (§2.3, §2.5, §3.2, §5.6) ------------------------------------------------------------------------
def may_enter(ctx: Ctx, unit: Unit, cell: int) -> bool:
    """Movement restrictions (§2.5) and the areas nobody enters (§2.2, §2.4: prohibited ones). Neutral areas are
    open: §2.5 lists every restriction, and moving in takes control (§2.4; docs/rules/grande-armee.md)."""
    board = ctx.board
    if cell in board.prohibited:
        return False
    if cell in board.sea:
        # §2.3: only British units move across sea areas; §2.5: no British units in the Baltic
        return unit.power == "britain" and board.terrain[cell] != "baltic"
    if unit.power == "france" and cell in board.hinterland:  # §2.5
        return False
    return not (
        unit.power == "spain" and unit.type == "militia" and board.country.get(cell) not in ("spain", "portugal")
    )


def sea_reach(ctx: Ctx, unit: Unit) -> list[int]:
    """The sea areas a British unit at sea may sail to, at no cost, through sea areas it may enter (§2.3)."""
    board = ctx.board
    seen = {unit.cell}
    frontier = [unit.cell]
    while frontier:
        a = frontier.pop()
        for b in board.sea_neighbors(a):
            if b not in seen and may_enter(ctx, unit, b):
                seen.add(b)
                frontier.append(b)
    seen.discard(unit.cell)
    return sorted(seen)


def can_attack(ctx: Ctx, unit: Unit) -> bool:
    """§5.64: demoralised units (morale 0) cannot initiate attacks; §5.4: unsupplied units cannot attack."""
    return unit.morale > 0 and unit.supplied and unit.cell not in ctx.board.sea


def step_cost(ctx: Ctx, unit: Unit, to: int, enemy_zoc: frozenset[int]) -> int:
    """Moves to step into ``to``: the terrain's cost (§2.3) plus one to leave an enemy ZOC (§3.2); entering or
    leaving the sea takes all remaining moves (§2.3)."""
    board = ctx.board
    if to in board.sea or unit.cell in board.sea:
        return unit.moves
    cost = board.enter_cost(to)
    if unit.cell in enemy_zoc:
        cost += ctx.tables.zoc_exit_cost
    return cost


def destinations(ctx: Ctx, state: LGAState, unit: Unit) -> list[int]:
    """Every area ``unit`` may move into or attack now."""
    if unit.cell == OFF_MAP or unit.fixed or unit.moves <= 0 or not unit.supplied:
        return []
    front = standing(ctx, state).front(enemy_of(ctx.side(unit)))
    found = front.reach.get(id(unit))
    if found is None:
        found = front.reach[id(unit)] = (unit, _destinations(ctx, unit, front))
    return list(found[1])


def _destinations(ctx: Ctx, unit: Unit, front: Front) -> list[int]:
    board = ctx.board
    enemy_cells, enemy_zoc = front.cells(), front.zoc(ctx)
    out: set[int] = set()
    at_sea = unit.cell in board.sea
    if at_sea and not unit.sailed:
        out.update(sea_reach(ctx, unit))
    for n in board.neighbors[unit.cell]:
        if not may_enter(ctx, unit, n):
            continue
        if n in enemy_cells:
            cost = ctx.tables.withdrawn_attack_cost if n in front.withdrawn else 1
            if can_attack(ctx, unit) and unit.moves >= cost:
                out.add(n)
            continue
        if n in board.sea and at_sea:
            continue  # sailing is sea_reach's
        if unit.moves >= step_cost(ctx, unit, n, enemy_zoc):
            out.add(n)
    return sorted(out)


def move(ctx: Ctx, state: LGAState, step: Step, uid: str, to: int) -> LGAState:
    st = standing(ctx, state)
    unit = st.unit(uid)
    if unit is None:
        raise KeyError(uid)
    side = ctx.side(unit)
    board = ctx.board
    if to in occupied(ctx, state, enemy_of(side)):
        return attack(ctx, state, step, uid, to)
    at_sea = unit.cell in board.sea
    cost = step_cost(ctx, unit, to, zoc(ctx, state, enemy_of(side)))
    sailed = unit.sailed or (at_sea and to in board.sea)
    if at_sea and to in board.sea:
        cost = 0
    left = unit.moves - cost
    serial = state.serial + 1
    unit = replace(unit, cell=to, moves=left, garrison=False, stack=serial, sailed=sailed)
    control = state.control
    if to in board.land and ctx.tables.units[unit.type].control and control[to] != side:  # §2.4
        control = (*control[:to], side, *control[to + 1 :])
    ctx.emit(step, "move", f"{uid} moves to {board.where(to)}", (side,), unit=uid, to=to)
    # §5.61: a move that spends the unit's last move (embarking and landing spend all, §2.3) is a long march;
    # any other move, sailing included, faces the fog of war (§5.63)
    unit = long_march(ctx, state, step, unit) if left <= 0 else fog_of_war(ctx, step, unit)
    return replace(state, serial=serial, control=control, units=st.units_with(unit))


def fog_of_war(ctx: Ctx, step: Step, unit: Unit) -> Unit:
    """§5.63: after every move, 2% to lose all remaining moves, 3% to lose one."""
    side = ctx.scenario.side_of[unit.power]
    roll = step.roll(100, f"fog of war after {unit.id}'s move", (side,))  # the mover's move is hidden: so is its roll
    if roll <= ctx.tables.fog_lose_all:
        ctx.emit(step, "fog_of_war", f"{unit.id} loses its remaining moves (fog of war)", (side,), unit=unit.id)
        return replace(unit, moves=0)
    if roll <= ctx.tables.fog_lose_all + ctx.tables.fog_lose_one:
        ctx.emit(step, "fog_of_war", f"{unit.id} loses a move (fog of war)", (side,), unit=unit.id)
        return replace(unit, moves=max(0, unit.moves - 1))
    return unit


def long_march(ctx: Ctx, state: LGAState, step: Step, unit: Unit) -> Unit:
    """§5.61-5.62: a unit that uses its whole movement allowance rolls on the long march fatigue table."""
    if not ctx.tables.units[unit.type].long_march:
        return unit
    side = ctx.scenario.side_of[unit.power]
    roll = step.roll(6, f"long march of {unit.id}", (side,))
    total = roll - unit.fatigue + (ctx.tables.long_march_mods["winter"] if is_winter(ctx, state) else 0)
    added = ctx.tables.long_march.read(total)
    text = f"{unit.id}: long march, die {roll}, total {total}: fatigue +{added}"
    ctx.emit(step, "long_march", text, (side,), unit=unit.id, roll=roll, total=total, added=added)
    return replace(unit, fatigue=unit.fatigue + added)


def is_winter(ctx: Ctx, state: LGAState) -> bool:
    return ctx.tables.seasons[state.season] == "winter"


# --- combat (§5.64) ---------------------------------------------------------------------------------------------
def hq_bonus(ctx: Ctx, state: LGAState, cell: int, side: str) -> int:
    """§5.64: the HQ's modifier counts when it is in the unit's area; with several, the best one."""
    return max((u.bonus for u in units_at(state, cell) if u.type == "hq" and ctx.side(u) == side), default=0)


def combat_modifier(ctx: Ctx, state: LGAState, attacker: Unit, defender: Unit) -> tuple[int, list[str]]:
    """The sum of the combat modifiers of §5.64 (and §3.3 for cavalry), with the names of those that apply."""
    total = attacker.morale - attacker.fatigue - defender.morale + defender.fatigue
    total += hq_bonus(ctx, state, attacker.cell, ctx.side(attacker))
    total -= hq_bonus(ctx, state, defender.cell, ctx.side(defender))
    more, notes = situation_modifier(ctx, attacker, defender)
    return total + more, notes


def situation_modifier(ctx: Ctx, attacker: Unit, defender: Unit) -> tuple[int, list[str]]:
    """The modifiers of §5.64 that come from the units' kinds and the ground: garrison, river, cavalry, forest,
    mountains, marsh."""
    m = ctx.tables.combat_mods
    board = ctx.board
    cav = attacker.type == "cavalry"
    if defender.garrison:  # "no modifiers below apply", but §3.3 repeats cavalry's -2 against garrisons
        if cav:
            return m["garrison"] + m["cavalry_vs_garrison"], ["garrison", "cavalry_vs_garrison"]
        return m["garrison"], ["garrison"]
    terrain = board.terrain[defender.cell]
    checks = (
        ("across_river", board.river(attacker.cell, defender.cell)),
        ("cavalry_into_forest", cav and terrain == "forest"),
        ("cavalry_defending_forest", defender.type == "cavalry" and terrain == "forest"),
        ("cavalry_vs_lower_morale", cav and defender.morale < attacker.morale),
        ("into_mountains", terrain == "mountain"),
        ("into_marsh", terrain == "marsh"),
        ("from_marsh", board.terrain[attacker.cell] == "marsh"),
    )
    total = 0
    notes = []
    for name, applies in checks:
        if applies:
            total += m[name]
            notes.append(name)
    return total, notes


def expected_losses(ctx: Ctx, modifier: int) -> tuple[int, int]:
    """Morale the attacker and the defender lose over the six faces of the die, at a total modifier (§5.64)."""
    t = ctx.tables
    rolls = range(1, 7)
    return (
        sum(t.combat_attacker.read(r + modifier) for r in rolls),
        sum(t.combat_defender.read(r + modifier) for r in rolls),
    )


def attack(ctx: Ctx, state: LGAState, step: Step, uid: str, to: int) -> LGAState:
    attacker = state.unit(uid)
    defender = top_unit(ctx, state, to)
    assert defender is not None
    cost = ctx.tables.withdrawn_attack_cost if defender.withdrew else 0  # §2.13
    serial = state.serial + 1
    # the attacker stays in its area, a garrison still (§3.6: a garrison ends only by moving out), on top
    attacker = replace(attacker, moves=attacker.moves - cost, stack=serial)
    state = replace(state.with_unit(attacker), serial=serial, attacked=True, secret=(), secret_control=())
    modifier, notes = combat_modifier(ctx, state, attacker, defender)
    roll = step.roll(6, f"combat of {attacker.id} against {defender.id}")  # the combat is announced to all
    total = roll + modifier
    a_loss = ctx.tables.combat_attacker.read(total)
    d_loss = ctx.tables.combat_defender.read(total)
    result = ["A3", "A2", "A1", "S1", "D1", "D2", "D3"][min(max(total, 1), 7) - 1]
    ctx.emit(
        step,
        "combat",
        f"{attacker.id} attacks {defender.id} at {ctx.board.where(to)}: die {roll} {modifier:+d} = {total}: {result}",
        None,
        attacker=attacker.id,
        defender=defender.id,
        cell=to,
        roll=roll,
        modifier=modifier,
        modifiers=notes,
        total=total,
        result=result,
    )
    state = reveal(ctx, state, attacker)  # the combat names the attacker to all, a garrison under others too
    fat = ctx.tables.combat_fatigue
    state = lose_morale(ctx, state, step, replace(attacker, fatigue=attacker.fatigue + fat), a_loss)
    return lose_morale(ctx, state, step, replace(defender, fatigue=defender.fatigue + fat), d_loss)


def lose_morale(
    ctx: Ctx, state: LGAState, step: Step, unit: Unit, loss: int, seen: Iterable[str] | None = None
) -> LGAState:
    """Morale 0 is demoralised; below 0 the unit is destroyed and may be rebuilt (§5.64)."""
    morale = unit.morale - loss
    if morale < 0:
        ctx.emit(step, "destroyed", f"{unit.id} is destroyed", seen, unit=unit.id)
        return state.with_unit(destroyed(unit))
    return state.with_unit(replace(unit, morale=morale))


def destroyed(unit: Unit) -> Unit:
    return Unit(unit.id, unit.power, unit.type, OFF_MAP, bonus=unit.bonus)


# --- reinforce and withdraw (§2.13, §5.65-5.67) ---------------------------------------------------------------
def reaction_moves(ctx: Ctx, state: LGAState, unit: Unit, withdraw: bool) -> list[int]:
    """One area, through controlled areas, under the normal restrictions; a reinforcement goes from outside an
    enemy ZOC into one, a withdrawal from inside one to outside; no British unit into the sea (§2.13)."""
    front = standing(ctx, state).front(enemy_of(ctx.side(unit)))
    return reaction_moves_by(ctx, unit, withdraw, front, state.control)


def reaction_moves_by(ctx: Ctx, unit: Unit, withdraw: bool, enemy: Front, control: tuple[str, ...]) -> list[int]:
    """:func:`reaction_moves` given the enemy's front and who controls each area: all it reads of the position."""
    board = ctx.board
    # §5.4: a unit that began its turn this season out of supply cannot move for the entire season
    if unit.cell == OFF_MAP or unit.reacted or unit.fixed or not unit.supplied or unit.cell in board.sea:
        return []
    side = ctx.side(unit)
    enemy_zoc = enemy.zoc(ctx)
    if (unit.cell in enemy_zoc) != withdraw:
        return []
    enemy_cells = enemy.cells()
    out = []
    for n in board.neighbors[unit.cell]:
        if n in board.sea or n in enemy_cells or control[n] != side or not may_enter(ctx, unit, n):
            continue
        if (n in enemy_zoc) != withdraw:
            out.append(n)
    return out


def reinforce(ctx: Ctx, state: LGAState, step: Step, uid: str, to: int) -> LGAState:
    unit = state.unit(uid)
    side = ctx.side(unit)
    mods = ctx.tables.reinforcement_mods
    # a failed reinforcement names no unit to the enemy, so neither does its roll
    roll = step.roll(6, f"reinforcement by {uid}", (side,))
    total = roll + unit.morale + mods.get(unit.type, 0)  # §5.67: -2 militia, +1 cavalry
    if ctx.tables.reinforcement.read(total):
        text = f"{uid} fails to reinforce (die {roll}, total {total})"
        ctx.emit(step, "reinforce_failed", text, (side,), unit=uid, roll=roll, total=total)
        ctx.emit(step, "reinforce_failed", "an enemy reinforcement fails to arrive", [s for s in SEATS if s != side])
        return state.with_unit(replace(unit, reacted=True))
    serial = state.serial + 1
    text = f"{uid} reinforces {ctx.board.where(to)} (die {roll}, total {total})"
    ctx.emit(step, "reinforce", text, None, unit=uid, to=to, roll=roll, total=total)
    unit = replace(unit, cell=to, reacted=True, garrison=False, stack=serial)
    return reveal(ctx, replace(state.with_unit(unit), serial=serial), unit)


def withdraw(ctx: Ctx, state: LGAState, step: Step, uid: str, to: int) -> LGAState:
    unit = state.unit(uid)
    board = ctx.board
    serial = state.serial + 1
    moved = replace(unit, cell=to, reacted=True, withdrew=True, garrison=False, stack=serial)
    state = reveal(ctx, replace(state.with_unit(moved), serial=serial), moved)
    ctx.emit(step, "withdraw", f"{uid} withdraws to {board.where(to)}", None, unit=uid, to=to)
    if not ctx.tables.units[unit.type].rout:
        return state
    mods = ctx.tables.rout_mods
    roll = step.roll(6, f"rout of {uid}")  # the withdrawal and its rout are announced to all
    total = roll + unit.morale
    if board.river(unit.cell, to):
        total += mods["over_river"]
    if board.terrain[to] == "marsh":
        total += mods["into_marsh"]
    loss = ctx.tables.rout.read(total)
    text = f"{uid}: rout roll, die {roll}, total {total}: morale -{loss}"
    ctx.emit(step, "rout", text, None, unit=uid, roll=roll, total=total, loss=loss)
    return lose_morale(ctx, state, step, moved, loss)


def reveal(ctx: Ctx, state: LGAState, unit: Unit) -> LGAState:
    """The other seats see ``unit`` where it now stands (it moved in front of them), on top or not."""
    return record_sightings(state, [(seat, unit) for seat in SEATS if seat != ctx.side(unit)])


def record_sightings(state: LGAState, seen: list[tuple[str, Unit]]) -> LGAState:
    """Remember that each seat saw each unit where it stands now (the sightings, made here alone, stay in the order
    of seat and unit, one a pair)."""
    if not seen:
        return state
    fresh = {(seat, u.id): Sighting(seat, u.id, u.cell, u.type, u.power, state.year, state.season) for seat, u in seen}
    # the sightings are kept in the order of (seat, unit): each fresh one takes the place of the seat's sighting of
    # that unit, or goes in where that order puts it
    merged = list(state.sightings)
    for key, sighting in sorted(fresh.items()):
        i = bisect_left(merged, key, key=SIGHTING_KEY)
        if i < len(merged) and SIGHTING_KEY(merged[i]) == key:
            merged[i] = sighting
        else:
            merged.insert(i, sighting)
    return replace(state, sightings=tuple(merged))


def set_top(ctx: Ctx, state: LGAState, step: Step, uid: str) -> LGAState:
    serial = state.serial + 1
    unit = replace(state.unit(uid), stack=serial, reacted=True)
    ctx.emit(step, "set_top", f"{uid} goes on top at {ctx.board.where(unit.cell)}", None, unit=uid)
    return replace(state.with_unit(unit), serial=serial)


def top_candidates(ctx: Ctx, state: LGAState, side: str) -> list[str]:
    """Field units of ``side`` that may be put on top of their stack (not already there, §3.5, §5.65)."""
    st = standing(ctx, state)
    out = []
    for u in st.side(side):
        if u.reacted or u.garrison or u.type == "hq" or u.cell in ctx.board.sea:
            continue
        top = st.top(u.cell)
        if top is not None and top.id != u.id and len(st.at(u.cell)) > 1:
            out.append(u.id)
    return out


# --- build and rally (§5.5) -------------------------------------------------------------------------------------
def build_sites(ctx: Ctx, state: LGAState, unit: Unit) -> list[int]:
    """§2.3: a controlled capital of the unit's country free of enemy units; Spain any controlled Spanish city;
    Russia either capital."""
    board = ctx.board
    side = ctx.side(unit)
    enemy_cells = occupied(ctx, state, enemy_of(side))
    out = []
    for cell, place in board.places.items():
        if state.control[cell] != side or cell in enemy_cells or board.country.get(cell) != unit.power:
            continue
        if place.kind == "capital" or (unit.power == "spain"):
            out.append(cell)
    return sorted(out)


def buildable(ctx: Ctx, state: LGAState, seat: str) -> list[Unit]:
    powers = ctx.powers(seat)
    return [
        u
        for u in state.units
        if u.cell == OFF_MAP
        and u.power in powers
        and u.year <= state.year
        and state.points(u.power) >= ctx.tables.units[u.type].cost
    ]


def build(ctx: Ctx, state: LGAState, step: Step, uid: str, at: int) -> LGAState:
    unit = state.unit(uid)
    ut = ctx.tables.units[unit.type]
    serial = state.serial + 1
    fixed = unit.id == "Napoleon" and napoleon_in_paris(ctx, state)  # rebuilt in Paris, he stays there (§6.0)
    new = replace(
        unit, cell=at, morale=ut.max_morale, fatigue=0, moves=0, stack=serial, supplied=True, rallied=True, fixed=fixed
    )
    state = state.with_points(unit.power, state.points(unit.power) - ut.cost)
    ctx.emit(step, "build", f"{uid} built at {ctx.board.where(at)}", (ctx.side(unit),), unit=uid, at=at)
    return replace(state.with_unit(new), serial=serial)


def napoleon_in_paris(ctx: Ctx, state: LGAState) -> bool:
    """Whether scenario 3's special rule now keeps Napoleon in Paris (§6.0)."""
    when = ctx.scenario.spec.special.get("napoleon_returns")
    return when is not None and (state.year, state.season) >= (when[1], ctx.tables.seasons.index(when[0]))


def rally_cost(ctx: Ctx, unit: Unit) -> int | None:
    if unit.cell == OFF_MAP or unit.rallied or unit.morale >= ctx.tables.units[unit.type].max_morale:
        return None
    return ctx.tables.rally_cost.get(unit.morale)


def rallyable(ctx: Ctx, state: LGAState, seat: str) -> list[str]:
    out = []
    for u in side_units(ctx, state, seat):
        cost = rally_cost(ctx, u)
        if cost is not None and state.points(u.power) >= cost:
            out.append(u.id)
    return out


def rally(ctx: Ctx, state: LGAState, step: Step, uid: str) -> LGAState:
    unit = state.unit(uid)
    cost = rally_cost(ctx, unit)
    assert cost is not None
    state = state.with_points(unit.power, state.points(unit.power) - cost)
    ctx.emit(step, "rally", f"{uid} rallies to morale {unit.morale + 1}", (ctx.side(unit),), unit=uid)
    return state.with_unit(replace(unit, morale=unit.morale + 1, rallied=True))


def aid_targets(ctx: Ctx, state: LGAState, seat: str) -> list[str]:
    """§5.5: Britain, if active, may give military points to any other allied power."""
    if seat != "allied" or "britain" not in ctx.powers(seat) or state.points("britain") <= 0:
        return []
    return [p for p in ctx.powers(seat) if p != "britain"]


def aid(ctx: Ctx, state: LGAState, step: Step, power: str) -> LGAState:
    state = state.with_points("britain", state.points("britain") - 1)
    ctx.emit(step, "aid", f"Britain gives 1 MP to {power_name(power)}", ("allied",), power=power)
    return state.with_points(power, state.points(power) + 1)


# --- muster, supply check and siege (§5.4, §5.7) ----------------------------------------------------------------
def muster_modifier(ctx: Ctx, state: LGAState, unit: Unit) -> int:
    m = ctx.tables.muster_mods
    board = ctx.board
    total = unit.morale
    if is_winter(ctx, state):
        total += m["winter"]
    if not unit.supplied:
        total += m["unsupplied"]
    if unit.power == "france" and board.country.get(unit.cell) in ctx.tables.french_abroad_countries:
        total += m["french_abroad"]
    if unit.type in ("infantry", "militia"):  # §2.3 gives the terrain modifiers to infantry and militia
        kind = board.kind(unit.cell)
        terrain = board.terrain[unit.cell]
        if kind == "capital":
            total += m["capital"]
        elif kind == "major":
            total += m["major_city"]
        elif kind == "minor":
            total += m["minor_city"]
        elif terrain in ("forest", "mountain", "marsh"):
            total += m[terrain]
    return total


def supply_and_muster(ctx: Ctx, state: LGAState, step: Step) -> LGAState:
    """Phase III (§5.4): mark which units start the turn in supply, then every unit musters."""
    side = state.seat
    areas = supplied_areas(ctx, state, side)
    units = side_units(ctx, state, side)
    supplied = {u.id: in_supply(ctx, state, u, areas) for u in units}
    state = state.with_units({u.id: replace(u, supplied=supplied[u.id]) for u in units if u.supplied != supplied[u.id]})
    short = sorted(uid for uid, ok in supplied.items() if not ok)
    if short:
        ctx.emit(step, "out_of_supply", f"out of supply: {', '.join(short)}", (side,), units=short)
    for uid in sorted(supplied):
        unit = state.find(uid)
        if unit is None or unit.cell == OFF_MAP or unit.type == "hq" or unit.cell in ctx.board.sea:
            continue
        roll = step.roll(6, f"muster of {uid}", (side,))
        total = roll + muster_modifier(ctx, state, unit)
        loss = ctx.tables.muster.read(total)
        if loss:
            text = f"{uid} musters: die {roll}, total {total}: morale -{loss}"
            ctx.emit(step, "muster", text, (side,), unit=uid, roll=roll, total=total, loss=loss)
            state = lose_morale(ctx, state, step, unit, loss, (side,))
    return state


def destroy_unsupplied(ctx: Ctx, state: LGAState, step: Step) -> LGAState:
    """Phase VI (§5.7): units that began the season out of supply and still are are destroyed; garrisons roll
    on the siege table; units in a capital are never destroyed for lack of supply (§2.3)."""
    side = state.seat
    areas = supplied_areas(ctx, state, side)
    for unit in side_units(ctx, state, side):
        if unit.supplied or in_supply(ctx, state, unit, areas) or unit.cell in ctx.board.capitals:
            continue
        if unit.garrison:
            roll = step.roll(6, f"siege of {unit.id}", (side,))
            loss = ctx.tables.siege.read(roll)
            text = f"{unit.id} besieged: die {roll}: morale -{loss}"
            ctx.emit(step, "siege", text, (side,), unit=unit.id, roll=roll, loss=loss)
            state = lose_morale(ctx, state, step, unit, loss, (side,))
        else:
            ctx.emit(step, "starved", f"{unit.id} is destroyed for lack of supply", (side,), unit=unit.id)
            state = state.with_unit(destroyed(unit))
    return state
