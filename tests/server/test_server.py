"""The server keeps every decision and refuses every bad request without changing anything."""

from __future__ import annotations

import contextlib
import json
import socket
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from grognard.engine import Game
from grognard.server.sessions import rebuild
from grognard.server.store import Store
from live_server import Server, auth

HUMAN_VS_COMPUTER = {"attacker": {"kind": "human"}, "defender": {"kind": "computer", "player": "general:1"}}
HOTSEAT = {"attacker": {"kind": "human"}, "defender": {"kind": "human"}}


def family(update: dict[str, Any], kind: str) -> dict[str, Any] | None:
    return next((f for f in update["legal"]["choices"] if f["kind"] == kind), None)


def opening(server: Server, game: str, token: str, last: bool = True) -> None:
    """The attacker buys three units, places them, and (with ``last``) ends placement."""
    for t in ("medium_tank", "medium_tank", "infantry"):
        assert server.decide(game, token, {"kind": "buy", "type": t}).status_code == 200
    assert server.decide(game, token, {"kind": "done_buying"}).status_code == 200
    if family(server.update(game, token), "confirm"):
        assert server.decide(game, token, {"kind": "confirm", "done": True}).status_code == 200
    for i in range(3):
        place = family(server.update(game, token), "place")
        assert place is not None
        cell = place["values"][(i * 37) % len(place["values"])]
        assert server.decide(game, token, {"kind": "place", **place["fixed"], "cell": cell}).status_code == 200
    if last:
        assert server.decide(game, token, {"kind": "done_placing"}).status_code == 200


def decisions_in(db: Path, game: str) -> int:
    with sqlite3.connect(db) as c:
        return int(c.execute("SELECT count(*) FROM decisions WHERE game_id=?", (game,)).fetchone()[0])


def rebuilt(db: Path, game: str, snapshots: bool = True) -> Game:
    """The game as the store rebuilds it, full state and all."""
    store = Store(db)
    try:
        return rebuild(store, game, snapshots)[1]
    finally:
        store.close()


def digest_of(db: Path, game: str, snapshots: bool = True) -> str:
    return rebuilt(db, game, snapshots).digest()


def test_a_kill_in_the_middle_of_the_computers_turn_resumes_exactly(tmp_path: Path) -> None:
    # game A runs undisturbed; game B, same seed and same human decisions, is killed while the computer
    # buys and places its army; after the restart both must reach the very same position.
    a = Server(tmp_path / "a.db").start()
    try:
        game_a, tok_a = a.create(HUMAN_VS_COMPUTER, seed=5)
        opening(a, game_a, tok_a["attacker"])
        after_a = a.update(game_a, tok_a["attacker"])
    finally:
        a.stop()
    b = Server(tmp_path / "b.db", "--snapshot-every", "20").start()  # the restart loads a snapshot
    game_b, tok_b = b.create(HUMAN_VS_COMPUTER, seed=5)
    opening(b, game_b, tok_b["attacker"], last=False)
    tag = b.update(game_b, tok_b["attacker"])["tag"]
    threading.Thread(
        target=lambda: _ignore_errors(b.decide, game_b, tok_b["attacker"], {"kind": "done_placing"}, tag), daemon=True
    ).start()
    before = decisions_in(b.db, game_b)
    deadline = time.monotonic() + 30
    while decisions_in(b.db, game_b) < before + 3 and time.monotonic() < deadline:
        time.sleep(0.02)  # the computer has started deciding
    b.kill()
    killed_at = decisions_in(b.db, game_b)
    b.start()
    try:
        after_b = b.update(game_b, tok_b["attacker"])
        assert killed_at < decisions_in(b.db, game_b), "the kill came after the computer's turn"
        assert after_b["tag"] == after_a["tag"]
        assert after_b["view"] == after_a["view"]
        assert decisions_in(b.db, game_b) == decisions_in(a.db, game_a)
    finally:
        b.stop()
    assert digest_of(b.db, game_b) == digest_of(a.db, game_a) == digest_of(b.db, game_b, snapshots=False)
    store = Store(b.db)
    try:
        assert store.snapshot_at(game_b) >= 20
    finally:
        store.close()


def _ignore_errors(fn: Any, *args: Any) -> None:
    with contextlib.suppress(httpx.HTTPError):
        fn(*args)


def test_a_restart_between_decisions_loses_nothing(server: Server) -> None:
    game, tokens = server.create(HOTSEAT, seed=9)
    opening(server, game, tokens["attacker"])
    before = {s: server.update(game, t) for s, t in tokens.items()}
    digest = digest_of(server.db, game)
    server.kill()
    server.start()
    assert {s: server.update(game, t) for s, t in tokens.items()} == before
    assert digest_of(server.db, game) == digest
    # and play goes on
    assert server.decide(game, tokens["defender"], {"kind": "buy", "type": "infantry"}).status_code == 200


def test_hotseat_forces_the_manuals_full_view(shared_server: Server) -> None:
    game, tokens = shared_server.create(HOTSEAT, view="limited")
    assert shared_server.update(game, tokens["attacker"])["view"]["state"]["options"]["view"] == "full"


def _unchanged(server: Server, game: str, token: str, expect: tuple[str, int]) -> None:
    assert (server.update(game, token)["tag"], decisions_in(server.db, game)) == expect


def test_bad_requests_are_refused_and_change_nothing(shared_server: Server) -> None:
    s = shared_server
    game, tokens = s.create(HOTSEAT)
    att, dfd = tokens["attacker"], tokens["defender"]
    s.decide(game, att, {"kind": "buy", "type": "infantry"})
    state = (s.update(game, att)["tag"], decisions_in(s.db, game))
    url = f"{s.url}/api/games/{game}/decisions"
    tag = state[0]

    cases: list[tuple[str, httpx.Response, int, str]] = [
        ("forged token", s.decide(game, "forged-" + att[7:], {"kind": "done_buying"}, tag), 403, "token"),
        ("no token", httpx.post(url, json={"tag": tag, "decision": {"kind": "done_buying"}}), 403, "token"),
        ("out of turn", s.decide(game, dfd, {"kind": "buy", "type": "infantry"}), 422, "not defender's decision"),
        ("stale tag", s.decide(game, att, {"kind": "done_buying"}, "0" * 20), 409, "stale"),
        ("illegal", s.decide(game, att, {"kind": "buy", "type": "battleship"}, tag), 422, "refused"),
        ("unknown kind", s.decide(game, att, {"kind": "nuke"}, tag), 400, "unknown decision"),
        ("wrong field type", s.decide(game, att, {"kind": "buy", "type": 5}, tag), 400, "malformed"),
        ("no kind", s.decide(game, att, {"type": "infantry"}, tag), 400, "malformed"),
        ("not a table", s.decide(game, att, ["buy", "infantry"], tag), 400, "malformed"),
        ("not JSON", httpx.post(url, headers=auth(att), content=b"{buy"), 400, "not valid JSON"),
        ("oversized", httpx.post(url, headers=auth(att), content=b" " * 100_000), 413, "too large"),
        ("unknown game", s.decide("nosuchgame", att, {"kind": "done_buying"}, tag), 404, "no game"),
    ]
    for name, response, status, words in cases:
        assert response.status_code == status, (name, response.text)
        assert words in response.json()["error"], (name, response.text)
        _unchanged(s, game, att, state)
    assert httpx.get(f"{s.url}/api/games/{game}", headers=auth("x" * 30)).status_code == 403
    assert httpx.delete(f"{s.url}/api/games/{game}", headers=auth("x" * 30)).status_code == 403
    _unchanged(s, game, att, state)


def test_concurrent_decisions_on_one_game_are_serialised(shared_server: Server) -> None:
    s = shared_server
    game, tokens = s.create(HOTSEAT)
    tag = s.update(game, tokens["attacker"])["tag"]
    results: list[int] = []

    def send() -> None:
        results.append(s.decide(game, tokens["attacker"], {"kind": "buy", "type": "infantry"}, tag).status_code)

    threads = [threading.Thread(target=send) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200, 409, 409, 409, 409, 409]
    assert decisions_in(s.db, game) == 1


def test_the_websocket_refuses_bad_messages_and_stays_usable(shared_server: Server) -> None:
    s = shared_server
    game, tokens = s.create(HOTSEAT)
    ws_url = s.url.replace("http", "ws") + f"/api/games/{game}/ws"
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "decide", "tag": "x", "decision": {"kind": "done_buying"}}))
        assert "hello" in json.loads(ws.recv())["message"]
        ws.send(json.dumps({"type": "hello", "token": "forged"}))
        assert "token" in json.loads(ws.recv())["message"]
        ws.send("{not json")
        assert "not valid JSON" in json.loads(ws.recv())["message"]
        ws.send(json.dumps({"type": "hello", "pad": "x" * 20_000}))
        assert "too large" in json.loads(ws.recv())["message"]
        ws.send(json.dumps({"type": "hello", "token": tokens["attacker"]}))
        welcome = json.loads(ws.recv())
        assert (welcome["type"], welcome["seat"]) == ("welcome", "attacker")
        update = json.loads(ws.recv())
        assert update["type"] == "update" and update["legal"]["prompt"].startswith("buy your units")
        ws.send(json.dumps({"type": "decide", "tag": update["tag"], "decision": {"kind": "buy", "type": "tank"}}))
        error = json.loads(ws.recv())
        assert error["type"] == "error" and "refused" in error["message"]
        assert json.loads(ws.recv())["tag"] == update["tag"]  # after a refusal, the position again
        ws.send(json.dumps({"type": "decide", "tag": update["tag"], "decision": {"kind": "buy", "type": "infantry"}}))
        pushed = json.loads(ws.recv())
        assert pushed["type"] == "update" and pushed["events"][0]["kind"] == "buy"
        assert json.loads(ws.recv())["type"] == "done"
    with connect(s.url.replace("http", "ws") + "/api/games/nosuchgame/ws") as ws:
        assert "no game" in json.loads(ws.recv())["message"]
    assert decisions_in(s.db, game) == 1


def test_nothing_hidden_leaves_the_server(shared_server: Server) -> None:
    s = shared_server
    game, tokens = s.create(HUMAN_VS_COMPUTER, seed=3)
    opening(s, game, tokens["attacker"])
    full = rebuilt(s.db, game)
    hidden = full.rules.hidden_units(full.state, "attacker")
    assert hidden, "the defender's army should be partly hidden"
    update = s.update(game, tokens["attacker"])
    save = httpx.get(f"{s.url}/api/games/{game}/save", headers=auth(tokens["attacker"])).json()
    summary = httpx.get(f"{s.url}/api/games/{game}", headers=auth(tokens["attacker"])).json()
    for text in (json.dumps(update), json.dumps(save), json.dumps(summary)):
        assert not [u for u in hidden if u in text]
    assert "seed" not in save and "decisions" not in save and save["format"] == "grognard-seat-record"
    assert "decisions" not in update["view"]  # the log's length would count the enemy's purchases


def test_undo_takes_back_the_seats_own_last_decision_and_is_stored(server: Server) -> None:
    game, tokens = server.create(HOTSEAT)
    att, dfd = tokens["attacker"], tokens["defender"]
    start = server.update(game, att)
    assert start["undo"] is False
    server.decide(game, att, {"kind": "buy", "type": "infantry"})
    after = server.update(game, att)
    assert after["undo"] is True
    refused = httpx.post(f"{server.url}/api/games/{game}/undo", headers=auth(dfd), json={"tag": after["tag"]})
    assert refused.status_code == 409 and decisions_in(server.db, game) == 1
    r = httpx.post(f"{server.url}/api/games/{game}/undo", headers=auth(att), json={"tag": after["tag"]})
    assert r.status_code == 200, r.text
    assert r.json()["tag"] == start["tag"] and decisions_in(server.db, game) == 0
    # a browser's event log follows: the undone purchase disappears, the next one appears
    with connect(server.url.replace("http", "ws") + f"/api/games/{game}/ws") as ws:
        ws.send(json.dumps({"type": "hello", "token": att}))
        assert json.loads(ws.recv())["type"] == "welcome"
        log: list[dict[str, Any]] = []

        def follow() -> dict[str, Any]:
            msg = json.loads(ws.recv())
            log[msg["events_from"] :] = msg["events"]
            return dict(msg)

        follow()
        assert server.decide(game, att, {"kind": "buy", "type": "infantry"}).status_code == 200
        follow()
        tag = server.update(game, att)["tag"]
        assert (
            httpx.post(f"{server.url}/api/games/{game}/undo", headers=auth(att), json={"tag": tag}).status_code == 200
        )
        follow()
        assert log == []
        assert server.decide(game, att, {"kind": "buy", "type": "medium_tank"}).status_code == 200
        follow()
        assert [e["text"] for e in log] == ["attacker buys a Medium Tank"]
    server.kill()
    server.start()
    assert decisions_in(server.db, game) == 1


def finished_save() -> dict[str, Any]:
    """A short finished game between two random players (36 decisions)."""
    from grognard.ai import parse_players, play_out
    from grognard.engine.game import new_game
    from grognard.persistence.saves import save_document
    from grognard.rulesets.perfect_general import PerfectGeneral

    game = new_game(PerfectGeneral, "simple_little_war", None, 2)
    play_out(game, parse_players("random,random", PerfectGeneral, PerfectGeneral.seats, 2))
    assert game.over
    return save_document(game)


def test_a_save_uploads_replays_and_downloads_whole_once_over(shared_server: Server) -> None:
    s = shared_server
    save = finished_save()
    r = httpx.post(
        f"{s.url}/api/games/upload", json={"save": save, "seats": {"attacker": {"kind": "human"}}}, timeout=60
    )
    assert r.status_code == 201, r.text
    game, token = r.json()["id"], r.json()["tokens"]["attacker"]
    assert s.update(game, token)["view"]["result"] == save["result"]
    index = httpx.get(f"{s.url}/api/games/{game}/replay", headers=auth(token)).json()
    assert index["total"] == len(save["decisions"]) and index["event_marks"][-1] == len(index["events"])
    first = httpx.get(f"{s.url}/api/games/{game}/replay/0", headers=auth(token)).json()
    last = httpx.get(f"{s.url}/api/games/{game}/replay/{index['total']}", headers=auth(token)).json()
    assert first["view"]["turn"]["phase"] == "turn 1: purchase" and last["view"]["over"]
    assert httpx.get(f"{s.url}/api/games/{game}/replay/9999", headers=auth(token)).status_code == 404
    again = httpx.get(f"{s.url}/api/games/{game}/save", headers=auth(token)).json()
    assert again["digest"] == save["digest"] and again["decisions"] == save["decisions"]
    # a tampered save is refused, and a running game has no replay (it would show the enemy)
    bad = dict(save, decisions=[*save["decisions"][:3], {"seat": "defender", "decision": {"kind": "buy", "type": "x"}}])
    r = httpx.post(f"{s.url}/api/games/upload", json={"save": bad, "seats": {}}, timeout=60)
    assert r.status_code == 400 and "cannot be loaded" in r.json()["error"]
    running, tokens = s.create(HUMAN_VS_COMPUTER)
    assert httpx.get(f"{s.url}/api/games/{running}/replay", headers=auth(tokens["attacker"])).status_code == 409


def test_a_whole_battles_save_sent_as_its_text_is_taken(shared_server: Server) -> None:
    """The lobby sends a save file's text as one string; a finished Antietam game (IX Corps, general against
    general) saves to more than 1 MiB and must still open, not be refused as too long."""
    from grognard.ai import parse_players, play_out
    from grognard.engine.game import new_game
    from grognard.persistence.saves import save_document
    from grognard.rulesets.antietam import Antietam

    game = new_game(Antietam, "5_ix_corps", None, 1)
    play_out(game, parse_players("general,general", Antietam, Antietam.seats, 1))
    text = json.dumps(save_document(game))
    assert len(text) > 1024 * 1024
    r = httpx.post(
        f"{shared_server.url}/api/games/upload", json={"save": text, "seats": {"union": {"kind": "human"}}}, timeout=120
    )
    assert r.status_code == 201, r.text[:300]


def idle_websocket(server: Server, game: str, token: str) -> socket.socket:
    """A websocket client that says hello and then never reads (a raw socket with a tiny receive buffer)."""
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.sendall(
        f"GET /api/games/{game}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)
    assert b" 101 " in answer
    payload = json.dumps({"type": "hello", "token": token}).encode()
    mask = b"\x01\x02\x03\x04"
    assert len(payload) < 126
    sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return sock


def test_a_browser_that_stops_reading_does_not_hold_up_the_game(shared_server: Server) -> None:
    s = shared_server
    game, tokens = s.create(HOTSEAT)
    att = tokens["attacker"]
    idle = idle_websocket(s, game, att)
    try:
        tag = s.update(game, att)["tag"]
        t0 = time.monotonic()
        with httpx.Client(headers=auth(att), timeout=30) as client:
            for i in range(600):
                kind = "buy" if i % 2 == 0 else "sell"
                r = client.post(
                    f"{s.url}/api/games/{game}/decisions",
                    json={"tag": tag, "decision": {"kind": kind, "type": "infantry"}},
                )
                assert r.status_code == 200, r.text
                tag = r.json()["tag"]
        assert time.monotonic() - t0 < 60
    finally:
        idle.close()
    assert decisions_in(s.db, game) == 600


def test_the_lobby_catalog_and_maps(shared_server: Server) -> None:
    s = shared_server
    catalog = httpx.get(f"{s.url}/api/catalog").json()
    pg = next(g for g in catalog if g["id"] == "perfect_general")
    assert {"general", "greedy", "random"} <= set(pg["players"])
    # each computer player with the levels it plays at: the lobby offers every one (a new kind appears by itself)
    assert pg["player_levels"]["general"] == ["easy", "normal", "hard"] and pg["player_levels"]["greedy"] == []
    lga = next(g for g in catalog if g["id"] == "grande_armee")
    assert set(lga["player_levels"]) == set(lga["players"]) >= {"greedy", "random"}
    assert pg["hotseat_options"] == {"view": "full"}
    assert any(o["name"] == "view" for o in pg["options"])
    m = httpx.get(f"{s.url}/api/maps/perfect_general/simple_little_war").json()
    assert len(m["terrain"]) == m["grid"]["columns"] * m["grid"]["rows"]
    assert {p["name"] for p in m["places"]} >= {"Konigsberg"}
    # La Grande Armée's map carries what the page draws it by (§2.2-2.3, §3.1): public, and no unit in it
    m = httpx.get(f"{s.url}/api/maps/grande_armee/1_austrian_challenge").json()
    legend = m["legend"]
    assert set(legend["seas"].values()) == {"Atlantic Ocean", "North Sea", "Baltic Sea", "Mediterranean Sea"}
    assert [a["label"] for a in legend["arrows"]] == ["To Gibr", "To Atl"]
    assert legend["powers"]["france"]["background"] == ["#23408e", "#ffffff", "#d0232e"]  # the tricolour
    assert next(p for p in m["places"] if p["name"] == "Amsterdam")["short"] == "Amst"  # §7.0's abbreviation
    assert "units" not in m and "FR-I1" not in json.dumps(m)
    bad = httpx.get(f"{s.url}/api/maps/perfect_general/simple_little_wat")
    assert bad.status_code == 400 and "simple_little_war" in bad.json()["error"]
    r = httpx.post(
        f"{s.url}/api/games",
        json={
            "game": "perfect_general",
            "scenario": "simple_little_war",
            "seats": {"attacker": {"kind": "computer"}, "defender": {"kind": "computer"}},
        },
    )
    assert r.status_code == 400 and "person" in r.json()["error"]


def test_questions_over_the_websocket_are_answered_from_the_seats_knowledge(shared_server: Server) -> None:
    """``inspect``: a seat asks what its own unit sees (PG p.32) and gets the locations; a question about an enemy
    unit, hidden or not, is refused like one about no unit at all, and a refusal resends nothing."""
    s = shared_server
    game, tokens = s.create(HUMAN_VS_COMPUTER, seed=3)
    opening(s, game, tokens["attacker"])
    full = rebuilt(s.db, game)
    mine = next(u.id for u in full.state.units if u.side == "attacker")
    hidden = sorted(full.rules.hidden_units(full.state, "attacker"))
    assert hidden
    before = decisions_in(s.db, game)
    with connect(s.url.replace("http", "ws") + f"/api/games/{game}/ws") as ws:
        ws.send(json.dumps({"type": "inspect", "ref": "inspect", "query": {"kind": "sight", "unit": mine}}))
        assert "hello" in json.loads(ws.recv())["message"]  # no seat, no answer
        ws.send(json.dumps({"type": "hello", "token": tokens["attacker"]}))
        assert json.loads(ws.recv())["type"] == "welcome"
        assert json.loads(ws.recv())["type"] == "update"
        refusals = []
        for query in ({"kind": "sight", "unit": hidden[0]}, {"kind": "sight", "unit": "nobody"}, {"kind": 3}):
            ws.send(json.dumps({"type": "inspect", "ref": "inspect", "query": query}))
            refusals.append(json.loads(ws.recv()))
        assert all(r["type"] == "error" and r["ref"] == "inspect" for r in refusals)
        assert refusals[0]["message"] == refusals[1]["message"]  # a hidden unit is as unknown as no unit
        ws.send(json.dumps({"type": "inspect", "ref": "inspect", "query": {"kind": "sight", "unit": mine}}))
        answer = json.loads(ws.recv())  # the answer, with no position resent after the refusals
        assert answer["type"] == "inspected" and answer["answer"]["unit"] == mine
        cell = full.state.unit(mine).cell
        assert cell in answer["answer"]["cells"]
        assert not [u for u in hidden if u in json.dumps(answer)]
    assert decisions_in(s.db, game) == before
