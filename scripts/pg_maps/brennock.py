"""Brennock Moor: rough upland with tarns and tors, a valley road through it, villages at its edges."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "brennock",
        "Brennock Moor",
        32,
        24,
        source="Drawn for grognard: open moorland where fog (PG p.32: visibility 10) decides who sees whom.",
    )
    # The moor: broad rough upland one level up, tors rising from it, tarns in its hollows.
    moor = m.blob((16, 11), 9, seed=1000, ragged=0.5)
    m.raise_to(moor, 1, terrain=None)
    m.paint("rough", moor, over={"clear"})
    m.scatter("clear", moor, 0.25, seed=1001, over={"rough"})
    m.hill((9, 8), 3, 2, seed=1010)  # High Tor
    m.hill((23, 13), 2, 2, seed=1011)  # Carn Dubh
    m.ridge((13, 16), (18, 17), height=2, flank=1)  # the Brennock edge above the southern farms
    for centre, seed in (((17, 7), 1020), ((6, 14), 1021), ((27, 8), 1022)):
        tarn = m.blob(centre, 1, seed=seed, ragged=0.3)
        m.paint("lake", tarn)
        for c in tarn:
            m.elevation[c] = 0
    m.patches("forest", [((3, 3), 2), ((28, 20), 2), ((12, 21), 1), ((29, 2), 1)], 1030)
    m.patches("field", [((6, 21), 2), ((20, 22), 2), ((6, 2), 1), ((20, 2), 2), ((30, 15), 1)], 1040)
    # The Allan water, from the northern hills across the moor and down the valley to the south-west.
    m.river((22, 1), (20, 5), (19, 9), (17, 12), (12, 14), (8, 18), (2, 24))
    m.town("Brennock", 20, m.cluster((15, 10), 3))
    m.town("Carrick", 10, m.cluster((6, 4), 3))
    m.town("Dunmore", 10, [(26, 4), (27, 4)])
    m.town("Kilbride", 10, m.cluster((9, 21), 3))
    m.town("Glen Ard", 5, [(24, 20)])
    m.road((6, 4), (12, 8), (15, 10), (17, 14), (18, 18), (18, 24))  # the moor road, through Brennock
    m.road((7, 4), (18, 3), (26, 4), (32, 5))
    m.road((9, 21), (18, 21), (24, 20), (32, 21))
    m.road((5, 4), (1, 6))
    m.path("track", (16, 10), (23, 13), (24, 8), (26, 5))  # the peat track over Carn Dubh
    m.path("track", (14, 10), (11, 11), (9, 21))  # the old drove road over the Allan
    m.path("track", (12, 9), (9, 8))  # up to High Tor
    m.region("north", m.land(set(m.rect(1, 1, 32, 6)) | set(m.disk((15, 10), 2))))
    m.region("south", m.land(m.rect(1, 20, 32, 24)))
    return m
