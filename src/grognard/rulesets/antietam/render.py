"""The battlefield as text (terminal play, debugging): one character a square, row 0 on top as the engine draws
it (screen up is geographic south), units over the terrain as the seat sees them."""

from __future__ import annotations

from .ctx import Ctx
from .state import AntietamState
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
    lines = [
        f"Turn {state.turn}, {ctx.rules['game']['first_turn_hour'] + state.turn - 1:02d}:00. "
        "U Union, X Confederate (lower case: routed); . clear # town W woods : cornfield ~ stream = river "
        "f ford b bridge + road * victory square. Rows are y (0 on top: south), columns x (0 on the left: east).",
        "    " + "".join(str(x // 10) for x in range(grid.columns)),
        "    " + "".join(str(x % 10) for x in range(grid.columns)),
    ]
    victory = {c for c, _, _ in board.victory}
    for y in range(grid.rows):
        row = []
        for x in range(grid.columns):
            c = grid.index(x, y)
            t = board.terrain(state, c)
            ch = TERRAIN_CHARS.get(t, "?")
            if t == "clear" and board.map.has("road", c):
                ch = "+"
            if c in victory:
                ch = "*"
            row.append(marks.get(c, ch))
        lines.append(f"{y:3d} " + "".join(row))
    return "\n".join(lines)
