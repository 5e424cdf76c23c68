"""The map and units as text, as a seat sees them (terminal play, debugging).

Each area is three characters, rows offset as on the hex map: the terrain or city letter, then the unit on top
(upper case French, lower case Allied) and the stack's size (``+`` when cavalry screens it).
"""

from __future__ import annotations

from typing import Any

from .play import Ctx
from .state import LGAState
from .view import build_view

TERRAIN = {
    "clear": " ",
    "forest": "f",
    "mountain": "^",
    "marsh": "_",
    "prohibited": "#",
    "atlantic": "~",
    "north_sea": "~",
    "baltic": "~",
    "mediterranean": "~",
}
CITY = {"capital": "*", "major": "O", "minor": "o"}


def render(ctx: Ctx, state: LGAState, seat: str | None) -> str:
    view = build_view(ctx, state, seat)
    board = ctx.board
    grid = board.grid
    cells: dict[int, tuple[str, str]] = {}
    for u in view["units"]:
        if u["cell"] is None or u["cell"] < 0:
            continue
        cells.setdefault(u["cell"], ("", ""))
    by_cell: dict[int, list[dict[str, Any]]] = {}
    for u in view["units"]:
        if u["cell"] >= 0:
            by_cell.setdefault(u["cell"], []).append(u)
    marks: dict[int, str] = {}
    for cell, us in by_cell.items():
        us.sort(key=lambda u: (2 if u["type"] == "hq" else 1 if u["garrison"] else 0, -u["stack"]))
        top = us[0]
        marks[cell] = _letter(ctx, top["type"], top["side"]) + (str(len(us)) if len(us) < 10 else "+")
    for s in view["enemy"]:  # where the seat sees them (§5.66)
        count = s["count"]
        marks[s["cell"]] = _letter(ctx, s["top"]["type"], s["side"]) + ("+" if count is None else str(min(count, 9)))
    lines = []
    sc = ctx.scenario
    if (state.year, state.season) == sc.start and seat is not None:
        lines += [sc.info.name, sc.spec.situation, ""]
    lines.append("    " + "".join(f"{c + 1:<3}" for c in range(grid.columns)))
    for r in range(grid.rows):
        row = []
        for c in range(grid.columns):
            cell = grid.index(c, r)
            kind = board.kind(cell)
            ch = CITY.get(kind) or TERRAIN.get(board.terrain[cell], "?")
            if ch == " " and state.control[cell]:
                ch = {"french": ".", "allied": ",", "neutral": " "}[state.control[cell]]
            row.append(ch + marks.get(cell, "  "))
        pad = "  " if r % 2 else ""
        lines.append(f"{r + 1:>3} {pad}{''.join(row)}")
    fr, al = view["victory"]["french"], view["victory"]["allied"]
    lines.append(
        f"{view['season']} {view['year']} (ends {view['end']}), {view['player']} {view['phase'].replace('_', ' ')}; "
        f"French {fr['vp']} VP {fr['level']}, Allied {al['vp']} VP {al['level']}"
    )
    lines.append("MP " + ", ".join(f"{p} {n}" for p, n in view["mp"].items()))
    lines.append(
        "* capital O major city o minor city f forest ^ mountain _ marsh ~ sea # prohibited . French , Allied; "
        "units: I infantry M militia A guard/artillery C cavalry H HQ (upper case French, lower case Allied)"
    )
    for u in view["units"]:
        if u["cell"] < 0:
            continue
        flags = ("G" if u["garrison"] else "") + ("" if u["supplied"] else "U")
        lines.append(
            f"  {u['id']:<14} {u['name']:<16} {u['at']:>6} M{u['morale']} F{u['fatigue']} moves {u['moves']} {flags}"
        )
    if state.phase.value == "over":
        lines += ["", f"Aftermath: {sc.spec.aftermath}"]
    return "\n".join(lines)


def _letter(ctx: Ctx, type_: str, side: str) -> str:
    code = ctx.tables.units[type_].code
    return code.upper() if side == "french" else code.lower()
