"""(2) One real state update and (3) one search step, on real mid-game positions of the largest scenarios.

The positions (``real.midgame``) come from a game played by the game's own computer general in every seat: the
states before each of a window of decisions in its middle (The Lauter Offensive's second and third turns).

(2) Ours: the update the rules make when one unit changes, ``state.with_unit(replace(unit, ...))``, on the
first position of the window, for units picked at random. Peer: ``ndarray.copy()`` of the same units as a NumPy
table (one int64 column per unit field, text fields coded) plus the same row write. Alternated; the ratio is
the median of pairs. Target: at most 12.

(3) Ours, on every position of the window in turn: sample one legal decision of the position (its legal set is
the previous step's work, built beforehand), ``apply`` it, then the next state's legal decisions and one
sampled from them, straight through the ruleset as a search would call it. The window is walked once untimed
first (the ruleset's caches warm, as they are in a search), then walked 20 times timed: a full pass of Python's
collector through the benchmark's heap (16-25 ms in Lauter) lands inside a timed step or between two, and over the
1,000 steps of five walks two such passes moved the mean by 0.05-0.08 ms from one commit to the next by where they
fell; over 4,000 steps the mean carries their share. Target: at most 0.3 ms a step (the mean).

Times are this process's CPU time (``time.process_time``): about six jobs share the machine's two cores, and
the wall clock of a run this short mostly measures who else had the CPU. Each side of (2) runs 100 updates per
timing and 101 timings (11 with ``--quick``).
"""

from __future__ import annotations

import dataclasses
import inspect
import statistics
import time
from typing import Any

import numpy as np

from grognard.engine.events import Step
from grognard.engine.rng import Dice, seed_state
from real import Figure, Position, Report, games, midgame, percentile, profiled
from timing import compare

UPDATE_TARGET, STEP_TARGET_MS = 12.0, 0.3


def as_table(units: tuple[Any, ...]) -> np.ndarray:
    """The units as a NumPy table: one row a unit, one int64 column per field (text fields coded)."""
    codes: dict[str, int] = {}
    rows = []
    for u in units:
        row = []
        for f in dataclasses.fields(u):
            value = getattr(u, f.name)
            row.append(codes.setdefault(value, len(codes)) if isinstance(value, str) else int(value))
        rows.append(row)
    return np.array(rows, dtype=np.int64)


def changed(unit: Any) -> dict[str, Any]:
    """A one-unit change as the rules make them: a moved unit (PG ``moved``/``mp``, LGA ``moves``)."""
    names = {f.name for f in dataclasses.fields(unit)}
    out: dict[str, Any] = {"cell": unit.cell}
    for flag in ("moved", "reacted"):
        if flag in names:
            out[flag] = True
    for counter in ("mp", "moves"):
        if counter in names:
            out[counter] = max(0, getattr(unit, counter) - 1)
    return out


def run_update(report: Report, cls: Any, name: str, position: Position, reps: int) -> None:
    state = position.state
    units = getattr(state, "units", None)
    if not units:  # a state without one table of units (Kursk keeps groups of units): nothing to compare yet
        return
    picks = [int(i) for i in np.random.default_rng(7).integers(0, len(units), 100)]
    updates = [(units[i], changed(units[i])) for i in picks]
    table = as_table(units)
    columns = [f.name for f in dataclasses.fields(units[0])]
    writes = [(i, [columns.index(k) for k in change]) for i, (_, change) in zip(picks, updates, strict=True)]
    replace = dataclasses.replace

    by_index = len(inspect.signature(state.with_unit).parameters) == 2  # Antietam's states: with_unit(i, unit)

    def ours() -> None:
        if by_index:
            for i, (unit, change) in zip(picks, updates, strict=True):
                state.with_unit(i, replace(unit, **change))
        else:
            for unit, change in updates:
                state.with_unit(replace(unit, **change))

    def peer() -> None:
        for i, cols in writes:
            t = table.copy()
            t[i, cols] = 1

    c = compare(ours, peer, reps=reps, warmup=5, clock=time.process_time)
    n = len(picks)
    report.add(
        Figure(
            "2 state update",
            f"{name}: with_unit, {len(units)} units x {len(columns)} fields",
            c.ours.median / n * 1e6,
            "us",
        ),
        Figure("2 state update", "numpy copy of the same table + row write", c.peer.median / n * 1e6, "us"),
        Figure(
            "2 state update",
            f"{name}: times a numpy copy (median of pairs)",
            c.ratio,
            "x",
            UPDATE_TARGET,
            note=f"state of {len(dataclasses.fields(state))} fields",
        ),
    )


def search_steps(rules: Any, positions: list[Position], dice: Dice, times: list[float] | None) -> None:
    turn_of, legal_of, apply, with_rng = rules.turn, rules.legal, rules.apply, rules.with_rng
    ready = [(p, legal_of(p.state, p.seat)) for p in positions]
    clock = time.process_time
    for p, legal in ready:
        if not legal:
            continue
        t0 = clock()
        d = legal.sample(dice)
        step = Step(p.state.rng)
        after = with_rng(apply(p.state, p.seat, d, step), step.dice.state)
        seat = turn_of(after).seat
        if seat is not None:
            nxt = legal_of(after, seat)
            if nxt:
                nxt.sample(dice)
        if times is not None:
            times.append(clock() - t0)


def run_search(report: Report, cls: Any, name: str, positions: list[Position], reps: int, profile: bool) -> None:
    rules = cls(cls.load_scenario(name.split("/", 1)[1]))
    dice = Dice(seed_state(3))
    search_steps(rules, positions, dice, None)
    times: list[float] = []
    for _ in range(reps):
        search_steps(rules, positions, dice, times)
    mean = statistics.fmean(times) * 1e3
    report.add(
        Figure(
            "3 search step",
            f"{name}: apply + legal of the next state + sample, mean",
            mean,
            "ms",
            STEP_TARGET_MS,
            note=f"{len(positions)} positions x {reps}; median {statistics.median(times) * 1e3:.3f}, "
            f"p95 {percentile(times, 0.95) * 1e3:.3f} ms",
        )
    )
    if profile:
        with profiled(f"(3) search steps, {name}, {len(positions)} positions", report, True):
            search_steps(rules, positions, dice, None)


def run(report: Report, args: Any) -> None:
    for cls, scenario in games():
        name = f"{cls.id}/{scenario}"
        positions = midgame(cls, scenario, window=40 if args.quick else None)
        run_update(report, cls, name, positions[0], 11 if args.quick else 101)
        run_search(report, cls, name, positions, 1 if args.quick else 20, args.profile)
