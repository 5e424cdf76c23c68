"""Save files: a human-readable, versioned JSON document that recreates a game exactly.

A save holds the game id, the scenario (by bundled id, or the scenario's whole self-contained document for a
user's file), the options, the seed and the decision log, plus a snapshot of the last state and its event
log so that a long game loads without replaying, and a trail of state digests (one short digest after each
decision) so that verification can name the first decision that no longer reproduces.

Writes go to a temporary file in the same folder, are flushed to disk and then renamed over the old save,
so a crash mid-write leaves the previous save whole. Every way a save can be broken (not JSON, truncated,
another format or version, an unknown game, decisions the rules refuse, digests that do not match) is a
:class:`SaveError` with a message that says which.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grognard import __version__, rulesets
from grognard.engine import codec
from grognard.engine.errors import DataError, GrognardError, IllegalDecision, SaveError
from grognard.engine.events import Event
from grognard.engine.game import TRAIL_CHARS, Game, LogEntry, state_digest
from grognard.engine.protocol import Ruleset

SAVE_FORMAT = "grognard-save"
SAVE_VERSION = 1


def save_document(game: Game, *, snapshot: bool = True) -> dict[str, Any]:
    """The full save of a game (everything: this is for the server's store, finished games and replays)."""
    rules = game.rules
    scenario = rules.scenario
    bundled = scenario.info.id in rules.scenario_ids() and not scenario.user_file
    doc: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "grognard": __version__,
        "game": rules.id,
        "scenario": {"id": scenario.info.id} if bundled else {"id": scenario.info.id, "document": scenario.document()},
        "options": codec.encode(rules.options),
        "seed": game.seed,
        "decisions": game.decisions_json(),
        "digest": game.digest(),
        "events_digest": game.events_digest(),
    }
    if game.trail is not None and len(game.trail) == len(game.log):
        doc["trail"] = list(game.trail)
    if snapshot:
        doc["snapshot"] = {
            "at": len(game.log),
            "state": codec.encode(game.state),
            "events": [
                {"kind": e.kind, "text": e.text, "data": codec.encode(e.data), "seen_by": e.seen_by}
                for e in game.events
            ],
            "event_counts": list(game.event_counts),
        }
    result = game.result()
    if result is not None:
        doc["result"] = result.to_json()
    return doc


def write_save(game: Game, path: str | Path) -> Path:
    """Write a save atomically; the previous file at ``path`` survives any crash mid-write."""
    return write_document(save_document(game), path)


def write_document(doc: Mapping[str, Any], path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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


def read_save(path: str | Path) -> dict[str, Any]:
    """Read and check the outer shape of a save file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SaveError(f"{path}: cannot read: {e}") from None
    return parse_save(text, str(path))


def parse_save(text: str, where: str = "<save>") -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        stripped = text.rstrip()
        truncated = stripped.startswith("{") and not stripped.endswith("}")
        hint = " (the file looks truncated)" if truncated or e.pos >= len(stripped) - 1 else ""
        raise SaveError(f"{where}: corrupt save, not valid JSON at line {e.lineno} column {e.colno}{hint}") from None
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
        raise SaveError(f"{where}: not a grognard save file")
    version = doc.get("version")
    if version != SAVE_VERSION:
        raise SaveError(
            f"{where}: save format version {version!r} is not supported; this grognard {__version__} reads "
            f"version {SAVE_VERSION}"
        )
    for key, kind in (("game", str), ("scenario", dict), ("options", dict), ("seed", int), ("decisions", list)):
        if not isinstance(doc.get(key), kind):
            raise SaveError(f"{where}: corrupt save, '{key}' is missing or not a {kind.__name__}")
    return doc


def _rules_of(doc: Mapping[str, Any], where: str) -> Ruleset[Any, Any]:
    try:
        cls = rulesets.get(doc["game"])
        sc = doc["scenario"]
        if "document" in sc:
            scenario = cls.scenario_from_document(sc["document"], f"{where}: scenario")
        else:
            scenario = cls.load_scenario(str(sc.get("id", "")))
        return cls(scenario, doc["options"])
    except DataError as e:
        raise SaveError(f"{where}: {e}") from None


def _decisions(rules: Ruleset[Any, Any], doc: Mapping[str, Any], where: str) -> list[LogEntry]:
    out = []
    codec_ = rules.decisions()
    for i, entry in enumerate(doc["decisions"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("seat"), str):
            raise SaveError(f"{where}: corrupt save, decision {i + 1} has no seat")
        try:
            out.append(LogEntry(entry["seat"], codec_.from_json(entry.get("decision"), f"decision {i + 1}")))
        except DataError as e:
            raise SaveError(f"{where}: corrupt save, {e}") from None
    return out


def load_game(source: str | Path | Mapping[str, Any], *, replay: bool = False) -> Game:
    """Recreate the game a save holds: from its snapshot, or by replaying every decision with ``replay``."""
    if isinstance(source, Mapping):
        doc, where = dict(source), "<save>"
    else:
        doc, where = read_save(source), str(source)
    rules = _rules_of(doc, where)
    log = _decisions(rules, doc, where)
    snap = doc.get("snapshot")
    if not replay and isinstance(snap, dict) and snap.get("at") == len(log):
        try:
            state = codec.decode(rules.state_type, snap["state"], f"{where}: snapshot")
            events = [
                Event(
                    e["kind"],
                    e.get("text", ""),
                    e.get("data", {}),
                    tuple(e["seen_by"]) if e.get("seen_by") is not None else None,
                )
                for e in snap["events"]
            ]
            counts = [int(c) for c in snap["event_counts"]]
        except (DataError, KeyError, TypeError, ValueError) as e:
            raise SaveError(f"{where}: corrupt snapshot: {e}") from None
        if state_digest(state) != doc.get("digest"):
            raise SaveError(f"{where}: the snapshot does not match the save's digest (the file was altered)")
        trail = doc.get("trail") if isinstance(doc.get("trail"), list) else None
        return Game.restore(rules, doc["seed"], state, log, events, counts, trail)
    game, problem = _replay(rules, doc, log, where)
    if problem:
        raise SaveError(problem)
    return game


@dataclass(frozen=True, slots=True)
class Verification:
    ok: bool
    decisions: int
    digest: str
    message: str


def verify_save(source: str | Path | Mapping[str, Any]) -> Verification:
    """Re-run every decision of a save from the seed and compare the digests it records."""
    if isinstance(source, Mapping):
        doc, where = dict(source), "<save>"
    else:
        doc, where = read_save(source), str(source)
    rules = _rules_of(doc, where)
    log = _decisions(rules, doc, where)
    game, problem = _replay(rules, doc, log, where)
    if problem:
        return Verification(False, len(game.log), game.digest(), problem)
    if "digest" not in doc:
        return Verification(False, len(log), game.digest(), f"{where}: the save records no digest to verify")
    if game.digest() != doc["digest"]:
        return Verification(
            False, len(log), game.digest(), f"{where}: the final state does not match the recorded digest"
        )
    if "events_digest" in doc and game.events_digest() != doc["events_digest"]:
        return Verification(False, len(log), game.digest(), f"{where}: the event log does not match the recorded one")
    return Verification(True, len(log), game.digest(), f"{where}: {len(log)} decisions replayed; digest matches")


def _replay(rules: Ruleset[Any, Any], doc: Mapping[str, Any], log: list[LogEntry], where: str) -> tuple[Game, str]:
    seed = doc["seed"]
    trail = doc.get("trail") if isinstance(doc.get("trail"), list) else None
    game = Game(rules, seed, trail=True)
    for i, entry in enumerate(log):
        try:
            game.apply(entry.seat, entry.decision)
        except IllegalDecision as e:
            return game, (
                f"{where}: decision {i + 1} ({entry.seat}: {entry.decision.text()}) diverges: the rules refuse it: {e}"
            )
        except GrognardError as e:
            return game, f"{where}: decision {i + 1} ({entry.seat}: {entry.decision.text()}) fails: {e}"
        if trail is not None and i < len(trail) and game.trail and game.trail[-1] != str(trail[i])[:TRAIL_CHARS]:
            return game, (
                f"{where}: decision {i + 1} ({entry.seat}: {entry.decision.text()}) diverges: the state "
                "after it differs from the recorded one"
            )
    return game, ""
