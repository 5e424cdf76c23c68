"""What every benchmark shares: alternated timing with medians, the ratio to the peer, and a printed table.

Ours and the peer run in turn (ours, peer, ours, peer ...) after a warm-up, so a machine that speeds up or
slows down during the run affects both alike; each figure is the median of the repetitions, and the spread
(min to max) is printed beside it so a noisy run shows. The ratio is the median of the ratios of each pair of
neighbouring runs, which is steadier on a shared machine than the ratio of the two medians.
"""

from __future__ import annotations

import datetime
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    """Seconds per run of one side: median and range over the repetitions."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, samples: Sequence[float]) -> Timing:
        return cls(statistics.median(samples), min(samples), max(samples))


@dataclass(frozen=True)
class Comparison:
    ours: Timing
    peer: Timing
    ratio: float
    """How many times slower ours is than the peer: the median over pairs of neighbouring runs."""


def _seconds(fn: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> float:
    t0 = clock()
    fn()
    return clock() - t0


def compare(
    ours: Callable[[], object],
    peer: Callable[[], object],
    reps: int = 21,
    warmup: int = 3,
    clock: Callable[[], float] = time.perf_counter,
) -> Comparison:
    """Time ``ours`` and ``peer`` in alternation, ``reps`` times each after ``warmup`` untimed rounds.

    ``clock`` is the wall clock by default; ``time.process_time`` (this process's CPU time) leaves out the time
    other jobs hold the CPU, which on a crowded machine is most of the noise of short runs."""
    for _ in range(warmup):
        ours()
        peer()
    a: list[float] = []
    b: list[float] = []
    for _ in range(reps):
        a.append(_seconds(ours, clock))
        b.append(_seconds(peer, clock))
    return Comparison(Timing.of(a), Timing.of(b), statistics.median(x / y for x, y in zip(a, b, strict=True)))


def time_alone(fn: Callable[[], object], reps: int = 11, warmup: int = 1) -> Timing:
    """Median time of one function with no peer (figures reported for information)."""
    for _ in range(warmup):
        fn()
    return Timing.of([_seconds(fn) for _ in range(reps)])


def fmt(t: Timing, unit: str = "ms") -> str:
    scale = {"ms": 1e3, "us": 1e6}[unit]
    return f"{t.median * scale:9.3f} ({t.low * scale:.3f}-{t.high * scale:.3f})"


def header(title: str, peer: str) -> None:
    versions = []
    for name in ("numpy", "scipy", "tcod"):
        module = sys.modules.get(name)
        if module is not None:
            versions.append(f"{name} {getattr(module, '__version__', '?')}")
    print(f"# {title}")
    print(
        f"# {datetime.date.today().isoformat()}, Python {platform.python_version()}, {', '.join(versions)}, "
        f"{os.cpu_count()} cores, {platform.machine()}; peer: {peer}"
    )


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A Markdown table, so the output can be pasted into docs/performance.md as it is."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |")


def verdict(ratio: float, target: float) -> str:
    return f"{ratio:.2f}x (target <= {target:g}x: {'met' if ratio <= target else 'MISSED'})"
