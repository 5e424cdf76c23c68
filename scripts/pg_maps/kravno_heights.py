"""The Kravno Heights: a hill mass with a signal post on its crown, overlooking three villages."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "kravno_heights",
        "The Kravno Heights",
        32,
        24,
        source="Drawn for grognard: the manual's hills and their spotters (PG p.2, p.23, p.32).",
    )
    m.patches("field", [((5, 20), 2), ((27, 20), 3), ((10, 3), 2), ((27, 3), 2), ((14, 21), 1)], 500)
    m.hill((16, 11), 3, 4, seed=1)  # the heights
    m.ridge((5, 16), (11, 13), height=2)  # the western spur
    m.ridge((21, 8), (28, 6), height=2)  # the eastern spur
    m.hill((29, 14), 1, 1)
    # Woods on the slopes, some of them shattered by earlier shelling, and shell holes on the crown.
    m.patches(
        "forest",
        [((12, 9), 1), ((20, 13), 1), ((8, 18), 1), ((23, 17), 1), ((3, 9), 2)],
        510,
        over={"clear", "field", "hill"},
    )
    m.paint("forest_rubble", m.blob((19, 10), 1, seed=520), over={"hill", "clear"})
    m.paint("cratered", [m.at(p) for p in [(15, 10), (17, 12), (14, 12), (18, 10)]])
    m.paint("lake", m.blob((28, 11), 1, seed=530))
    m.town("Signal Hill", 20, [(16, 11)])
    m.town("Kravno", 10, m.cluster((15, 17), 3))
    m.town("Lesna", 10, [(6, 5), (7, 5)])
    m.town("Brod", 10, [(25, 4), (25, 5)])
    m.town("Sosnovka", 5, [(24, 21), (25, 21)])
    m.road((16, 1), (16, 6), (11, 10), (10, 14), (15, 17), (15, 24))  # round the west of the heights
    m.road((16, 6), (23, 10), (24, 14), (16, 17))  # round the east
    m.road((1, 5), (7, 5), (16, 6), (25, 4), (32, 4))  # the northern road
    m.road((16, 18), (24, 21), (32, 21))
    m.road((1, 19), (10, 14))
    m.path("track", (15, 16), (16, 11), (16, 7))  # the track over the crown, past the signal post
    m.path("track", (6, 5), (3, 12), (1, 14))
    crown = [c for c in m.grid.cells() if m.elevation[c] >= 2 and m.grid.distance(c, m.at((16, 11))) <= 4]
    m.region("north", set(m.rect(1, 1, 32, 7)) | set(crown))
    m.region("south", m.land(m.rect(1, 19, 32, 24)))
    return m
