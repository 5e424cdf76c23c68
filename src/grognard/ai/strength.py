"""Helpers for measuring computer players: win rates with their confidence intervals and thinking time.

Used by the strength scripts (``scripts/pg_ai_strength.py``, ``scripts/lga_win_rates.py``); no game logic.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from grognard.engine import Decision, Result
from grognard.engine.rng import Dice

from .base import Player, PlayerContext

J = TypeVar("J")
R = TypeVar("R")


def series_parser(doc: str | None, scenario: str) -> argparse.ArgumentParser:
    """The options every strength script shares: the player measured, its opponents, games a series, the first
    seed, the scenario and the processes; a script adds its own."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", default="general", help="the player measured, kind[:level] (default: general)")
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--games", type=int, default=20, help="games per seat and opponent")
    parser.add_argument("--seed", type=int, default=1, help="seed of each series' first game (default 1)")
    parser.add_argument("--scenario", default=scenario)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    return parser


def outcome_of(result: Result, seat: str) -> str:
    """A finished game from ``seat``'s side: win, draw or loss."""
    return "draw" if result.winner is None else "win" if result.winner == seat else "loss"


def play_all(
    play: Callable[[J], R], jobs: Sequence[J], processes: int, each: Callable[[R], str] | None = None
) -> list[R]:
    """``play`` on every job, ``processes`` at once, results in the jobs' order; progress on stderr: ``each``'s
    line for every result, or a count every ten."""
    t0 = time.perf_counter()
    results: list[R] = []
    with ProcessPoolExecutor(processes) as pool:
        for r in pool.map(play, jobs, chunksize=1):
            results.append(r)
            done = f"{len(results)}/{len(jobs)} ({time.perf_counter() - t0:.0f} s)"
            if each is not None:
                print(f"  {done}: {each(r)}", file=sys.stderr, flush=True)
            elif len(results) % 10 == 0:
                print(f"  {done} games", file=sys.stderr, flush=True)
    return results


def outcome_cells(tally: Mapping[str, int], levels: Counter[str]) -> str:
    """A series' table cells: games | wins | draws | losses | win rate | 95% interval | levels (most first)."""
    n = sum(tally.values())
    lo, hi = wilson(tally["win"], n)
    lv = ", ".join(f"{k} {v}" for k, v in levels.most_common())
    rate = tally["win"] / n if n else 0.0
    return f"{n} | {tally['win']} | {tally['draw']} | {tally['loss']} | {rate:.0%} | {lo:.0%}-{hi:.0%} | {lv}"


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with the default ``z``)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


class Timed(Player):
    """Wraps a player and adds the seconds it thinks (wall clock and this process's CPU time) to the entry of
    ``spent`` named by ``key()`` when it is asked: a game turn, a season..."""

    def __init__(self, inner: Player, key: Callable[[], Hashable], spent: dict[Hashable, list[float]]) -> None:
        self.inner, self.key, self.spent = inner, key, spent
        self.kind, self.level = inner.kind, inner.level

    # the driver reseeds a player's dice before each decision: the wrapped player's, so timing changes nothing
    @property
    def seed(self) -> int:
        return self.inner.seed

    @seed.setter
    def seed(self, seed: int) -> None:
        self.inner.seed = seed

    @property
    def dice(self) -> Dice:
        return self.inner.dice

    @dice.setter
    def dice(self, dice: Dice) -> None:
        self.inner.dice = dice

    def _time(self, fn: Callable[[PlayerContext], Any], ctx: PlayerContext) -> Any:
        k = self.key()
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn(ctx)  # the view and the legal decisions are built lazily: their cost counts as thinking
        entry = self.spent.setdefault(k, [0.0, 0.0])
        entry[0] += time.perf_counter() - t0
        entry[1] += time.process_time() - c0
        return out

    def choose(self, ctx: PlayerContext) -> Decision:
        d: Decision = self._time(self.inner.choose, ctx)
        return d

    def interject(self, ctx: PlayerContext) -> Decision | None:
        d: Decision | None = self._time(self.inner.interject, ctx)
        return d


def spread(times: Sequence[float]) -> str:
    """Median, 95th percentile and worst of ``times`` (seconds)."""
    if not times:
        return "no turns"
    xs = sorted(times)
    p95 = xs[min(len(xs) - 1, math.ceil(0.95 * len(xs)) - 1)]
    return f"median {statistics.median(xs):.3f} s, p95 {p95:.3f} s, max {xs[-1]:.3f} s ({len(xs)} turns)"
