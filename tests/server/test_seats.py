"""Seats and saves (issue 15, items 4 and 5): an invitation is claimed once, only the creator deletes a game and
either seat may resign it, an older database is migrated, and a seat's record of a game in play opens again for
that seat or is refused clearly, never with a 5xx or a traceback."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import httpx
from test_command_line import grognard, one_line_error
from test_server import HUMAN_VS_COMPUTER, opening

from grognard.persistence import check_save
from grognard.server.sessions import token_digest
from grognard.server.store import SeatRow, Store
from live_server import Server, auth

REMOTE = {"attacker": {"kind": "human"}, "defender": {"kind": "remote"}}


def claim(s: Server, game: str, invite: str) -> httpx.Response:
    return httpx.post(f"{s.url}/api/games/{game}/claim", json={"invite": invite}, timeout=60)


def summary(s: Server, game: str, token: str) -> httpx.Response:
    return httpx.get(f"{s.url}/api/games/{game}", headers=auth(token), timeout=60)


def test_an_invitation_is_claimed_once_and_the_creator_never_holds_the_seats_token(server: Server) -> None:
    r = httpx.post(
        f"{server.url}/api/games",
        json={"game": "perfect_general", "scenario": "simple_little_war", "seats": REMOTE},
        timeout=60,
    )
    assert r.status_code == 201, r.text
    game, created = r.json()["id"], r.json()
    assert set(created["tokens"]) == {"attacker"} and set(created["invites"]) == {"defender"}
    invite = created["invites"]["defender"]
    assert summary(server, game, invite).status_code == 403  # an invitation is not the seat's token
    host = created["tokens"]["attacker"]
    assert summary(server, game, host).json()["seats"]["defender"] == {"kind": "remote", "player": "", "claimed": False}

    first = claim(server, game, invite)
    assert first.status_code == 200 and first.json()["seat"] == "defender"
    token = first.json()["token"]
    assert token != invite and summary(server, game, token).json()["seat"] == "defender"
    again = claim(server, game, invite)  # a second browser, or the creator's, opening the link again
    assert again.status_code == 410 and "already been claimed" in again.json()["error"]
    assert summary(server, game, invite).status_code == 403
    assert summary(server, game, host).json()["seats"]["defender"]["claimed"] is True
    with sqlite3.connect(server.db) as c:  # only digests are stored, the invitation is gone
        row = c.execute("SELECT token_sha, invite_sha FROM seats WHERE seat='defender'").fetchone()
    assert row == (token_digest(token), None)


def test_only_the_creator_deletes_a_game(server: Server) -> None:
    game, tokens = server.create(REMOTE, seed=None)
    creator = server.creators[game]
    for seat in ("defender", "attacker"):  # the invited player, and a seat at the creator's browser too
        r = httpx.delete(f"{server.url}/api/games/{game}", headers=auth(tokens[seat]), timeout=60)
        assert r.status_code == 403 and "only the game's creator" in r.json()["error"]
    assert summary(server, game, tokens["defender"]).status_code == 200
    mine = summary(server, game, creator).json()  # who sits where, and nothing of any seat's view
    assert mine["seat"] is None and set(mine["seats"]) == {"attacker", "defender"} and "turn" not in mine
    assert httpx.delete(f"{server.url}/api/games/{game}", headers=auth(creator), timeout=60).status_code == 200
    assert summary(server, game, tokens["defender"]).status_code == 404


def test_either_seat_may_resign_whoever_has_the_turn_and_the_other_wins(server: Server) -> None:
    """Issue 15 item 5: only the creator deletes a game, but either seat may resign it."""
    game, tokens = server.create(REMOTE, seed=None)
    assert server.update(game, tokens["attacker"])["legal"] is not None  # the attacker buys first
    r = httpx.post(f"{server.url}/api/games/{game}/resign", json={}, headers=auth(tokens["defender"]), timeout=60)
    assert r.status_code == 200, r.text
    for seat in ("attacker", "defender"):
        view = server.update(game, tokens[seat])["view"]
        assert view["over"] and view["result"]["winner"] == "attacker"
        assert view["result"]["levels"]["defender"] == "resigned"
    again = httpx.post(f"{server.url}/api/games/{game}/resign", json={}, headers=auth(tokens["attacker"]), timeout=60)
    assert again.status_code == 409 and "over" in again.json()["error"]
    save = httpx.get(f"{server.url}/api/games/{game}/save", headers=auth(tokens["attacker"]), timeout=60).json()
    assert save["decisions"][-1]["decision"] == {"kind": "resign"} and check_save(save).ok


def test_a_database_from_before_invitations_is_migrated_and_its_games_play_on(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    store = Store(db)
    store.create_game(
        "old",
        "perfect_general",
        {"id": "simple_little_war"},
        {},
        5,
        [
            SeatRow("attacker", "human", "", token_digest("host-token")),
            SeatRow("defender", "remote", "", token_digest("guest-token")),
        ],
    )
    store.close()
    with sqlite3.connect(db) as c:  # the schema as it was: no invitations, no creator's secret
        c.execute("ALTER TABLE seats DROP COLUMN invite_sha")
        c.execute("ALTER TABLE games DROP COLUMN owner_sha")
    s = Server(db).start()
    try:
        assert summary(s, "old", "guest-token").json()["seats"]["defender"]["claimed"] is True  # its link still works
        assert s.decide("old", "host-token", {"kind": "buy", "type": "infantry"}).status_code == 200
        assert httpx.delete(f"{s.url}/api/games/old", headers=auth("guest-token"), timeout=60).status_code == 403
        assert httpx.delete(f"{s.url}/api/games/old", headers=auth("host-token"), timeout=60).status_code == 200
    finally:
        s.stop()
    with sqlite3.connect(db) as c:
        assert {r[1] for r in c.execute("PRAGMA table_info(seats)")} >= {"invite_sha", "token_sha"}
        assert "owner_sha" in {r[1] for r in c.execute("PRAGMA table_info(games)")}


def test_a_seats_record_opens_again_for_that_seat_and_is_refused_clearly_elsewhere(
    shared_server: Server, tmp_path: Path
) -> None:
    s = shared_server
    game, tokens = s.create(HUMAN_VS_COMPUTER, seed=4)
    opening(s, game, tokens["attacker"])
    record = httpx.get(f"{s.url}/api/games/{game}/save", headers=auth(tokens["attacker"]), timeout=60).json()
    assert record["game_id"] == game and record["seat"] == "attacker" and "seed" not in record

    def upload(token: str | None, save: object) -> httpx.Response:
        body = {"save": save, "seats": {"attacker": {"kind": "human"}}}
        return httpx.post(f"{s.url}/api/games/upload", json=body, headers=auth(token) if token else {}, timeout=60)

    for form in (record, json.dumps(record)):  # the document, or the file's text as the lobby sends it
        back = upload(tokens["attacker"], form)
        assert back.status_code == 200 and back.json() == {"id": game, "seat": "attacker", "resumed": True}
    for token in (None, "forged-token-0123456789"):  # a browser that does not play the seat
        refused = upload(token, record)
        assert refused.status_code == 409 and "holds only what that seat could see" in refused.json()["error"]
        assert "This browser does not play that seat" in refused.json()["error"]
    gone = upload(tokens["attacker"], {**record, "game_id": "nosuchgame"})
    assert gone.status_code == 404 and "not on this server" in gone.json()["error"]
    old = {k: v for k, v in record.items() if k != "game_id"}  # a record of version 1 named no game
    assert upload(tokens["attacker"], old).status_code == 404

    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    verdict = check_save(path)
    assert not verdict.ok and "record of a game still in play" in verdict.reason
    one_line_error(grognard("replay", str(path)), "cannot rebuild or replay the game")
    one_line_error(grognard("replay", "--verify", str(path)), "the full save, which opens anywhere")
