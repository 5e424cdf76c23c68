"""A Simple Little War: the tutorial's map (PG p.9-15), redrawn with pg_mapmaker."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "simple_little_war",
        "The Simple Little War map",
        32,
        24,
        source=(
            "Drawn for grognard from the manual's tutorial (PG p.9-15): Konigsberg north of a river crossed by two "
            "bridges on the roads from the south, woods north-east of it, Pinsk and Moscow south of the red line, "
            "which runs along the south bank; the rest is grognard's."
        ),
    )
    river = m.river((1, 12), (11, 12), (13, 13), (20, 13), (23, 12), (32, 12))
    woods = [(9, 2), (10, 2), (11, 2), (9, 3), (10, 3), (11, 3), (12, 3), (10, 4), (11, 4), (12, 4), (11, 5)]
    woods += [(12, 5), (13, 4), (20, 3), (21, 3), (21, 4), (22, 4), (22, 5), (23, 5), (2, 16), (2, 17), (3, 17)]
    woods += [(29, 8), (30, 8), (29, 9), (30, 9), (31, 9), (15, 18), (16, 18), (16, 19), (17, 19), (15, 19)]
    woods += [(26, 16), (27, 16), (27, 17)]
    m.paint("forest", [m.at(p) for p in woods])
    for p, h in [((16, 6), 1), ((17, 6), 1), ((18, 6), 1), ((16, 7), 1), ((17, 7), 2), ((18, 7), 1), ((17, 8), 1)]:
        m.raise_to([m.at(p)], h)
    for p in [(19, 7), (13, 16), (14, 16), (14, 15), (13, 15)]:
        m.raise_to([m.at(p)], 1)
    m.paint("field", [m.at(p) for p in [(25, 7), (26, 7), (25, 8), (7, 20), (8, 20), (8, 21), (20, 21), (21, 21)]])
    m.paint("rough", [m.at(p) for p in [(13, 9), (14, 9), (24, 18), (24, 19)]])
    m.town("Konigsberg", 20, [(5, 5), (6, 5), (5, 6), (6, 6)])
    m.town("Pinsk", 10, [(6, 18), (7, 18), (6, 19)])
    m.town("Moscow", 10, [(25, 21), (26, 21), (25, 22)])
    m.road((3, 24), (3, 13), (3, 11), (5, 6))  # the western road and bridge to Konigsberg
    m.road((9, 24), (9, 14), (9, 11), (6, 6))  # the second road and bridge
    m.road((6, 19), (9, 21), (16, 21), (25, 21))  # Pinsk to Moscow
    m.road((25, 21), (25, 24))
    m.road((6, 5), (16, 5), (24, 6), (32, 6))  # the northern lateral
    m.road((26, 21), (27, 14), (27, 12), (27, 8), (26, 6))  # the eastern road and bridge
    m.path("track", (12, 22), (13, 14))
    # The red line: the attacker sets up anywhere on the south bank (the tutorial's engineer stands "along the
    # river", the heavy tank "just below the bridge"); the defender north of row 10.
    on_river = set(river)
    m.region("south", m.flood((1, 24), lambda c: c in on_river))
    m.region("north", m.rect(1, 1, 32, 10))
    return m
