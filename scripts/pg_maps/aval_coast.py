"""The Aval coast: three landing beaches under the bluffs, a little port and a river mouth."""

from pg_mapmaker import MapMaker


def build() -> MapMaker:
    m = MapMaker(
        "aval_coast",
        "The Aval Coast",
        36,
        24,
        source="Drawn for grognard: the manual's beach invasions (PG p.2: 'Which beach is the best for invasion?', "
        "p.24 beach, sea and coast).",
    )
    shore = {c: 22 for c in range(1, 37)}  # the first row of sea in each column
    shore.update({c: 21 for c in range(12, 18)} | {c: 23 for c in range(18, 26)} | {c: 21 for c in range(29, 37)})
    beaches = [range(2, 11), range(18, 26), range(29, 36)]
    on_beach = {c for b in beaches for c in b}
    m.paint("sea", m.where(lambda c: m.row(c) >= shore[m.col(c)]))
    m.paint("beach", m.where(lambda c: m.col(c) in on_beach and shore[m.col(c)] - 3 <= m.row(c) < shore[m.col(c)]))
    m.paint("rough", m.where(lambda c: m.col(c) in on_beach and m.row(c) == shore[m.col(c)] - 4))  # the dunes
    cliffs = m.where(lambda c: m.col(c) not in on_beach and m.row(c) == shore[m.col(c)] - 1)
    m.paint("coast", cliffs)
    # Bocage inland: small fields between hedged woods; bluffs above the beaches.
    m.patches("field", [((5, 5), 3), ((15, 4), 2), ((30, 4), 3), ((21, 12), 2), ((9, 13), 2), ((33, 11), 2)], 600)
    spinneys = [((3, 9), 1), ((12, 7), 1), ((8, 2), 1), ((20, 3), 1), ((24, 8), 1), ((16, 13), 1), ((34, 7), 1)]
    m.patches(
        "forest", [*spinneys, ((29, 17), 1), ((4, 17), 1), ((12, 17), 1), ((9, 20), 1)], 610, over={"clear", "field"}
    )
    m.raise_to(m.where(lambda c: 16 <= m.row(c) <= shore[m.col(c)] - 5 and m.col(c) not in (26, 27, 28)), 1)
    for p in [(7, 17), (22, 19), (32, 16), (12, 18)]:
        m.raise_to(m.disk(p, 1), 2)
    aure = m.river((27, 1), (25, 6), (27, 11), (26, 18), (27, 22))  # the Aure, into the sea at the estuary
    m.paint("clear", [m.at((14, 20)), m.at((15, 20))])  # the quays, between the harbour moles
    m.town("Port Aval", 20, [(13, 19), (14, 19), (14, 20), (15, 20)])
    m.town("Montbrai", 15, m.cluster((18, 9), 3))
    m.town("Sainte-Colombe", 10, [(31, 12), (32, 12)])
    m.town("Le Hamel", 5, [(6, 12)])
    m.town("Carteret", 10, [(9, 4), (10, 4)])
    # Concrete on the bluffs, looking down on each beach and the port.
    bunkers = [(4, 17), (9, 17), (19, 19), (23, 19), (31, 16), (34, 16), (13, 17)]
    m.paint("fortification", [m.at(p) for p in bunkers])
    m.road((14, 19), (18, 9), (18, 1))  # from the port to Montbrai and inland
    m.road((1, 12), (6, 12), (18, 9), (25, 10), (31, 12), (36, 11))  # the coast road, bridging the Aure
    m.road((18, 9), (10, 4), (1, 3))
    m.road((31, 12), (29, 5), (25, 4), (22, 1))  # the inland bridge
    m.path("track", (6, 12), (6, 18))  # beach exits
    m.path("track", (21, 19), (20, 11))
    m.path("track", (32, 17), (32, 12))
    m.path("track", (10, 16), (13, 19))
    aure_cells = set(aure)
    m.region("beaches", m.where(lambda c: m.terrain[c] in ("beach", "rough") and m.row(c) >= 17))
    port = m.towns[0][2]
    bunker_cells = m.where(lambda c: m.terrain[c] == "fortification")
    m.region("inland", m.land(set(m.rect(1, 1, 36, 15)) | set(bunker_cells) | set(port)))
    m.region("north_edge", set(m.land(m.rect(1, 1, 36, 2))) - aure_cells)
    return m
