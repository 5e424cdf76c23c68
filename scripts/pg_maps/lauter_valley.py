"""The Lauter valley: the largest map, a river across the middle, hills and a city to the north, farmland south."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "lauter_valley",
        "The Lauter Valley",
        56,
        40,
        source="Drawn for grognard: a large battle (the manual's scenarios range from small actions to large "
        "invasions, PG p.2) with every kind of inland terrain.",
    )
    m.patches(
        "field",
        [((8, 30), 3), ((22, 34), 3), ((40, 31), 3), ((50, 36), 2), ((30, 26), 2), ((12, 22), 2), ((46, 22), 2)],
        1100,
    )
    m.patches("field", [((10, 4), 2), ((30, 5), 2), ((47, 8), 2), ((20, 12), 2)], 1110)
    m.patches(
        "forest",
        [((4, 12), 3), ((18, 6), 2), ((38, 4), 3), ((53, 14), 2), ((28, 30), 2), ((14, 36), 2), ((45, 38), 2)],
        1120,
    )
    m.patches("forest", [((35, 24), 1), ((5, 25), 1), ((52, 27), 1), ((24, 15), 1)], 1130)
    # The northern heights: the Hohenstein massif and the Kessel ridge along the valley's north side.
    m.hill((28, 9), 3, 3, seed=1140)
    m.ridge((8, 15), (15, 14), (20, 15), height=2)
    m.ridge((40, 13), (47, 12), (52, 10), height=2)
    m.hill((44, 30), 2, 2, seed=1141)  # the Sandberg, south of the river
    m.hill((16, 28), 1, 2, seed=1142)
    m.paint("rough", m.blob((33, 12), 1, seed=1150))
    m.paint("rough", m.blob((6, 36), 1, seed=1151))
    # The Lauter, west to east across the middle, and the Aach joining it from the north.
    lauter = m.river((1, 20), (8, 19), (15, 21), (22, 20), (28, 22), (35, 21), (42, 19), (49, 21), (56, 20))
    m.river((36, 1), (35, 8), (38, 14), (40, 18), (42, 19))  # the Aach
    m.paint("lake", m.blob((11, 9), 1, seed=1160, ragged=0.2))
    m.town("Lauterburg", 30, m.cluster((22, 17), 6))
    m.town("Hohenstein", 15, m.cluster((27, 7), 3))
    m.town("Kessel", 10, m.cluster((10, 13), 2))
    m.town("Aach", 10, [(40, 8), (41, 8)])
    m.town("Feldheim", 15, m.cluster((48, 15), 3))
    m.town("Bruck", 10, [(33, 23), (32, 23)])
    m.town("Muhlbach", 10, m.cluster((10, 27), 3))
    m.town("Ostau", 10, m.cluster((50, 28), 2))
    m.town("Wendorf", 5, [(5, 4)])
    m.town("Sandau", 5, [(26, 33)])
    m.town("Grafenau", 10, m.cluster((38, 36), 2))
    # Roads: the valley road on the north bank, four crossings, the roads south to the attacker's towns.
    m.road((1, 17), (10, 13), (22, 17), (34, 16), (48, 15), (56, 16))
    m.road((22, 17), (27, 7), (28, 1))
    m.road((27, 7), (40, 8), (56, 6))
    m.road((10, 13), (5, 4), (1, 3))
    m.road((23, 18), (22, 24), (26, 33), (26, 40))  # the Lauterburg bridge
    m.road((34, 16), (33, 18), (33, 23), (38, 36), (38, 40))  # the Bruck bridge
    m.blow_bridge((12, 20))
    m.road((10, 13), (12, 20), (10, 27), (8, 40))  # the Kessel road and its blown bridge
    m.road((48, 15), (47, 20), (50, 28), (54, 40))  # the Feldheim bridge
    m.road((1, 30), (10, 27), (26, 33), (38, 36), (50, 28), (56, 29))  # the southern lateral
    m.path("railroad", (1, 10), (10, 12), (21, 16), (21, 18), (22, 24), (20, 32), (18, 40))
    m.path("railroad", (23, 16), (36, 15), (47, 14), (56, 12))
    m.path("track", (27, 7), (33, 12), (34, 16))
    m.path("track", (41, 8), (44, 12), (48, 14))
    m.path("track", (5, 4), (18, 6), (27, 6))
    m.path("track", (44, 30), (44, 24), (44, 17))  # down to the Sandberg ford's old bridge
    north = m.flood((28, 1), lambda c: c in set(lauter))
    m.region("north", m.land(c for c in north if m.row(c) <= 16 or m.distances([m.at((22, 17))])[c] <= 3))
    m.region("south", m.land(m.rect(1, 33, 56, 40)))
    m.region("south_entry", m.land(m.rect(1, 37, 56, 40)))
    m.region("north_entry", m.land(m.rect(1, 1, 56, 3)))
    return m
