"""Print a Perfect General map as text, one character per hex, so it can be read in a terminal.

    python scripts/pg_render_map.py simple_little_war            # a map id, or a scenario id
    python scripts/pg_render_map.py the_grauwald --regions       # and the scenario's set-up regions
    python scripts/pg_render_map.py path/to/map.json --rows      # one text line per map row
    python scripts/pg_render_map.py heights_of_kravno --elevation

By default the hexes are drawn staggered as they lie: the map's odd-q columns stand half a hex lower in the
even-numbered columns, so each map row takes two text lines, the odd-numbered columns on the first and the
even-numbered ones on the second. ``--rows`` prints the rows as the file stores them instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "grognard" / "rulesets" / "perfect_general" / "data"

SYMBOLS = {
    "clear": ".",
    "field": ",",
    "forest": "f",
    "forest_rubble": "&",
    "hill": "h",  # drawn as its elevation digit
    "ridge": "^",
    "town": "T",
    "town_rubble": "t",
    "fortification": "@",
    "rough": "r",
    "desert": ":",
    "depression": "u",
    "escarpment": "/",
    "cratered": "*",
    "destroyed_road": "%",
    "beach": "b",
    "river": "~",
    "bridge": "=",
    "blown_bridge": "x",
    "sea": " ",
    "lake": "o",
    "coast": "c",
}
PATH_SYMBOLS = {"road": "+", "track": "-", "railroad": "#"}
KEEP = frozenset("+-#=x~oc ")  # shown through a region overlay, with the towns
LEGEND = (
    ". clear  , field  f forest  & forest rubble  1-3 hill (its height)  ^ ridge  @ fortification  r rough\n"
    ": desert  u depression  / escarpment  * cratered  % destroyed road  b beach  ~ river  = bridge\n"
    "x blown bridge  (blank) sea  o lake  c coast  + road  - track  # railroad  capitals: towns (their initials)"
)


def _cell(label: str, columns: int) -> int:
    c, r = (int(x) for x in label.split(","))
    return (r - 1) * columns + (c - 1)


def region_cells(doc: dict, name: str) -> set[int]:
    """The cells of a map region (rect, cells, mask or places), without the engine."""
    cols, rows = doc["grid"]["columns"], doc["grid"]["rows"]
    spec = doc["regions"][name]
    out = {_cell(lb, cols) for lb in spec.get("cells", [])}
    if "rect" in spec:
        c0, r0, c1, r1 = spec["rect"]
        out |= {(r - 1) * cols + (c - 1) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)}
    for r, line in enumerate(spec.get("mask", [])[:rows]):
        out |= {r * cols + c for c, ch in enumerate(line) if ch != "."}
    for place in doc.get("places", []):
        if place["name"] in spec.get("places", []):
            out |= {_cell(lb, cols) for lb in place["cells"]}
    return out


def symbols(doc: dict, elevation: bool = False) -> list[str]:
    """The character of every hex: towns by initial, then bridges, paths, and the terrain."""
    cols = doc["grid"]["columns"]
    codes = doc["terrain_codes"]
    terrain = [codes[ch] for row in doc["terrain"] for ch in row]
    heights = [int(ch) for row in doc.get("elevation", []) for ch in row] or [0] * len(terrain)
    out = []
    for t, h in zip(terrain, heights, strict=True):
        if elevation:
            out.append(" " if t in ("sea", "lake", "coast") else str(h))
        elif t in ("hill",) or (t == "clear" and h > 0):
            out.append(str(h))
        else:
            out.append(SYMBOLS.get(t, "?"))
    if elevation:
        return out
    for kind, paths in doc.get("paths", {}).items():
        for path in paths:
            for lb in path:
                i = _cell(lb, cols)
                if terrain[i] not in ("bridge", "blown_bridge"):
                    out[i] = PATH_SYMBOLS.get(kind, "+")
    for place in doc.get("places", []):
        for lb in place["cells"]:
            i = _cell(lb, cols)
            out[i] = place["name"][0].upper()
    return out


def render(
    doc: dict, *, rows_only: bool = False, elevation: bool = False, overlay: dict[str, set[int]] | None = None
) -> str:
    cols, rows = doc["grid"]["columns"], doc["grid"]["rows"]
    sym = symbols(doc, elevation)
    marks = {}
    if overlay:
        for i, (name, cells) in enumerate(overlay.items()):
            letter = name[0].upper() if name[0].upper() not in marks.values() else str(i)
            marks[name] = letter
            for c in cells:
                if sym[c] not in KEEP and not sym[c].isupper():
                    sym[c] = letter
    tens = "".join(str((c // 10) % 10) if c % 10 == 0 else " " for c in range(1, cols + 1))
    units = "".join(str(c % 10) for c in range(1, cols + 1))
    lines = [f"{doc['name']} ({cols}x{rows})", f"     {tens}", f"     {units}"]
    for r in range(rows):
        line = sym[r * cols : (r + 1) * cols]
        if rows_only:
            lines.append(f"{r + 1:>3}  " + "".join(line))
        else:  # odd-q: the even-numbered columns (0-based odd) stand half a hex lower
            lines.append(f"{r + 1:>3}  " + "".join(ch if c % 2 == 0 else " " for c, ch in enumerate(line)).rstrip())
            lines.append("     " + "".join(ch if c % 2 == 1 else " " for c, ch in enumerate(line)).rstrip())
    lines.append("")
    lines.append(LEGEND)
    towns = ", ".join(f"{p['name']} {p['value']} ({len(p['cells'])} hexes)" for p in doc.get("places", []))
    if towns:
        lines.append("towns: " + towns)
    if overlay:
        lines.append("regions (towns, paths, rivers and water show through): ")
        lines[-1] += ", ".join(f"{m} {name}" for name, m in marks.items())
    return "\n".join(lines)


def load(what: str) -> tuple[dict, dict | None]:
    """A map document and, if ``what`` names a scenario, the scenario document."""
    path = Path(what)
    if not path.is_file():
        for candidate in (DATA / "maps" / f"{what}.json", DATA / "scenarios" / f"{what}.json"):
            if candidate.is_file():
                path = candidate
                break
        else:
            raise SystemExit(f"no map or scenario {what!r} (looked in {DATA})")
    doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("format") == "grognard-map/1":
        return doc, None
    m = doc["map"]
    if isinstance(m, str):
        for folder in (path.parent.parent / "maps", DATA / "maps"):
            if (folder / f"{m}.json").is_file():
                return json.loads((folder / f"{m}.json").read_text(encoding="utf-8")), doc
        raise SystemExit(f"no map {m!r} for scenario {what!r}")
    return m, doc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", help="a map id, a scenario id, or a path to a map or scenario file")
    ap.add_argument("--rows", action="store_true", help="one text line per map row, not staggered")
    ap.add_argument("--elevation", action="store_true", help="print heights instead of terrain")
    ap.add_argument("--regions", nargs="*", metavar="NAME", help="mark regions (default: a scenario's set-up regions)")
    args = ap.parse_args(argv)
    doc, scenario = load(args.what)
    overlay = None
    if args.regions is not None:
        names = args.regions
        if not names and scenario:
            names = [scenario["setup"]["attacker"], scenario["setup"]["defender"]]
            names += [n["region"] for n in scenario.get("neutral_countries", [])]
        if not names:
            names = list(doc.get("regions", {}))
        overlay = {n: region_cells(doc, n) for n in dict.fromkeys(names)}
    if scenario:
        print(f"{scenario['name']}: {scenario.get('summary', '')}")
    print(render(doc, rows_only=args.rows, elevation=args.elevation, overlay=overlay))
    return 0


if __name__ == "__main__":
    sys.exit(main())
