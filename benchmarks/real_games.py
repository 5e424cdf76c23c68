"""(1) Whole random games of the largest scenario of every game against OpenSpiel's pure-Python tic-tac-toe.

Ours: one whole game played by ``random`` players in every seat through the one driver (``play_out``), from the
first decision to the end (``--quick``: its first 300 decisions), timed without building the ruleset.
Peer: OpenSpiel's ``python_tic_tac_toe`` (pure Python) played at random, ``random.choice(legal_actions())``
as OpenSpiel's uniform random bot does, game after game until it has made as many steps as ours made decisions.
The two alternate (ours, peer, ours, peer...); the ratio is the median over the pairs of
(peer steps/s) / (our decisions/s). Times are this process's CPU time (``time.process_time``), which other
jobs on a shared machine do not inflate. Target (issue 17): at most 8.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from grognard.ai import play_out
from real import Figure, Report, game_of, games, players, profiled

TARGET = 8.0
QUICK_CAP = 300


def tic_tac_toe() -> Any:
    import pyspiel
    from open_spiel.python import games as _python_games  # noqa: F401  (registers python_tic_tac_toe)

    return pyspiel.load_game("python_tic_tac_toe")


def peer_steps(ttt: Any, rng: random.Random, at_least: int) -> int:
    steps = 0
    while steps < at_least:
        state = ttt.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


def run(report: Report, args: Any) -> None:
    ttt = tic_tac_toe()
    rng = random.Random(17)
    pairs = 1 if args.quick else args.pairs
    cap = QUICK_CAP if args.quick else None
    for cls, scenario in games():
        name = f"{cls.id}/{scenario}"
        play_out(game_of(cls, scenario, 1000), players(cls, "random", 1000), stop_after=50)  # warm-up
        peer_steps(ttt, rng, 500)
        ratios, ours, peer, decisions = [], [], [], []
        for i in range(pairs):
            game = game_of(cls, scenario, i + 1)
            seated = players(cls, "random", i + 1)
            t0 = time.process_time()
            play_out(game, seated, stop_after=cap)
            ours_rate = len(game.log) / (time.process_time() - t0)
            t0 = time.process_time()
            steps = peer_steps(ttt, rng, len(game.log))
            peer_rate = steps / (time.process_time() - t0)
            ours.append(ours_rate)
            peer.append(peer_rate)
            decisions.append(len(game.log))
            ratios.append(peer_rate / ours_rate)
        what = f"{pairs} game{'s' * (pairs > 1)} ({min(decisions)}-{max(decisions)} decisions)"
        if cap:
            what = f"first {cap} decisions of {pairs} game"
        report.add(
            Figure("1 random games", f"{name}: ours, decisions/s", statistics.median(ours), "/s", note=what),
            Figure("1 random games", "tic-tac-toe (OpenSpiel, pure Python), steps/s", statistics.median(peer), "/s"),
            Figure(
                "1 random games",
                f"{name}: times slower than tic-tac-toe (median of pairs)",
                statistics.median(ratios),
                "x",
                TARGET,
                note=f"pairs {min(ratios):.1f}-{max(ratios):.1f}",
            ),
        )
        if args.profile:
            game = game_of(cls, scenario, 1)
            seated = players(cls, "random", 1)
            with profiled(f"(1) one random game, {name}", report, True):
                play_out(game, seated, stop_after=cap)
