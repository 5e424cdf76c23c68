"""Malformed, forged, oversized and out-of-turn input to a running server (issue 16, item 4): no answer is a
5xx, the server logs no traceback, the websocket stays open and answers, and no game changes; only a request
that creates a game writes anything.

A few hundred examples run by default; ``pytest tests/server/test_fuzz.py --fuzz-long`` runs 100,000 and
``--fuzz-long N`` runs N (docs/server.md gives the figures of a long run).
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_server import HOTSEAT
from websockets.sync.client import ClientConnection, connect

from grognard.engine.game import new_game
from grognard.persistence.saves import save_document
from grognard.rulesets.perfect_general import PerfectGeneral
from live_server import Server, auth

SHORT = 250

KINDS = PerfectGeneral.decisions().types
# the attacker is buying: none of these is legal (a resignation always is: tests/server/test_seats.py)
NOT_NOW = sorted(set(KINDS) - {"buy", "sell", "done_buying", "confirm", "resign"})
NAMES = [
    "perfect_general",
    "grande_armee",
    "simple_little_war",
    "1_austrian_challenge",
    "../perfect_general",
    "/etc/passwd",
    "..%2Fx",
    "",
    "x" * 70,
    "\u0000",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(NAMES),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6),
    max_leaves=24,
)
raw = st.one_of(
    st.binary(max_size=300),
    st.integers(1, 6000).map(lambda n: "[" * n),
    st.integers(1, 3000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.integers(20, 5000).map(lambda n: '{"seed": ' + "9" * n + ', "tag": 1}'),
    st.sampled_from(
        [
            '{"game": "\\ud800", "scenario": "simple_little_war"}',
            '{"seed": NaN}',
            '{"seed": 1e999}',
            '{"tag": "\\udfff", "decision": {"kind": "buy", "type": "\\ud83d"}}',
            '{"type": "hello", "token": "\\ud800"}',
            "[]",
            "null",
            '"a"',
        ]
    ),
    st.integers(1, 40).map(lambda n: '{"game": "' + "x" * (n * 1000) + '"}'),
    st.integers(1, 20).map(lambda n: '{"seats": {' + ",".join(f'"s{i}": {{}}' for i in range(n * 100)) + "}}"),
).map(lambda b: b if isinstance(b, bytes) else b.encode("utf-8", "surrogatepass"))
seats = st.dictionaries(
    st.sampled_from(["attacker", "defender", "french", "x" * 80]) | st.text(max_size=5),
    st.fixed_dictionaries(
        {},
        optional={
            "kind": st.sampled_from(["human", "remote", "robot", "x" * 100]) | values,  # no computer: no CPU spent
            "player": st.sampled_from(["general", "random", "greedy:hard", "x" * 100]) | values,
        },
    )
    | values,
    max_size=3,
)
creates = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(NAMES) | values,
        "scenario": st.sampled_from(NAMES) | values,
        "seats": seats,
        "seed": st.integers(min_value=-(2**80), max_value=2**80) | values,
        "options": st.dictionaries(st.sampled_from(["view", "hit", "kill", "attacker_handicap", "x"]), values),
    },
)


def decisions(kinds: list[str]) -> st.SearchStrategy[Any]:
    """Decisions of these kinds with each of their fields, of its type or not, or any value at all."""
    anything = st.integers(-(2**70), 2**70) | st.text(max_size=12) | st.booleans() | values

    def shaped(kind: str) -> st.SearchStrategy[Any]:
        fields = {f.name: f.type for f in dataclasses.fields(KINDS[kind])}
        typed = {name: st.integers(-3, 2000) if "int" in str(tp) else anything for name, tp in fields.items()}
        return st.fixed_dictionaries({"kind": st.just(kind), **typed})

    return st.sampled_from(kinds).flatmap(shaped) | values


class Target:
    """The live server, its one game, and a websocket that said hello as the defender."""

    def __init__(self, server: Server, game: str, tokens: dict[str, str], ws: ClientConnection) -> None:
        self.server = server
        self.game, self.tokens = game, tokens
        assert server.decide(self.game, self.tokens["attacker"], {"kind": "buy", "type": "infantry"}).status_code == 200
        self.client = httpx.Client(timeout=60)
        self.created = 0
        self.ws = ws
        self.ws.send(json.dumps({"type": "hello", "token": self.tokens["defender"]}))
        assert json.loads(self.ws.recv(timeout=30))["type"] == "welcome"
        self.ws.recv(timeout=30)  # the position
        self.save = save_document(new_game(PerfectGeneral, "simple_little_war", None, 1))
        self.before = self.picture()

    def picture(self) -> tuple[Any, ...]:
        tags = tuple(self.server.update(self.game, t)["tag"] for t in self.tokens.values())
        with sqlite3.connect(self.server.db) as c:
            n = c.execute("SELECT count(*) FROM decisions WHERE game_id=?", (self.game,)).fetchone()[0]
            seats = c.execute("SELECT * FROM seats WHERE game_id=? ORDER BY seat", (self.game,)).fetchall()
        return tags, n, seats  # no claim (of an invitation claimed already) gave a seat a new token

    def games(self) -> int:
        with sqlite3.connect(self.server.db) as c:
            return int(c.execute("SELECT count(*) FROM games").fetchone()[0])

    def http(self, method: str, path: str, body: bytes | None = None, token: str | None = None) -> None:
        headers = {"content-type": "application/json", **(auth(token) if token else {})}
        r = self.client.request(method, self.server.url + path, content=body, headers=headers)
        assert r.status_code < 500, (method, path, body[:300] if body else None, r.status_code, r.text[:300])
        if r.status_code == 201:
            self.created += 1
        elif r.status_code >= 400 and r.headers.get("content-type", "").startswith("application/json"):
            assert r.json().get("error"), r.text[:300]

    def frame(self, message: str | bytes) -> None:
        """Send one websocket frame, then a question: its answer shows the connection still works."""
        self.ws.send(message)
        self.ws.send(json.dumps({"type": "inspect", "ref": "probe", "query": {"kind": "sight", "unit": "nobody"}}))
        while True:
            answer = json.loads(self.ws.recv(timeout=60))
            if answer.get("ref") == "probe":
                assert answer["type"] == "error", answer
                return


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    server = Server(tmp_path_factory.mktemp("fuzz") / "games.db").start()
    try:
        game, tokens = server.create(HOTSEAT, seed=5)
        url = server.url.replace("http", "ws") + f"/api/games/{game}/ws"
        with connect(url, max_size=2**24, ping_interval=None) as ws:  # a ping would draw from random mid-example
            t = Target(server, game, tokens, ws)
            yield t
            t.client.close()
    finally:
        server.stop()


def _tag(target: Target, seat: str) -> str:
    return str(target.server.update(target.game, target.tokens[seat])["tag"])


requests = st.one_of(
    st.tuples(st.just("create"), creates.map(lambda v: json.dumps(v).encode()) | raw),
    st.tuples(
        st.just("upload"),
        st.tuples(st.sampled_from(["delete", "set", "text"]), st.text(max_size=12), values, st.integers(0, 10**6)),
    ),
    st.tuples(st.just("decide-defender"), decisions(sorted(set(KINDS) - {"resign"}))),
    st.tuples(st.just("decide-attacker"), decisions(NOT_NOW)),
    st.tuples(
        st.just("post"),
        st.tuples(
            st.sampled_from(["decisions", "undo", "go_on", "claim"]),
            st.sampled_from(["attacker", "defender", "forged"]),
            raw | values.map(lambda v: json.dumps(v).encode()),
        ),
    ),
    st.tuples(
        st.just("get"),
        st.tuples(
            st.sampled_from(["maps", "game", "replay", "map", "save"]),
            st.text(max_size=80) | st.sampled_from(NAMES),
            st.integers(-(2**70), 2**70),
        ),
    ),
    st.tuples(
        st.just("ws"),
        raw
        | values.map(json.dumps)
        | st.fixed_dictionaries(
            {"type": st.sampled_from(["hello", "decide", "undo", "go_on", "inspect"]) | values},
            optional={
                "token": values,
                "tag": values,
                "decision": decisions(sorted(KINDS)),
                "query": values,
                "ref": values,
            },
        ).map(json.dumps),
    ),
)


def _send(target: Target, kind: str, payload: Any) -> None:
    game, tokens = target.game, target.tokens
    if kind == "create":
        target.http("POST", "/api/games", payload)
    elif kind == "upload":
        how, key, value, at = payload
        save = json.loads(json.dumps(target.save))
        if how == "delete":
            save.pop(key if key in save else sorted(save)[at % len(save)], None)
        elif how == "set":
            save[key if key in save else sorted(save)[at % len(save)]] = value
        body: Any = save
        if how == "text":
            text = json.dumps(save)
            body = text[: at % len(text)] + json.dumps(value) + text[at % len(text) :]
        target.http(
            "POST", "/api/games/upload", json.dumps({"save": body, "seats": {"attacker": {"kind": "human"}}}).encode()
        )
    elif kind in ("decide-defender", "decide-attacker"):
        seat = kind.removeprefix("decide-")
        body = json.dumps({"tag": _tag(target, seat), "decision": payload}).encode()
        target.http("POST", f"/api/games/{game}/decisions", body, tokens[seat])
    elif kind == "post":
        what, seat, body = payload
        target.http("POST", f"/api/games/{game}/{what}", body, tokens.get(seat, "forged-token-0123456789"))
    elif kind == "get":
        what, name, step = payload
        path = {
            "maps": f"/api/maps/perfect_general/{quote(name, safe='')}",
            "game": f"/api/games/{quote(name, safe='')}",
            "replay": f"/api/games/{game}/replay/{step}",
            "map": f"/api/games/{quote(name, safe='') or game}/map",
            "save": f"/api/games/{game}/save",
        }[what]
        target.http("GET", path, None, tokens["defender"] if what != "game" else None)
    else:
        target.frame(payload)


def test_no_malformed_request_breaks_the_server_or_changes_a_game(
    target: Target, request: pytest.FixtureRequest
) -> None:
    examples = request.config.getoption("--fuzz-long") or SHORT
    games_before = target.games()

    @settings(
        max_examples=examples,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )
    @given(requests)
    def one(req: tuple[str, Any]) -> None:
        _send(target, *req)

    one()
    assert target.picture() == target.before, "a refused request changed the game"
    assert target.games() == games_before + target.created, "a refused request wrote a game"
    log = target.server.log()
    assert "Traceback" not in log and "Exception" not in log, log[-3000:]
    assert target.server.proc is not None and target.server.proc.poll() is None
