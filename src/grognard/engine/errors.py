"""The typed errors every layer raises; each carries enough to tell the user what went wrong."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class GrognardError(Exception):
    """Base class of every error grognard raises on purpose."""


class IllegalDecision(GrognardError):
    """A decision the rules do not allow now. The state is left untouched.

    ``rule`` names the manual rule (for example ``"PG p.28 b"``) when there is one.
    """

    def __init__(self, reason: str, rule: str = "") -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule else reason)


class DataError(GrognardError):
    """A data file (scenario, map, table, save) that does not say what it must.

    The message names the file, the key path inside it and, for an unknown name, the nearest valid one.
    """

    def __init__(self, where: str, key: str, problem: str) -> None:
        self.where = where
        self.key = key
        self.problem = problem
        location = f"{where}: {key}" if key else where
        super().__init__(f"{location}: {problem}")


class MalformedDecision(DataError):
    """A decision that is not well formed: an unknown kind, a missing or unknown field, a value of the wrong
    type. Told apart from :class:`IllegalDecision` (well formed, against the rules), as python-chess tells an
    invalid move from an illegal one. Nothing has changed."""


class SaveError(GrognardError):
    """A save file that is corrupt, truncated, tampered with or from an incompatible version."""


def nearest(name: str, valid: Iterable[str]) -> str:
    """A hint naming the valid name closest to ``name``, or the valid names when none is close."""
    options = sorted(valid)
    close = difflib.get_close_matches(name, options, n=1, cutoff=0.5)
    if close:
        return f"did you mean {close[0]!r}?"
    shown = ", ".join(repr(o) for o in options[:12])
    more = ", ..." if len(options) > 12 else ""
    return f"valid: {shown}{more}"
