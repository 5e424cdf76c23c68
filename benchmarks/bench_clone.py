"""Cloning a mid-game state for search: ours (frozen dataclasses, shared) against copying a NumPy unit table.

Run: ``python benchmarks/bench_clone.py``.

A search copies the state, then changes one unit and looks at the result. Our states are frozen dataclasses
updated with ``dataclasses.replace`` (Pgx style), so :meth:`Ruleset.clone` returns the state itself and the
cost is in the update: a new 300-tuple of units with one unit replaced, and a new state around it.
Ours: ``rules.clone(state)`` plus that update, on a representative 300-unit state built here.
Peer: ``table.copy()`` of a 300-row NumPy unit table (one int64 column per unit field) plus one row write.
Target: ours at most 12 times the peer's time.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from grognard.engine.decisions import Decision, Legal
from grognard.engine.events import Step
from grognard.engine.protocol import Result, Ruleset, Scenario, Turn
from timing import compare, fmt, header, table, verdict

UNITS, OPS = 300, 2000
TARGET = 12.0


@dataclass(frozen=True, slots=True)
class Unit:
    """A mid-game unit with the fields the four games' units carry."""

    id: str
    side: str
    kind: str
    cell: int
    strength: int
    morale: int
    fatigue: int
    facing: int
    formation: str
    moved: bool = False
    fired: bool = False
    spotted: bool = False
    ammo: int = 0


@dataclass(frozen=True, slots=True)
class State:
    rng: int
    turn: int
    phase: str
    side: str
    units: tuple[Unit, ...]
    spotted: frozenset[str] = frozenset()
    last_seen: tuple[tuple[str, int], ...] = ()
    score: tuple[int, int] = (0, 0)


class CloneOnly(Ruleset[State, Any]):
    """Just enough of a ruleset to call the protocol's ``clone``."""

    id, name, seats, decision_types, state_type = "bench", "Bench", ("a", "b"), (), State

    @classmethod
    def scenario_dir(cls) -> Path:
        raise NotImplementedError

    @classmethod
    def read_scenario(cls, path: Path) -> Scenario:
        raise NotImplementedError

    @classmethod
    def scenario_from_document(cls, document: Any, where: str) -> Scenario:
        raise NotImplementedError

    def initial_state(self, seed: int) -> State:
        raise NotImplementedError

    def turn(self, state: State) -> Turn:
        raise NotImplementedError

    def legal(self, state: State, seat: str) -> Legal:
        raise NotImplementedError

    def apply(self, state: State, seat: str, decision: Decision, step: Step) -> State:
        raise NotImplementedError

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        raise NotImplementedError

    def result(self, state: State) -> Result | None:
        raise NotImplementedError


def mid_game(rng: np.random.Generator) -> State:
    kinds = ("infantry", "cavalry", "artillery", "armor")
    units = tuple(
        Unit(
            f"u{i:03}",
            "north" if i % 2 else "south",
            kinds[i % 4],
            int(rng.integers(0, 1512)),
            int(rng.integers(100, 2000)),
            int(rng.integers(30, 100)),
            int(rng.integers(0, 60)),
            int(rng.integers(1, 9)),
            "line" if i % 3 else "column",
            bool(i % 5 == 0),
            bool(i % 7 == 0),
            bool(i % 2),
            int(rng.integers(0, 40)),
        )
        for i in range(UNITS)
    )
    seen = tuple((u.id, u.cell) for u in units[::3])
    return State(12345, 7, "operations", "north", units, frozenset(u.id for u in units[::2]), seen, (120, 95))


def as_table(state: State) -> np.ndarray:
    """The same units as a NumPy table: one row a unit, one int64 column per field (text fields coded)."""
    codes: dict[str, int] = {}
    rows = []
    for i, u in enumerate(state.units):
        row = []
        for f in dataclasses.fields(Unit):
            value = getattr(u, f.name)
            row.append(codes.setdefault(value, len(codes)) if isinstance(value, str) else int(value))
        row[0] = i
        rows.append(row)
    return np.array(rows, dtype=np.int64)


def main() -> None:
    header(f"bench_clone: clone + one unit update, {UNITS}-unit mid-game state", "numpy.ndarray.copy + row write")
    rules = CloneOnly(None)
    state = mid_game(np.random.default_rng(1813))
    units_table = as_table(state)
    cell_col = [f.name for f in dataclasses.fields(Unit)].index("cell")
    moved_col = [f.name for f in dataclasses.fields(Unit)].index("moved")
    picks = [int(x) for x in np.random.default_rng(7).integers(0, UNITS, OPS)]

    def ours() -> None:
        replace = dataclasses.replace
        for i in picks:
            s = rules.clone(state)
            u = s.units[i]
            units = (*s.units[:i], replace(u, cell=u.cell + 1, moved=True), *s.units[i + 1 :])
            replace(s, units=units)

    def peer() -> None:
        for i in picks:
            t = units_table.copy()
            t[i, cell_col] += 1
            t[i, moved_col] = 1

    # what ours builds is what the peer builds
    s = rules.clone(state)
    u = s.units[5]
    after = dataclasses.replace(s, units=(*s.units[:5], dataclasses.replace(u, cell=u.cell + 1), *s.units[6:]))
    assert after.units[5].cell == state.units[5].cell + 1 and after.units[6] is state.units[6]

    c = compare(ours, peer, reps=15)
    per_op = [type(t)(t.median / OPS, t.low / OPS, t.high / OPS) for t in (c.ours, c.peer)]
    table(
        ["case", "ours us/op median (min-max)", "numpy us/op median (min-max)", "ratio"],
        [["clone + replace one of 300 units", fmt(per_op[0], "us"), fmt(per_op[1], "us"), verdict(c.ratio, TARGET)]],
    )


if __name__ == "__main__":
    main()
