"""Saves (issue 2, item 8): atomic writes, snapshot and replay agree, damaged files are clear errors."""

import json
import os

import pytest

from grognard.ai import parse_players, play_out
from grognard.engine import new_game
from grognard.engine.errors import SaveError
from grognard.persistence import load_game, verify_save, write_save
from toy import Toy


def finished_game(seed=3):
    game = new_game(Toy, "skirmish", seed=seed)
    play_out(game, parse_players("random,random", Toy, Toy.seats, seed))
    return game


def test_a_crash_mid_write_leaves_the_previous_save_whole(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    first = finished_game(3)
    write_save(first, path)
    before = path.read_text()

    def crash(*args):
        raise OSError("disk unplugged")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="unplugged"):
        write_save(finished_game(4), path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no half-written temporary file left behind


def test_loading_from_the_snapshot_and_by_replay_give_the_same_game(tmp_path):
    game = finished_game(5)
    path = write_save(game, tmp_path / "game.json")
    fast, slow = load_game(path), load_game(path, replay=True)
    assert fast.digest() == slow.digest() == game.digest()
    assert fast.events_digest() == slow.events_digest() == game.events_digest()
    assert verify_save(path).ok


def test_an_altered_snapshot_is_refused(tmp_path):
    path = write_save(finished_game(6), tmp_path / "game.json")
    doc = json.loads(path.read_text())
    doc["snapshot"]["state"]["turn"] += 1
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError, match="altered"):
        load_game(path)


def test_an_unknown_decision_in_the_log_is_named(tmp_path):
    path = write_save(finished_game(7), tmp_path / "game.json")
    doc = json.loads(path.read_text())
    doc["decisions"][2]["decision"] = {"kind": "teleport"}
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError, match="decision 3"):
        load_game(path, replay=True)


# --- the one check of a save (issue 16, item 5) --------------------------------------------------------------
def finished_pg_save(tmp_path):
    """A finished Perfect General game with its digest trail, written as the command line writes it."""
    from grognard.rulesets.perfect_general import PerfectGeneral

    game = new_game(PerfectGeneral, "simple_little_war", None, 2)
    game.trail = []
    play_out(game, parse_players("random,random", PerfectGeneral, PerfectGeneral.seats, 2))
    assert game.over and len(game.log) > 10
    return write_save(game, tmp_path / "intact.json")


def corpus(tmp_path):
    """Corrupted and tampered copies of one save: (name, path). Bits are flipped within 7-bit ASCII, so each
    file is still text that an upload can carry."""
    intact = finished_pg_save(tmp_path)
    text = intact.read_text()
    doc = json.loads(text)
    out = [("intact", intact)]

    def put(name, new_text):
        path = tmp_path / f"{name}.json"
        path.write_text(new_text)
        out.append((name, path))

    def put_doc(name, change):
        d = json.loads(text)
        change(d)
        put(name, json.dumps(d))

    for fraction in (0.1, 0.5, 0.99):
        put(f"truncated-{fraction}", text[: int(len(text) * fraction)])
    for i, at in enumerate(range(7, len(text), len(text) // 12)):
        flipped = chr(ord(text[at]) ^ (1 << (i % 7)))
        put(f"bitflip-{at}", text[:at] + flipped + text[at + 1 :])
    put_doc("format-version", lambda d: d.update(version=99))
    put_doc("ruleset-version", lambda d: d.update(ruleset_version=d["ruleset_version"] + 1))
    k = len(doc["decisions"]) // 2
    other = next(
        i for i, e in enumerate(doc["decisions"]) if i > k and e["decision"] != doc["decisions"][k]["decision"]
    )
    put_doc(
        "swapped-decisions",
        lambda d: d["decisions"].__setitem__(
            slice(k, other + 1), [d["decisions"][other], *d["decisions"][k + 1 : other], d["decisions"][k]]
        ),
    )
    put_doc("dropped-decision", lambda d: d["decisions"].pop(k))
    put_doc("digest", lambda d: d.update(digest="0" * 64))
    put_doc("events-digest", lambda d: d.update(events_digest="0" * 64))
    put_doc("trail", lambda d: d["trail"].__setitem__(k, "0" * 16))
    put_doc("seed", lambda d: d.update(seed=d["seed"] + 1))
    put_doc("snapshot-state", lambda d: d["snapshot"]["state"].update(turn=d["snapshot"]["state"]["turn"] + 1))
    put_doc("snapshot-events", lambda d: d["snapshot"]["events"].pop())
    put_doc("result", lambda d: d["result"].update(winner="nobody"))
    put_doc("no-digest", lambda d: d.pop("digest"))
    put_doc("seed-too-large", lambda d: d.update(seed=2**70))
    put_doc("scenario-path", lambda d: d.update(scenario={"id": "/etc/passwd"}))
    put_doc("decision-wrong-type", lambda d: d["decisions"].__setitem__(3, {"seat": "attacker", "decision": [1]}))
    return out


def verdict_of_cli(path):
    """(ok, reason) as ``grognard replay --verify`` tells it."""
    import contextlib
    import io

    from grognard.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", str(path), "--verify"])
    assert "Traceback" not in err.getvalue()
    if code == 0:
        return True, out.getvalue().strip().removeprefix(f"{path}: ")
    return False, err.getvalue().strip().removeprefix(f"grognard: {path}: ")


def verdict_of_load(path):
    """(ok, reason) as ``load_game`` tells it."""
    from grognard.persistence.saves import check_save

    try:
        load_game(path)
    except SaveError as e:
        return False, str(e).removeprefix(f"{path}: ")
    return True, check_save(path).reason


def test_replay_verify_and_load_game_give_one_verdict_on_a_corpus_of_damaged_saves(tmp_path):
    """Every damaged save is refused by both, with the same first difference; the intact one passes both."""
    verdicts = {name: (verdict_of_cli(path), verdict_of_load(path)) for name, path in corpus(tmp_path)}
    assert all(cli == load for cli, load in verdicts.values()), verdicts
    assert verdicts["intact"][0][0]
    refused = {name for name, (cli, _) in verdicts.items() if not cli[0]}
    assert refused >= {n for n in verdicts if not n.startswith(("intact", "bitflip"))}
    reasons = {name: cli[1] for name, (cli, _) in verdicts.items()}
    assert "truncated" in reasons["truncated-0.5"]
    from grognard.rulesets.perfect_general import PerfectGeneral

    now = PerfectGeneral.version
    assert f"rules version {now + 1}" in reasons["ruleset-version"] and f"version {now}" in reasons["ruleset-version"]
    assert "diverges" in reasons["swapped-decisions"] or "fails" in reasons["swapped-decisions"]
    assert reasons["trail"].startswith("decision ") and "differs from the recorded one" in reasons["trail"]
    assert "snapshot" in reasons["snapshot-state"] and "snapshot" in reasons["snapshot-events"]
    assert "no scenario '/etc/passwd'" in reasons["scenario-path"]


def test_a_save_of_format_1_still_loads(tmp_path, monkeypatch):
    """Format 1 saves (before the ruleset's version was recorded) were written by version 1 rules: they load
    where the ruleset still plays version 1."""
    from grognard.rulesets.perfect_general import PerfectGeneral

    monkeypatch.setattr(PerfectGeneral, "version", 1)
    path = finished_pg_save(tmp_path)
    doc = json.loads(path.read_text())
    doc["version"] = 1
    doc.pop("ruleset_version")
    assert load_game(doc).digest() == doc["digest"]


def test_a_save_of_another_ruleset_version_is_refused_naming_both(tmp_path, monkeypatch):
    from grognard.rulesets.perfect_general import PerfectGeneral

    path = finished_pg_save(tmp_path)
    monkeypatch.setattr(PerfectGeneral, "version", PerfectGeneral.version + 1)
    with pytest.raises(SaveError, match=f"rules version {PerfectGeneral.version - 1}; this grognard plays version"):
        load_game(path)


def test_a_write_killed_midway_leaves_no_temporary_file_after_the_next_write(tmp_path):
    """A process killed between writing the temporary file and renaming it leaves it behind; the next write of
    that save removes it (once it is old enough not to be another writer's), and the save is whole."""
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "game.json"
    write_save(finished_game(3), path)
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, sys, time; sys.path.insert(0, sys.argv[2]);"
            "from toy import Toy; from grognard import rulesets; rulesets.register(Toy);"
            "from grognard.engine import new_game; from grognard.persistence import write_save;"
            "os.replace = lambda *a: time.sleep(60);"
            "write_save(new_game(Toy, 'skirmish', seed=4), sys.argv[1])",
            str(path),
            str(os.path.dirname(__file__)),
        ]
    )
    deadline = time.monotonic() + 30
    while not list(tmp_path.glob(".game.json.*.tmp")) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)
    child.send_signal(signal.SIGKILL)
    child.wait()
    (left,) = tmp_path.glob(".game.json.*.tmp")
    os.utime(left, (time.time() - 3600, time.time() - 3600))
    write_save(finished_game(5), path)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert load_game(path).digest() == finished_game(5).digest()


def test_a_save_built_in_memory_passes_the_check_as_its_file_does(tmp_path):
    """The check compares records as JSON reads them: the document in memory (tuples) and the file agree."""
    from grognard.persistence import check_save, save_document

    path = finished_pg_save(tmp_path)
    game = load_game(path)
    assert check_save(save_document(game)).ok and check_save(path).ok
