"""The Valdorian border: two countries at war along a river, a rich neutral country beside them."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "valdoria",
        "The Valdorian Border",
        36,
        26,
        source="Drawn for grognard: the manual's neutral countries (PG p.18), a region whose towns are worth entering.",
    )
    m.patches("field", [((6, 4), 2), ((14, 20), 3), ((30, 6), 2), ((31, 20), 2), ((5, 22), 2), ((29, 12), 2)], 800)
    m.patches("forest", [((18, 4), 2), ((9, 17), 2), ((20, 21), 1), ((34, 2), 1), ((27, 24), 1)], 810)
    # The Valdorian hills along the border, wooded on their western face.
    m.ridge((24, 2), (24, 9), height=2, flank=1)
    m.ridge((24, 17), (25, 25), height=2, flank=1)
    m.patches("forest", [((23, 5), 1), ((23, 21), 1)], 820, over={"hill", "clear"})
    m.hill((7, 9), 2, 2)  # the Grenzburg heights
    # The Saale runs through both countries and on through Valdoria, widening into Lake Valda at the border.
    m.river((1, 13), (6, 12), (11, 14), (16, 12), (21, 13))
    m.paint("lake", m.blob((23, 13), 2, seed=830, ragged=0.2))
    m.river((25, 13), (29, 14), (33, 12), (36, 13))
    m.town("Grenzburg", 20, m.cluster((10, 10), 4))
    m.town("Alsen", 10, [(15, 4), (16, 4)])
    m.town("Tamsk", 10, m.cluster((8, 21), 3))
    m.town("Valdstadt", 30, m.cluster((30, 10), 5, (1, 2, 6, 3, 5)))
    m.town("Orlen", 15, [(32, 5), (32, 4)])
    m.town("Sankt Ivo", 10, [(30, 21), (31, 21)])
    m.road((8, 21), (10, 16), (11, 14), (10, 10), (15, 4), (15, 1))  # Tamsk to Grenzburg over the border bridge
    m.road((1, 9), (10, 10), (21, 9), (26, 10), (29, 10))  # Grenzburg to Valdstadt, over the hills
    m.road((9, 21), (22, 20), (30, 21), (36, 21))  # the southern road into Valdoria
    m.road((30, 11), (30, 21))  # Valdstadt's bridge
    m.road((31, 10), (32, 5), (36, 3))
    m.road((16, 4), (27, 5), (32, 5))  # through the hills to Orlen
    m.blow_bridge((16, 12))
    m.road((16, 4), (17, 9), (16, 12), (14, 20))  # the Alsen road and its blown bridge
    m.path("railroad", (1, 23), (8, 22), (21, 18), (27, 16), (33, 15), (34, 12), (35, 6), (36, 5))
    m.path("track", (5, 22), (4, 16), (4, 9))  # a farm track and its bridge in the west
    valdoria = m.land(m.rect(25, 1, 36, 26))
    m.region("valdoria", valdoria)
    m.region("blue", m.land(m.rect(1, 1, 22, 11)))
    m.region("red", m.land(m.rect(1, 17, 22, 26)))
    return m
