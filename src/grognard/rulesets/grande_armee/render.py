"""The map and units as text, as a seat sees them (terminal play, debugging).

Each area is four characters, so that the even rows, shifted half an area east on the hex map, are shifted by
exactly two: the terrain or city sign (clear land shows who controls it: ``.`` French, ``,`` Allied, blank
Neutral), the unit on top (upper case French, lower case Allied) and the stack's size (``?`` when a cavalry unit
on top screens it, §3.5). Who holds each capital and major city is listed under the map.
"""

from __future__ import annotations

from typing import Any

from .play import Ctx, stack_order
from .state import LGAState, Unit
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
CONTROL = {"french": ".", "allied": ",", "neutral": " ", "": " "}  # the sign of clear land
WIDTH = 4


def render(ctx: Ctx, state: LGAState, seat: str | None) -> str:
    view = build_view(ctx, state, seat)
    board = ctx.board
    grid = board.grid
    marks = _marks(ctx, view)
    lines = []
    sc = ctx.scenario
    if (state.year, state.season) == sc.start and seat is not None:
        lines += [sc.info.name, sc.spec.situation, ""]
    lines.append(("     " + "".join(f"{c + 1:<{WIDTH}}" for c in range(grid.columns))).rstrip())
    for r in range(grid.rows):
        row = []
        for c in range(grid.columns):
            cell = grid.index(c, r)
            sign = CITY.get(board.kind(cell)) or TERRAIN.get(board.terrain[cell], "?")
            if cell in board.prohibited:  # by the map or by the scenario (§2.2)
                sign = TERRAIN["prohibited"]
            elif sign == " ":
                sign = CONTROL[view["control"][cell]]
            row.append(sign + marks.get(cell, "  ") + " ")
        pad = " " * (WIDTH // 2) if r % 2 else ""  # the even rows (counted from 1) lie half an area east
        lines.append(f"{r + 1:>3}  {pad}{''.join(row).rstrip()}")
    fr, al = view["victory"]["french"], view["victory"]["allied"]
    now = f"{view['player']} {view['phase'].replace('_', ' ')}" if view["player"] else "game over"
    lines.append(
        f"{view['season']} {view['year']} (ends {view['end']}), {now}; "
        f"French {fr['vp']} VP {fr['level']}, Allied {al['vp']} VP {al['level']}"
    )
    lines.append("MP " + ", ".join(f"{p} {n}" for p, n in view["mp"].items()))
    for side in ("french", "allied", "neutral"):
        held = [board.name(c) for c in board.vp_cities if view["control"][c] == side]
        if held:
            lines.append(f"{side} cities: {', '.join(held)}")
    lines.append(
        "map: * capital  O major city  o minor city  f forest  ^ mountain  _ marsh  ~ sea  # prohibited  "
        ". French , Allied clear land; after the sign the unit on top and the stack's size (? screened by cavalry)"
    )
    lines.append(
        "units: I infantry  M militia  A guard/artillery  C cavalry  H HQ (upper case French, lower case Allied); "
        "areas are named column,row"
    )
    lines += _unit_lines(ctx, view)
    if view["last_seen"]:
        seen = ", ".join(f"{s['id']} at {s['at']} ({s['when']})" for s in view["last_seen"])
        lines.append(f"enemy units last seen: {seen}")
    if state.phase.value == "over":
        lines += ["", f"Aftermath: {sc.spec.aftermath}"]
    return "\n".join(lines)


def _marks(ctx: Ctx, view: dict[str, Any]) -> dict[int, str]:
    """The two characters after each area's sign: the top unit's letter and the stack's size."""
    by_cell: dict[int, list[Unit]] = {}
    for u in view["units"]:
        if u["cell"] >= 0:
            unit = Unit(u["id"], u["power"], u["type"], u["cell"], garrison=u["garrison"], stack=u["stack"])
            by_cell.setdefault(u["cell"], []).append(unit)
    sides = {u["id"]: u["side"] for u in view["units"]}
    marks = {}
    for cell, units in by_cell.items():
        top = stack_order(ctx, units)[0]
        marks[cell] = _letter(ctx, top.type, sides[top.id]) + (str(len(units)) if len(units) < 10 else "+")
    for s in view["enemy"]:  # where the seat sees them (§5.66)
        count = s["count"]
        marks[s["cell"]] = _letter(ctx, s["top"]["type"], s["side"]) + ("?" if count is None else str(min(count, 9)))
    return marks


def _unit_lines(ctx: Ctx, view: dict[str, Any]) -> list[str]:
    out = []
    for u in sorted(view["units"], key=lambda u: (u["cell"] < 0, u["at"] or "", u["id"])):
        if u["cell"] < 0:
            continue
        flags = " ".join(
            f
            for f, on in (
                ("garrison", u["garrison"]),
                ("out of supply", not u["supplied"]),
                ("rallied", u["rallied"] and u["type"] != "hq"),
                ("reacted", u["reacted"]),
            )
            if on
        )
        name = ctx.board.name(u["cell"])
        where = f"{u['at']} {name}".strip()
        bonus = f" +{u['bonus']}" if u["type"] == "hq" else ""
        out.append(
            f"  {u['id']:<14} {u['name'] + bonus:<16} {where:<18} M{u['morale']} F{u['fatigue']} "
            f"moves {u['moves']}  {flags}".rstrip()
        )
    return out


def _letter(ctx: Ctx, type_: str, side: str) -> str:
    code = ctx.tables.units[type_].code
    return code.upper() if side == "french" else code.lower()
