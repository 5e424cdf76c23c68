"""What every rule module consults: the board (map, tables, units) and the game's options (§IA2.1), with the
small questions about a position that many rules ask (who stands where, whose zone of control)."""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from itertools import compress, count
from operator import attrgetter, is_not, le, ne
from typing import Any

import numpy as np

from grognard.engine.events import Step

from .board import Board, IntArray
from .state import AntietamState, Unit, lineage

ENEMY = {"union": "confederate", "confederate": "union"}
# who sees an event: one side, or both (the seats of the tens of thousands of events a game keeps, one tuple a side
# rather than a new one an event: every container a game keeps is walked by the collector's passes)
ONLY = {side: (side,) for side in ENEMY}
BOTH = {side: (side, ENEMY[side]) for side in ENEMY}
_CELL = attrgetter("cell")
_ON_MAP = partial(le, 0)  # a square (0 or more) rather than OFF_MAP or GONE
# what is kept of the last unit table asked about is patched when at most this many units differ, else worked out
# afresh (a decision changes a unit or two; a new phase resets every unit's points)
CHANGED_AT_MOST = 16


def changed(before: tuple[Unit, ...], after: tuple[Unit, ...]) -> list[int]:
    """The indices of the units whose records differ between two unit tables, in order (a record not changed is
    the same object: frozen records are replaced, never changed). When ``after`` was made from ``before`` by a
    few replacements (``state.made_from``), only the units replaced are compared."""
    made = lineage.get(id(after))
    if made is not None and made[0] is after and made[1] is before:  # made from ``before`` at once: most are
        return [i for i in sorted(made[2]) if before[i] is not after[i]]
    replaced: set[int] = set()
    table = after
    for _ in range(8):
        if table is before:
            return [i for i in sorted(replaced) if before[i] is not after[i]]
        made = lineage.get(id(table))
        if made is None or made[0] is not table:
            break
        replaced.update(made[2])
        table = made[1]
    return list(compress(count(), map(is_not, before, after)))


@dataclass(frozen=True, slots=True)
class Options:
    level: int  # §IA2.1 #1
    game: str  # §IA2.1 #4: basic, intermediate or advanced
    hidden: bool  # §IA2.1 #5
    activation: bool  # §IA2.1 #8
    time_limit: int = 0  # §IA2.1 #6: minutes a human has for an operation phase (0: none; the server's clock)
    display: str = "icons"  # §IA2.1 #9: icons or symbols (the basic game always shows icons)
    version: str = "c64"  # the program's version: "ibm" keeps Union cavalry until turn 3 (§B2.0, §IA3.2; AMB-6)

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Options:
        return cls(
            options["level"],
            options["game"],
            options["hidden"],
            options["activation"],
            options.get("time_limit", 0),
            options.get("display", "icons"),
            options.get("version", "c64"),
        )


class Ctx:
    def __init__(self, board: Board, options: Options) -> None:
        self.board = board
        self.options = options
        self.tables = board.tables
        self.rules = board.tables.rules
        self.combat = board.tables.combat
        self.recovery = board.tables.recovery
        # each side's units by index (sides never change), and the last answers about a unit table: who stands
        # where is asked again after every change of a unit, most of which leave every unit where it stood
        self.ids = {side: tuple(i for i, s in enumerate(board.specs) if s.side == side) for side in ENEMY}
        # the fire steps' units (§IA8.1: artillery and the others fire in steps of their own), and what a fire
        # costs each: Operations Costs Table, "Fire (per fire phase)", 2 for infantry and cavalry, 4 for
        # (unlimbered) artillery (the basic game has no modes: artillery fires as unlimbered, AMB-3)
        self.shooters = {
            (side, artillery): tuple(i for i in self.ids[side] if board.spec(i).artillery == artillery)
            for side in ENEMY
            for artillery in (False, True)
        }
        self.fire_costs = tuple(
            self.tables.cost("fire_phase", "unlimb" if s.artillery else board.column(i)) or 0
            for i, s in enumerate(board.specs)
        )
        self._cells: tuple[tuple[Unit, ...], tuple[int, ...]] | None = None
        # the last squares patched by ``cells``: the squares before, after, and the units that changed square
        self._patched: tuple[tuple[int, ...], tuple[int, ...], list[int]] | None = None
        self._cell_array: tuple[tuple[int, ...], IntArray] | None = None
        # who stands where: each unit's square, the units by square, each side's squares and each side's enemy's
        self._occ: (
            tuple[tuple[int, ...], dict[int, list[int]], dict[str, list[int]], dict[str, tuple[IntArray, int]]] | None
        ) = None
        self._squares_made = 0  # numbers the enemy squares' arrays
        # the last unit table asked about and its answer (the same answer while no unit changes square)
        self._occ_of: tuple[tuple[Unit, ...] | None, tuple[dict[int, list[int]], dict[str, tuple[IntArray, int]]]]
        self._occ_of = (None, ({}, {}))
        self._mine: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._zoc: dict[str, tuple[tuple[int, ...], tuple[int, ...], frozenset[int]]] = {}
        self._memos: dict[str, tuple[tuple[Any, ...], dict[Any, Any]]] = {}
        # by unit: the record the last new phase's reset of its points made, and the record it was made from (two
        # lists by index: set in place at every reset, no pair made a unit, which the collector would walk)
        self.reset_made: list[Unit | None] = [None] * len(board.specs)
        self.reset_from: list[Unit | None] = [None] * len(board.specs)
        # §IA2.3 the sequence of play, the side whose operation phase each phase is ("" for the others), and which
        # is the activation phase
        self.phases: tuple[str, ...] = tuple(self.rules["sequence"]["phases"])
        self.phasing = tuple(name.split("_")[0] if "_operations_" in name else "" for name in self.phases)
        self.activation_part = self.phases.index("activation")
        # §IA2.1 #4 what the chosen game has: modes, facing, force march, fortification, leaders, command control
        self.has: dict[str, bool] = dict(self.rules["options"]["complexity_rules"][options.game])
        # §IA2.1 #1 the casualties each side inflicts at the chosen level, in per cent (AMB-7 reading)
        level = self.rules["options"]["level"][str(options.level)]
        self.level_percent = {side: int(level[f"{side}_casualties"]) for side in ENEMY}
        self.basic = options.game == "basic"
        # §IA3 the activation cycle of the intermediate and advanced games (the basic game keeps §B2.0)
        self.cycle = options.activation and not self.basic
        # §B2.0 the held formations (the table's capitalised keys; the others are its variant and its chance)
        table = self.rules["activation"]["schedule"]
        held = options.activation and self.basic
        self.schedule: dict[str, int] = {k: v for k, v in table.items() if k[0].isupper()} if held else {}
        # "In the IBM version, Union cavalry unit may not be activated until turn 3" (§B2.0, §IA3.2; AMB-6): the
        # cavalry's turn in the basic schedule, and the first turn the activation cycle offers the cavalry division
        self.cavalry_turn = table["ibm_cavalry_variant"] if options.version == "ibm" else 0
        if self.cavalry_turn and "Pleasonton" in self.schedule:
            self.schedule["Pleasonton"] = self.cavalry_turn
        # §IA3.3 each Union division's corps, and its first unit in the OOB (the order of the activation cycle)
        self.corps_of: dict[str, str] = {}
        self.first_of: dict[str, int] = {}
        for i, s in enumerate(board.specs):
            if s.division:
                self.corps_of.setdefault(s.division, s.corps)
                self.first_of.setdefault(s.division, i)
        # §IA7.12 the brigade leaders' bonuses (printed on the A rows) and the leaders table by name
        self.brigade_bonus = {(s.side, s.brigade): s.brigade_bonus for s in board.specs if s.brigade_bonus}
        self.leader_index = {str(lead["name"]): k for k, lead in enumerate(self.tables.leaders)}
        self.formations = tuple(
            next((n for n in (s.corps, s.division) if n in self.schedule), "") if s.side == "union" else ""
            for s in board.specs
        )

    # --- who stands where -----------------------------------------------------------------------------
    def cells(self, state: AntietamState) -> tuple[int, ...]:
        """Every unit's square, by index (kept for the last unit table asked about)."""
        hit, units = self._cells, state.units
        if hit is not None:
            was, cells = hit
            if was is units:
                return cells
            # most new tables change a unit or two, and their points or flags: the same tuple while no unit moves
            diff = changed(was, units)
            if len(diff) <= CHANGED_AT_MOST:
                moved = [i for i in diff if units[i].cell != cells[i]]
                if moved:
                    patched = list(cells)
                    for i in moved:
                        patched[i] = units[i].cell
                    self._patched = (cells, cells := tuple(patched), moved)
                self._cells = (units, cells)
                return cells
        cells = tuple(map(_CELL, units))
        if hit is not None and hit[1] == cells:
            cells = hit[1]
        self._cells = (units, cells)
        return cells

    def moved_between(self, before: tuple[int, ...], after: tuple[int, ...]) -> list[int] | None:
        """The units whose squares differ between two of :meth:`cells`' answers, in order, when ``after`` was
        patched from ``before`` (a step, a retreat: read only); None when that is not known (then compare them)."""
        last = self._patched
        return last[2] if last is not None and last[1] is after and last[0] is before else None

    def unmoved(self, before: tuple[Unit, ...], after: tuple[Unit, ...]) -> None:
        """``after`` was made from ``before`` moving no unit (a fire's own changes): the squares and who stands where
        kept for ``before`` hold for ``after``."""
        if after is before:
            return
        hit = self._cells
        if hit is not None and hit[0] is before:
            self._cells = (after, hit[1])
        if self._occ_of[0] is before:
            self._occ_of = (after, self._occ_of[1])

    def cell_array(self, state: AntietamState) -> IntArray:
        """Every unit's square as an array (read only; kept while no unit changes square)."""
        cells = self.cells(state)
        hit = self._cell_array
        if hit is None or hit[0] is not cells:
            hit = self._cell_array = (cells, np.array(cells, dtype=np.int64))
        return hit[1]

    def occupants(self, state: AntietamState) -> dict[int, list[int]]:
        """Units on the map by square, in OOB order (kept while no unit changes square: read only)."""
        return self._occupancy(state)[0]

    def enemy_squares(self, state: AntietamState, side: str) -> IntArray:
        """The squares the enemy of ``side`` stands in, in order (read only; the same array while they stay)."""
        return self._occupancy(state)[1][side][0]

    def _occupancy(self, state: AntietamState) -> tuple[dict[int, list[int]], dict[str, tuple[IntArray, int]]]:
        last = self._occ_of
        if last[0] is state.units:  # asked again of the same unit table (a fire asks four times)
            return last[1]
        cells = self.cells(state)
        hit = self._occ
        # the units that changed square, where ``cells`` knows them (one step: no need to compare every unit's)
        moved = None if hit is None or hit[0] is cells else self.moved_between(hit[0], cells)
        if hit is not None and (hit[0] is cells or (moved is None and hit[0] == cells)):
            self._occ_of = (state.units, (hit[1], hit[3]))
            return hit[1], hit[3]
        sides = self.board.sides
        if hit is not None and moved is None:
            moved = list(compress(count(), map(ne, hit[0], cells)))
        if hit is not None and moved is not None and len(moved) <= 8:  # a step or a retreat: the squares it left
            was = hit[1]
            out = dict(was)  # and entered change (a copy: an answer given stays as it was)
            for i in moved:
                a, b = hit[0][i], cells[i]
                if a >= 0:
                    rest = [j for j in out[a] if j != i]
                    if rest:
                        out[a] = rest
                    else:
                        del out[a]
                if b >= 0:
                    out[b] = sorted([*out.get(b, ()), i])
            # each side's squares (a square is the side's of its first unit), patched where a square changed hands
            held = dict(hit[2])
            for c in sorted({c for i in moved for c in (hit[0][i], cells[i]) if c >= 0}):
                before = sides[was[c][0]] if c in was else None
                after = sides[out[c][0]] if c in out else None
                if before == after:
                    continue
                if before is not None:
                    if held[before] is hit[2][before]:
                        held[before] = list(held[before])
                    held[before].remove(c)
                if after is not None:
                    if held[after] is hit[2][after]:
                        held[after] = list(held[after])
                    insort(held[after], c)
        else:
            out = {}
            for i, c in enumerate(cells):
                if c >= 0:
                    out.setdefault(c, []).append(i)
            held = {s: [] for s in ENEMY}
            for c in sorted(out):
                held[sides[out[c][0]]].append(c)
        enemy = {}
        for s in ENEMY:
            theirs = held[ENEMY[s]]
            # the same array, and the same number, while the enemy stands where it stood: callers key on them
            if hit is not None and (theirs is hit[2][ENEMY[s]] or theirs == hit[2][ENEMY[s]]):
                enemy[s] = hit[3][s]
                held[ENEMY[s]] = hit[2][ENEMY[s]]
            else:
                self._squares_made += 1
                enemy[s] = (np.array(theirs, dtype=np.int64), self._squares_made)
        self._occ = (cells, out, held, enemy)
        self._occ_of = (state.units, (out, enemy))
        return out, enemy

    def facing_enemy(self, state: AntietamState, seat: str) -> dict[Any, Any]:
        """A cache of what the rules derive for ``seat`` against the enemy where it stands this turn (the squares
        each unit can fire into, say): kept while the enemy stands still, as it does through a whole operation
        phase."""
        return self.memo("facing the enemy", (seat, state.turn, self._occupancy(state)[1][seat][1]))

    def memo(self, name: str, key: tuple[Any, ...]) -> dict[Any, Any]:
        """A cache named ``name`` of what is derived from a position, kept while ``key`` (what it was derived from)
        stays the same; emptied when the key changes or when it holds 4096 answers."""
        hit = self._memos.get(name)
        if hit is None or hit[0] != key:
            hit = self._memos[name] = (key, {})
        elif len(hit[1]) >= 4096:
            hit[1].clear()
        return hit[1]

    def side_units(self, state: AntietamState, side: str) -> tuple[int, ...]:
        """The units of ``side`` on the map, in OOB order."""
        cells = self.cells(state)  # the same tuple while no unit changes square
        hit = self._mine.get(side)
        if hit is not None and hit[0] is cells:
            return hit[1]
        ids = self.ids[side]
        found = tuple(compress(ids, map(_ON_MAP, map(cells.__getitem__, ids))))
        self._mine[side] = (cells, found)
        return found

    def zoc(self, state: AntietamState, side: str) -> frozenset[int]:
        """§B3.6: the eight squares next to each unit of ``side`` (its zone of control)."""
        cells = self.cells(state)
        hit = self._zoc.get(side)
        if hit is not None and hit[0] is cells:
            return hit[2]
        if hit is not None:  # the same zone while none of the side's units has changed square (the enemy's step)
            moved = self.moved_between(hit[0], cells)
            if moved is not None and side not in map(self.board.sides.__getitem__, moved):
                self._zoc[side] = (cells, hit[1], hit[2])
                return hit[2]
        key = tuple(map(cells.__getitem__, self.ids[side]))
        if hit is not None and hit[1] == key:
            self._zoc[side] = (cells, key, hit[2])
            return hit[2]
        neighbors = self.board.neighbors
        out: set[int] = set()
        for c in key:
            if c >= 0:
                out.update(neighbors[c])
        found = frozenset(out)
        self._zoc[side] = (cells, key, found)
        return found

    def in_enemy_zoc(self, cell: int, side: str, occ: dict[int, list[int]]) -> bool:
        """Whether ``cell`` is in the zone of control of the enemy of ``side`` (``zoc`` of the enemy, §B3.6): next to
        an enemy unit, asked of one square (a retreat's few) rather than worked out for the whole enemy."""
        sides = self.board.sides
        for n in self.board.neighbors[cell]:
            here = occ.get(n)
            if here and sides[here[0]] != side:  # a square holds one side's units
                return True
        return False

    def enemy_at(self, state: AntietamState, cell: int, side: str, occ: dict[int, list[int]]) -> bool:
        sides = self.board.sides
        # asked of every square a unit considers: a loop, quicker than any() over a generator
        for j in occ.get(cell, ()):  # noqa: SIM110
            if sides[j] != side:
                return True
        return False

    def stack_allows(self, state: AntietamState, i: int, cell: int, occ: dict[int, list[int]]) -> str | None:
        """§B3.5 / §IA7.7: why unit ``i`` may not end in ``cell`` as stacking goes, or None."""
        b = self.board
        here = [j for j in occ.get(cell, ()) if j != i]
        if not here:
            return None  # an empty square takes any unit
        st = self.rules["stacking"]
        if b.terrain(state, cell) in b.one_unit:
            return f"only one unit may occupy a {b.terrain(state, cell)} square (§IA7.7)"
        artillery = b.artillery
        if artillery[i]:
            if sum(artillery[j] for j in here) >= st["artillery"]:
                return "a square holds one artillery unit (§B3.5)"
        elif sum(not artillery[j] for j in here) >= st["non_artillery"]:
            return "a square holds two infantry or cavalry units (§B3.5)"
        return None

    # --- modes and facing (§IA7.8, §IA7.9; the basic game has neither) ----------------------------------
    def column(self, i: int, u: Unit) -> str:
        """The unit's column of the Operations Costs Table: by its mode (§IA7.8: infantry in either mode and
        dismounted cavalry INF, mounted cavalry CAV, limbered and unlimbered artillery); the basic game's fixed
        column otherwise (AMB-3)."""
        if self.basic or not u.mode:
            return self.board.column(i)
        return {"dismounted": "inf", "mounted": "cav", "limbered": "limb", "unlimbered": "unlimb"}.get(u.mode, "inf")

    def flanked_mode(self, u: Unit) -> bool:
        """§IA7.8 "Infantry in column, limbered artillery, and mounted cavalry are considered to be flanked when
        fired upon from any direction"."""
        return u.mode in self.rules["modes"]["always_flanked"]

    def in_cone(self, u: Unit, cell: int) -> bool:
        """§IA7.9 "a line of sight equal to 90 degree angle radiating in a V shape" ahead of the unit's facing
        (all round in the basic game, §B3.3)."""
        return not u.facing or bool(self.board.cones[u.facing][u.cell, cell])

    def morale(self, i: int, u: Unit) -> int:
        """§IA8.6: morale = effectiveness - fatigue."""
        return self.board.spec(i).eff - u.fatigue

    # --- events ---------------------------------------------------------------------------------------
    def tell(self, step: Step, kind: str, text: str, sides: Iterable[str] | None = None, **data: Any) -> None:
        step.emit(kind, text, None if sides is None else tuple(sides), **data)
