"""The Vardo islands: a main island with a mountain spine, an islet bridged to it, another joined by a sandbar."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "vardo_islands",
        "The Vardo Islands",
        40,
        30,
        base="sea",
        source="Drawn for grognard: the manual's 'large island invasion situations' (PG p.2; p.24 beach, sea, coast).",
    )
    main = [((20, 13), 9), ((13, 18), 6), ((28, 18), 6), ((20, 21), 5), ((30, 10), 4)]
    m.patches("clear", main, 700, ragged=0.25)
    m.patches("clear", [((7, 5), 2)], 710, ragged=0.2)  # Holm
    little = m.patches("clear", [((36, 27), 2)], 720, ragged=0.2)  # Little Vardo
    m.fill_holes("sea", "clear")
    sandbar = ((31, 22), (31, 24), (34, 26), (36, 27))  # to Little Vardo, dry at low tide
    m.paint("beach", m.route(*sandbar))
    # Shores: beaches on three stretches of the south and east coasts, cliffs elsewhere.
    dist = m.distances(c for c in m.grid.cells() if m.terrain[c] == "sea")

    def open_shore(c: int) -> bool:
        col, row = m.point(c)
        south = row >= 19 and (9 <= col <= 17 or 22 <= col <= 31)
        east = col >= 31 and 8 <= row <= 20
        return south or east or c in set(little)

    m.paint("beach", m.where(lambda c: 1 <= dist[c] <= 2 and open_shore(c)), over={"clear"})
    m.paint("rough", m.where(lambda c: dist[c] == 3 and open_shore(c)), over={"clear"})  # dunes
    m.paint("coast", m.where(lambda c: dist[c] == 1 and not open_shore(c)), over={"clear"})
    # The spine of the island, its woods and fields, a mountain lake.
    m.ridge((13, 12), (19, 12), (27, 15), height=3, flank=2)
    m.hill((31, 10), 2, 2)
    m.patches("forest", [((16, 16), 2), ((24, 11), 2), ((12, 15), 1), ((26, 20), 1)], 730, over={"clear", "hill"})
    m.patches("field", [((20, 9), 2), ((15, 20), 2), ((29, 16), 1), ((27, 7), 1)], 740, over={"clear"})
    m.paint("lake", m.blob((21, 17), 1, seed=750))
    m.paint("clear", [m.at((20, 6))])  # the quay
    m.town("Vardo Harbour", 25, [(20, 6), (19, 7), (20, 7), (21, 7), (20, 8)])
    m.town("Kirkby", 10, [(13, 14), (14, 14)])
    m.town("Skarnes", 10, [(30, 13), (30, 14)])
    m.town("Holm", 15, [(7, 5), (7, 4)])
    m.paint("fortification", [m.at(p) for p in [(6, 5), (8, 5)]])  # the old fort on Holm
    m.town("Lille Vardo", 10, [(36, 27)])
    m.town("Norby", 5, [(20, 22), (21, 22)])
    causeway = m.route((7, 5), (12, 9))
    m.paint("bridge", [c for c in causeway if m.terrain[c] in ("sea", "coast")])  # the Holm bridge
    m.path("road", (7, 5), (12, 9), long_bridge=True)
    m.road((12, 9), (14, 10), (13, 14))
    m.road((13, 14), (17, 9), (19, 7))  # Kirkby to the harbour, north of the spine
    m.road((21, 7), (28, 9), (30, 13))  # the harbour to Skarnes
    m.road((30, 14), (28, 20), (21, 22))  # down the east side to Norby
    m.road((20, 22), (15, 19), (13, 14))  # and back along the south
    m.path("track", (20, 8), (19, 14), (20, 21))  # the pass over the spine, west of the lake
    m.path("track", *sandbar)
    m.region("beaches", m.where(lambda c: m.terrain[c] == "beach"))
    inland = m.where(lambda c: m.row(c) <= 14 and m.col(c) <= 28 and m.terrain[c] not in ("beach", "rough"))
    m.region("heartland", m.land(inland))
    return m
