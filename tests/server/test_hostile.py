"""The server against a hostile player (issue 16): no request reaches a file outside the bundled data, no
player knows the seed of a game with a person elsewhere, no event names a cargo the enemy never saw, a
refusal tells no more than the view, and a save is judged by one check wherever it comes from."""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from test_server import HUMAN_VS_COMPUTER, opening, rebuilt

from grognard.engine import Game
from grognard.engine.game import new_game
from grognard.persistence.saves import check_save, save_document
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.moves import start_movement_phase
from grognard.rulesets.perfect_general.scenario import read_scenario
from grognard.rulesets.perfect_general.state import Phase, Unit
from grognard.server import fog
from live_server import Server, auth
from test_saves import corpus, verdict_of_cli, verdict_of_load

REMOTE = {"attacker": {"kind": "human"}, "defender": {"kind": "remote"}}
MARK = "SENTINEL-7f3a"  # in every sentinel file: an answer that holds it read one


def _sentinels(folder: Path) -> Path:
    """A playable scenario and a map, both marked, in ``folder`` (the server's working directory)."""
    folder.mkdir()
    doc = PerfectGeneral.scenario_by_id("simple_little_war").document()
    (folder / "sentinel.json").write_text(json.dumps({**doc, "name": MARK}))
    (folder / "sentinel_map.json").write_text(json.dumps({**doc["map"], "name": MARK}))
    return folder


def _no_mark(response: httpx.Response | bytes) -> None:
    body = response if isinstance(response, bytes) else response.content
    assert MARK.encode() not in body


def test_no_request_reaches_a_file_outside_the_bundled_data(tmp_path: Path) -> None:
    """Item 1: absolute paths, ``../`` paths, URL-encoded separators and the name of a real file in the server's
    working directory, through create, upload and maps: each refused with 400 naming the id; no sentinel read."""
    cwd = _sentinels(tmp_path / "cwd")
    server = Server(tmp_path / "games.db", cwd=cwd).start()
    try:
        absolute = str(cwd / "sentinel")
        names = [
            "sentinel",
            "sentinel.json",
            "./sentinel",
            absolute,
            absolute + ".json",
            f"../{cwd.name}/sentinel",
            "../../../../../../.." + absolute,
            "..%2Fsentinel",
            "%2e%2e%2fsentinel",
            "..\\sentinel",
            "../maps/simple_little_war",  # another bundled data file, through the scenarios' folder
        ]
        base = {"game": "perfect_general", "seats": {"attacker": {"kind": "human"}}}
        save = save_document(new_game(PerfectGeneral, "simple_little_war", None, 1))
        for name in names:
            r = httpx.post(f"{server.url}/api/games", json={**base, "scenario": name})
            assert r.status_code == 400 and repr(name)[:40] in r.json()["error"], (name, r.text)
            _no_mark(r)
            bad = {**save, "scenario": {"id": name}}
            r = httpx.post(f"{server.url}/api/games/upload", json={"save": bad, "seats": {}})
            assert r.status_code == 400 and repr(name)[:40] in r.json()["error"], (name, r.text)
            _no_mark(r)
            # a scenario a save embeds in full names its map: only a bundled map's name, never a path
            embedded = {"id": "custom", "document": {**save_document(_custom_game())["scenario"]["document"]}}
            embedded["document"]["map"] = name.replace("sentinel", "sentinel_map")
            r = httpx.post(f"{server.url}/api/games/upload", json={"save": {**save, "scenario": embedded}, "seats": {}})
            assert r.status_code == 400 and "map" in r.json()["error"], (name, r.text)
            _no_mark(r)
            r = httpx.get(f"{server.url}/api/maps/perfect_general/{quote(name, safe='')}")
            assert r.status_code in (400, 404), (name, r.text)
            _no_mark(r)
        # raw request lines, with no client tidying the dots away
        for path in (
            "/api/maps/perfect_general/../../sentinel",
            "/api/maps/perfect_general/..%2F..%2Fsentinel",
            "/../sentinel.json",
            "/%2e%2e/sentinel.json",
            "/..%2fsentinel.json",
            f"/api/maps/perfect_general/{quote(absolute, safe='')}",
        ):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            conn.request("GET", path)
            answer = conn.getresponse()
            body = answer.read()
            conn.close()
            assert answer.status in (400, 404), (path, answer.status)
            _no_mark(body)
        assert "Traceback" not in server.log()
    finally:
        server.stop()


def _custom_game() -> Game:
    """A finished game on a scenario a player wrote (embedded in full in its save, with its own map)."""
    from grognard.ai import parse_players, play_out

    doc = PerfectGeneral.scenario_by_id("simple_little_war").document()
    doc = {**doc, "name": "A war of my own", "map": {**doc["map"], "name": "My own map"}}
    game = Game(PerfectGeneral(PerfectGeneral.scenario_from_document(doc, "mine")), 4)
    play_out(game, parse_players("random,random", PerfectGeneral, PerfectGeneral.seats, 4))
    assert game.over
    return game


def test_a_custom_scenario_from_a_save_is_shown_with_its_own_map(shared_server: Server) -> None:
    """Item 1: an uploaded save's own scenario carries its map, and the game's page gets it."""
    s = shared_server
    save = save_document(_custom_game())
    assert "document" in save["scenario"]
    r = httpx.post(f"{s.url}/api/games/upload", json={"save": save, "seats": {"attacker": {"kind": "human"}}})
    assert r.status_code == 201, r.text
    game, token = r.json()["id"], r.json()["tokens"]["attacker"]
    m = httpx.get(f"{s.url}/api/games/{game}/map", headers=auth(token))
    assert m.status_code == 200 and m.json()["name"] == "My own map" and m.json()["grid"]
    assert httpx.get(f"{s.url}/api/games/{game}/map", headers=auth("x" * 24)).status_code == 403


def _random_decision(update: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    family = rng.choice([f for f in update["legal"]["choices"] if not f["field"] or f["values"]])
    decision = {"kind": family["kind"], **family["fixed"]}
    if family["field"]:
        decision[family["field"]] = rng.choice(family["values"])
    return decision


def _buy_and_place(server: Server, game: str, token: str, rng: random.Random) -> None:
    for t in ("infantry", "medium_tank"):
        assert server.decide(game, token, {"kind": "buy", "type": t}).status_code == 200
    assert server.decide(game, token, {"kind": "done_buying"}).status_code == 200
    while True:
        families = {f["kind"]: f for f in server.update(game, token)["legal"]["choices"]}
        if "confirm" in families:
            decision: dict[str, Any] = {"kind": "confirm", "done": True}
        elif families.get("place", {}).get("values"):
            place = families["place"]
            decision = {"kind": "place", **place["fixed"], "cell": rng.choice(place["values"])}
        else:
            assert server.decide(game, token, {"kind": "done_placing"}).status_code == 200
            return
        assert server.decide(game, token, decision).status_code == 200


def test_a_network_game_has_a_secret_seed_the_creator_cannot_choose(tmp_path: Path) -> None:
    """Item 2: asking for a seed in a game with a remote seat is refused; the server's own seed gives other
    hidden unit ids than the asked one would, stays out of every message until the end, and the finished game's
    save replays and verifies."""
    server = Server(tmp_path / "games.db").start()
    try:
        asked = 12345
        r = httpx.post(
            f"{server.url}/api/games",
            json={"game": "perfect_general", "scenario": "simple_little_war", "seats": REMOTE, "seed": asked},
        )
        assert r.status_code == 400 and "seed" in r.json()["error"]
        game, tokens = server.create(REMOTE, seed=None)
        with sqlite3.connect(server.db) as c:
            seed = c.execute("SELECT seed FROM games WHERE id=?", (game,)).fetchone()[0]
        assert seed != asked and 0 <= seed < 2**63
        # both sides buy and place the same way a local game with the asked seed is played
        rng = random.Random(3)
        for seat in ("attacker", "defender"):
            _buy_and_place(server, game, tokens[seat], rng)
        with sqlite3.connect(server.db) as c:
            log = [
                (s, json.loads(d))
                for s, d in c.execute("SELECT seat, decision FROM decisions WHERE game_id=?", (game,))
            ]
        local = new_game(PerfectGeneral, "simple_little_war", None, asked)
        for s, d in log:
            local.apply(s, PerfectGeneral.decisions().from_json(d, "decision"))
        full = rebuilt(server.db, game)
        theirs = {u.id for u in full.state.units if u.side == "defender"}
        predicted = {u.id for u in local.state.units if u.side == "defender"}
        assert len(theirs) == len(predicted) == 2 and not theirs & predicted
        # play to the end, looking for the seed in every message on the way
        while True:
            updates = {seat: server.update(game, tok) for seat, tok in tokens.items()}
            for seat, tok in tokens.items():
                summary = httpx.get(f"{server.url}/api/games/{game}", headers=auth(tok)).text
                record = httpx.get(f"{server.url}/api/games/{game}/save", headers=auth(tok)).text
                if not updates[seat]["view"]["over"]:
                    assert str(seed) not in json.dumps(updates[seat]) + summary + record
            if updates["attacker"]["view"]["over"]:
                break
            seat = next(s for s, u in updates.items() if u["legal"])
            assert server.decide(game, tokens[seat], _random_decision(updates[seat], rng)).status_code == 200
        save = httpx.get(f"{server.url}/api/games/{game}/save", headers=auth(tokens["defender"])).json()
        assert save["seed"] == seed
        verdict = check_save(save)
        assert verdict.ok, verdict.message
        path = tmp_path / "finished.json"
        path.write_text(json.dumps(save))
        assert verdict_of_cli(path) == verdict_of_load(path) == (True, verdict.reason)
    finally:
        server.stop()


def test_an_unfinished_save_is_not_played_against_a_person_elsewhere(shared_server: Server) -> None:
    """Item 2: a save's seed is the uploader's, so a game in progress from a save has no remote seat."""
    save = save_document(new_game(PerfectGeneral, "simple_little_war", None, 1))
    r = httpx.post(f"{shared_server.url}/api/games/upload", json={"save": save, "seats": REMOTE})
    assert r.status_code == 400 and "remote" in r.json()["error"]


def _field(units: list[tuple[Any, ...]]) -> Game:
    """A Perfect General game on the rule tests' field, in the attacker's movement phase, with these units."""
    scenario = read_scenario(Path(__file__).parent.parent / "perfect_general" / "field.json")
    rules = PerfectGeneral(scenario)
    game = Game(rules, 7)
    grid = scenario.map.grid
    made = []
    for i, (side, kind, label, extra) in enumerate(units):
        hp = rules.ctx.tables.units[kind].hit_points
        made.append(Unit(f"{side[0]}{i + 1}", kind, side, grid.parse(label), hp, **extra))
    state = replace(game.state, units=tuple(made), phase=Phase.MOVEMENT, side="attacker", turn=1, region="")
    game.state = start_movement_phase(rules.ctx, state, "attacker")
    return game


def _orders(game: Game, *decisions: Any) -> None:
    """The attacker's orders, the defender letting each offer of passing fire go."""
    for decision in decisions:
        game.apply("attacker", decision)
        while game.turn().seat == "defender":
            game.apply("defender", D.HoldFire())


def test_a_cargo_the_enemy_never_saw_is_in_no_event_it_gets() -> None:
    """Item 3 (PG p.26-27 load and unload, p.32-33 fog): the enemy sees a spotted carrier load and unload, but
    the cargo it never saw is not named to it; the owner's log names it."""
    game = _field(
        [
            ("attacker", "armored_car", "4,10", {"spotted": True}),
            ("attacker", "infantry", "4,8", {}),
            ("defender", "infantry", "13,2", {}),
        ]
    )
    cell = game.rules.scenario.map.grid.parse
    _orders(game, D.Load("a1", "a2"), D.Move("a1", cell("4,6")), D.Unload("a1", cell("4,7")))
    assert "a2" in game.rules.hidden_units(game.state, "defender") or not game.state.unit("a2").spotted
    theirs = [e for e in fog.seat_events(game, "defender") if e["kind"] in ("load", "unload")]
    mine = [e for e in fog.seat_events(game, "attacker") if e["kind"] in ("load", "unload")]
    assert [e["kind"] for e in theirs] == [e["kind"] for e in mine] == ["load", "unload"]
    assert all(e["cargo"] is None and "Infantry" not in e["text"] for e in theirs)
    assert all(e["cargo"] == "a2" and "Infantry" in e["text"] for e in mine)
    assert "a2" not in json.dumps(fog.seat_events(game, "defender")) + json.dumps(fog.seat_core(game, "defender"))


def test_a_cargo_the_enemy_has_seen_is_named_to_it() -> None:
    """Item 3: the redaction hides only what the enemy does not know: a spotted cargo is named to both."""
    game = _field(
        [
            ("attacker", "armored_car", "4,10", {"spotted": True}),
            ("attacker", "infantry", "4,8", {"spotted": True}),
            ("defender", "infantry", "13,2", {}),
        ]
    )
    _orders(game, D.Load("a1", "a2"))
    theirs = [e for e in fog.seat_events(game, "defender") if e["kind"] == "load"]
    assert [e["cargo"] for e in theirs] == ["a2"]


def test_an_order_naming_a_hidden_unit_is_refused_as_one_naming_no_unit(shared_server: Server) -> None:
    """Item 2: a refusal tells no more than the view: ordering a hidden enemy unit about gets the same answer
    (the id aside) as ordering a unit that does not exist."""
    s = shared_server
    game, tokens = s.create(HUMAN_VS_COMPUTER, seed=3)
    opening(s, game, tokens["attacker"])
    full = rebuilt(s.db, game)
    hidden = sorted(full.rules.hidden_units(full.state, "attacker"))
    assert hidden
    tag = s.update(game, tokens["attacker"])["tag"]
    answers = []
    for uid in (hidden[0], "d00000000"):
        for decision in (
            {"kind": "move", "unit": uid, "to": 5},
            {"kind": "plot", "unit": uid, "barrage": False, "cell": 5},
        ):
            r = s.decide(game, tokens["attacker"], decision, tag)
            answers.append((r.status_code, r.json()["error"].replace(uid, "<id>")))
    assert answers[:2] == answers[2:]


@pytest.mark.parametrize("kind", ["intact", "damaged"])
def test_the_cli_load_game_and_the_upload_give_one_verdict(shared_server: Server, tmp_path: Path, kind: str) -> None:
    """Item 5: on a corpus of corrupted and tampered saves (truncated, bit-flipped, wrong versions, a changed
    decision, digest, snapshot, trail, seed), ``replay --verify``, ``load_game`` and the upload agree, reason
    and all (the upload reads the file's text, as the CLI reads its bytes)."""
    table = []
    for name, path in corpus(tmp_path):
        if (name == "intact") != (kind == "intact"):
            continue
        cli, load = verdict_of_cli(path), verdict_of_load(path)
        r = httpx.post(
            f"{shared_server.url}/api/games/upload",
            json={"save": path.read_bytes().decode("utf-8"), "seats": {"attacker": {"kind": "human"}}},
            timeout=60,
        )
        prefix = "that save cannot be loaded: the save: "
        upload = (True, cli[1]) if r.status_code == 201 else (False, r.json()["error"].removeprefix(prefix))
        table.append((name, cli, load, upload))
        assert cli == load == upload, name
    assert table
    if kind == "intact":
        assert all(row[1][0] for row in table)
    else:
        assert sum(not row[1][0] for row in table) >= len(table) - 3  # a flip inside a text may change nothing
