"""The group adjustment phase (§4): divide (§4.3), transfer (§4.4), renumber (§4.7), end the game (§4.6).

READING (docs/rules/kursk.md): a group takes part in at most one divide, transfer or renumber a phase, which
keeps the phase finite (the manual's routines could be repeated, to no purpose but to undo one another)."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from grognard.engine.errors import IllegalDecision
from grognard.engine.events import Step
from grognard.engine.records import replace

from .board import Ctx
from .state import Group, KState


def id_range(ctx: Ctx, side: str) -> range:
    lo, hi = ctx.tables["sequence"]["groups"][f"{side}_ids"]
    return range(int(lo), int(hi) + 1)


def free_ids(ctx: Ctx, state: KState, side: str) -> tuple[int, ...]:
    """§4.1, §4.3: IDs of the side no group holds (groups still to arrive keep theirs); kept for the position (every
    group's divide and renumber ask)."""
    memo = ctx.placed(state).memo
    found: tuple[int, ...] | None = memo.get(("free_ids", side))
    if found is None:
        used = {g.id for g in state.groups}
        found = memo[("free_ids", side)] = tuple(i for i in id_range(ctx, side) if i not in used)
    return found


def _units_refusal(g: Group, units: object, allow_all: bool) -> IllegalDecision | None:
    if not isinstance(units, tuple) or not units:
        return IllegalDecision("name the units (0-4) to move", "§4.3")
    if any(not isinstance(u, int) or not 0 <= u < len(g.units) for u in units):
        return IllegalDecision(f"{g.label()} has units 0-{len(g.units) - 1}", "§4.3")
    if list(units) != sorted(set(units)):
        return IllegalDecision("name each unit once, in order", "§4.3")
    if not allow_all and len(units) == len(g.units):
        return IllegalDecision("a group keeps at least one unit", "§4.1")
    return None


def _may_adjust(g: Group) -> IllegalDecision | None:
    if not g.on_map:
        return IllegalDecision("only groups on the map", "§4.7")
    if g.adjusted:
        return IllegalDecision(f"{g.label()} was adjusted this phase (reading)", "§4")
    return None


def _divide_blocked(ctx: Ctx, state: KState, g: Group) -> IllegalDecision | None:
    found = _may_adjust(g)
    if found:
        return found
    if not free_ids(ctx, state, g.side):
        return IllegalDecision("no empty group ID is left", "§4.3")
    if ctx.friendly_count(state, g.side, g.cell) >= int(ctx.tables["plots"]["stacking"]["max_groups"]):
        return IllegalDecision("the hex already holds two groups (reading of §9.3)", "§4.3")
    return None


def divide_refusal(ctx: Ctx, state: KState, g: Group, units: object) -> IllegalDecision | None:
    return _divide_blocked(ctx, state, g) or _units_refusal(g, units, allow_all=False)


def divides(ctx: Ctx, state: KState, g: Group) -> tuple[tuple[int, ...], ...]:
    """The unit sets :func:`divide_refusal` accepts, without asking it of each: every proper subset, unless the
    group may not divide."""
    return () if _divide_blocked(ctx, state, g) else subsets(g, False)


def divide_count(ctx: Ctx, state: KState, g: Group) -> int:
    """How many of ``subsets(g, False)`` :func:`divide_refusal` accepts (random play sizes every family)."""
    return len(divides(ctx, state, g))


def partner(ctx: Ctx, state: KState, g: Group) -> Group | None:
    """§4.4: the other group of the side in the hex."""
    return next((o for o in ctx.placed(state).stack(g.side, g.cell) if o.id != g.id), None)


def _transfer_blocked(ctx: Ctx, state: KState, g: Group) -> IllegalDecision | Group:
    """Why ``g`` may transfer no unit, or the group it would give them to."""
    found = _may_adjust(g)
    if found:
        return found
    other = partner(ctx, state, g)
    if other is None:
        return IllegalDecision("no other group of the side in the hex", "§4.4")
    if other.designation != g.designation:
        return IllegalDecision("both groups need the same divisional designation", "§4.4")
    if other.adjusted:
        return IllegalDecision(f"{other.label()} was adjusted this phase (reading)", "§4")
    return other


def _room(ctx: Ctx, other: Group) -> int:
    return int(ctx.tables["sequence"]["groups"]["units_max"]) - len(other.units)


def transfer_refusal(ctx: Ctx, state: KState, g: Group, units: object) -> IllegalDecision | None:
    other = _transfer_blocked(ctx, state, g)
    if isinstance(other, IllegalDecision):
        return other
    found = _units_refusal(g, units, allow_all=True)
    if found:
        return found
    assert isinstance(units, tuple)
    if len(units) > _room(ctx, other):
        return IllegalDecision("a group may never hold more than 5 units", "§4.4")
    return None


def transfers(ctx: Ctx, state: KState, g: Group) -> tuple[tuple[int, ...], ...]:
    """The unit sets :func:`transfer_refusal` accepts, without asking it of each: those that fit in the other group,
    unless the group may not transfer."""
    other = _transfer_blocked(ctx, state, g)
    if isinstance(other, IllegalDecision):
        return ()
    room = _room(ctx, other)
    return tuple(c for c in subsets(g, True) if len(c) <= room)


def transfer_count(ctx: Ctx, state: KState, g: Group) -> int:
    """How many of ``subsets(g, True)`` :func:`transfer_refusal` accepts (random play sizes every family)."""
    other = _transfer_blocked(ctx, state, g)
    if isinstance(other, IllegalDecision):
        return 0
    room = _room(ctx, other)
    return sum(1 for c in subsets(g, True) if len(c) <= room)


def renumber_refusal(ctx: Ctx, state: KState, g: Group, to: object) -> IllegalDecision | None:
    found = _may_adjust(g)
    if found:
        return found
    if not isinstance(to, int) or to not in id_range(ctx, g.side):
        r = id_range(ctx, g.side)
        return IllegalDecision(f"{g.side} group IDs are {r.start}-{r.stop - 1}", "§4.1")
    if to not in free_ids(ctx, state, g.side):
        return IllegalDecision(f"group ID {to} is taken", "§4.1")
    return None


def subsets(g: Group, allow_all: bool) -> tuple[tuple[int, ...], ...]:
    """The sets of a group's units (numbers 0-4) a divide (not all of them) or a transfer may name."""
    return _subsets(len(g.units), allow_all)


@cache
def _subsets(n: int, allow_all: bool) -> tuple[tuple[int, ...], ...]:
    top = n if allow_all else n - 1
    return tuple(c for k in range(1, top + 1) for c in combinations(range(n), k))


def divide(ctx: Ctx, state: KState, g: Group, units: tuple[int, ...], step: Step) -> KState:
    """§4.3: the lowest empty ID receives the units; designation, morale, supply (and mode) are copied."""
    new_id = free_ids(ctx, state, g.side)[0]
    moved = tuple(u for i, u in enumerate(g.units) if i in units)
    kept = tuple(u for i, u in enumerate(g.units) if i not in units)
    new = replace(g, id=new_id, units=moved, adjusted=True)
    step.emit("divide", f"{g.label()} divides: GROUP {new_id} formed", (g.side,), group=g.tag, new=new.tag)
    groups = tuple(sorted((*state.with_group(replace(g, units=kept, adjusted=True)).groups, new), key=lambda x: x.id))
    return replace(state, groups=groups)


def transfer(ctx: Ctx, state: KState, g: Group, units: tuple[int, ...], step: Step) -> KState:
    """§4.4: to the other group in the hex; its morale falls to the loser's if that is lower. A group that gives
    every unit leaves the map (its ID is free again)."""
    other = partner(ctx, state, g)
    assert other is not None
    moved = tuple(u for i, u in enumerate(g.units) if i in units)
    kept = tuple(u for i, u in enumerate(g.units) if i not in units)
    gainer = replace(other, units=other.units + moved, morale=min(other.morale, g.morale), adjusted=True)
    step.emit("transfer", f"{g.label()} gives {len(moved)} unit(s) to {other.label()}", (g.side,), group=g.tag)
    state = state.with_groups({other.id: gainer, g.id: replace(g, units=kept, adjusted=True)})
    return replace(state, groups=tuple(x for x in state.groups if x.units))


def renumber(ctx: Ctx, state: KState, g: Group, to: int, step: Step) -> KState:
    step.emit("renumber", f"{g.label()} is now GROUP {to}", (g.side,), group=g.tag, new=f"CG{to}")
    groups = [replace(g, id=to, adjusted=True) if x.id == g.id else x for x in state.groups]
    return replace(state, groups=tuple(sorted(groups, key=lambda x: x.id)))
