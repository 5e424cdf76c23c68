"""The server's garbage collector (server/collector.py): survivors of every collection are frozen, objects still
die when nothing refers to them, and the thorough collection frees a cycle of frozen objects. In a child process:
freezing is for the whole process, and the test process's collector stays as it was."""

from __future__ import annotations

import subprocess
import sys
import textwrap

CHILD = textwrap.dedent(
    """
    import gc, weakref
    from grognard.server import collector

    class Node:
        pass

    collector.keep_pauses_short()
    frozen = gc.get_freeze_count()
    assert frozen > 0, "what was there at start-up is frozen"

    single, ring = Node(), Node()
    ring.me = ring  # a cycle
    gone_single, gone_ring = weakref.ref(single), weakref.ref(ring)
    gc.collect(0)  # a young collection: its survivors are frozen
    assert gc.get_freeze_count() > frozen
    young, frozen = Node(), gc.get_freeze_count()
    gc.collect()  # and a full collection's
    assert gc.get_freeze_count() > frozen

    del single
    assert gone_single() is None, "a frozen object is freed as soon as nothing refers to it"
    del ring
    gc.collect()
    assert gone_ring() is not None, "a cycle of frozen objects waits for the thorough collection"

    collector._state["thorough"] -= collector.THOROUGH_EVERY  # the time for a thorough collection has come
    gc.collect()  # lets every frozen object be looked at again
    gc.collect()  # which this one does
    assert gone_ring() is None, "the thorough collection frees the cycle"
    print("ok")
    """
)


def test_full_collections_freeze_their_survivors_and_a_thorough_one_frees_old_cycles() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
