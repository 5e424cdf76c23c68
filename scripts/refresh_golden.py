"""Rewrite the golden playthroughs under ``tests/golden/`` after an intended change to a ruleset.

    python scripts/refresh_golden.py

Read the diff (``git diff tests/golden``) before committing it: it shows every decision, event and die roll
that the change altered.
"""

from __future__ import annotations

from pathlib import Path

from grognard.testing.playthrough import GOLDENS, playthrough

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "tests" / "golden"


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for golden in GOLDENS:
        path = GOLDEN_DIR / golden.filename
        text = playthrough(golden)
        changed = not path.exists() or path.read_text() != text
        path.write_text(text)
        print(f"{path.name}: {'rewritten' if changed else 'unchanged'}, {text.count(chr(10))} lines")


if __name__ == "__main__":
    main()
