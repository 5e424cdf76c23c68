"""Build Battle of Antietam's battlefield (``src/grognard/rulesets/antietam/data/map.json``) from a recipe.

The manual's map card is lost (digest AMB-1); the manual fixes only the grid (42 x 36 squares of 200 yd,
§IA1.3), the terrain types (§IA1.3, Figure 1.4, the Operation Costs Table), four elevation levels (§IA8.3),
the eight victory squares (§B7.1, §IA10.1) and the entry squares (OOB notes, §IA6.0). Everything else comes
from ``shared/reference/antietam-battlefield.md`` ("the reference"): its projection puts the manual's squares
on the real places, and its places, water, roads and cover are drawn here feature by feature, each with its
source. ``docs/rules/antietam.md`` explains the projection and the choices.

Run::

    python scripts/antietam_map.py            # write map.json
    python scripts/antietam_map.py --show     # print the map as text (south at the top, as the game draws it)
    python scripts/antietam_map.py --check    # exit 1 if map.json differs from the recipe

Coordinates are the manual's ``x,y``: x grows westward from the east edge, y northward from the south edge,
both from 0 (AMB-1); the engine draws row 0 at the top, so the screen's "up" is geographic south.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from grognard.engine.geometry import square_line

ROOT = Path(__file__).resolve().parent.parent
MAP_FILE = ROOT / "src" / "grognard" / "rulesets" / "antietam" / "data" / "map.json"
SOURCES_FILE = MAP_FILE.with_name("map_sources.json")  # the sources of the roads, water and elevation

COLUMNS, ROWS = 42, 36  # §IA1.3
Point = tuple[int, int]

# The reference's projection (Sharpsburg's square on the 4000-point square 32,7; 200 yd = 182.88 m a square).
LAT0, LON0, X0, Y0 = 39.4578, -77.7494, 32, 7
PER_LAT, PER_LON = 607.0, 470.0  # squares per degree of latitude / longitude

PROJECTION = (
    "x = 32 - 470.0 * (lon + 77.7494), y = 7 + 607.0 * (lat - 39.4578), rounded "
    "(200 yd a square, Sharpsburg on 32,7; x grows westward, y northward; row 0 = south edge)"
)


def project(lat: float, lon: float) -> Point:
    """The square of a latitude and longitude (the reference's formula)."""
    return round(X0 - PER_LON * (lon - LON0)), round(Y0 + PER_LAT * (lat - LAT0))


# ---------------------------------------------------------------------------------------------------------------
# The recipe. Source keys as in the reference: W Wikipedia, H HMdb markers, WM Waymarking, AU aroundus, PX PANICd,
# JR Rohrbach Inn blog, MU Project MUSE, EL enfiladinglines, BA Ballard's staff ride, SL NPS Snyder's Landing,
# BL Battles and Leaders, M recalled standard works (Carman, Sears, USGS quadrangles; +-1-2 squares),
# MANUAL the manual's own coordinates, DERIVED a choice made here (explained in docs/rules/antietam.md).

# Victory squares: §B7.1 and §IA10.1, "in possession of square x,y = points (points if in ZOC)".
VICTORY = [
    # (square, points, half points, name, source of the name)
    (
        (17, 2),
        1000,
        500,
        "IX Corps ridge on the Rohrersville road",
        "MANUAL square; name from the projection (reference)",
    ),
    ((18, 9), 1000, 500, "Boonsboro Pike by Porterstown", "MANUAL square; name from the projection (reference)"),
    (
        (21, 14),
        1000,
        500,
        "Creek bank north of the Middle Bridge",
        "MANUAL square; name from the projection (reference)",
    ),
    ((31, 18), 1000, 500, "Dunker Church", "MANUAL square; church 39.4754 -77.7468 [WM] projects to 31,18"),
    ((25, 3), 1000, 500, "Bluff west of the Burnside Bridge", "MANUAL square; bridge 39.4505 -77.7319 [AU] is 24,3"),
    ((28, 11), 2000, 1000, "Piper farm", "MANUAL square; Piper farm 39.4645 -77.7420 [M] projects to 28-29,11"),
    (
        (32, 7),
        4000,
        2000,
        "Sharpsburg town square",
        "MANUAL square; town square 39.4578 -77.7494 [W] is the projection's origin",
    ),
    ((33, 1), 10000, 5000, "Road to Boteler's Ford", "MANUAL square; OOB note: A.P. Hill's road from 33,1 to 32,4"),
]

# Antietam Creek (stream squares, §IA1.3): waypoints of the reference, north edge to south edge [M, +-2
# squares], through the three bridges whose squares are projected from their markers.
CREEK = [
    (13, 35),
    (15, 26),
    (15, 24),
    (17, 19),
    (19, 15),
    (21, 12),
    (21, 10),
    (22, 8),
    (23, 5),
    (24, 4),
    (24, 2),
    (25, 1),
    (26, 0),
]
# each bridge square lies on a straight north-south reach, so its road crosses it east to west
BRIDGES = [
    ((15, 25), "Upper (Hitt) Bridge", "H #3201 39.48787 -77.71362 projects to 15,25"),
    ((21, 11), "Middle Bridge", "H #3205 39.46453 -77.72638 projects to 21,11"),
    ((24, 3), "Burnside (Rohrbach, Lower) Bridge", "AU 39.45050 -77.73190 projects to 24,3"),
]
# The two historical fords of §IA1.3 (the manual does not name them, AMB-2): Pry's Ford, 0.2 mi below the
# Hitt Bridge [H, BL], and the upper ford by the Hitt Bridge where part of the I Corps crossed [BL: "at the
# two fords and the bridge"]. Snavely's Ford falls off the south edge (26,-4 [HN]).
FORDS = [
    ((15, 23), "Pry's Ford", "H: Pry Mill 0.2 mi (about 2 squares) below the Hitt Bridge; BL; AMB-2"),
    (
        (14, 28),
        "Upper ford by the Hitt Bridge",
        "BL: I Corps crossed at two fords and the bridge; DERIVED square, AMB-2",
    ),
]

# The Potomac (river squares): about 2 km west of town [SL], just off the west edge; its bend north-west of
# Nicodemus Heights touches x 40-41, y >= 28 [M, uncertain].
POTOMAC = [(41, y) for y in range(28, 36)] + [(40, 30), (40, 31), (40, 32)]

# Roads (paths; drawn with orthogonal links only, AMB-27: the road bonus is never diagonal).
ROADS = [
    (
        "Hagerstown Pike",
        [(32, 7), (31, 10), (31, 22), (32, 23), (32, 35)],
        "M: 32,7 north along x 31-32 by 31,18 and 32,26",
    ),
    (
        "Boonsboro Pike",
        [(32, 7), (28, 8), (24, 9), (22, 11), (20, 11), (15, 17), (8, 23), (0, 28)],
        "M: 32,7 - 28,8 - 24,9 - Middle Bridge 21,11 - 15,17 - Keedysville 8,23 - east edge",
    ),
    (
        "Smoketown Road",
        [(31, 18), (27, 21), (25, 24), (22, 27), (18, 30), (18, 35)],
        "M: church north-east to Smoketown",
    ),
    (
        "Keedysville Road",
        [(8, 24), (14, 25), (16, 25), (20, 27), (26, 28), (31, 28), (32, 28)],
        "M: Keedysville - Upper Bridge 15,25 - Line farm - Hagerstown Pike",
    ),
    (
        "Boteler's Ford Road",
        [(33, 0), (33, 3), (32, 3), (32, 7)],
        "MANUAL: A.P. Hill's road from 33,1 to 32,4 (OOB note)",
    ),
    ("Harpers Ferry Road", [(32, 7), (31, 4), (30, 0)], "M"),
    (
        "Rohrersville Road",
        [(24, 3), (23, 3), (21, 2), (19, 1), (17, 0)],
        "M: from the Burnside Bridge to the east; MANUAL: Hampton's entry square 17,0",
    ),
    ("Lower Bridge Road", [(32, 7), (29, 6), (26, 4), (25, 3), (24, 3)], "M: Sharpsburg to the Burnside Bridge"),
    ("Sunken Road", [(31, 14), (25, 12), (24, 9)], "MU: 1,500 yd NE of town; M: pike - bend - Boonsboro Pike"),
    (
        "Porterstown-Rohrersville Road",
        [(16, 16), (11, 17), (0, 19)],
        "DERIVED: joins the Boonsboro Pike to the Union turn-2 entry squares 0,18-0,20 (OOB note)",
    ),
]

TOWNS = [
    (
        "Sharpsburg",
        [(x, y) for x in range(30, 35) for y in range(6, 9) if (x, y) not in {(30, 6), (34, 8)}],
        "W 39.4578 -77.7494; M: town about x 30-34, y 6-8",
    ),
    ("Keedysville", [(8, 23), (8, 24), (7, 24)], "M: 39.486 -77.699 projects to 8,24"),
]

WOODS = [
    (
        "West Woods",
        [(x, y) for x in (32, 33) for y in range(17, 22)] + [(34, 18), (34, 19), (34, 20)],
        "M: 39.4790 -77.7500, x 31-33, y 17-21, west of the pike; Hauser's Ridge at x 34",
    ),
    ("East Woods", [(x, y) for x in (27, 28) for y in range(20, 23)], "M: 39.4812 -77.7395, x 27-28, y 20-22"),
    ("North Woods", [(x, y) for x in (29, 30, 31) for y in (24, 25)], "M: 39.4872 -77.7448, x 29-31, y 24-25"),
    ("Creek bluff woods", [(25, 2), (26, 3), (26, 1)], "M: wooded bluffs by the Burnside Bridge"),
]

CORNFIELDS = [
    ("Miller's Cornfield", [(29, 21), (30, 21), (29, 22), (30, 22)], "JR (halfway between North Woods and church); M"),
    ("Roulette's cornfield", [(27, 14), (28, 14), (27, 15)], "M: north of the Sunken Road by the Roulette farm"),
    ("Piper's cornfield", [(27, 10), (27, 11)], "M: south of the Sunken Road, east of the Piper farm"),
    ("Otto's forty-acre cornfield", [(27, 4), (28, 4)], "M: 39.4530 -77.7385 projects to 27,4"),
]

# Farms and landmarks (places of kind "landmark"; the victory squares are places of kind "victory").
LANDMARKS = [
    ((32, 26), "J. Poffenberger farm", "WM 39.48992 -77.74870 projects to 32,26"),
    ((31, 21), "Miller farm", "JR: halfway between the North Woods and the church"),
    ((28, 17), "Mumma farm", "M 39.4737 -77.7405"),
    ((26, 15), "Roulette farm", "M 39.4705 -77.7360"),
    ((28, 8), "Cemetery Hill", "M 39.4590 -77.7420"),
    ((27, 5), "Otto farm", "M 39.4530 -77.7385 (house beside the cornfield)"),
    ((15, 18), "Pry House", "PX 39.4762 -77.7134 projects to 15,18"),
    ((26, 30), "Line farm", "M 39.495 -77.736"),
    ((36, 25), "Nicodemus Heights", "EL, BA 39.4870 -77.7580"),
]

# Elevation: spot heights in feet, interpolated (inverse square distance) and then cut down near the water
# (creek bottom 330 ft rising 35 ft a square; Potomac 300 ft). Levels (§IA8.3: four levels of 40-50 ft), as
# the reference suggests: 1 below 375 ft, 2 from 375, 3 from 425, 4 from 475.
SPOT_HEIGHTS = [
    ((32, 7), 430, "Sharpsburg 420-427 ft [W]; the manual's display example shows a road at level 3"),
    ((36, 25), 525, "Nicodemus Heights, 525 ft contour [BA]"),
    ((31, 18), 495, "church plateau 470-520 ft [M]"),
    ((29, 21), 500, "Cornfield ridge 470-520 ft [M]"),
    ((32, 26), 505, "Poffenberger ridge 470-520 ft [M]"),
    ((34, 20), 480, "Hauser's Ridge [M]"),
    ((28, 17), 460, "Mumma farm [M]"),
    ((26, 15), 440, "Roulette farm [M]"),
    ((27, 12), 425, "Sunken Road swale [M]"),
    ((28, 10), 455, "Piper ridge [M]"),
    ((28, 8), 460, "Cemetery Hill 460 ft [M]"),
    ((27, 4), 435, "Otto farm ridge [M]"),
    ((26, 30), 470, "Line farm [M]"),
    ((30, 34), 480, "north edge, Hagerstown Pike [M]"),
    ((37, 12), 420, "west of town toward the Potomac [M]"),
    ((39, 3), 400, "south-west, toward Boteler's Ford [M]"),
    ((15, 18), 440, "Pry House ridge [M]"),
    ((20, 5), 440, "IX Corps ridges 420-460 ft [M]"),
    ((17, 11), 430, "east-bank ridge by Porterstown [M]"),
    ((8, 24), 380, "Keedysville [M]"),
    ((4, 10), 450, "east-bank heights toward Elk Ridge [M]"),
    ((3, 32), 430, "east edge north [M]"),
    ((20, 32), 440, "Smoketown plateau [M]"),
]
CREEK_FT, CREEK_RISE, RIVER_FT, RIVER_RISE = 330, 35, 300, 40
LEVEL_FROM = (375, 425, 475)  # a square at or above these heights is level 2, 3, 4


# ---------------------------------------------------------------------------------------------------------------
def orthogonal(points: Iterable[Point], vertical_first: bool = False) -> list[Point]:
    """The squares on straight lines through the waypoints, with a corner square put in every diagonal step,
    so that the chain is linked orthogonally (a stream drawn so cannot be crossed by a diagonal step, and a
    road so drawn can give its bonus all along, AMB-27)."""
    pts = list(points)
    out: list[Point] = [pts[0]]
    for a, b in itertools.pairwise(pts):
        for p in square_line(*a, *b)[1:]:
            q = out[-1]
            if p[0] != q[0] and p[1] != q[1]:
                out.append((q[0], p[1]) if vertical_first else (p[0], q[1]))
            out.append(p)
    return out


def label(p: Point) -> str:
    return f"{p[0]},{p[1]}"


def build() -> tuple[dict[str, object], dict[str, object]]:
    """The map document and the sources of the features that are not places (they go to map_sources.json)."""
    terrain: dict[Point, str] = {(x, y): "clear" for x in range(COLUMNS) for y in range(ROWS)}
    for cells, kind in ((c, "town") for _, c, _ in TOWNS):
        for p in cells:
            terrain[p] = kind
    for _, cells, _ in WOODS:
        for p in cells:
            terrain[p] = "woods"
    for _, cells, _ in CORNFIELDS:
        for p in cells:
            terrain[p] = "cornfield"
    creek = orthogonal(CREEK, vertical_first=True)
    for p in creek:
        terrain[p] = "stream"
    for p in POTOMAC:
        terrain[p] = "river"
    for p, _, _ in BRIDGES:
        assert terrain[p] == "stream", p
        terrain[p] = "bridge"
    for p, _, _ in FORDS:
        assert terrain[p] == "stream", p
        terrain[p] = "ford"

    roads = {name: orthogonal(points) for name, points, _ in ROADS}
    for name, path in roads.items():
        for p in path:
            if terrain[p] == "stream":
                raise SystemExit(f"{name} crosses the creek at {label(p)} off a bridge or ford")

    water = [p for p, t in terrain.items() if t in ("stream", "ford", "bridge")]
    river = [p for p, t in terrain.items() if t == "river"]

    def level(p: Point) -> int:
        num = den = 0.0
        for q, ft, _ in SPOT_HEIGHTS:
            d2 = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2
            if d2 == 0:
                num, den = ft, 1.0
                break
            num += ft / d2
            den += 1 / d2
        height = num / den
        dc = min(max(abs(p[0] - q[0]), abs(p[1] - q[1])) for q in water)
        height = min(height, CREEK_FT + CREEK_RISE * dc)
        dr = min(max(abs(p[0] - q[0]), abs(p[1] - q[1])) for q in river)
        height = min(height, RIVER_FT + RIVER_RISE * dr)
        return 1 + sum(height >= t for t in LEVEL_FROM)

    codes = {
        "clear": ".",
        "town": "T",
        "woods": "W",
        "cornfield": "C",
        "stream": "S",
        "river": "R",
        "ford": "F",
        "bridge": "B",
    }
    rows = ["".join(codes[terrain[(x, y)]] for x in range(COLUMNS)) for y in range(ROWS)]
    elevation = ["".join(str(level((x, y))) for x in range(COLUMNS)) for y in range(ROWS)]

    places: list[dict[str, object]] = []
    for p, points, half, name, source in VICTORY:
        places.append(
            {
                "name": name,
                "cells": [label(p)],
                "kind": "victory",
                "value": points,
                "data": {"in_zoc": half, "source": source},
            }
        )
    for group, kind in ((BRIDGES, "bridge"), (FORDS, "ford"), (LANDMARKS, "landmark")):
        for p, name, source in group:
            places.append({"name": name, "cells": [label(p)], "kind": kind, "data": {"source": source}})
    for areas, kind in ((TOWNS, "town"), (WOODS, "woods"), (CORNFIELDS, "cornfield")):
        for area, cells, area_source in areas:
            places.append(
                {"name": area, "cells": [label(q) for q in cells], "kind": kind, "data": {"source": area_source}}
            )
    # a place names each cell once (GameMap.place_at): the area places above must not cover a point place
    seen: dict[str, str] = {}
    for pl in places:
        for c in pl["cells"]:  # type: ignore[attr-defined]
            if c in seen and pl["kind"] in ("town", "woods", "cornfield"):
                pl["cells"] = [x for x in pl["cells"] if x != c]  # type: ignore[attr-defined]
            else:
                seen.setdefault(c, str(pl["name"]))

    regions = {
        # OOB notes (§IA6.0): "Turn 2 Reinforcements appear on square 17,0."
        "confederate_entry_turn_2": {"cells": ["17,0"]},
        # "Turn 9 reinforcements appear on the road from 33,1 to 32,4"
        "confederate_entry_turn_9": {"cells": [label(p) for p in roads["Boteler's Ford Road"] if 1 <= p[1] <= 4]},
        # "turn 2 reinforcements appear on squares 0,18 to 0,20"; "turn 3 ... on squares 0,25 to 0,32"
        "union_entry_turn_2": {"rect": [0, 18, 0, 20]},
        "union_entry_turn_3": {"rect": [0, 25, 0, 32]},
        "creek": {"cells": [label(p) for p in creek]},
        "sunken_road": {"cells": [label(p) for p in roads["Sunken Road"]]},
        # §IA8.5: retreats go toward the rear, "the upper right corner of the map" for the Confederates and
        # "the lower left corner for the Union" (row 0 drawn at the top)
        "confederate_rear": {"cells": [label((COLUMNS - 1, 0))]},
        "union_rear": {"cells": [label((0, ROWS - 1))]},
    }
    sources: dict[str, object] = {
        "projection": PROJECTION,
        "creek": "reference waypoints [M +-2 squares] " + " ".join(label(p) for p in CREEK),
        "potomac": "SL, M: bend north-west of Nicodemus Heights, uncertain",
        "roads": {name: src for name, _, src in ROADS},
        "elevation": {label(p): f"{ft} ft: {src}" for p, ft, src in SPOT_HEIGHTS},
        "elevation_method": (
            f"inverse-square interpolation of the spot heights, cut to {CREEK_FT} ft + "
            f"{CREEK_RISE} ft a square from the creek and {RIVER_FT} ft + {RIVER_RISE} ft a "
            f"square from the Potomac; level 2 from {LEVEL_FROM[0]} ft, 3 from {LEVEL_FROM[1]}, "
            f"4 from {LEVEL_FROM[2]}"
        ),
    }
    return {
        "format": "grognard-map/1",
        "name": "Antietam, 17 September 1862",
        "source": (
            "Battle of Antietam manual §IA1.3 (42 x 36 squares of 200 yd, terrain types, four levels), §B7.1 and "
            "§IA10.1 (victory squares), OOB notes and §IA6.0 (entry squares), §IA8.5 (rear corners); features "
            "from shared/reference/antietam-battlefield.md drawn by scripts/antietam_map.py; projection "
            + PROJECTION
            + "; docs/rules/antietam.md"
        ),
        "grid": {"kind": "square", "columns": COLUMNS, "rows": ROWS, "first": [0, 0]},
        "terrain_codes": {v: k for k, v in codes.items()},
        "terrain": rows,
        "elevation": elevation,
        "paths": {"road": [[label(p) for p in path] for path in roads.values()]},
        "places": places,
        "regions": regions,
    }, sources


def show(doc: dict[str, object]) -> str:
    """The map as text: terrain (roads as '=' on clear ground) beside the elevation levels, south at the top."""
    terrain = doc["terrain"]
    elevation = doc["elevation"]
    road = {c for path in doc["paths"]["road"] for c in path}  # type: ignore[index]
    victory = {p["cells"][0] for p in doc["places"] if p["kind"] == "victory"}  # type: ignore[attr-defined]
    head = (
        "    " + "".join(str(x // 10) for x in range(COLUMNS)) + "   " + "".join(str(x // 10) for x in range(COLUMNS))
    )
    head2 = "    " + "".join(str(x % 10) for x in range(COLUMNS)) + "   " + "".join(str(x % 10) for x in range(COLUMNS))
    lines = [head, head2]
    for y in range(ROWS):
        cells = []
        for x in range(COLUMNS):
            ch = terrain[y][x]  # type: ignore[index]
            if f"{x},{y}" in victory:
                ch = "*"
            elif ch == "." and f"{x},{y}" in road:
                ch = "="
            elif ch == "T" and f"{x},{y}" in road:
                ch = "#"
            cells.append(ch)
        lines.append(f"{y:>3} {''.join(cells)}   {elevation[y]}")  # type: ignore[index]
    lines.append("(row 0 = south edge at the top; x = 0 is the east edge; * victory square, = road, # town road)")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--show", action="store_true", help="print the map as text")
    ap.add_argument("--check", action="store_true", help="exit 1 if map.json differs from the recipe")
    args = ap.parse_args()
    doc, sources = build()
    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    sources_text = json.dumps(sources, indent=1, ensure_ascii=False) + "\n"
    if args.show:
        print(show(doc))
    if args.check:
        same = all(
            f.exists() and f.read_text(encoding="utf-8") == t
            for f, t in ((MAP_FILE, text), (SOURCES_FILE, sources_text))
        )
        print("map.json matches the recipe" if same else "map.json differs from the recipe")
        return 0 if same else 1
    if not args.show:
        MAP_FILE.parent.mkdir(parents=True, exist_ok=True)
        MAP_FILE.write_text(text, encoding="utf-8")
        SOURCES_FILE.write_text(sources_text, encoding="utf-8")
        print(f"wrote {MAP_FILE.relative_to(ROOT)} and {SOURCES_FILE.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
