"""Korsa: a rail junction and the stations around it on open farmland, a stream across the south."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "korsa",
        "The Korsa Junction",
        36,
        26,
        source="Drawn for grognard: the manual's towns that award reinforcement points (PG p.18), "
        "here railway stations.",
    )
    m.patches("field", [((8, 5), 3), ((20, 4), 2), ((28, 9), 3), ((10, 16), 2), ((24, 22), 3), ((33, 19), 2)], 900)
    m.patches("forest", [((15, 9), 2), ((4, 21), 2), ((30, 3), 1), ((21, 17), 1), ((34, 12), 1)], 910)
    m.hill((25, 14), 2, 2, seed=920)  # the Sokol hill, between the junction and the southern station
    m.hill((11, 3), 1, 1)
    m.ridge((5, 10), (8, 12), height=1, flank=0)
    m.paint("rough", m.blob((31, 24), 1, seed=930))
    # The Ruda, a stream across the south, crossed by the railway, a road and a track.
    m.river((1, 19), (8, 18), (14, 20), (20, 19), (27, 18), (32, 20), (36, 19))
    m.town("Korsa", 30, m.cluster((20, 11), 6))
    m.town("Bely Stan", 10, m.cluster((9, 7), 3))
    m.town("Ostrog", 15, m.cluster((32, 6), 3))
    m.town("Ruda", 10, [(17, 22), (18, 22)])
    m.town("Semin", 5, [(33, 15)])
    m.town("Lipki", 5, [(5, 15)])
    # Three railways meet at Korsa: from the west, the north-east and the south.
    m.path("railroad", (1, 8), (9, 8), (19, 11))
    m.path("railroad", (21, 10), (32, 7), (36, 4))
    m.path("railroad", (20, 12), (18, 21), (17, 26))
    m.road((1, 14), (5, 15), (12, 13), (19, 12))  # the western highway
    m.road((9, 7), (19, 10))
    m.road((21, 11), (32, 6), (34, 1))
    m.road((21, 12), (33, 15), (36, 15))
    m.road((18, 22), (27, 23), (36, 23))
    m.road((5, 15), (8, 24), (17, 22))  # the Lipki road and its bridge
    m.path("track", (33, 15), (33, 26))
    m.path("track", (9, 6), (21, 1))
    m.region("west", m.land(m.rect(1, 1, 6, 26)))
    m.region("east", m.land(set(m.rect(24, 1, 36, 26)) | set(m.disk((20, 11), 3))))
    return m
