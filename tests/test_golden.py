"""Golden playthroughs: seeded games play exactly as their committed text says, on every machine and Python
3.11+ (issue 2: same inputs give a byte-identical state and event log). After an intended rule change,
``python scripts/refresh_golden.py`` rewrites them and the diff shows what changed."""

import difflib
from pathlib import Path

import pytest

from grognard.testing.playthrough import GOLDENS, Golden, playthrough

GOLDEN_DIR = Path(__file__).parent / "golden"


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.filename)
def test_a_seeded_game_plays_as_its_golden_playthrough(golden: Golden) -> None:
    expected = (GOLDEN_DIR / golden.filename).read_text()
    actual = playthrough(golden)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "committed", "played now", n=2, lineterm=""
        )
        shown = "\n".join(list(diff)[:40])
        pytest.fail(f"{golden.filename} differs (intended? python scripts/refresh_golden.py):\n{shown}")
