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
