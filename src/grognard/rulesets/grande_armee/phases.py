"""The routine of play (§5.1): one turn per player per season, French, Allied, Neutral, each in six phases.
Phases I-III and VI resolve by themselves; IV (build/rally) and V (movement and combat) ask for decisions and
pass by themselves when there is nothing to decide. Declared as the engine's turn sequence (one season)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from grognard.engine.decisions import Legal
from grognard.engine.events import Step
from grognard.engine.records import replace
from grognard.engine.sequence import Part, TurnSequence

from . import play
from .display import side_name
from .play import Ctx
from .state import OFF_MAP, SEATS, LGAState, Phase, Unit


def seats_in_play(ctx: Ctx) -> list[str]:
    """The seats that have powers at war; the Neutral player has none in any scenario of §6.0."""
    return [s for s in SEATS if ctx.powers(s)]


def season_sequence(ctx: Ctx, legal: Callable[[LGAState, str], Legal]) -> TurnSequence[LGAState]:
    """§5.1: each seat in play in turn, phases I-III, IV, V and VI; then the next season."""
    seats = seats_in_play(ctx)
    parts: list[Part[LGAState]] = []
    for seat in seats:
        mover: Callable[[LGAState], tuple[str, ...]] = partial(_only, seat)
        parts += [
            Part(f"{seat} I-III", begin=partial(begin_turn, ctx)),
            Part(f"{seat} IV", mover, passes=("end_build",)),
            Part(f"{seat} V", mover, partial(begin_movement, ctx), ("end_unit", "end_movement")),
            Part(f"{seat} VI", begin=partial(end_turn, ctx)),
        ]

    def where(state: LGAState) -> int:
        return seats.index(state.seat) * 4 + (1 if state.phase is Phase.BUILD else 2)

    def put(state: LGAState, i: int) -> LGAState:
        return replace(state, seat=seats[i // 4], phase=Phase.MOVE if i % 4 >= 2 else Phase.BUILD)

    return TurnSequence(parts, legal, where, put, partial(next_season, ctx), lambda s: s.phase is Phase.OVER)


def _only(seat: str, state: LGAState) -> tuple[str, ...]:
    return (seat,)


def begin_turn(ctx: Ctx, state: LGAState, step: Step) -> LGAState:
    """Phases I-III for ``state.seat``."""
    seat = state.seat
    season = ctx.tables.seasons[state.season]
    words = f"{season.capitalize()} {state.year}: the {side_name(seat)} player's turn"
    ctx.emit(step, "turn", words, None, seat=seat, year=state.year)
    # §5.1: the active player's units start the turn with no fatigue; §5.5 one rally per season
    fresh = {
        u.id: replace(u, fatigue=0, rallied=False) for u in play.side_units(ctx, state, seat) if u.fatigue or u.rallied
    }
    state = play.count_victory_points(ctx, replace(state.with_units(fresh), attacked=False), step)
    if season == "spring":
        state = play.allocate_military_points(ctx, state, step)
    state = special_rules(ctx, state, step)
    return play.supply_and_muster(ctx, state, step)


def special_rules(ctx: Ctx, state: LGAState, step: Step) -> LGAState:
    """Scenario 3 (§6.0): Napoleon returns to Paris at the start of the spring 1809 turn for the rest of it. If the
    French do not hold Paris then, he leaves the campaign (docs/rules/grande-armee.md)."""
    when = ctx.scenario.spec.special.get("napoleon_returns")
    if when is None or state.seat != "french":
        return state
    if (state.year, ctx.tables.seasons[state.season]) != (when[1], when[0]):
        return state
    napoleon = state.find("Napoleon")
    if napoleon is None or napoleon.cell == OFF_MAP:  # destroyed: if rebuilt, in Paris and there he stays (build)
        return state
    paris = ctx.board.map.place("Paris").cells[0]
    if state.control[paris] != "french" or paris in play.occupied(ctx, state, "allied"):
        ctx.emit(step, "special", "Napoleon cannot return to Paris and leaves the campaign", None)
        gone = replace(napoleon, cell=OFF_MAP, year=ctx.scenario.end[0] + 1, fixed=True)
        return state.with_unit(gone)
    ctx.emit(step, "special", "Napoleon returns to Paris for the rest of the scenario", None)
    serial = state.serial + 1
    return replace(state.with_unit(replace(napoleon, cell=paris, fixed=True, stack=serial)), serial=serial)


def begin_movement(ctx: Ctx, state: LGAState, step: Step) -> LGAState:
    """Phase V (§5.6): every supplied unit of the player gets its moves; unsupplied ones cannot move (§5.4)."""
    units = play.side_units(ctx, state, state.seat)
    changed = {}
    for u in units:
        moves = ctx.tables.units[u.type].moves if u.supplied and not u.fixed else 0
        if u.moves != moves or u.sailed:
            changed[u.id] = replace(u, moves=moves, sailed=False)
    # §5.66: until the first attack the defending player sees the mover's units where they stood
    secret = tuple((u.id, u.cell, u.stack, u.garrison) for u in units)
    return replace(state.with_units(changed), attacked=False, secret=secret, secret_control=state.control)


def end_turn(ctx: Ctx, state: LGAState, step: Step) -> LGAState:
    """Phase VI (§5.7)."""
    state = play.destroy_unsupplied(ctx, state, step)
    cleared = {u.id: replace(u, moves=0) for u in play.side_units(ctx, state, state.seat) if u.moves}
    return replace(state.with_units(cleared), attacked=False, secret=(), secret_control=())


def next_season(ctx: Ctx, state: LGAState, step: Step) -> LGAState:
    """After the last player's turn: the next season, or the end of the game."""
    order = seats_in_play(ctx)
    year, season = state.year, state.season + 1
    if season == len(ctx.tables.seasons):
        year, season = year + 1, 0
    if (year, season) > ctx.scenario.end:
        state = play.count_victory_points(ctx, replace(state, seat=""), step)
        ctx.emit(step, "game_over", "The last season is over", None)
        return replace(state, phase=Phase.OVER, seat="")
    # a new season: one defensive move per unit per season (§5.65); withdrawals count for one season (§5.67); a
    # unit out of supply is held only "for the entire season" (§5.4), until its own turn's supply check
    fresh = {
        u.id: replace(u, reacted=False, withdrew=False, supplied=True)
        for u in state.units
        if u.reacted or u.withdrew or not u.supplied
    }
    return replace(state.with_units(fresh), year=year, season=season, seat=order[0])


def garrison_ok(ctx: Ctx, state: LGAState, uid: str) -> bool:
    """§3.6: only infantry, artillery and militia garrison a city, one garrison per city, at the END of a move."""
    return may_garrison(ctx, state.unit(uid), play.standing(ctx, state).garrisons())


def may_garrison(ctx: Ctx, unit: Unit, garrisoned: frozenset[int]) -> bool:
    """:func:`garrison_ok` given the areas that hold a garrison now (``Standing.garrisons``)."""
    if unit.cell == OFF_MAP or unit.garrison or unit.moves <= 0 or unit.cell not in ctx.board.places:
        return False
    if not ctx.tables.units[unit.type].garrison:
        return False
    return unit.cell not in garrisoned  # the unit itself is no garrison
