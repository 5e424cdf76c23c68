"""Millbrook: a small valley of fields, orchards and lanes for an infantry fight."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "millbrook",
        "Millbrook",
        24,
        18,
        source="Drawn for grognard: the manual's 'small infantry vs. infantry' (PG p.2).",
    )
    # Fields first, then what stands in them.
    m.patches("field", [((4, 3), 2), ((9, 4), 2), ((16, 8), 2), ((21, 3), 2), ((4, 14), 2)], 10)
    m.patches("field", [((9, 15), 2), ((18, 15), 2), ((21, 12), 1), ((3, 9), 1)], 20)
    m.paint("forest", m.blob((21, 2), 2, seed=1, ragged=0.5))  # Hanging Wood
    m.paint("forest", m.blob((8, 8), 1, seed=2))  # the orchard above the brook
    m.paint("forest", m.blob((16, 13), 1, seed=3))  # the spinney below it
    m.paint("forest", m.blob((2, 17), 1, seed=4))
    m.paint("rough", m.blob((10, 12), 1, seed=5))  # the common
    m.hill((17, 4), 2, 2)  # Church Hill
    m.hill((6, 16), 1, 1)
    m.river((1, 10), (5, 11), (9, 10), (13, 11), (17, 10), (21, 11), (24, 10))  # the mill brook
    m.town("Millbrook", 15, m.cluster((12, 7), 4))
    m.town("Ashby", 10, [(5, 5), (5, 6)])
    m.town("St Aldric's", 5, [(17, 4)])
    m.town("Lower Mill", 5, [(13, 12)])
    m.town("Hob's End", 5, [(7, 15), (8, 15)])
    m.road((12, 1), (12, 7), (13, 12), (13, 18))  # the Millbrook lane and its footbridge
    m.road((1, 6), (5, 6), (12, 8), (19, 6), (24, 6))  # the valley lane
    m.road((3, 18), (4, 12), (5, 6))  # Ashby's lane south over the brook
    m.path("track", (17, 4), (18, 6))
    m.path("track", (8, 15), (12, 16))
    m.path("track", (20, 18), (20, 13), (20, 9), (22, 6))  # a farm track and its ford-bridge
    m.region("north", m.rect(1, 1, 24, 8))
    m.region("south", m.rect(1, 13, 24, 18))
    return m
