"""The sequence of play (§3.3), declared as the engine's parts, and what happens as a turn begins.

§3.3's twelve phases, as played here: Soviet group adjustment, supply, modes and road movement, air missions;
the same for the German; then the tactical plot given by both sides at once (each side's plot is hidden from the other);
then the tactical execution & combat phase. The save phases are the engine's (a game can be saved after any
decision). Each side's air missions (§7) are hidden from the other until they fly (§9.1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from grognard.engine.decisions import Legal
from grognard.engine.events import Step
from grognard.engine.records import replace
from grognard.engine.sequence import Part, TurnSequence

from .board import Ctx
from .execute import execute
from .state import OFF_MAP, KState
from .tables import SEATS

ADJUST, SUPPLY, ROAD, AIR = "group adjustment", "supply", "tactical plot & road movement", "air missions"
KINDS = (ADJUST, SUPPLY, ROAD, AIR)


def turn_name(turn: int) -> str:
    """§3.4: AM and PM turns; the day advances at the start of each AM turn (AMB-2: turn 1 is 5 July AM)."""
    return f"7/{5 + (turn - 1) // 2}/43 {'AM' if turn % 2 else 'PM'}"


def part_names() -> list[str]:
    names = [f"{side} {k}" for side in SEATS for k in KINDS]
    return [*names, "tactical plot", "tactical execution & combat"]


def _only(seat: str, state: KState) -> tuple[str, ...]:
    return (seat,)


def _plotting(state: KState) -> tuple[str, ...]:
    return tuple(s for s in SEATS if s not in state.committed)


def turn_sequence(ctx: Ctx, legal: Callable[[KState, str], Legal]) -> TurnSequence[KState]:
    parts: list[Part[KState]] = []
    for side in SEATS:  # §3.3: Soviet phases 1-5, then German 6-10
        mover: Callable[[KState], Sequence[str]] = partial(_only, side)
        parts += [
            Part(f"{side} {ADJUST}", mover, partial(begin_adjustment, side), ("end_phase",)),
            Part(f"{side} {SUPPLY}", mover, partial(begin_supply, side), ("end_phase",)),
            Part(f"{side} {ROAD}", mover, None, ("end_phase",)),
            Part(f"{side} {AIR}", mover, None, ("end_phase",)),
        ]
    parts += [
        Part("tactical plot", _plotting, None, ("commit",)),
        Part("tactical execution & combat", begin=partial(execute, ctx)),  # §3.3 phase 11
    ]
    return TurnSequence(
        parts,
        legal,
        lambda s: s.part,
        lambda s, i: replace(s, part=i),
        partial(next_turn, ctx),
        lambda s: s.over,
    )


def begin_adjustment(side: str, state: KState, step: Step) -> KState:
    return state.with_groups({g.id: replace(g, adjusted=False) for g in state.groups if g.side == side and g.adjusted})


def begin_supply(side: str, state: KState, step: Step) -> KState:
    """§5.2: each group may be supplied once in its side's supply phase; no depot yet (AMB-5)."""
    fresh = {g.id: replace(g, supplied=False) for g in state.groups if g.side == side and g.supplied}
    return replace(state.with_groups(fresh), depot=None)


def next_turn(ctx: Ctx, state: KState, step: Step) -> KState:
    """After the execution phase: the next turn, or the end after the last (§3.5)."""
    if state.turn >= ctx.scenario.last_turn:
        step.emit("game_over", f"the game ends after the {turn_name(state.turn)} turn (§3.5)", None)
        return replace(state, over=True)
    return begin_turn(ctx, replace(state, turn=state.turn + 1), step)


def begin_turn(ctx: Ctx, state: KState, step: Step) -> KState:
    """What a turn begins with (sequence.toml [start_of_turn]): weather (§10), disruption to zero (§8.2),
    morale recovery below 50 (§8.7), reinforcements (§13, §12)."""
    t = ctx.tables
    rain = step.chance(int(t["weather"]["weather"]["rain_percent"]), f"weather for {turn_name(state.turn)}")
    weather = "rain" if rain else "clear"
    step.emit("turn", f"{turn_name(state.turn)}: {weather}", None, turn=state.turn, weather=weather)
    m = t["combat"]["morale"]
    changed = {}
    for g in state.groups:
        morale = g.morale + int(m["recovery"]) if g.morale < int(m["recover_below"]) else g.morale
        if g.disruption or morale != g.morale or g.mode_set or g.road_moved:  # the others stay as they were
            changed[g.id] = replace(g, disruption=0, morale=morale, mode_set=False, road_moved=False)
    state = replace(state.with_groups(changed), weather=weather, reports=())
    for g in sorted(state.groups, key=lambda x: x.id):
        if g.alive and g.cell == OFF_MAP and g.arrives <= state.turn:
            cell = ctx.nearest_free(state, g.side, g.entry)
            if cell is None:
                continue  # no room: it waits a turn
            state = state.with_group(replace(g, cell=cell))
            step.emit("reinforcement", f"{g.label()} arrives at {ctx.label(cell)}", (g.side,), group=g.tag, cell=cell)
    return state
