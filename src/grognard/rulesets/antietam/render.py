"""The battlefield for people: as text (terminal play) and as the public map the page draws (``map_json``).

Both are drawn north up, as players expect a map: the map's row 0 is its south edge and x grows westward
(docs/rules/antietam.md, "The map"), so the text map prints the rows from 35 down to 0 and the columns from 41
down to 0, and the page's map carries ``flip_columns`` / ``flip_rows`` on its grid."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grognard.engine.maps import read_data

from .ctx import Ctx
from .phases import phase_names, phase_title
from .state import AntietamState
from .tables import DATA
from .victory import LEVEL_NAMES
from .view import sighted

TERRAIN_CHARS = {
    "clear": ".",
    "town": "#",
    "woods": "W",
    "cornfield": ":",
    "stream": "~",
    "river": "=",
    "ford": "f",
    "bridge": "b",
}


def render(ctx: Ctx, state: AntietamState, seat: str | None) -> str:
    board = ctx.board
    grid = board.grid
    shown = {i for i in range(len(state.units)) if state.units[i].cell >= 0}
    if seat is not None:
        shown = {i for i in shown if board.side(i) == seat} | sighted(ctx, state, seat)
    marks: dict[int, str] = {}
    for i in sorted(shown):
        u = state.units[i]
        ch = "U" if board.side(i) == "union" else "X"
        marks[u.cell] = ch.lower() if u.routed else ch
    if state.accessed >= 0 and state.accessed in shown:
        marks[state.units[state.accessed].cell] = "@"  # §B3.3 the unit picked up
    columns = range(grid.columns - 1, -1, -1)  # west on the left
    lines = [
        f"Turn {state.turn}, {ctx.rules['game']['first_turn_hour'] + state.turn - 1:02d}:00. "
        "U Union, X Confederate (lower case: routed), @ the unit picked up; . clear # town W woods : cornfield "
        "~ stream = river f ford b bridge + road * victory square. North is up: y counts up from the south edge "
        "(0, at the bottom), x from the east edge (0, on the right).",
        "    " + "".join(str(x // 10) for x in columns),
        "    " + "".join(str(x % 10) for x in columns),
    ]
    victory = {c for c, _, _ in board.victory}
    for y in range(grid.rows - 1, -1, -1):
        row = []
        for x in columns:
            c = grid.index(x, y)
            t = board.terrain(state, c)
            ch = TERRAIN_CHARS.get(t, "?")
            if t == "clear" and board.map.has("road", c):
                ch = "+"
            if c in victory:
                ch = "*"
            row.append(marks.get(c, ch))
        lines.append(f"{y:3d} " + "".join(row))
    return "\n".join([*lines, TYPING])


def public_map(ctx: Ctx) -> dict[str, Any]:
    """The map the page draws (the same for every seat): the engine's public form of data/map.json, drawn north
    up, with the words the page needs (``legend``): the sides, the phases, the victory levels, the elevation
    levels' heights (§IA8.3) and the victory squares' points (§IA10.1)."""
    board = ctx.board
    out = board.map.to_public()
    out["grid"].update(flip_columns=True, flip_rows=True)
    sight = ctx.tables.terrain["sight"]
    regions = read_data(DATA / "map.json")["regions"]  # in the file's order, which the public form sorts away
    out["legend"] = {
        # the creek from the north edge to the Potomac, and the Sunken Road, square after square: drawn as lines
        "creek": [board.grid.parse(c) for c in regions["creek"]["cells"]],
        "sunken_road": [board.grid.parse(c) for c in regions["sunken_road"]["cells"]],
        "sides": {"union": "Union", "confederate": "Confederate"},
        "phases": {name: phase_title(name) for name in phase_names(ctx)},
        "levels": dict(LEVEL_NAMES),
        "feet_per_level": sight["feet_per_level_used"],
        "victory": [
            {"cell": p.cells[0], "points": p.value, "in_zoc": int(p.data["in_zoc"]), "name": p.name}
            for p in board.map.places
            if p.kind == "victory"
        ],
        "north": "up",
    }
    return out


# what a person types at the terminal, in the manual's keys and squares (§B3.1, §B3.3, §IA7.3)
TYPING = (
    "Type squares as x,y: 'access x,y' picks up your unit there (SPACE; again: the next in the square, U), "
    "'move x,y' or '1'-'8' moves it (the compass: 1 = y-1, 3 = x+1, 5 = y+1, 7 = x-1), 'fire x,y' and "
    "'melee x,y' plot it (F, M), 'plot x,y@x,y[!]/...' plots the units on those squares, 'face 1-8' (D), "
    "'mode' (S), 'x' force march, 'b' fortify, 'n' next unit, 'z' abort (the unit back as picked up), "
    "'put_down' (Q; 'q' leaves the terminal), 'c' end the phase."
)
KEYS = {"n": "next", "c": "end_phase", "x": "force_march", "b": "fortify", "s": "mode", "z": "abort"}


def typed(ctx: Ctx, state: AntietamState, seat: str, line: str, ready: Callable[[int], bool]) -> str:
    """``line`` with the seat's units named by their squares (and the manual's one-letter keys) rewritten into
    the decisions' text form; anything else is left as typed, for the decision reader to accept or refuse.
    ``ready`` says which units may still be picked up."""
    board = ctx.board
    words = line.split()
    if not words:
        return line
    head, args = words[0].lower(), words[1:]
    accessed = board.spec(state.accessed).id if state.accessed >= 0 else ""

    def mine(square: str) -> list[int]:
        cell = board.parse(square)
        return [i for i in ctx.side_units(state, seat) if cell is not None and state.units[i].cell == cell]

    def on(square: str) -> str:
        """The unit of the seat's on ``square`` that an order names: the one picked up if it stands there, else
        the first in the OOB's order (the manual's SPACE BAR: "the first unit in the square")."""
        here = mine(square)
        ids = [board.spec(i).id for i in here]
        return accessed if accessed in ids else (ids[0] if ids else square)

    if head == "access" and len(args) == 1 and board.parse(args[0]) is not None:
        here = [i for i in mine(args[0]) if ready(i)] or mine(args[0])
        if not here:
            return line
        k = here.index(state.accessed) + 1 if state.accessed in here else 0  # U: the next unit in the square
        return f"access {board.spec(here[k % len(here)]).id}"
    if head in KEYS and not args:
        kind = KEYS[head]
        return kind if kind in ("next", "put_down", "end_phase") else f"{kind} {accessed}"
    if head in ("mode", "force_march", "fortify") and not args:
        return f"{head} {accessed}"
    if accessed and state.accessed >= 0:
        at = state.units[state.accessed].cell
        if head in [str(d) for d in range(1, 9)] and not args:
            to = board.grid.neighbor(at, int(head))
            return f"move {accessed} {board.label(at)} {board.label(to)}" if to >= 0 else line
        if head == "move" and len(args) == 1:
            return f"move {accessed} {board.label(at)} {args[0]}"
        if head == "face" and len(args) == 1:
            return f"face {accessed} {args[0]}"
        if head in ("fire", "melee") and len(args) == 1:
            return f"plot {accessed}@{args[0]}{'!' if head == 'melee' else ''}"
    if head == "plot" and len(args) == 1:
        orders = []
        for order in args[0].split("/"):
            unit, sep, target = order.partition("@")
            orders.append(f"{on(unit) if board.parse(unit) is not None else unit}{sep}{target}")
        return "plot " + "/".join(orders)
    return line
