"""The conformance harness every ruleset's tests run on every one of its scenarios (OpenSpiel/PettingZoo)."""

from .conformance import (
    check_determinism,
    check_illegal_decisions_change_nothing,
    check_players_see_only_their_seat,
    check_random_play,
    check_saves,
    check_views_hide,
    run_conformance,
)

__all__ = [
    "check_determinism",
    "check_illegal_decisions_change_nothing",
    "check_players_see_only_their_seat",
    "check_random_play",
    "check_saves",
    "check_views_hide",
    "run_conformance",
]
