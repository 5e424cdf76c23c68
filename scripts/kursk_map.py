"""Build Objective Kursk's map (``src/grognard/rulesets/kursk/data/map.json``) from a recipe of features.

The manual's map card is lost (rules digest AMB-1); the map is rebuilt from real geography, every feature
from latitude/longitude waypoints with its source, projected onto the manual's 31 x 32 hexes of 3 miles
(§1.4, §4.5). Run::

    python scripts/kursk_map.py            # write map.json
    python scripts/kursk_map.py --show     # print the map as text (two text lines per hex row)
    python scripts/kursk_map.py --check    # exit 1 if map.json differs from the recipe

Grid: flat-topped hexes in columns ("odd-q": odd columns stand half a hex lower), because the manual's
direction keys are 1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW (§4.5, §6.4): hexes with north and south neighbours.
Cells are numbered ``column,row`` from 0,0 in the north-west corner, as the reference's hex table is.

Projection (shared/reference/objective-kursk-battlefield.md, "Projection that fits 31 x 32 hexes"): one row is
3 miles of latitude, one column 3 miles x 1.07 of longitude (stretched 7 % east-west so that Lgov, Sudzha and
Korocha, all VP towns of §11.1, fall on the map):
``col = round((lon - 35.25) / 0.0640)``, ``row = round((51.90 - lat) / 0.04342 - 0.5 * (col mod 2))``.

Rivers run on hexsides: each river's waypoints are joined by the shortest chain of hex *corners* that keeps
close to the straight segments, and every hexside of that chain is a river hexside, so a river is a connected
line of hexsides with no gap a group could slip through. Roads and the railway are chains of adjacent hexes
(``HexGrid.line`` between waypoints).

Source keys: G GeoNames gazetteer; W Wikipedia articles (as read for the battlefield reference, or checked in
this session through the search tool's pages corpus, marked W2); R regionsrf.ru; F Forczyk; S Showalter;
Z Zamulin; M standard works recalled by the reference, not re-checked; E our estimate (no source found; see
docs/rules/kursk.md).
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import math
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from grognard.engine.geometry import HexGrid

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "grognard" / "rulesets" / "kursk" / "data" / "map.json"

COLUMNS, ROWS = 31, 32
LON0, DLON = 35.25, 0.0640
LAT0, DLAT = 51.90, 0.04342
GRID = HexGrid(COLUMNS, ROWS, "odd-q", (0, 0))
SQ3 = math.sqrt(3.0)

LatLon = tuple[float, float]
Hex = tuple[int, int]

# ---------------------------------------------------------------------------------------------- the recipe
# Towns: name, lat, lon, VP (§11.1), source. The eight VP towns of §11.1 first ("Shehlgry" is Shchigry).
VP_TOWNS: list[tuple[str, float, float, int, str]] = [
    ("Kursk", 51.7373, 36.1874, 25000, "G"),
    ("Belgorod", 50.6107, 36.5802, 25000, "G"),
    ("Lgov", 51.6307, 35.2775, 10000, "G"),
    ("Oboyan", 51.2107, 36.2761, 10000, "G"),
    ("Shchigry", 51.8756, 36.9043, 10000, "G"),
    ("Prokhorovka", 51.0374, 36.7325, 5000, "G; W2 station 51.036, 36.733"),
    ("Sudzha", 51.1976, 35.2726, 5000, "G"),
    ("Korocha", 50.8132, 37.1860, 5000, "G; W 50.817, 37.200"),
]
# Other towns and villages shown as town hexes (no VP): the reference's list of large villages on roads.
TOWNS: list[tuple[str, float, float, str]] = [
    ("Tomarovka", 50.6834, 36.2344, "G; W2 on the Vorskla"),
    ("Borisovka", 50.5833, 36.0167, "G; W2 50.583, 36.017, on the Vorskla"),
    ("Yakovlevo", 50.8548, 36.4461, "G"),
    ("Ivnya", 51.0584, 36.1416, "G"),
    ("Rakitnoye", 50.8389, 35.8515, "G"),
    ("Solntsevo", 51.4185, 36.7499, "G"),
    ("Manturovo", 51.4547, 37.1282, "G"),
    ("Pristen", 51.2322, 36.6989, "G; W2 Rzhava station 51.232, 36.699"),
    ("Gostishchevo", 50.79, 36.58, "R (7 km E of Stroitel)"),
]
# Villages named for reference and for set-up, not town hexes (terrain stays as drawn).
VILLAGES: list[tuple[str, float, float, str]] = [
    ("Butovo", 50.7625, 36.1767, "W"),
    ("Cherkasskoye", 50.783, 36.177, "W (2.3 km N of Butovo)"),
    ("Pokrovka", 50.8919, 36.4339, "W"),
    ("Erik", 50.7183, 36.5094, "W"),
    ("Verkhopenye", 50.98, 36.31, "W"),
    ("Syrtsevo", 50.95, 36.27, "E (+-4 km)"),
    ("Teterevino", 50.94, 36.60, "E (+-4 km)"),
    ("Rzhavets", 50.92, 36.85, "E (+-4 km)"),
    ("Shakhovo", 50.93, 36.71, "E (+-4 km)"),
    ("Krasnaya Yaruga", 50.8008, 35.6583, "G"),
    ("Kurchatov", 51.6601, 35.6521, "G"),
]

# Rivers on hexsides (§5.1 "river hexside", §10.2): name, class, waypoints source to mouth, source.
# "river": the five rivers the issue names; "stream": minor rivers (§10.2: streams turn into rivers in rain).
RIVERS: list[tuple[str, str, list[LatLon], str]] = [
    (
        "psel",
        "river",
        [
            (51.1328, 36.7478),
            (51.06, 36.63),
            (51.08, 36.50),
            (51.17, 36.36),
            (51.20, 36.28),
            (51.13, 35.92),
            (51.06, 35.55),
            (51.00, 35.20),
        ],
        "W source 51.1328, 36.7478; Psel bend at Vasilyevka W; south of Oboyan W; Pena mouth at Khomuttsy W; "
        "Psel station at Peschanoye 25 km SE of Sudzha W2; course between them E",
    ),
    (
        "pena",
        "river",
        [(50.9783, 36.3206), (50.93, 36.18), (50.9597, 36.0014), (51.1306, 35.9203)],
        "W source at Verkhopenye, Vyshnie Peny, mouth in the Psel; the SW reach before the bend E",
    ),
    (
        "northern_donets",
        "river",
        [
            (50.9644, 36.9025),
            (50.92, 36.85),
            (50.85, 36.79),
            (50.7769, 36.7350),
            (50.6775, 36.6550),
            (50.61, 36.615),
            (50.4576, 36.7204),
        ],
        "W source near Podolkhi, Sazhnovsky and Lipovyi mouths, Maslova Pristan; Rzhavets E",
    ),
    (
        "lipovyi_donets",
        "river",
        [(50.8803, 36.5703), (50.79, 36.59), (50.6775, 36.6550)],
        "W source at Luchki and mouth at Belomestnoye; past Gostishchevo R, E",
    ),
    (
        "seym",
        "river",
        [
            (51.1639, 37.2328),
            (51.30, 37.20),
            (51.4547, 37.1282),
            (51.4185, 36.7499),
            (51.55, 36.45),
            (51.724, 36.19),
            (51.6601, 35.6521),
            (51.6307, 35.2775),
            (51.62, 35.15),
        ],
        "W source near Morozovo; Manturovo, Solntsevo, Kursk, Kurchatov, Lgov on the Seym G, W",
    ),
    (
        "sazhnovsky_donets",
        "stream",
        [(50.9067, 36.6367), (50.7769, 36.7350)],
        "W source and mouth",
    ),
    (
        "vorskla",
        "stream",
        [(50.89, 36.44), (50.85, 36.42), (50.76, 36.30), (50.6834, 36.2344), (50.5833, 36.0167), (50.50, 35.75)],
        "W2 source near Pokrovka (Belgorod oblast), Tomarovka and Borisovka on the Vorskla; course E",
    ),
    (
        "korocha",
        "stream",
        [(50.90, 37.24), (50.8132, 37.1860), (50.66, 37.00), (50.52, 36.92)],
        "E: the Korocha river through Korocha south-west to the Donets (off-map south)",
    ),
]

# Roads: name, waypoints, source. A waypoint may be off-map only as an edge point written on the map's edge.
ROADS: list[tuple[str, list[LatLon], str]] = [
    (
        "Belgorod-Oboyan-Kursk highway",
        [
            (50.6107, 36.5802),
            (50.7183, 36.5094),
            (50.8548, 36.4461),
            (50.8919, 36.4339),
            (51.2107, 36.2761),
            (51.42, 36.12),
            (51.7373, 36.1874),
        ],
        "W Erik and Pokrovka on the Moscow-Crimea road, G Yakovlevo; Medvenka M",
    ),
    ("Belgorod-Kharkov", [(50.6107, 36.5802), (50.545, 36.60)], "M: the highway south to Kharkov (south edge)"),
    (
        "Belgorod-Gostishchevo-Prokhorovka",
        [(50.6107, 36.5802), (50.79, 36.58), (51.0374, 36.7325)],
        "M: along the railway",
    ),
    ("Prokhorovka-Skorodnoye", [(51.0374, 36.7325), (51.06, 37.18)], "M: toward Skorodnoye and Staryi Oskol"),
    ("Prokhorovka-Oboyan", [(51.0374, 36.7325), (51.10, 36.52), (51.2107, 36.2761)], "E via Kartashevka"),
    ("Belgorod-Korocha", [(50.6107, 36.5802), (50.72, 36.90), (50.8132, 37.1860)], "M: toward Novyi Oskol"),
    (
        "Borisovka-Tomarovka-Belgorod",
        [(50.5833, 36.0167), (50.6834, 36.2344), (50.66, 36.42), (50.6107, 36.5802)],
        "M: the German lateral behind the front",
    ),
    ("Borisovka-south", [(50.5833, 36.0167), (50.545, 36.00)], "M: toward Zolochev and Kharkov (south edge)"),
    (
        "Tomarovka-Butovo-Ivnya-Oboyan",
        [
            (50.6834, 36.2344),
            (50.7625, 36.1767),
            (50.783, 36.177),
            (50.95, 36.22),
            (51.0584, 36.1416),
            (51.2107, 36.2761),
        ],
        "M: the Cherkasskoye axis over the Pena",
    ),
    ("Kursk-Shchigry", [(51.7373, 36.1874), (51.8756, 36.9043)], "M"),
    ("Kursk-Tim", [(51.7373, 36.1874), (51.62, 37.11), (51.62, 37.18)], "M: Tim 51.62, 37.11 E; toward Staryi Oskol"),
    (
        "Oboyan-Pristen-Solntsevo-Manturovo",
        [(51.2107, 36.2761), (51.2322, 36.6989), (51.4185, 36.7499), (51.4547, 37.1282), (51.44, 37.18)],
        "E: lateral to the Manturovo road toward Staryi Oskol",
    ),
    (
        "Rzhavets-east",
        [(51.0374, 36.7325), (50.92, 36.85), (50.93, 37.18)],
        "M: Prokhorovka to the Donets crossing at Rzhavets (III PzK's road north); E: on toward Chernyanka",
    ),
    ("Kursk-Kurchatov-Lgov", [(51.7373, 36.1874), (51.6601, 35.6521), (51.6307, 35.2775)], "M"),
    ("Oboyan-Sudzha", [(51.2107, 36.2761), (51.20, 35.80), (51.1976, 35.2726)], "E"),
    (
        "Borisovka-Rakitnoye-Sudzha",
        [(50.5833, 36.0167), (50.8008, 35.6583), (50.8389, 35.8515), (51.00, 35.55), (51.1976, 35.2726)],
        "E: 40th Army's lateral on the west flank",
    ),
]
RAILWAYS: list[tuple[str, list[LatLon], str]] = [
    (
        "Belgorod-Kursk railway",
        [(50.6107, 36.5802), (50.79, 36.58), (51.0358, 36.7331), (51.2322, 36.6989), (51.7373, 36.1874)],
        "W2 stations Prokhorovka 51.0358, 36.7331 and Rzhava 51.2322, 36.6989 (line Kursk-Belgorod), R Gostishchevo; "
        "straight between stations",
    ),
]

# Woods: name, centre, radius in hexes, source (E: placed by the reference's description, no period map).
WOODS: list[tuple[str, float, float, int, str]] = [
    ("Borisovka woods on the Vorskla", 50.60, 36.05, 1, "W2 two large forests on Borisovka's northern edge"),
    ("Tomarovka woods", 50.70, 36.28, 1, "E"),
    ("Donets woods east of Belgorod", 50.66, 36.72, 2, "E: oak woods of the Donets valley"),
    ("Woods south of Oboyan", 51.14, 36.30, 2, "M 'large woods south of Oboyan'"),
    ("Psel woods north of Prokhorovka", 51.10, 36.66, 1, "M 'around Prokhorovka's approaches'"),
    ("Pena woods", 50.99, 36.10, 1, "E: Pena valley"),
    ("Lipovyi Donets woods", 50.86, 36.62, 1, "E"),
    ("Seym woods at Kurchatov", 51.64, 35.80, 1, "E"),
    ("Seym woods at Solntsevo", 51.45, 36.90, 1, "E"),
    ("Sudzha woods", 51.10, 35.45, 1, "E"),
    ("Korocha woods", 50.88, 37.05, 1, "E"),
    ("Rakitnoye woods", 50.90, 35.75, 1, "E"),
]
# Gullies (balkas; swamps in rain, §10.2): lines of hexes along ravines and marshy valleys.
GULLIES: list[tuple[str, list[LatLon], str]] = [
    ("Berezovyi ravine before Gertsovka", [(50.79, 36.06), (50.80, 36.14)], "F: GD's Panthers bogged here on 5 July"),
    ("Pena valley", [(50.97, 36.30), (50.93, 36.18), (50.96, 36.02)], "S, M: the marshy Pena bottom GD fought along"),
    ("Ravines before Prokhorovka", [(51.00, 36.64), (51.02, 36.70)], "E: balkas of the Psel-Donets land bridge"),
    ("Ravines of the Donets east bank", [(50.70, 36.70), (50.80, 36.78)], "E"),
    ("Ravines north of Oboyan", [(51.30, 36.20), (51.36, 36.30)], "E"),
]

# The Soviet defence belts (reference "Soviet defence belts"): lines of hexes, from west to east.
BELTS: dict[str, tuple[list[LatLon], int, str]] = {
    "belt_1": (
        [
            (50.89, 35.25),
            (50.89, 35.85),
            (50.83, 36.05),
            (50.80, 36.17),
            (50.78, 36.35),
            (50.74, 36.50),
            (50.69, 36.62),
            (50.61, 36.66),
            (50.53, 36.68),
        ],
        1,
        "Z 5-6 km deep on the front line; M 71, 67, 52 Gds RD and 375 RD; W 73 Gds RD on the Donets",
    ),
    "belt_2": (
        [
            (50.93, 36.05),
            (50.96, 36.25),
            (50.90, 36.44),
            (50.90, 36.56),
            (50.94, 36.62),
            (50.92, 36.85),
            (50.80, 36.95),
            (50.62, 36.84),
        ],
        0,
        "M: Pena (Alekseevka-Lukhanino-Syrtsevo), Yakovlevo-Pokrovka-Luchki-Teterevino, Lipovyi Donets; 7 GA second "
        "echelon toward Korocha E",
    ),
    "belt_3": (
        [
            (51.13, 35.95),
            (51.18, 36.20),
            (51.19, 36.30),
            (51.10, 36.50),
            (51.04, 36.64),
            (51.03, 36.75),
            (50.98, 36.90),
        ],
        0,
        "M: south bank of the Psel covering Oboyan and through Prokhorovka (its last line held on 12 July, W)",
    ),
}
# Minefields (§9.4): Soviet, on the belts' hexes on the Oboyan and Prokhorovka axes (F: 6th Guards Army had
# about half the mine density of the northern face, so the belts are mined only there).
MINED: list[tuple[str, float, float, str]] = [  # belt, lon from, lon to, source
    ("belt_1", 36.00, 36.62, "F, M: first belt on the Oboyan and Prokhorovka axes (Korovino to Erik)"),
    ("belt_1", 36.62, 36.70, "M: 7 GA's Donets line opposite Belgorod"),
    ("belt_2", 36.30, 36.65, "M: second belt astride the Oboyan road (Yakovlevo-Pokrovka-Luchki)"),
    ("belt_3", 36.60, 36.80, "W: Prokhorovka's line"),
]

# Depot entry roads (§5.1, §5.3) and reinforcement entry points (§13's letters, reference reading):
# each is the road's hex on the map edge. German: two on the south edge; Soviet: five on the east edge.
GERMAN_DEPOT_ROADS = ["Belgorod-Kharkov", "Borisovka-south"]
SOVIET_DEPOT_ROADS = [
    "Kursk-Tim",
    "Oboyan-Pristen-Solntsevo-Manturovo",
    "Prokhorovka-Skorodnoye",
    "Rzhavets-east",
    "Belgorod-Korocha",
]
ENTRY_LETTERS = {  # letter -> roads; reading in docs/rules/kursk.md
    "A": ["Oboyan-Pristen-Solntsevo-Manturovo"],
    "B": ["Prokhorovka-Skorodnoye"],
    "C": ["Rzhavets-east"],
    "D": ["Belgorod-Korocha"],
    "E": ["Belgorod-Kharkov", "Borisovka-south"],
}


# ---------------------------------------------------------------------------------------------- geometry
def hex_of(lat: float, lon: float) -> Hex:
    """The projection: the hex a place falls in (may be off the map)."""
    col = round((lon - LON0) / DLON)
    row = round((LAT0 - lat) / DLAT - 0.5 * (col % 2))
    return col, row


def clamp(h: Hex) -> Hex:
    return min(max(h[0], 0), COLUMNS - 1), min(max(h[1], 0), ROWS - 1)


def cell(h: Hex) -> int:
    return GRID.index(*h)


def label(c: int) -> str:
    return GRID.label(c)


def plane(lat: float, lon: float) -> tuple[float, float]:
    """Continuous plane coordinates: hex centres at (1.5 col, sqrt3 (row + col%2/2)), hex size 1."""
    return 1.5 * (lon - LON0) / DLON, SQ3 * (LAT0 - lat) / DLAT


def centre(col: int, row: int) -> tuple[float, float]:
    return 1.5 * col, SQ3 * (row + 0.5 * (col & 1))


Vertex = tuple[int, int]  # (round(2x), round(2y/sqrt3)): exact integer names of hex corners


def corners(col: int, row: int) -> list[Vertex]:
    x, y = centre(col, row)
    out = []
    for k in range(6):
        a = math.pi / 3 * k
        out.append((round(2 * (x + math.cos(a))), round(2 * (y + math.sin(a)) / SQ3)))
    return out


def vertex_xy(v: Vertex) -> tuple[float, float]:
    return v[0] / 2, v[1] * SQ3 / 2


def side_table() -> dict[tuple[Vertex, Vertex], list[int]]:
    """Each hexside (a pair of corners) -> the on-map cells it borders (one on the map's edge, else two)."""
    sides: dict[tuple[Vertex, Vertex], list[int]] = {}
    for c in GRID.cells():
        col, row = GRID.coord(c)
        cs = corners(col, row)
        for k in range(6):
            a, b = cs[k], cs[(k + 1) % 6]
            sides.setdefault((min(a, b), max(a, b)), []).append(c)
    return sides


SIDES = side_table()
NEIGHBOURS: dict[Vertex, list[Vertex]] = {}
for _a, _b in SIDES:
    NEIGHBOURS.setdefault(_a, []).append(_b)
    NEIGHBOURS.setdefault(_b, []).append(_a)


def seg_dist(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def nearest_vertex(p: tuple[float, float]) -> Vertex:
    return min(NEIGHBOURS, key=lambda v: (math.dist(vertex_xy(v), p), v))


def corner_path(a: tuple[float, float], b: tuple[float, float]) -> list[Vertex]:
    """The cheapest chain of corners from near ``a`` to near ``b``, paying for straying from the segment."""
    start, goal = nearest_vertex(a), nearest_vertex(b)
    best = {start: 0.0}
    back: dict[Vertex, Vertex] = {}
    todo = [(0.0, start)]
    while todo:
        d, v = heapq.heappop(todo)
        if v == goal:
            break
        if d > best[v]:
            continue
        for w in sorted(NEIGHBOURS[v]):
            mid = ((vertex_xy(v)[0] + vertex_xy(w)[0]) / 2, (vertex_xy(v)[1] + vertex_xy(w)[1]) / 2)
            nd = d + 1.0 + 6.0 * seg_dist(mid, a, b)
            if nd < best.get(w, math.inf) - 1e-9:
                best[w] = nd
                back[w] = v
                heapq.heappush(todo, (nd, w))
    path = [goal]
    while path[-1] != start:
        path.append(back[path[-1]])
    return path[::-1]


def river_sides(points: Sequence[LatLon]) -> list[tuple[int, int]]:
    """A river's hexsides as pairs of cells, in order from source to mouth, each once."""
    xy = [plane(*p) for p in points]
    chain: list[Vertex] = []
    for a, b in itertools.pairwise(xy):
        part = corner_path(a, b)
        chain.extend(part if not chain else part[1:])
    out: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for v, w in itertools.pairwise(chain):
        cells = SIDES[(min(v, w), max(v, w))]
        if len(cells) == 2:
            pair = (min(cells), max(cells))
            if pair not in seen:
                seen.add(pair)
                out.append(pair)
    return out


def hex_chain(points: Sequence[LatLon]) -> list[int]:
    """A chain of adjacent cells through the waypoints (``HexGrid.line`` between them)."""
    cells: list[int] = []
    for a, b in itertools.pairwise(points):
        line = GRID.line(cell(clamp(hex_of(*a))), cell(clamp(hex_of(*b))))
        for c in line:
            if not cells or cells[-1] != c:
                cells.append(c)
    return cells


def disk(lat: float, lon: float, radius: int) -> list[int]:
    return sorted(GRID.within(cell(clamp(hex_of(lat, lon))), radius))


def sides_connected(pairs: Iterable[tuple[int, int]]) -> bool:
    """Whether hexsides form one connected line (two sides touch when they share a corner)."""
    pairs = list(pairs)
    if not pairs:
        return False

    def touch(p: tuple[int, int], q: tuple[int, int]) -> bool:
        common = set(p) & set(q)
        if len(common) != 1:
            return False
        (x,) = set(p) - common
        (y,) = set(q) - common
        return GRID.adjacent(x, y)

    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j in range(len(pairs)):
            if j not in seen and touch(pairs[i], pairs[j]):
                seen.add(j)
                todo.append(j)
    return len(seen) == len(pairs)


# ---------------------------------------------------------------------------------------------- the build
def build() -> dict[str, object]:
    terrain = [["."] * COLUMNS for _ in range(ROWS)]

    def paint(cells: Iterable[int], code: str) -> None:
        for c in cells:
            col, row = GRID.coord(c)
            terrain[row][col] = code

    for _name, lat, lon, radius, _src in WOODS:
        paint(disk(lat, lon, radius), "w")
    for _name, pts, _src in GULLIES:
        paint(hex_chain(pts), "g")
    town_cells = {}
    for name, lat, lon, *_ in VP_TOWNS:
        town_cells[name] = cell(hex_of(lat, lon))
    for name, lat, lon, _src in TOWNS:
        town_cells[name] = cell(hex_of(lat, lon))
    paint(town_cells.values(), "t")
    assert len(set(town_cells.values())) == len(town_cells), "two towns in one hex"

    places: list[dict[str, object]] = []
    for name, lat, lon, vp, src in VP_TOWNS:
        data: dict[str, object] = {"lat": lat, "lon": lon, "source": src}
        if name == "Belgorod":
            data["control"] = "german"  # AMB-24: Belgorod starts German, every other town Soviet
        else:
            data["control"] = "soviet"
        places.append({"name": name, "cells": [label(town_cells[name])], "kind": "town", "value": vp, "data": data})
    for name, lat, lon, src in TOWNS:
        places.append(
            {
                "name": name,
                "cells": [label(town_cells[name])],
                "kind": "town",
                "value": 0,
                "data": {"lat": lat, "lon": lon, "source": src},
            }
        )
    for name, lat, lon, src in VILLAGES:
        places.append(
            {
                "name": name,
                "cells": [label(cell(hex_of(lat, lon)))],
                "kind": "village",
                "value": 0,
                "data": {"lat": lat, "lon": lon, "source": src},
            }
        )

    edges: dict[str, list[list[str]]] = {"river": [], "stream": []}
    for name, klass, pts, _src in RIVERS:
        sides = river_sides(pts)
        assert sides_connected(sides), name
        edges[name] = [[label(a), label(b)] for a, b in sides]
        edges[klass].extend(edges[name])

    road_paths = {name: hex_chain(pts) for name, pts, _src in ROADS}
    paths = {
        "road": [[label(c) for c in chain] for chain in road_paths.values()],
        "railway": [[label(c) for c in hex_chain(pts)] for _n, pts, _s in RAILWAYS],
    }

    def edge_end(name: str, edge: str) -> str:
        chain = road_paths[name]
        ends = [c for c in (chain[0], chain[-1]) if on_edge(c, edge)]
        assert len(ends) == 1, (name, edge, [label(c) for c in chain[:1] + chain[-1:]])
        return label(ends[0])

    def on_edge(c: int, edge: str) -> bool:
        col, row = GRID.coord(c)
        return {"south": row == ROWS - 1, "east": col == COLUMNS - 1}[edge]

    belts: dict[str, list[int]] = {}
    for name, (pts, thick, _src) in BELTS.items():
        chain = hex_chain(pts)
        grown = set(chain)
        for _ in range(thick):  # the first belt is 5-6 km deep: two hexes, the line and the one behind it
            grown |= {n for c in grown for n in GRID.neighbors(c) if _behind(c, n)}
        belts[name] = sorted(grown - {town_cells["Belgorod"]})  # Belgorod was German on 5 July
    mined: set[int] = set()
    for belt, lo, hi, _src in MINED:
        for c in belts[belt]:
            col, _row = GRID.coord(c)
            lon = LON0 + col * DLON
            if lo <= lon < hi and c not in town_cells.values():  # §9.4 mines lie in the open, not in towns
                mined.add(c)

    regions: dict[str, dict[str, list[str]]] = {
        "german_depot_entry": {"cells": [edge_end(r, "south") for r in GERMAN_DEPOT_ROADS]},
        "soviet_depot_entry": {"cells": [edge_end(r, "east") for r in SOVIET_DEPOT_ROADS]},
    }
    for letter, roads in ENTRY_LETTERS.items():
        edge = "south" if letter == "E" else "east"
        regions[f"entry_{letter}"] = {"cells": [edge_end(r, edge) for r in roads]}
    for name, cells in belts.items():
        regions[name] = {"cells": [label(c) for c in cells]}

    source = (
        "Objective Kursk §1.4, §4.5 (31 x 32 hexes of 3 miles, Kursk to Belgorod), §5.1-5.3, §8.4, §9.4, §11.1; "
        "the lost map card rebuilt from shared/reference/objective-kursk-battlefield.md by scripts/kursk_map.py "
        "(each feature's source is in that recipe and docs/rules/kursk.md). Projection: col = round((lon - 35.25) "
        "/ 0.0640), row = round((51.90 - lat) / 0.04342 - 0.5 * (col mod 2)), odd-q, cells numbered from 0,0."
    )
    return {
        "format": "grognard-map/1",
        "name": "Objective Kursk: Kursk to Belgorod, July 1943",
        "source": source,
        "grid": {"kind": "hex", "columns": COLUMNS, "rows": ROWS, "layout": "odd-q", "first": [0, 0]},
        "terrain_codes": {".": "clear", "w": "woods", "g": "gully", "t": "town"},
        "terrain": ["".join(r) for r in terrain],
        "features": {"minefield": [label(c) for c in sorted(mined)]},
        "paths": paths,
        "edges": edges,
        "places": places,
        "regions": regions,
    }


def _behind(c: int, n: int) -> bool:
    """Whether ``n`` lies north or east of ``c`` (the Soviet side of a belt line, toward Kursk)."""
    cc, cr = GRID.coord(c)
    nc, nr = GRID.coord(n)
    return (nc == cc and nr < cr) or (nc > cc and GRID.direction(c, n) == 2)


# ---------------------------------------------------------------------------------------------- writing
def dumps(m: dict[str, object]) -> str:
    """JSON with one line per terrain row, per path and per river, as the other maps are written."""
    lines = ["{"]
    items = list(m.items())
    for i, (k, v) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if k == "terrain":
            body = ",\n".join(f"  {json.dumps(r)}" for r in v)  # type: ignore[attr-defined]
            lines.append(f' "{k}": [\n{body}\n ]{comma}')
        elif k in ("paths", "edges", "regions"):
            sub = list(v.items())  # type: ignore[attr-defined]
            inner = ",\n".join(f"  {json.dumps(sk)}: {json.dumps(sv, ensure_ascii=False)}" for sk, sv in sub)
            lines.append(f' "{k}": {{\n{inner}\n }}{comma}')
        elif k == "places":
            body = ",\n".join(f"  {json.dumps(p, ensure_ascii=False)}" for p in v)  # type: ignore[attr-defined]
            lines.append(f' "{k}": [\n{body}\n ]{comma}')
        else:
            lines.append(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def show(m: dict[str, object]) -> str:
    """The map as text: each hex row on two lines (even columns, then the odd ones half a hex lower).

    First character: the initial of a VP town (capital) or ``t`` another town, else the terrain (``.`` clear,
    ``w`` woods, ``g`` gully) with ``m`` for a minefield; second: ``~`` a river or stream hexside touches the
    hex, ``#`` railway, ``+`` road, else a space."""
    from grognard.engine.maps import build_map

    gm = build_map(m, "map.json")
    river_cells = {c for k in ("river", "stream") for e in gm.edge_features.get(k, ()) for c in e}
    out = []
    for row in range(ROWS):
        for parity in (0, 1):
            line = [" " * 2] * COLUMNS
            for col in range(parity, COLUMNS, 2):
                c = GRID.index(col, row)
                p = gm.place_at(c)
                first = gm.terrain[c][0]
                first = {"clear": "."}.get(gm.terrain[c], first)
                if gm.has("minefield", c):
                    first = "m"
                if p is not None and p.kind == "town":
                    first = p.name[0] if p.value else "t"
                second = "~" if c in river_cells else "#" if gm.has("railway", c) else "+" if gm.has("road", c) else " "
                line[col] = first + second
            out.append(f"{row:2d}{'.' if parity == 0 else ' '} " + "".join(line))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", action="store_true", help="print the map as text")
    ap.add_argument("--check", action="store_true", help="exit 1 if map.json differs from the recipe")
    args = ap.parse_args(argv)
    text = dumps(build())
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("map.json matches its recipe" if same else "map.json differs from its recipe: rebuild it")
        return 0 if same else 1
    if args.show:
        print(show(json.loads(text)))
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
