"""The tactical plot in the manual's digit-string syntax (§6.4-6.7) and its legality, by rule.

``0321``: stay, SE, NE, N (§6.4); ``111S``: N, N, then attack north without moving (§6.5); ``B12``: bombard the
hex two away (§6.6); ``R4``: recon the hex to the south (§6.7). The same :func:`refusal` lists (the page's
hint), validates and explains; :func:`sample` draws a legal plot for random play.
"""

from __future__ import annotations

from dataclasses import dataclass

from grognard.engine.errors import IllegalDecision
from grognard.engine.rng import Dice

from .board import Ctx
from .state import Group

MOVE_SYMBOLS = frozenset("0123456")


@dataclass(frozen=True, slots=True)
class Parsed:
    """A plot read as §6.4-6.7 say: ``kind`` move, bombard or recon; ``dirs`` one symbol a segment (0 stay)
    or the bombardment/recon directions; ``attack_only``: the last move is an S attack (§6.5)."""

    kind: str
    dirs: tuple[int, ...]
    attack_only: bool = False

    def text(self) -> str:
        if self.kind == "bombard":
            return "B" + "".join(map(str, self.dirs))
        if self.kind == "recon":
            return "R" + "".join(map(str, self.dirs))
        return "".join(map(str, self.dirs)) + ("S" if self.attack_only else "")


def parse(ctx: Ctx, text: object) -> Parsed | IllegalDecision:
    """The plot's meaning, or why it is not a plot at all (§6.4-6.7). The meanings are kept by text (plots are
    at most a few symbols: a few thousand texts at most)."""
    kept = ctx.tables.plots
    found = kept.get(text) if isinstance(text, str) else None
    if found is None:
        found = _parse(ctx, text)
        if isinstance(found, Parsed):
            kept[str(text)] = found
    return found


def _parse(ctx: Ctx, text: object) -> Parsed | IllegalDecision:
    sym = ctx.tables["plots"]
    max_len = int(sym["symbols"]["max_length"])
    if not isinstance(text, str) or not text:
        return IllegalDecision("a plot is 1 to 4 symbols", "§6.4")
    head = text[0].upper()
    if head in (str(sym["bombard"]["symbol"]), str(sym["recon"]["symbol"])):
        kind = "bombard" if head == sym["bombard"]["symbol"] else "recon"
        lo, hi = sym[kind]["directions"]
        digits = text[1:]
        if not lo <= len(digits) <= hi or any(ch not in "123456" for ch in digits):
            section = "§6.6" if kind == "bombard" else "§6.7"
            what = "B and one or two directions 1-6" if kind == "bombard" else "R and one direction 1-6"
            return IllegalDecision(f"{text!r}: a {kind} plot is {what}", section)
        return Parsed(kind, tuple(int(ch) for ch in digits))
    attack = str(sym["attack_only"]["symbol"])
    if any(ch not in MOVE_SYMBOLS and ch.upper() != attack for ch in text):
        return IllegalDecision(f"{text!r}: a movement plot uses 0-6 and a final S", "§6.4")
    body = text.upper().split(attack, 1)  # §6.5: what follows the S is ignored
    digits = body[0][:max_len]  # §6.5: "2322S" is read "2322"
    attack_only = len(body) > 1 and len(body[0]) < max_len
    if not digits:
        return IllegalDecision("S ends a plot of moves: it cannot stand alone", "§6.5")
    if attack_only and digits[-1] == "0":
        return IllegalDecision("S makes the last plotted move an attack: it cannot follow a 0", "§6.5")
    return Parsed("move", tuple(int(ch) for ch in digits), attack_only)


def refusal(ctx: Ctx, g: Group, text: object) -> IllegalDecision | None:
    """Why ``text`` is not a legal plot for group ``g`` now, naming the rule; None if it is. It reads the group
    alone (its mode, place, weapons and supply), not the rest of the position."""
    p = parse(ctx, text)
    if isinstance(p, IllegalDecision):
        return p
    allowed = ctx.tables.modes[g.mode].plots
    grid = ctx.grid
    if p.kind == "recon":
        if "recon" not in allowed:
            return IllegalDecision(f"a group in {g.mode} mode cannot recon (AMB-7)", "§6.7")
        if grid.neighbor(g.cell, p.dirs[0]) < 0:
            return IllegalDecision("the searched hex is off the map", "§6.7")
        return None
    if p.kind == "bombard":
        if "bombard" not in allowed:
            return IllegalDecision("only groups in static mode may bombard", "§6.6")
        if not has_howitzers(g):
            return IllegalDecision(f"{g.label()} has no field howitzers (FH)", "§6.6")
        if g.supply < 1:
            return IllegalDecision("an unsupplied group fires no bombardment", "§5.4")
        target = g.cell
        for d in p.dirs:
            target = grid.neighbor(target, d) if target >= 0 else -1
        if target < 0:
            return IllegalDecision("the target hex is off the map", "§6.6")
        if not 1 <= grid.distance(g.cell, target) <= 2:
            return IllegalDecision("the target must be 1 or 2 hexes away", "§6.6")
        return None
    if "move" not in allowed:
        return IllegalDecision(f"only groups in assault or mobile mode move by plot, not {g.mode}", "§6.4")
    moves = [i for i, d in enumerate(p.dirs) if d]
    limit = ctx.mover_limit(g)
    if len(moves) > limit:
        kind = "mechanized" if g.mechanized else "infantry"
        return IllegalDecision(f"a {kind} group in {g.mode} mode moves {limit} hex(es) a turn", "§6.4")
    inf_segments = ctx.tables["plots"]["allowance"]["infantry_segments"]
    if not g.mechanized and any(i + 1 not in inf_segments for i in moves):
        return IllegalDecision("infantry groups move only in segments 1 and 2", "§6.4")
    if moves and g.supply < 1:
        return IllegalDecision("an unsupplied group may not move", "§5.4")
    here = g.cell
    for d in p.dirs:
        if d:
            here = grid.neighbor(here, d)
            if here < 0:
                return IllegalDecision("the plot leaves the map (AMB-20)", "§6.4")
    return None


def sample(ctx: Ctx, g: Group, dice: Dice) -> str:
    """A legal plot for ``g`` at random (random play)."""
    allowed = ctx.tables.modes[g.mode].plots
    grid = ctx.grid
    # a group without field howitzers or supply has every bombardment refused (§6.6, §5.4): its draws are made all
    # the same, and the refusal is not asked
    bombards = has_howitzers(g) and g.supply >= 1
    for _ in range(100):
        pick = dice.below(6)
        if "recon" in allowed and pick == 0:
            text = f"R{dice.roll(6)}"
        elif "bombard" in allowed:
            text = "B" + "".join(str(dice.roll(6)) for _ in range(1 + dice.below(2)))
            if not bombards:
                continue
        elif "move" in allowed:
            segments = 4 if g.mechanized else 2
            budget = ctx.mover_limit(g)
            symbols: list[str] = []
            for _s in range(1 + dice.below(segments)):
                if budget and dice.below(3):
                    symbols.append(str(dice.roll(6)))
                    budget -= 1
                else:
                    symbols.append("0")
            if symbols[-1] != "0" and len(symbols) < 4 and not dice.below(4):
                symbols.append("S")
            text = "".join(symbols)
        else:
            text = f"R{dice.roll(6)}"
        if refusal(ctx, g, text) is None:
            return text
    return next(f"R{d}" for d in range(1, 7) if grid.neighbor(g.cell, d) >= 0)  # recon: any mode that plots


def has_howitzers(g: Group) -> bool:
    """§6.6: only field howitzers (FH) bombard."""
    return any(name.endswith("FH") for u in g.units for name, _ in u.weapons)


def plottable(ctx: Ctx, g: Group) -> bool:
    """A group that may plot at all this turn: any mode but road (§6.3-6.7)."""
    return bool(ctx.tables.modes[g.mode].plots)


def plot_hint(ctx: Ctx, g: Group) -> list[int]:
    """The hexes a page may offer for the group's plot: those within its allowance (or range 2 to bombard)."""
    reach = max(ctx.mover_limit(g), 2 if "bombard" in ctx.tables.modes[g.mode].plots else 1)
    return list(ctx.hexes_around(g.cell, reach))
