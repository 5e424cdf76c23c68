"""The Grauwald: a forest cut by one stream, with villages in its clearings."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "grauwald",
        "The Grauwald",
        32,
        24,
        base="forest",
        source="Drawn for grognard: the manual's 'heavily forested engagements' (PG p.2).",
    )
    clearings = [((15, 13), 3), ((10, 5), 2), ((24, 18), 2), ((27, 6), 1), ((29, 13), 2), ((3, 20), 2)]
    clearings += [((4, 8), 2), ((21, 8), 1), ((8, 16), 2), ((30, 21), 1), ((13, 21), 1), ((2, 13), 1)]
    m.patches("clear", clearings, 100)
    m.patches("field", [((12, 15), 1), ((17, 10), 1), ((25, 20), 1), ((5, 21), 1), ((9, 4), 1)], 120, over={"clear"})
    m.hill((12, 9), 2, 2)  # the Kahler Berg, wooded but for its crown
    m.paint("clear", [m.at((12, 9))])
    m.raise_to([m.at((12, 9))], 2)
    m.hill((26, 11), 1, 1, seed=5)
    m.river((19, 1), (18, 6), (19, 12), (18, 17), (19, 21), (18, 24))  # the Graubach
    m.town("Hollenbach", 20, m.cluster((15, 13), 4))
    m.town("Kreuzdorf", 10, m.cluster((10, 5), 3))
    m.town("Eichenrode", 15, m.cluster((24, 18), 3))
    m.town("Forsthaus", 5, [(27, 6)])
    m.town("Tannenfeld", 10, [(29, 13), (29, 14)])
    m.town("Wegscheid", 5, [(3, 20), (4, 20)])
    m.road((1, 12), (8, 11), (15, 13), (24, 11), (29, 13), (32, 13))  # the forest highway
    m.road((15, 13), (12, 8), (10, 5), (10, 1))  # north to Kreuzdorf
    m.road((15, 14), (19, 16), (24, 18), (28, 24))  # south-east to Eichenrode
    m.road((3, 20), (8, 16), (15, 14))
    m.road((1, 21), (3, 20))
    m.path("track", (24, 11), (27, 6), (32, 4))  # the forester's track
    m.path("track", (10, 5), (4, 8), (1, 8))
    m.path("track", (24, 18), (29, 14))
    m.path("track", (13, 21), (15, 24))
    m.path("track", (13, 21), (16, 14))
    m.region("west", m.rect(1, 1, 7, 24))
    m.region("east", m.rect(14, 1, 32, 24))
    m.region("north_edge", m.rect(1, 1, 32, 3))
    towns = [c for _, _, cells in m.towns for c in cells]
    m.region("garrisons", set(m.along(towns, 2)) - set(m.rect(1, 1, 32, 4)) - set(m.rect(1, 18, 8, 24)))
    return m
