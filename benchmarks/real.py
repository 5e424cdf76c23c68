"""What the benchmarks of the real thing share (``run_all.py``): figures beside their targets, the largest
scenario of a game, real mid-game positions, percentiles and the profile's top functions.

A :class:`Figure` is one measured number with the target it is held to (``None``: reported for information).
"""

from __future__ import annotations

import cProfile
import math
import pstats
import resource
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from grognard.ai import parse_players, play_out
from grognard.engine import Game
from grognard.engine.protocol import Ruleset
from grognard.rulesets import game_ids, get


@dataclass
class Figure:
    """One measured figure: ``value`` in ``unit``, held to ``target`` (at most, or at least when ``at_least``)."""

    part: str
    name: str
    value: float | None
    unit: str
    target: float | None = None
    at_least: bool = False
    note: str = ""

    @property
    def passed(self) -> bool | None:
        if self.target is None or self.value is None:
            return None
        return self.value >= self.target if self.at_least else self.value <= self.target

    def cells(self) -> list[str]:
        value = "n/a" if self.value is None else f"{self.value:{number_format(self.value)}} {self.unit}".strip()
        if self.target is None:
            target, verdict = "(information)", ""
        else:
            target = f"{'>=' if self.at_least else '<='} {self.target:g} {self.unit}".strip()
            verdict = {True: "pass", False: "FAIL", None: "n/a"}[self.passed]
        return [self.part, self.name, value, target, verdict, self.note]


def number_format(x: float) -> str:
    return ".0f" if abs(x) >= 100 else ".2f" if abs(x) >= 1 else ".3f"


@dataclass
class Report:
    """The figures of a run, with the profiles and notes printed after the table."""

    figures: list[Figure] = field(default_factory=list)
    profiles: list[tuple[str, str]] = field(default_factory=list)

    def add(self, *figures: Figure) -> None:
        for f in figures:
            self.figures.append(f)
            print(f"  {' | '.join(c for c in f.cells()[1:] if c)}", flush=True)


def largest_scenario(cls: type[Ruleset[Any, Any]]) -> str:
    """The bundled scenario with the most units × map cells (then the most turns). A game whose units are bought
    (The Perfect General) starts with none: its buy points stand for its units (the side's force grows with them)."""

    def size(sid: str) -> tuple[int, int]:
        scenario = cls.load_scenario(sid)
        rules = cls(scenario)
        state = rules.initial_state(0)
        units = len(getattr(state, "units", ())) or sum(getattr(scenario, "buy_points", {}).values())
        grid = rules.map_json().get("grid") or {}  # the public map: every ruleset draws by it
        return max(1, units) * int(grid.get("columns", 1)) * int(grid.get("rows", 1)), scenario.info.turns

    ids = cls.scenario_ids()
    return ids[0] if len(ids) == 1 else max(ids, key=size)  # a game of one scenario need not be measured


ONLY: list[str] = []  # run_all.py's --game: the games this process measures (all when empty)


def games() -> list[tuple[type[Ruleset[Any, Any]], str]]:
    """Every game this installation plays (or those of :data:`ONLY`), with its largest scenario."""
    return [(get(g), largest_scenario(get(g))) for g in game_ids() if not ONLY or g in ONLY]


def game_of(cls: type[Ruleset[Any, Any]], scenario: str, seed: int = 1) -> Game:
    return Game(cls(cls.load_scenario(scenario)), seed)


def players(cls: type[Ruleset[Any, Any]], kind: str, seed: int) -> dict[str, Any]:
    """``kind`` (``random``, ``general``...) in every seat; a game without that player gets ``greedy``."""
    from grognard.ai.base import player_kinds

    return parse_players(kind if kind in player_kinds(cls) else "greedy", cls, cls.seats, seed)


# Mid-game positions: the computer's own players from the start, then a window of consecutive decisions. The
# counts put the window in the second and third game turns of The Lauter Offensive (all units bought and
# placed, both sides moving and firing) and in the middle seasons of Waterloo.
MIDGAME = {"perfect_general": (600, 200), "grande_armee": (250, 200)}
MIDGAME_DEFAULT = (300, 200)


@dataclass(frozen=True)
class Position:
    state: Any
    seat: str


def midgame(cls: type[Ruleset[Any, Any]], scenario: str, seed: int = 1, window: int | None = None) -> list[Position]:
    """Real positions of a game played by the game's own computer general in every seat (greedy where a game
    has none): the states before each decision of a window of decisions in the middle of the game."""
    game = game_of(cls, scenario, seed)
    start, size = MIDGAME.get(cls.id, MIDGAME_DEFAULT)
    size = window or size
    generals = players(cls, "general", seed)
    play_out(game, generals, stop_after=start)
    out: list[Position] = []

    def keep(g: Game) -> None:
        t = g.turn()
        if t.seat is not None:
            out.append(Position(g.state, t.seat))

    keep(game)
    play_out(game, generals, stop_after=size - 1, progress=keep)
    return out


def percentile(samples: list[float], p: float) -> float:
    """The ``p`` quantile (0-1) by the nearest-rank method."""
    xs = sorted(samples)
    return xs[max(0, min(len(xs) - 1, math.ceil(p * len(xs)) - 1))]


def peak_rss_mb() -> float:
    """This process's peak resident memory (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@contextmanager
def profiled(title: str, report: Report, enabled: bool) -> Iterator[None]:
    """Profile the block with cProfile when ``enabled`` and keep its top five by cumulative and by own time."""
    if not enabled:
        yield
        return
    prof = cProfile.Profile()
    prof.enable()
    try:
        yield
    finally:
        prof.disable()
        report.profiles.append((title, top_five(prof)))


def top_five(prof: cProfile.Profile) -> str:
    stats = pstats.Stats(prof)
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total: float = stats.total_tt  # type: ignore[attr-defined]
    lines = []
    for column, label in ((3, "cumulative"), (2, "own")):
        rows = sorted(table.items(), key=lambda kv: kv[1][column], reverse=True)
        lines.append(f"  by {label} time (of {total:.2f} s):")
        for (path, line, fn), numbers in [r for r in rows if not _is_harness(r[0])][:5]:
            seconds, calls = numbers[column], numbers[1]
            share = 100 * seconds / total
            lines.append(f"    {seconds:7.3f} s {share:5.1f}%  {calls:>8} calls  {fn} ({_short(path)}:{line})")
    return "\n".join(lines)


def _is_harness(key: tuple[str, int, str]) -> bool:
    """The benchmark's own frames and the driver's loop (always 100%) say nothing about where time goes."""
    path, _line, fn = key
    return (
        "benchmarks" in path
        or fn in ("<built-in method builtins.exec>", "play_out", "<module>", "<lambda>")
        or (path == "~" and "disable" in fn)
    )


def _short(path: str) -> str:
    if "grognard/" in path:
        return path.split("grognard/", 1)[1]
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1]
    return path.rsplit("/", 1)[-1]


Runner = Callable[[Report, Any], None]
