"""Where a random game's decisions go, by the kind of decision drawn: the time of ``Legal.sample`` (drawing it,
which sizes every family of the position) and of ``Game.apply`` (applying it), per decision and per call.

    python benchmarks/split_by_kind.py perfect_general     # seven random games of the largest scenario, seeds 1-7

The same games as part 1 of ``run_all.py`` plays (a warm-up game first), timed by the wall clock around each call
(``time.perf_counter``): run it on a quiet machine. A tool to find the next cost, not a figure with a target.
"""

from __future__ import annotations

import collections
import sys
import time
from typing import Any

from grognard.ai import play_out
from grognard.engine import decisions, game
from real import game_of, games, players


def main(game_id: str, seeds: int = 7) -> None:
    spent: collections.Counter[str] = collections.Counter()
    calls: collections.Counter[str] = collections.Counter()
    sample, apply = decisions.Legal.sample, game.Game.apply

    def timed_sample(self: decisions.Legal, dice: Any) -> decisions.Decision:
        t0 = time.perf_counter()
        d = sample(self, dice)
        spent[f"sample {d.kind}"] += time.perf_counter() - t0
        calls[f"sample {d.kind}"] += 1
        return d

    def timed_apply(self: game.Game, seat: str, d: decisions.Decision) -> Any:
        t0 = time.perf_counter()
        try:
            return apply(self, seat, d)
        finally:
            spent[f"apply {d.kind}"] += time.perf_counter() - t0
            calls[f"apply {d.kind}"] += 1

    decisions.Legal.sample = timed_sample  # type: ignore[method-assign]
    game.Game.apply = timed_apply  # type: ignore[method-assign]
    cls, scenario = next((c, s) for c, s in games() if c.id == game_id)
    play_out(game_of(cls, scenario, 1000), players(cls, "random", 1000), stop_after=50)  # warm-up
    spent.clear()
    calls.clear()
    made, total = 0, 0.0
    for seed in range(1, seeds + 1):
        played = game_of(cls, scenario, seed)
        t0 = time.perf_counter()
        play_out(played, players(cls, "random", seed))
        total += time.perf_counter() - t0
        made += len(played.log)
    print(f"{game_id}/{scenario}: {made} decisions in {seeds} games, {total / made * 1e6:.0f} us a decision")
    for what, t in spent.most_common():
        per_call = t / calls[what] * 1e6
        print(f"  {what:28} {calls[what]:7} calls {t / made * 1e6:7.1f} us a decision {per_call:8.1f} us a call")


if __name__ == "__main__":
    main(sys.argv[1])
