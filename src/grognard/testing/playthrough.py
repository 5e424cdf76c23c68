"""Golden playthroughs (OpenSpiel's "playthrough" files): a seeded game written out decision by decision.

A playthrough is the text of the first decisions of a game played by seeded random players: each decision
with its seat, every event it caused with the seats that may see it (dice rolls show their values), and at
the end the digests of the state and of the event log. The files are committed under ``tests/golden/``; a
test replays each and compares, so a game that plays differently on another machine or Python, or after a
rule change, shows up as a readable diff. ``python scripts/refresh_golden.py`` rewrites them after an
intended change.
"""

from __future__ import annotations

from dataclasses import dataclass

from grognard import rulesets
from grognard.ai.base import RandomPlayer
from grognard.ai.driver import play_out
from grognard.engine.game import Game, new_game


@dataclass(frozen=True)
class Golden:
    """One playthrough: a game, a scenario, a seed and how many decisions to write."""

    game: str
    scenario: str
    seed: int
    decisions: int

    @property
    def filename(self) -> str:
        return f"{self.game}__{self.scenario}__seed{self.seed}.txt"


# One per ruleset: long enough to reach the fighting, short enough to read.
GOLDENS = (
    Golden("perfect_general", "simple_little_war", 1, 400),
    Golden("grande_armee", "1_austrian_challenge", 1, 300),
    Golden("kursk", "first_day", 1, 300),
    Golden("kursk", "southern_pincer", 8, 300),  # seed 8: the random German plays to the end
    Golden("antietam", "1_full_battle", 1, 500),
    Golden("antietam", "2_hooker", 1, 150),
    Golden("antietam", "3_xii_corps", 1, 150),
    Golden("antietam", "4_ii_corps", 1, 150),
    Golden("antietam", "5_ix_corps", 1, 150),
)


def playthrough(golden: Golden) -> str:
    """The text of ``golden``'s game; equal on every machine for equal rules."""
    game = new_game(rulesets.get(golden.game), golden.scenario, None, golden.seed)
    players = {s: RandomPlayer(golden.seed * 1000 + i) for i, s in enumerate(game.rules.seats)}
    lines = [
        f"# {golden.game} / {golden.scenario} / seed {golden.seed}: the first {golden.decisions} decisions of "
        "random players (each seat's seeded by seat_seed, its dice reseeded before each decision by the driver), "
        "reactions included; the opening's events first",
        "# refresh after an intended change: python scripts/refresh_golden.py",
    ]

    for e in game.events:  # the opening's events, before the first decision
        who = "all" if e.seen_by is None else ",".join(e.seen_by)
        lines.append(f"    {e.kind} ({who}): {e.text}")

    def write(game: Game) -> None:  # after each decision: the decision, then the events it caused
        entry = game.log[-1]
        lines.append(f"{len(game.log)} {entry.seat}: {game.rules.describe(entry.decision)}")
        for e in game.events[len(game.events) - game.event_counts[-1] :]:
            who = "all" if e.seen_by is None else ",".join(e.seen_by)
            lines.append(f"    {e.kind} ({who}): {e.text}")

    play_out(game, players, progress=write, stop_after=golden.decisions)
    lines.append(f"decisions {len(game.log)}, over {game.over}")
    lines.append(f"state digest {game.digest()}")
    lines.append(f"events digest {game.events_digest()}")
    return "\n".join(lines) + "\n"
