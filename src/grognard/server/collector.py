"""The garbage collector of the server's processes (the event loop's and the computers' workers): short pauses.

Python's cyclic collector goes through every object it tracks at each full (oldest-generation) collection. A
server's heap holds 20 games, their rulesets' caches (The Perfect General's cost tables: lists of thousands of
numbers) and, in a worker, the generals' tables: a full collection of it took 0.1-0.45 s in the event loop and up
to 1.2 s in a worker under load (the server's fourth pass, docs/performance.md), and every game waited meanwhile.

So the survivors of every collection, young or full, are frozen (``gc.freeze``): a collection goes through only
what was made since the last one, never the same object twice (until the server's sixth pass only a full
collection's were: in a Lauter run of 20 games the middle generation's collections, 79 in the event loop and 314
in the worker, went through every young survivor since, up to 30 ms each, and a full one through all of them
again, up to 78 ms). Objects frozen are still freed as soon as nothing refers to them (reference counting); only
a cycle among them that becomes garbage waits, until the next thorough collection, at most every
:data:`THOROUGH_EVERY` seconds: then the frozen objects are let go (``gc.unfreeze``), nothing is frozen until the
next full collection, which goes through them all. In that run the young collections' survivors hardly ever
turned into cyclic garbage later (the older generations' collections found 105 objects of it in the event loop,
129 in the worker). Nothing of a game depends on when the collector runs: decisions, dice and messages are the
same.
"""

from __future__ import annotations

import gc
import time
from typing import Any

# at most this long (seconds) between two full collections that go through every object: a cycle of old objects
# that became garbage is freed within it
THOROUGH_EVERY = 600.0

_state = {"installed": False, "thorough": 0.0, "thawed": False}


def _after(phase: str, info: dict[str, Any]) -> None:
    """After a collection: freeze its survivors, or once in a while let every frozen object be looked at by the
    next full collection."""
    if phase != "stop":
        return
    if _state["thawed"]:  # nothing is frozen until the full collection that goes through everything
        _state["thawed"] = info.get("generation") != 2
        if not _state["thawed"]:
            gc.freeze()
        return
    now = time.monotonic()
    if now - _state["thorough"] >= THOROUGH_EVERY:
        gc.unfreeze()  # the next full collection goes through everything
        _state["thorough"], _state["thawed"] = now, True
    else:
        gc.freeze()


def keep_pauses_short() -> None:
    """In a server's process, after start-up: what is there now is frozen (modules, tables), and every
    collection's survivors from then on (idempotent)."""
    if _state["installed"]:
        return
    _state["installed"] = True
    _state["thorough"] = time.monotonic()
    gc.collect()
    gc.freeze()
    gc.callbacks.append(_after)
