"""Units and numbers in words, as the event log and the decision texts write them: "an Armored Car",
"1 point", "the attacker's Medium Tank" (a side's unit, never "attacker Medium Tank", since the attacker is
also the unit that close assaults)."""

from __future__ import annotations

from grognard.engine import Decision

from . import decisions as D
from .context import Ctx
from .state import PGState


def a(name: str) -> str:
    """The name with its indefinite article: "a Bazooka", "an Infantry"."""
    return f"{'an' if name[:1].upper() in 'AEIOU' else 'a'} {name}"


def count(n: int, thing: str) -> str:
    """ "1 point", "3 points"."""
    return f"{n} {thing}{'' if n == 1 else 's'}"


def sides(side: str, name: str) -> str:
    """A side's unit: "the attacker's Medium Tank"."""
    return f"the {side}'s {name}"


def describe(ctx: Ctx, d: Decision, state: PGState | None = None, seat: str | None = None) -> str:
    """A decision in words, with the map's location names. Given the state, units are named by what they are
    and where they stand, as ``seat`` may know them (``None``: all is known): an enemy unit the seat does not see
    now is "an enemy unit"; without it, by their ids (the log of a finished game)."""
    label = ctx.board.grid.label
    names = ctx.tables.units

    def unit(uid: str) -> str:
        u = state.find(uid) if state is not None else None
        if u is None or state is None:
            return uid
        name = names[u.type].name
        where = label(u.cell)
        if u.carried_by:
            carrier = state.find(u.carried_by)
            where = f"{label(carrier.cell)}, carried" if carrier is not None else where
        if seat is None:
            return f"{sides(u.side, name)} at {where}"
        if u.side == seat:
            return f"the {name} at {where}"
        if u.carried_by or not (u.spotted or ctx.full_view):  # p.33: only what the side sees (view.py's rule)
            return "an enemy unit"
        return f"the enemy {name} at {where}"

    match d:
        case D.Buy(type=t):
            return f"buy {a(names[t].name)} ({count(names[t].cost, 'point')})"
        case D.Sell(type=t):
            return f"return {a(names[t].name)} ({count(names[t].cost, 'point')} back)"
        case D.ConfirmPurchase(done=done):
            return "yes, I am done buying" if done else "no, back to buying"
        case D.Place(type=t, cell=c):
            return f"place {a(names[t].name)} at {label(c)}"
        case D.PickUp(unit=u):
            return f"pick up {unit(u)}"
        case D.PickUpMine(cell=c):
            return f"pick up the mine at {label(c)}"
        case D.Plot(unit=u, barrage=b, cell=c):
            return f"{unit(u)} plots {'a barrage' if b else 'fire'} on {label(c)}"
        case D.Fire(unit=u, target=t):
            return f"{unit(u)} fires at {unit(t)}"
        case D.ReturnFire(unit=u, target=t):
            return f"return fire: {unit(u)} fires at {unit(t)}"
        case D.PassingFire(unit=u, target=t):
            return f"passing fire: {unit(u)} fires at {unit(t)}"
        case D.Ignore(unit=u):
            return f"ignore {unit(u)} this phase"
        case D.Move(unit=u, to=c):
            return f"{unit(u)} moves to {label(c)}"
        case D.Assault(unit=u, to=c):
            return f"{unit(u)} close assaults {label(c)}"
        case D.Load(unit=u, cargo=c):
            return f"{unit(u)} loads {unit(c)}"
        case D.Unload(unit=u, to=c):
            return f"{unit(u)} unloads its cargo and moves to {label(c)}"
        case D.BuildBridge(unit=u):
            return f"{unit(u)} bridges the river"
        case D.BlowBridge(unit=u, cell=c):
            return f"{unit(u)} destroys the bridge at {label(c)}"
        case D.LayMine(unit=u, cell=c):
            return f"{unit(u)} lays a mine at {label(c)}"
        case D.ClearMine(unit=u, cell=c):
            return f"{unit(u)} removes the mine at {label(c)}"
    return d.text().replace("_", " ")
