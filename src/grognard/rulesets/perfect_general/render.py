"""The map and units as text, one character per location, as a seat sees them (terminal play, debugging)."""

from __future__ import annotations

from .context import Ctx
from .state import PGState
from .view import build_view

TERRAIN_CHARS = {
    "clear": ".",
    "field": ",",
    "hill": "^",
    "ridge": "^",
    "forest": "f",
    "forest_rubble": "%",
    "town": "T",
    "town_rubble": "t",
    "fortification": "#",
    "rough": ":",
    "desert": "_",
    "destroyed_road": "x",
    "cratered": "o",
    "beach": "b",
    "sea": "~",
    "lake": "~",
    "coast": "~",
    "bridge": "=",
    "river": "-",
    "blown_bridge": "/",
    "escarpment": "E",
    "depression": "v",
}


def render(ctx: Ctx, state: PGState, seat: str | None) -> str:
    view = build_view(ctx, state, seat)
    grid = ctx.board.grid
    chars = [TERRAIN_CHARS.get(ctx.board.terrain(state, c), "?") for c in range(grid.size)]
    for c in range(grid.size):
        if ctx.board.map.has("road", c) and chars[c] in ".,^:_":
            chars[c] = "+"
    for m in view["mines"]:
        chars[m["cell"]] = "*"
    for b in view["barrages"]:
        chars[b["cell"]] = "@"
    for g in view["ghosts"]:
        chars[g["cell"]] = "?"
    for u in view["units"]:
        if u.get("carried_by"):
            continue
        letter = ctx.tables.units[u["type"]].code[0]
        chars[u["cell"]] = letter.upper() if u["side"] == "attacker" else letter.lower()
    header = "    " + "".join(str((grid.first[0] + c) // 10 % 10) for c in range(grid.columns))
    header2 = "    " + "".join(str((grid.first[0] + c) % 10) for c in range(grid.columns))
    lines = [header, header2]
    for r in range(grid.rows):
        row = "".join(chars[r * grid.columns : (r + 1) * grid.columns])
        lines.append(f"{grid.first[1] + r:>3} {row}")
    sides = view["sides"]
    lines.append(
        f"turn {view['turn']}/{view['turns']}  {view['phase'].replace('_', ' ')} ({view['side']})  "
        f"weather {'+'.join(view['weather'])}  score attacker {sides['attacker']['score']} "
        f"defender {sides['defender']['score']}"
    )
    lines.append("units: attacker UPPER case, defender lower case; * mine, @ barrage, ? last seen, + road, T town")
    towns = (
        f"{t['name']} {grid.label(t['cells'][0])} ({t['value']} VP{', ' + t['holder'] if t['holder'] else ''})"
        for t in view["towns"]
    )
    lines.append("towns: " + "; ".join(towns))
    for u in view["units"]:
        extra = " (carried)" if u.get("carried_by") else ""
        flags = "".join(f for f, on in (("F", u["fired"]), ("M", u["moved"]), ("S", u["spotted"])) if on)
        lines.append(
            f"  {u['id']:<10} {u['side']:<8} {u['name']:<17} {u['at']:>6}  hp {u['hp']}/{u['max_hp']} {flags}{extra}"
        )
    return "\n".join(lines)
