"""What the map means in play: terrain, cities and ports, countries, rivers, the arrows, and the areas each
unit may enter (§2.3, §2.5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from grognard.engine.maps import GameMap, Place, edge_key

from .scenario import COUNTRIES, LGAScenario
from .tables import Tables

if TYPE_CHECKING:
    from .play import Standing


class Board:
    """The scenario's map with La Grande Armée's terrain rules, precomputed."""

    def __init__(self, scenario: LGAScenario, tables: Tables) -> None:
        self.scenario = scenario
        self.tables = tables
        self.map: GameMap = scenario.map
        self.grid = scenario.map.grid
        self.size = self.grid.size
        self.terrain = scenario.map.terrain
        self.neighbors: tuple[tuple[int, ...], ...] = tuple(self.grid.neighbors(c) for c in range(self.size))
        self.sea = frozenset(c for c in range(self.size) if tables.terrain[self.terrain[c]].sea)
        self.prohibited = scenario.prohibited
        self.land = frozenset(c for c in range(self.size) if c not in self.sea and c not in self.prohibited)
        self.land_neighbors = tuple(tuple(n for n in ns if n in self.land) for ns in self.neighbors)
        self.country: dict[int, str] = {}
        for name in COUNTRIES:
            for c in scenario.map.region(name):
                self.country[c] = name
        self.hinterland = scenario.map.region("hinterland")
        self.places: dict[int, Place] = {c: p for p in scenario.map.places for c in p.cells}
        self.rivers: frozenset[tuple[int, int]] = frozenset(e for es in self.map.edge_features.values() for e in es)
        arrows = [
            next(iter(self.map.cell_features.get(k, ()) or [-1])) for k in ("to_gibraltar_arrow", "to_atlantic_arrow")
        ]
        self.arrows: tuple[int, int] | None = (arrows[0], arrows[1]) if min(arrows) >= 0 else None
        self.ports = frozenset(c for c in self.places if any(n in self.sea for n in self.neighbors[c]))
        self.capitals = {c: p for c, p in self.places.items() if p.kind == "capital"}
        self.kinds: tuple[str, ...] = tuple(self.places[c].kind if c in self.places else "" for c in range(self.size))
        self.rate_cache: list[object] = []  # the greedy rating's derived view (ai.py)
        self.standings: dict[int, Standing] = {}  # who stands where, for the last tuples of units (play.standing)
        # where the hidden movers stood as phase V began, for the last phase asked about (view.seen_tops)
        self.secret: tuple[object, dict[str, tuple[int, int, bool]], dict[int, list[str]]] = ((), {}, {})
        self.vp_cities = tuple(sorted(c for c, p in self.places.items() if p.kind in ("capital", "major")))

    def kind(self, cell: int) -> str:
        """ "capital", "major", "minor" or "" (§2.3)."""
        return self.kinds[cell]

    def name(self, cell: int) -> str:
        place = self.places.get(cell)
        return place.name if place is not None else ""

    def label(self, cell: int) -> str:
        return self.grid.label(cell)

    def where(self, cell: int) -> str:
        """An area in words: its city's name and its label ("Paris (8,6)"), or the label alone."""
        name = self.name(cell)
        return f"{name} ({self.label(cell)})" if name else self.label(cell)

    def river(self, a: int, b: int) -> bool:
        return edge_key(a, b) in self.rivers

    def enter_cost(self, cell: int) -> int:
        """§2.3: cities cost one move to enter whatever their terrain; forest, mountain, marsh two; clear one."""
        if cell in self.places:
            return self.tables.terrain["city"].cost
        return self.tables.terrain[self.terrain[cell]].cost

    def sea_neighbors(self, cell: int) -> tuple[int, ...]:
        """Sea areas next to ``cell``, with the other black arrow for an arrow area (§2.3 BLACK ARROWS)."""
        out = [n for n in self.neighbors[cell] if n in self.sea]
        if self.arrows is not None and cell in self.arrows:
            other = self.arrows[1] if cell == self.arrows[0] else self.arrows[0]
            out.append(other)
        return tuple(out)
