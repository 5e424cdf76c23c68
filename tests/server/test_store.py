"""The store's checkpoints in a thread of their own (store.py): a decision is committed when ``append_decision``
returns, whatever the checkpoints do, and the thread copies the log into the database file."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from grognard.server.store import SeatRow, Store


def test_decisions_are_committed_at_once_and_checkpointed_in_a_thread(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = Store(db, checkpoint_every=2)
    store.create_game("g", "test", {"id": "s"}, {}, 1, [SeatRow("a", "human", "", "x")])
    before = db.stat().st_size  # what the database file holds before any checkpoint (the log holds the rest)
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0  # never in a decision's commit
    other = sqlite3.connect(db)
    for seq in range(6):
        store.append_decision("g", seq, "a", {"n": seq})
        # another connection (a restarted server) reads it at once: it is in the committed log
        assert other.execute("SELECT COUNT(*) FROM decisions").fetchone()[0] == seq + 1
    other.close()
    # the thread's checkpoint copies the committed log into the database file (the main connection never does)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if db.stat().st_size > before:
            break
        time.sleep(0.05)
    assert db.stat().st_size > before
    thread = store._checkpointer
    store.close()
    assert thread is not None and not thread.is_alive()
    assert Store(db).decisions("g") == [("a", {"n": n}) for n in range(6)]
