"""The Vell: a river line with one bridge blown, one far away and one on a tributary."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "vell_river",
        "The Vell at Velikan",
        36,
        24,
        source="Drawn for grognard: the manual's river crossings, where engineers build bridges (PG p.2, p.14, p.21).",
    )
    m.patches("field", [((6, 4), 2), ((27, 3), 2), ((8, 19), 3), ((25, 21), 2), ((33, 17), 2)], 400)
    # Woods on the south bank hide a crossing; woods on the north bank hide its defenders.
    m.patches("forest", [((22, 15), 2), ((6, 14), 1), ((31, 14), 1), ((12, 20), 1)], 410)
    m.patches("forest", [((4, 8), 1), ((26, 7), 2), ((33, 3), 1)], 420)
    m.ridge((9, 8), (15, 8), (19, 9), height=2)  # the Velikan bluffs above the river
    m.hill((16, 2), 3, 2)  # Hill 3 behind the town: it sees the whole south bank
    m.paint("rough", m.blob((30, 9), 1, seed=430))
    vell = m.river((1, 11), (6, 12), (10, 11), (15, 12), (19, 13), (24, 12), (28, 10), (32, 12), (36, 12))
    m.river((23, 1), (21, 6), (23, 10), (24, 12))  # the Lesna, joining from the north
    m.town("Velikan", 25, m.cluster((12, 6), 5))
    m.town("Morov", 10, [(29, 5), (30, 5)])
    m.town("Zhelny", 5, [(4, 4)])
    m.town("Dubra", 10, m.cluster((16, 18), 3))
    m.town("Krasny Bor", 5, [(30, 19)])
    m.road((12, 1), (12, 6), (13, 10), (14, 14), (16, 18), (16, 24))  # the Velikan road
    m.blow_bridge((13, 12))
    m.road((13, 6), (21, 4), (29, 5), (36, 4))  # Velikan to Morov over the Lesna
    m.road((11, 6), (4, 4), (1, 4))
    m.road((4, 4), (3, 11), (4, 17), (16, 18))  # the western road and its far bridge
    m.road((17, 18), (30, 19), (36, 19))
    m.path("railroad", (36, 7), (30, 8), (33, 12), (33, 17), (30, 19), (28, 24))  # the railway and its bridge
    m.path("track", (29, 5), (30, 8))
    m.path("track", (24, 18), (20, 14))  # a track down to the old ferry landing
    m.path("track", (20, 10), (18, 7))
    north = m.flood((18, 1), lambda c: c in set(vell))
    m.region("north_bank", north)
    m.region("south_bank", m.flood((18, 24), lambda c: c in set(vell)))
    return m
