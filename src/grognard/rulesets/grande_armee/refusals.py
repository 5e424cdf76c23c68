"""Why La Grande Armée refuses a decision, by the manual's rule.

Each family of legal decisions carries a check (``rules.legal`` attaches it): it accepts what the family lists
and names the rule that refuses anything else, so the same family lists, validates and explains. A decision of
no family at all (a unit with no moves, an order out of its phase) is explained by :func:`absent`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from grognard.engine import Decision, IllegalDecision

from . import decisions as D
from . import play
from .play import Ctx
from .state import LGAState, Unit


def move(
    ctx: Ctx, state: LGAState, unit: Unit, listed: Callable[[], Sequence[int]], to: object
) -> IllegalDecision | None:
    """Why ``unit`` may not move to (or attack) ``to`` now (§2.3-2.5, §2.13, §5.61, §5.64)."""
    board = ctx.board
    if not isinstance(to, int) or not 0 <= to < board.size:
        return IllegalDecision(f"{to!r} is not an area of the map", "LGA §2.2")
    if to in listed():
        return None
    uid = unit.id
    if to not in board.neighbors[unit.cell] and unit.cell not in board.sea:
        return IllegalDecision("a unit moves one area at a time, into an adjacent area", "LGA §5.61")
    if to in board.prohibited:
        return IllegalDecision("no unit may enter a prohibited area", "LGA §2.4")
    if to in board.sea and unit.power != "britain":
        return IllegalDecision("only British units may move across sea areas", "LGA §2.3")
    if to in board.sea:
        return IllegalDecision("British units may not enter the Baltic", "LGA §2.5")
    if unit.power == "france" and to in board.hinterland:
        return IllegalDecision("French units cannot enter the Russian Hinterland", "LGA §2.5")
    if unit.power == "spain" and unit.type == "militia":
        return IllegalDecision("Spanish militia move only inside Spain and Portugal", "LGA §2.5")
    if to in play.occupied(ctx, state, play.enemy_of(ctx.side(unit))):
        if unit.morale <= 0:
            return IllegalDecision(f"{uid} is demoralised and cannot attack until rallied", "LGA §5.64")
        return IllegalDecision(f"{uid} needs 2 moves to attack a unit that withdrew", "LGA §2.13")
    return IllegalDecision(f"{uid} has {unit.moves} moves: not enough to enter {board.label(to)}", "LGA §2.3, §3.2")


def build(listed: Callable[[], Sequence[int]], at: object) -> IllegalDecision | None:
    """Why a unit may not be built at ``at`` (§2.3, §5.5)."""
    return None if at in listed() else _unbuildable()


def _unbuildable() -> IllegalDecision:
    return IllegalDecision(
        "a unit is built for its cost in a controlled capital of its country (Spain: any Spanish city), once it is "
        "available",
        "LGA §2.3, §5.5",
    )


def rally(listed: Sequence[str], uid: object) -> IllegalDecision | None:
    """Why a unit may not rally now (§5.5)."""
    if uid in listed:
        return None
    return IllegalDecision("a unit rallies once per season, below its maximum morale, for 4/3/2/1 MPs", "LGA §5.5")


def react(listed: Sequence[int], to: object) -> IllegalDecision | None:
    """Why a unit may not reinforce or withdraw to ``to`` (§2.13, §5.65)."""
    if to in listed:
        return None
    return IllegalDecision(
        "reinforce from outside an enemy ZOC into one, withdraw from inside one to outside, one controlled area, "
        "once per season",
        "LGA §2.13, §5.65",
    )


def absent(ctx: Ctx, state: LGAState, seat: str, d: Decision, default: IllegalDecision) -> IllegalDecision:
    """Why a decision of no legal family is refused: the unit is not the seat's, or has no such order now."""
    uid = d.to_json().get("unit", "")
    unit = state.find(uid) if isinstance(uid, str) and uid else None
    if uid and (unit is None or ctx.side(unit) != seat):
        # the same words for an enemy unit and an id that names nothing: a refusal tells no more than the view
        return IllegalDecision(f"{uid} is not one of your units")
    if isinstance(d, D.Move) and unit is not None:
        if state.seat != seat or state.phase.value != "movement_combat":
            return IllegalDecision("units move in their own player's phase V", "LGA §5.1")
        if unit.fixed:
            return IllegalDecision(f"{uid} stays in Paris for the rest of the scenario", "LGA §6.0 scenario 3")
        if not unit.supplied:
            return IllegalDecision(f"{uid} began the turn out of supply and cannot move or attack", "LGA §5.4")
        return IllegalDecision(f"{uid} has no moves left this season", "LGA §2.11, §5.61")
    if isinstance(d, D.Reinforce | D.Withdraw) and not state.attacked:
        return IllegalDecision("reactions come only after the enemy's first attack", "LGA §5.66")
    if isinstance(d, D.Build):
        return _unbuildable()
    return default
