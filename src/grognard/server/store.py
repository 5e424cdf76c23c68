"""The server's store: every game, seat and decision in an embedded SQLite database (stdlib ``sqlite3``).

A game is its inputs (ruleset, scenario, options, seed) plus its decision log, so that is all that is kept:
one row per game, one per seat, and one per decision, appended in the same transaction as the game's
``updated`` stamp. With WAL journaling a committed decision survives any crash of the server process;
``fsync=True`` (``synchronous=FULL``, a disk flush per decision, about 3 ms here) makes it survive a crash of
the machine too. Restarting rebuilds each game by re-applying its log.

The server's store copies the write-ahead log into the database file (a checkpoint, which flushes the file to
disk: up to 30 ms) in a thread of its own with its own connection (``checkpoint_every``), not in the commit of
a decision on the event loop, which SQLite would otherwise do every thousand pages. Durability is the same: a
decision is answered only after its commit is in the log, and a checkpoint only moves committed pages.

Seat tokens, invitations and the creator's secret are stored only as SHA-256 digests: the database alone does
not let anyone act for a seat. A remote seat starts with an invitation (``invite_sha``) and no token; the first
browser to claim it gets the seat's token, and the invitation is cleared in the same statement, so it works once.
A database written before invitations and creators were kept is migrated as it opens (:func:`_migrate`).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grognard.engine.errors import GrognardError

from .jsontext import compact

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id        TEXT PRIMARY KEY,
    ruleset   TEXT NOT NULL,
    scenario  TEXT NOT NULL,   -- JSON: {"id": ...} for a bundled scenario, or {"id": ..., "document": {...}}
    options   TEXT NOT NULL,   -- JSON object
    seed      INTEGER NOT NULL,
    created   REAL NOT NULL,
    updated   REAL NOT NULL,
    owner_sha TEXT             -- SHA-256 of the creator's secret (may delete the game); NULL in older games
);
CREATE TABLE IF NOT EXISTS seats (
    game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat      TEXT NOT NULL,
    kind      TEXT NOT NULL,   -- human, remote or computer
    player    TEXT NOT NULL DEFAULT '',  -- the computer player's spec (general:hard), empty for people
    token_sha TEXT,            -- SHA-256 of the seat's secret token; NULL for computer seats and unclaimed ones
    invite_sha TEXT,           -- SHA-256 of a remote seat's invitation while it is not claimed, else NULL
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id   TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    at        INTEGER NOT NULL,  -- decisions it covers
    save      TEXT NOT NULL      -- a save document with its snapshot (grognard.persistence.saves)
);
CREATE TABLE IF NOT EXISTS decisions (
    game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,  -- 0, 1, 2...: the decision's place in the game's log
    seat      TEXT NOT NULL,
    decision  TEXT NOT NULL,     -- the decision's JSON
    at        REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
# columns added since the first schema: (table, column, declaration); a database without them gets them
ADDED_COLUMNS = (("games", "owner_sha", "TEXT"), ("seats", "invite_sha", "TEXT"))


def _migrate(db: sqlite3.Connection) -> None:
    """Bring a database of an older grognard up to :data:`SCHEMA`. Its games keep working as they did: no
    creator's secret (a seat played at the creator's browser, kind ``human``, may delete), and every remote seat
    counts as claimed (its token was handed out as the invitation)."""
    for table, column, decl in ADDED_COLUMNS:
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in have:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: str
    kind: str
    player: str
    token_sha: str | None
    invite_sha: str | None = None

    @property
    def claimed(self) -> bool:
        """A person sits here: the seat has a token (a remote seat once its invitation is claimed)."""
        return self.token_sha is not None


@dataclass(frozen=True, slots=True)
class GameRow:
    id: str
    ruleset: str
    scenario: dict[str, Any]
    options: dict[str, Any]
    seed: int
    created: float
    updated: float
    seats: tuple[SeatRow, ...]
    owner_sha: str | None = None


class Store:
    """A thread-safe handle on the database (one connection, one lock: writes are tiny and serial)."""

    def __init__(self, path: str | Path, fsync: bool = False, checkpoint_every: int = 0) -> None:
        """``checkpoint_every``: a checkpoint in a thread after this many decisions (0: SQLite's own, at commit)."""
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if fsync else 'NORMAL'}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            _migrate(self._db)
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise GrognardError(f"{self.path} is not a grognard database (SQLite): {e}") from None
        self._appended = 0
        self._checkpoint_every = checkpoint_every if self.path != ":memory:" else 0
        self._due = threading.Event()
        self._closing = False
        self._checkpointer: threading.Thread | None = None
        if self._checkpoint_every:
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(target=self._checkpoints, name="store checkpoints", daemon=True)
            self._checkpointer.start()

    def _checkpoints(self) -> None:
        """The checkpoint thread: copies the committed log into the database file when asked (PASSIVE: it never
        keeps a decision's commit waiting)."""
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            while True:
                self._due.wait()
                self._due.clear()
                if self._closing:
                    return
                db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            db.close()

    def close(self) -> None:
        if self._checkpointer is not None:
            self._closing = True
            self._due.set()
            self._checkpointer.join()
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def create_game(
        self,
        game_id: str,
        ruleset: str,
        scenario: Mapping[str, Any],
        options: Mapping[str, Any],
        seed: int,
        seats: list[SeatRow],
        decisions: Sequence[tuple[str, Mapping[str, Any]]] = (),
        owner_sha: str | None = None,
    ) -> None:
        """A new game with its seats, and the decisions already made (a game loaded from a save)."""
        now = time.time()
        with self._tx() as db:
            db.execute(
                "INSERT INTO games (id, ruleset, scenario, options, seed, created, updated, owner_sha)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (game_id, ruleset, json.dumps(scenario), json.dumps(options), seed, now, now, owner_sha),
            )
            db.executemany(
                "INSERT INTO seats (game_id, seat, kind, player, token_sha, invite_sha) VALUES (?,?,?,?,?,?)",
                [(game_id, s.seat, s.kind, s.player, s.token_sha, s.invite_sha) for s in seats],
            )
            db.executemany(
                "INSERT INTO decisions (game_id, seq, seat, decision, at) VALUES (?,?,?,?,?)",
                [
                    (game_id, i, seat, json.dumps(d, separators=(",", ":")), now)
                    for i, (seat, d) in enumerate(decisions)
                ],
            )

    def claim_seat(self, game_id: str, seat: str, invite_sha: str, token_sha: str) -> bool:
        """Give the seat invited by ``invite_sha`` its token and clear the invitation, in one statement: of two
        browsers claiming at once, one gets the seat and the other False."""
        with self._tx() as db:
            done = db.execute(
                "UPDATE seats SET token_sha=?, invite_sha=NULL WHERE game_id=? AND seat=? AND invite_sha=?",
                (token_sha, game_id, seat, invite_sha),
            )
            return done.rowcount == 1

    def append_decision(self, game_id: str, seq: int, seat: str, decision: Mapping[str, Any]) -> None:
        """Record the decision at place ``seq`` of the log; fails if that place is taken (a lost race)."""
        now = time.time()
        with self._tx() as db:
            db.execute(
                "INSERT INTO decisions (game_id, seq, seat, decision, at) VALUES (?,?,?,?,?)",
                (game_id, seq, seat, compact(decision), now),
            )
            db.execute("UPDATE games SET updated=? WHERE id=?", (now, game_id))
        self._appended += 1
        if self._checkpoint_every and self._appended % self._checkpoint_every == 0:
            self._due.set()

    def put_snapshot(self, game_id: str, at: int, save: Mapping[str, Any]) -> None:
        """Keep a snapshot of the game after ``at`` decisions (a restart need not re-run those)."""
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, at, save) VALUES (?,?,?)", (game_id, at, compact(save))
            )

    def snapshot_at(self, game_id: str) -> int:
        """How many decisions the game's snapshot covers (0: none)."""
        with self._lock:
            row = self._db.execute("SELECT at FROM snapshots WHERE game_id=?", (game_id,)).fetchone()
        return 0 if row is None else int(row[0])

    def snapshot(self, game_id: str) -> tuple[int, dict[str, Any]] | None:
        with self._lock:
            row = self._db.execute("SELECT at, save FROM snapshots WHERE game_id=?", (game_id,)).fetchone()
        return None if row is None else (int(row[0]), json.loads(row[1]))

    def remove_last_decision(self, game_id: str, seq: int) -> None:
        """Take back the decision at ``seq``, which must be the last of the log (an undo)."""
        with self._tx() as db:
            last = db.execute("SELECT max(seq) FROM decisions WHERE game_id=?", (game_id,)).fetchone()[0]
            if last != seq:
                raise RuntimeError(f"game {game_id}: decision {seq} is not the last one ({last})")
            db.execute("DELETE FROM decisions WHERE game_id=? AND seq=?", (game_id, seq))
            db.execute("DELETE FROM snapshots WHERE game_id=? AND at>?", (game_id, seq))
            db.execute("UPDATE games SET updated=? WHERE id=?", (time.time(), game_id))

    def decisions(self, game_id: str) -> list[tuple[str, dict[str, Any]]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, seat, decision FROM decisions WHERE game_id=? ORDER BY seq", (game_id,)
            ).fetchall()
        for i, (seq, _, _) in enumerate(rows):
            if seq != i:
                raise RuntimeError(f"game {game_id}: the decision log has a gap at {i}")
        return [(seat, json.loads(text)) for _, seat, text in rows]

    def game(self, game_id: str) -> GameRow | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, ruleset, scenario, options, seed, created, updated, owner_sha FROM games WHERE id=?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            seats = self._db.execute(
                "SELECT seat, kind, player, token_sha, invite_sha FROM seats WHERE game_id=? ORDER BY rowid", (game_id,)
            ).fetchall()
        return GameRow(
            row[0],
            row[1],
            json.loads(row[2]),
            json.loads(row[3]),
            row[4],
            row[5],
            row[6],
            tuple(SeatRow(*s) for s in seats),
            row[7],
        )

    def game_ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY created")]

    def delete_game(self, game_id: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM games WHERE id=?", (game_id,))
