"""The Hamra: a coastal plain under an escarpment, and the desert plateau above it."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "hamra",
        "The Hamra Escarpment",
        40,
        24,
        base="desert",
        source="Drawn for grognard: the manual's 'desert conflict' (PG p.2), with its desert, "
        "escarpment and depression terrain (PG p.24-25).",
    )
    # The sea to the north, a beach here and there, cliffs elsewhere.
    m.paint("sea", m.rect(1, 1, 40, 1))
    m.paint("sea", m.where(lambda c: m.row(c) == 2 and m.col(c) % 9 not in (3, 4, 5)))
    m.paint("coast", m.where(lambda c: m.row(c) == 2 and m.terrain[c] == "desert" and m.col(c) < 20))
    m.paint("beach", m.where(lambda c: m.row(c) in (2, 3) and m.terrain[c] == "desert" and m.col(c) >= 20))
    # The coastal plain: hard, stony ground.
    plain = m.flood((20, 5), lambda c: m.row(c) > 8 or m.terrain[c] in ("sea", "coast"))
    m.paint("clear", plain, over={"desert"})
    m.patches("rough", [((8, 7), 1), ((24, 7), 1), ((34, 6), 1), ((3, 4), 1)], 300, over={"clear"})
    # The escarpment, one hex of steep slope, and the plateau two levels up.
    scarp = m.route((1, 10), (6, 9), (12, 10), (17, 11), (22, 11), (27, 9), (33, 10), (40, 9))
    m.paint("escarpment", scarp)
    m.raise_to(scarp, 1, terrain=None)
    plateau = m.flood((20, 24), lambda c: c in set(scarp))
    m.raise_to(plateau, 2, terrain=None)
    m.paint("desert", plateau, over={"clear"})
    # The Malha depression: soft sand below the plateau.
    hollow = m.blob((35, 20), 3, seed=7)
    m.paint("depression", hollow)
    for c in hollow:
        m.elevation[c] = 0
    m.ridge((22, 16), (28, 14), height=3, flank=0)  # Ras el-Ghul
    m.patches("rough", [((14, 21), 1), ((24, 21), 1), ((6, 14), 1), ((38, 13), 1)], 310, over={"desert"})
    # Oases: a spring, palms and gardens.
    for center, seed in (((10, 18), 1), ((29, 19), 2)):
        m.paint("field", m.blob(center, 2, seed=320 + seed))
        m.paint("forest", m.blob((center[0] + 1, center[1] + 1), 1, seed=330 + seed))
    m.paint("lake", [m.at((9, 19)), m.at((30, 20))])
    m.town("Sidi Amar", 15, m.cluster((14, 4), 3))
    m.town("Bir Khalifa", 5, [(5, 6)])
    m.town("Marsa Luq", 10, [(36, 4), (37, 4)])
    m.town("Qasr el-Hamra", 20, [(19, 13), (20, 13)])
    m.paint("fortification", [m.at(p) for p in [(18, 12), (19, 12), (21, 13), (18, 14), (20, 14)]])
    m.town("Bir Tarfa", 10, [(10, 18), (11, 18)])
    m.town("Ain Zahra", 10, [(29, 19), (28, 19)])
    m.road((1, 5), (5, 6), (12, 4), (14, 4), (27, 5), (36, 4), (40, 4))  # the coast road
    m.path("track", (14, 5), (16, 10), (19, 13))  # the Hamra pass, up to the fort
    m.path("track", (20, 13), (29, 19))
    m.path("track", (19, 13), (11, 18), (1, 20))
    m.path("track", (31, 5), (31, 9), (36, 13), (40, 14))  # the eastern pass
    m.path("track", (29, 18), (31, 12), (31, 9))
    m.path("track", (5, 6), (6, 9), (10, 17))  # the western pass
    m.region("east", m.land(m.rect(33, 1, 40, 24)))
    m.region("west", m.land(set(m.rect(1, 1, 16, 24)) | set(m.disk((19, 13), 2))))
    return m
