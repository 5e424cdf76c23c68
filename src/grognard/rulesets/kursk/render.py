"""The map as text for the terminal (§4.5's symbols): two text lines per hex row, even columns then the odd
ones half a hex lower (odd-q). Each hex is three characters: terrain (K/B/O... a VP town's initial, t town,
m minefield, w woods, g gully, . clear), then the groups: ``G``/``S`` with a count for the seat's own, ``g``/``s``
for enemy groups it sees (§4.5's GE/SU), ``D`` its depot."""

from __future__ import annotations

from .board import Ctx
from .phases import turn_name
from .state import KState
from .view import seen_enemies


def render(ctx: Ctx, state: KState, seat: str | None) -> str:
    grid = ctx.grid
    own: dict[int, list[str]] = {}
    for g in state.groups:
        if g.on_map and (seat is None or g.side == seat):
            own.setdefault(g.cell, []).append("G" if g.side == "german" else "S")
    if seat is not None:
        for e in seen_enemies(ctx, state, seat):
            own.setdefault(e.cell, []).append("g" if e.side == "german" else "s")
    depot = state.depot if state.depot is not None and (seat is None or state.depot.side == seat) else None

    def cell_text(c: int) -> str:
        terrain = ctx.map.terrain[c]
        name = ctx.towns.get(c)
        first = (
            name[0]
            if name
            else "m"
            if ctx.minefield(state, c)
            else {"town": "t", "woods": "w", "gully": "g"}.get(terrain, ".")
        )
        marks = own.get(c, [])
        if depot is not None and depot.cell == c:
            second = "D "
        elif marks:
            second = f"{marks[0]}{len(marks)}"
        else:
            second = "  "
        return first + second

    lines = [f"{turn_name(state.turn)}, {state.weather}; seen by {seat or 'all'}"]
    for row in range(grid.rows):
        even = " ".join(cell_text(grid.index(c, row)) for c in range(0, grid.columns, 2))
        odd = " ".join(cell_text(grid.index(c, row)) for c in range(1, grid.columns, 2))
        lines.append(f"{row:2d} {even}")
        lines.append(f"{row:2d}     {odd}")
    return "\n".join(lines)
