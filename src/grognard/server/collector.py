"""The garbage collector of the server's processes (the event loop's and the computers' workers): short pauses.

Python's cyclic collector goes through every object it tracks at each full (oldest-generation) collection. A
server's heap holds 20 games, their rulesets' caches (The Perfect General's cost tables: lists of thousands of
numbers) and, in a worker, the generals' tables: a full collection of it took 0.1-0.45 s in the event loop and up
to 1.2 s in a worker under load (the server's fourth pass, docs/performance.md), and every game waited meanwhile.

So each full collection's survivors are frozen (``gc.freeze``): later collections go through only what was made
since. Objects frozen are still freed as soon as nothing refers to them (reference counting); only a cycle among
them that becomes garbage waits, until the next thorough collection, at most every :data:`THOROUGH_EVERY`
seconds: then the frozen objects are let go (``gc.unfreeze``) and the next full collection goes through them all.
Nothing of a game depends on when the collector runs: decisions, dice and messages are the same.
"""

from __future__ import annotations

import gc
import time
from typing import Any

# at most this long (seconds) between two full collections that go through every object: a cycle of old objects
# that became garbage is freed within it
THOROUGH_EVERY = 600.0

_state = {"installed": False, "thorough": 0.0}


def _after(phase: str, info: dict[str, Any]) -> None:
    """After a full collection: freeze its survivors, or once in a while let every frozen object be looked at."""
    if phase != "stop" or info.get("generation") != 2:
        return
    now = time.monotonic()
    if now - _state["thorough"] >= THOROUGH_EVERY:
        gc.unfreeze()  # the next full collection goes through everything
        _state["thorough"] = now
    else:
        gc.freeze()


def keep_pauses_short() -> None:
    """In a server's process, after start-up: what is there now is frozen (modules, tables), and every full
    collection's survivors from then on (idempotent)."""
    if _state["installed"]:
        return
    _state["installed"] = True
    _state["thorough"] = time.monotonic()
    gc.collect()
    gc.freeze()
    gc.callbacks.append(_after)
