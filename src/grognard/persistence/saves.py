"""Save files: a human-readable, versioned JSON document that recreates a game exactly.

A save holds the game id, the scenario (by bundled id, or the scenario's whole self-contained document for a
user's file), the options, the seed and the decision log, plus a snapshot of the last state and its event
log so that a long game loads without replaying, and a trail of state digests (one short digest after each
decision) so that verification can name the first decision that no longer reproduces.

Writes go to a temporary file in the same folder, are flushed to disk and then renamed over the old save,
so a crash mid-write leaves the previous save whole; a temporary file left by a process killed mid-write is
removed by the next write to that folder.

One function checks a save, wherever it comes from (:func:`check_save`: ``grognard replay --verify``,
:func:`load_game` and the server's upload all call it): format and version, the ruleset and its version, the
scenario (a bundled id, or the whole document the save embeds), every decision re-run by the rules from the
seed, and every digest the save records (the trail after each decision, the final state, the event log, the
snapshot, the result). A save that fails is refused with the first thing that differs.

A seat's record of a game in play (:data:`SEAT_RECORD_FORMAT`, what a seat downloads before the game is over)
is not a save: it holds only what that seat may know, so nothing can rebuild the game from it. It names the
server's game and the seat, so the server that holds the game can continue it for the browser that plays that
seat (it carries no token: a file is passed around more easily than a browser's storage); everywhere else the
one check refuses it in the words of :func:`SeatRecord.refusal`.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grognard import __version__, rulesets
from grognard.engine import codec
from grognard.engine.errors import DataError, GrognardError, IllegalDecision, SaveError
from grognard.engine.events import Event
from grognard.engine.game import TRAIL_CHARS, Game, LogEntry, events_digest, paced, state_digest
from grognard.engine.protocol import Ruleset

SAVE_FORMAT = "grognard-save"
SEAT_RECORD_FORMAT = "grognard-seat-record"
# 2: the record names the server's game ("game_id"); a version 1 record named only the ruleset
SEAT_RECORD_VERSION = 2
# 2: the ruleset's version is recorded ("ruleset_version"); a version 1 save was written by version 1 rules
SAVE_VERSION = 2
READS_VERSIONS = (1, 2)
SEED_BOUND = 2**63  # a seed fits SQLite's signed 64-bit integer: |seed| < 2**63
STALE_TEMP_SECONDS = 60  # a temporary save file this old was left by a process killed mid-write


def save_document(game: Game, *, snapshot: bool = True, between: Callable[[], None] | None = None) -> dict[str, Any]:
    """The full save of a game (everything: this is for the server's store, finished games and replays).
    ``between``, if given, is called between its parts and every 64 events (the server's worker answers other
    games' reactions there: a Lauter game's document takes it 50-200 ms)."""
    rules = game.rules
    scenario = rules.scenario
    bundled = scenario.info.id in rules.scenario_ids() and not scenario.user_file
    doc: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "grognard": __version__,
        "game": rules.id,
        "ruleset_version": rules.version,
        "scenario": {"id": scenario.info.id} if bundled else {"id": scenario.info.id, "document": scenario.document()},
        "options": codec.encode(rules.options),
        "seed": game.seed,
        "decisions": game.decisions_json(),
        "digest": game.digest(),
    }
    if between is not None:
        between()
    doc["events_digest"] = events_digest(game.events, between)
    if between is not None:
        between()
    if game.trail is not None and len(game.trail) == len(game.log):
        doc["trail"] = list(game.trail)
    if snapshot:
        doc["snapshot"] = {
            "at": len(game.log),
            "state": codec.encode(game.state),
            "events": _events_json(game, between),
            "event_counts": list(game.event_counts),
        }
    result = game.result()
    if result is not None:
        doc["result"] = result.to_json()
    return doc


def write_save(game: Game, path: str | Path) -> Path:
    """Write a save atomically; the previous file at ``path`` survives any crash mid-write."""
    return write_document(save_document(game), path)


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


def remove_stale_temps(path: str | Path, older_than: float = STALE_TEMP_SECONDS) -> list[Path]:
    """Remove the temporary files that writes of ``path`` left behind when their process was killed mid-write
    (a write in progress is younger than ``older_than`` seconds and is left alone)."""
    path = Path(path)
    removed = []
    now = time.time()
    for tmp in path.parent.glob(f"{_temp_prefix(path)}*.tmp"):
        try:
            if now - tmp.stat().st_mtime >= older_than:
                tmp.unlink()
                removed.append(tmp)
        except FileNotFoundError:
            pass  # another writer's cleanup got there first
    return removed


def write_document(doc: Mapping[str, Any], path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(path)
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """What a seat's record of a game in play names: the server's game, the seat, and the game's name."""

    game_id: str
    seat: str
    game: str

    def refusal(self) -> str:
        return (
            f"this is the {self.seat[:64]} seat's record of a game still in play (game {self.game_id[:64]}), not a "
            "save: it holds only what that seat could see, so it cannot rebuild or replay the game. Open it in "
            "the lobby of the browser that plays that seat to go on with the game there; the full save, which "
            "opens anywhere, can be downloaded once the game is over"
        )


def seat_record_of(source: Any) -> SeatRecord | None:
    """The record a document (or its text) is, if it is a seat's record of a game in play; else None."""
    if isinstance(source, str | bytes):
        text = source if isinstance(source, str) else source.decode("utf-8", "replace")
        if SEAT_RECORD_FORMAT not in text:
            return None
        try:
            source = _parse(source)
        except _Refused:
            return None
    if not isinstance(source, Mapping) or source.get("format") != SEAT_RECORD_FORMAT:
        return None
    # a record of version 1 names no game_id: "unknown", which no server holds
    return SeatRecord(*(_name(source.get(k)) for k in ("game_id", "seat", "game")))


def _name(value: Any) -> str:
    return value if isinstance(value, str) and 0 < len(value) <= 64 else "unknown"


class _Refused(Exception):
    """A save check that failed: ``reason`` says the first thing that differs; ``decisions`` were re-run."""

    def __init__(self, reason: str, decisions: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.decisions = decisions


@dataclass(frozen=True, slots=True)
class Verification:
    """The verdict on a save: ``ok``, the decisions re-run, the final digest, and ``reason`` (what differs,
    or what was checked); ``message`` is the reason prefixed with where the save came from. ``game`` is the
    re-run game when the save is sound."""

    ok: bool
    decisions: int
    digest: str
    reason: str
    where: str = "<save>"
    game: Game | None = field(default=None, compare=False, repr=False)

    @property
    def message(self) -> str:
        return f"{self.where}: {self.reason}"


def read_save(path: str | Path) -> dict[str, Any]:
    """Read a save file and check its outer shape (format, version, the fields' types)."""
    return _shape(_read(Path(path)), str(path))


def parse_save(text: str | bytes, where: str = "<save>") -> dict[str, Any]:
    """Parse a save's text and check its outer shape; a :class:`SaveError` says what is wrong."""
    try:
        return _shape(_parse(text), where)
    except _Refused as e:
        raise SaveError(f"{where}: {e.reason}") from None


def check_save(source: str | Path | bytes | Mapping[str, Any], where: str | None = None) -> Verification:
    """The one check of a save: a path, the file's bytes, or the parsed document. Never raises for a bad
    save: the verdict says what is wrong."""
    if where is None:
        where = str(source) if isinstance(source, str | Path) else "<save>"
    done = 0
    try:
        if isinstance(source, Mapping):
            doc = _shape(dict(source), where)
        elif isinstance(source, bytes):
            doc = _shape(_parse(source), where)
        else:
            doc = _shape(_read(Path(source)), where)
        rules = _rules_of(doc)
        log = _decisions(rules, doc)
        game = _replay(rules, doc, log)
        done = len(game.log)
        _check_records(doc, game)
    except _Refused as e:
        return Verification(False, e.decisions or done, "", e.reason, where)
    except RecursionError:
        return Verification(False, done, "", "corrupt save: nested too deeply", where)
    reason = f"{len(log)} decisions replayed; every recorded digest matches"
    return Verification(True, len(log), game.digest(), reason, where, game)


def load_game(source: str | Path | bytes | Mapping[str, Any], *, replay: bool = True) -> Game:
    """Recreate the game a save holds, after :func:`check_save` (every decision re-run; ``replay`` is kept
    for old callers: a save's snapshot is only ever checked, never trusted)."""
    verdict = check_save(source)
    if not verdict.ok:
        raise SaveError(verdict.message)
    assert verdict.game is not None
    return verdict.game


def verify_save(source: str | Path | bytes | Mapping[str, Any]) -> Verification:
    """``grognard replay --verify``: the verdict of :func:`check_save`."""
    return check_save(source)


def resume_snapshot(doc: Mapping[str, Any], where: str) -> Game:
    """A game from a snapshot that the server itself wrote into its own store, without re-running its log
    (saves from anywhere else go through :func:`check_save`). The snapshot's digest is still checked."""
    try:
        doc = _shape(dict(doc), where)
        rules = _rules_of(doc)
        log = _decisions(rules, doc)
        snap = doc["snapshot"]
        state = codec.decode(rules.state_type, snap["state"], f"{where}: snapshot")
        events = [_event(e) for e in snap["events"]]
        counts = [int(c) for c in snap["event_counts"]]
    except (_Refused, DataError, KeyError, TypeError, ValueError) as e:
        raise SaveError(f"{where}: corrupt snapshot: {e}") from None
    if snap.get("at") != len(log) or state_digest(state) != doc.get("digest"):
        raise SaveError(f"{where}: the snapshot does not match the save's digest")
    trail = doc.get("trail") if isinstance(doc.get("trail"), list) else None
    return Game.restore(rules, doc["seed"], state, log, events, counts, trail)


# --- the steps of the check -------------------------------------------------------------------------------
def _read(path: Path) -> Any:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise _Refused("no such save file") from None
    except OSError as e:
        raise _Refused(f"cannot read: {e.strerror or e}") from None
    return _parse(data)


def _parse(data: str | bytes) -> Any:
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise _Refused(f"corrupt save, not UTF-8 text at byte {e.start}") from None
    else:
        text = data
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        stripped = text.rstrip()
        truncated = stripped.startswith("{") and not stripped.endswith("}")
        hint = " (the file looks truncated)" if truncated or e.pos >= len(stripped) - 1 else ""
        raise _Refused(f"corrupt save, not valid JSON at line {e.lineno} column {e.colno}{hint}") from None
    except (ValueError, RecursionError) as e:  # an integer of thousands of digits, nesting past the limit
        raise _Refused(f"corrupt save, not valid JSON: {type(e).__name__}") from None


def _shape(doc: Any, where: str) -> dict[str, Any]:
    """Format, version and the fields' types; ``where`` only names the file in a :class:`SaveError`."""
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
        record = seat_record_of(doc)
        raise _Refused(record.refusal() if record is not None else "not a grognard save file")
    version = doc.get("version")
    if isinstance(version, bool) or version not in READS_VERSIONS:
        raise _Refused(
            f"save format version {str(version)[:20]} is not supported; this grognard {__version__} reads "
            f"versions {', '.join(map(str, READS_VERSIONS))}"
        )
    for key, kind in (("game", str), ("scenario", dict), ("options", dict), ("seed", int), ("decisions", list)):
        if not isinstance(doc.get(key), kind) or isinstance(doc.get(key), bool):
            raise _Refused(f"corrupt save, '{key}' is missing or not a {kind.__name__}")
    if not -SEED_BOUND < doc["seed"] < SEED_BOUND:
        raise _Refused("corrupt save, 'seed' is not a 64-bit integer")
    if not isinstance(doc.get("digest"), str):
        raise _Refused("corrupt save, 'digest' (of the final state) is missing or not a string")
    optional: dict[str, type] = {"trail": list, "snapshot": dict, "events_digest": str, "result": dict}
    for key, tp in {**optional, "ruleset_version": int}.items():
        if key in doc and (not isinstance(doc[key], tp) or isinstance(doc[key], bool)):
            raise _Refused(f"corrupt save, '{key}' is not a {tp.__name__}")
    return doc


def _rules_of(doc: Mapping[str, Any]) -> Ruleset[Any, Any]:
    try:
        cls = rulesets.get(doc["game"])
    except DataError as e:
        raise _Refused(str(e)) from None
    recorded = doc.get("ruleset_version", 1)  # format 1 saves were written by version 1 rules
    if recorded != cls.version:
        raise _Refused(
            f"this save was written for {cls.name} rules version {recorded}; this grognard plays version "
            f"{cls.version}, whose decisions may not replay the same"
        )
    sc = doc["scenario"]
    try:
        if "document" in sc:
            if not isinstance(sc["document"], dict):
                raise _Refused("corrupt save, the scenario's 'document' is not an object")
            scenario = cls.scenario_from_document(sc["document"], "scenario")
        else:
            sid = sc.get("id")
            if not isinstance(sid, str):
                raise _Refused("corrupt save, the scenario has no 'id'")
            scenario = cls.scenario_by_id(sid)  # a bundled id only: never a path
        return cls(scenario, doc["options"])
    except DataError as e:
        raise _Refused(str(e)) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:  # a document the checks missed
        raise _Refused(f"corrupt save, the scenario cannot be built: {type(e).__name__}: {e}") from None


def _decisions(rules: Ruleset[Any, Any], doc: Mapping[str, Any]) -> list[LogEntry]:
    out = []
    codec_ = rules.decisions()
    for i, entry in enumerate(doc["decisions"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("seat"), str):
            raise _Refused(f"corrupt save, decision {i + 1} has no seat")
        try:
            out.append(LogEntry(entry["seat"], codec_.from_json(entry.get("decision"), f"decision {i + 1}")))
        except DataError as e:
            raise _Refused(f"corrupt save, {e}") from None
        except (KeyError, TypeError, ValueError) as e:
            raise _Refused(f"corrupt save, decision {i + 1} is malformed: {e}") from None
    return out


def _replay(rules: Ruleset[Any, Any], doc: Mapping[str, Any], log: list[LogEntry]) -> Game:
    """Every decision re-run from the seed, each compared with the trail's digest after it where recorded."""
    trail = doc.get("trail") or []
    game = Game(rules, doc["seed"], trail=True)
    for i, entry in enumerate(log):
        what = f"decision {i + 1} ({entry.seat}: {entry.decision.text()[:200]})"
        try:
            game.apply(entry.seat, entry.decision)
        except IllegalDecision as e:
            raise _Refused(f"{what} diverges: the rules refuse it: {e}", i) from None
        except GrognardError as e:
            raise _Refused(f"{what} fails: {e}", i) from None
        except (KeyError, TypeError, ValueError, IndexError, OverflowError) as e:  # a value no rule expects
            raise _Refused(f"{what} fails: {type(e).__name__}", i) from None
        if i < len(trail) and game.trail and game.trail[-1] != str(trail[i])[:TRAIL_CHARS]:
            raise _Refused(f"{what} diverges: the state after it differs from the recorded one", i + 1)
    return game


def _event(e: Mapping[str, Any]) -> Event:
    seen = e.get("seen_by")
    return Event(e["kind"], e.get("text", ""), e.get("data", {}), tuple(seen) if seen is not None else None)


def _events_json(game: Game, between: Callable[[], None] | None = None) -> list[Any]:
    return [
        {"kind": e.kind, "text": e.text, "data": codec.encode(e.data), "seen_by": e.seen_by}
        for e in paced(game.events, between)
    ]


def _plain(value: Any) -> Any:
    """A value as JSON reads it back (a document built in memory holds tuples where a file holds lists)."""
    return json.loads(json.dumps(value))


def _check_records(doc: Mapping[str, Any], game: Game) -> None:
    """Every digest and record the save holds equals the re-run game's."""
    n = len(game.log)
    if len(doc.get("trail") or []) > n:
        raise _Refused("the trail records more decisions than the log holds", n)
    if game.digest() != doc["digest"]:
        raise _Refused(f"the final state after decision {n} does not match the recorded digest", n)
    if "events_digest" in doc and game.events_digest() != doc["events_digest"]:
        raise _Refused("the event log does not match the recorded one", n)
    snap = doc.get("snapshot")
    if snap is not None:
        if snap.get("at") != n:
            raise _Refused(f"the snapshot is of decision {str(snap.get('at'))[:20]}, not of the last ({n})", n)
        try:
            state = codec.decode(game.rules.state_type, snap["state"], "snapshot")
            same = state_digest(state) == game.digest()
        except (DataError, KeyError, TypeError, ValueError, IndexError, AttributeError):
            same = False
        if not same:
            raise _Refused(f"the snapshot's state differs from the state after decision {n} (the file was altered)", n)
        if _plain(snap.get("events")) != _plain(_events_json(game)) or snap.get("event_counts") != game.event_counts:
            raise _Refused("the snapshot's event log differs from the re-run one (the file was altered)", n)
    result = game.result()
    if "result" in doc and (result is None or _plain(result.to_json()) != _plain(doc["result"])):
        raise _Refused("the recorded result differs from the re-run game's", n)
