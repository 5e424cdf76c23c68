"""Messages that scale (issue 17, item 4): a family over locations with many values goes in a seat's message as
its count, and its values come when the page asks for them, from the same legal set; the computers play in
worker processes that end with their server."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import httpx
from test_server import HUMAN_VS_COMPUTER, family, opening, rebuilt
from websockets.sync.client import connect

from grognard.server.fog import LIST_UP_TO
from live_server import Server, auth


def _to_placement(server: Server, game: str, token: str) -> None:
    """The attacker buys two units and comes to place them."""
    for t in ("medium_tank", "infantry"):
        assert server.decide(game, token, {"kind": "buy", "type": t}).status_code == 200
    assert server.decide(game, token, {"kind": "done_buying"}).status_code == 200
    if family(server.update(game, token), "confirm"):
        assert server.decide(game, token, {"kind": "confirm", "done": True}).status_code == 200


def _ask(server: Server, game: str, token: str, tag: str, families: Any) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/games/{game}/values", headers=auth(token), json={"tag": tag, "families": families}
    )


def test_a_units_destinations_come_as_a_count_and_are_answered_from_the_legal_set(shared_server: Server) -> None:
    s = shared_server
    game, tokens = s.create(HUMAN_VS_COMPUTER)
    token = tokens["attacker"]
    _to_placement(s, game, token)
    raw = s.update(game, token, values=False)
    place = next(f for f in raw["legal"]["choices"] if f["kind"] == "place")
    assert "values" not in place and place["count"] > LIST_UP_TO  # placement cells: a count only
    small = [f for f in raw["legal"]["choices"] if "count" not in f]
    assert all(f["field"] not in ("to", "cell", "at") or len(f["values"]) <= LIST_UP_TO for f in small)
    asked = [{"kind": "place", "fixed": place["fixed"]}]
    r = _ask(s, game, token, raw["tag"], asked)
    assert r.status_code == 200, r.text
    cells = r.json()["families"][0]["values"]
    full = rebuilt(s.db, game)
    legal = full.legal("attacker")
    (choice,) = [c for c in legal.choices if c.cls.kind == "place" and c.fixed == place["fixed"]]
    assert cells == list(choice.values()) and len(cells) == place["count"]
    # the answer's cells are the ones the rules accept: one of them placed is taken
    assert s.decide(game, token, {"kind": "place", **place["fixed"], "cell": cells[-1]}, raw["tag"]).status_code == 200


def test_a_question_about_values_is_refused_for_a_stale_position_or_a_family_not_the_seats(
    shared_server: Server,
) -> None:
    s = shared_server
    game, tokens = s.create({"attacker": {"kind": "human"}, "defender": {"kind": "human"}})
    att, dfn = tokens["attacker"], tokens["defender"]
    _to_placement(s, game, att)
    raw = s.update(game, att, values=False)
    place = next(f for f in raw["legal"]["choices"] if f["kind"] == "place")
    asked = [{"kind": "place", "fixed": place["fixed"]}]
    other = s.update(game, dfn, values=False)
    refused = _ask(s, game, dfn, other["tag"], asked)  # the attacker's family, asked by the defender
    assert refused.status_code == 422
    nothing = _ask(s, game, att, raw["tag"], [{"kind": "place", "fixed": {"type": "no_such_type"}}])
    assert nothing.status_code == 422 and nothing.json()["error"] == refused.json()["error"]
    assert _ask(s, game, att, "stale", asked).status_code == 409
    assert _ask(s, game, att, raw["tag"], "not a list").status_code == 422
    # on the websocket: the same answer, and a refused question is not followed by the position
    with connect(f"{s.url.replace('http', 'ws')}/api/games/{game}/ws") as ws:
        ws.send(json.dumps({"type": "hello", "token": att}))
        while json.loads(ws.recv())["type"] != "update":  # the welcome comes before the position
            continue
        ws.send(json.dumps({"type": "values", "ref": 7, "tag": raw["tag"], "families": asked}))
        answer = json.loads(ws.recv())
        assert answer["type"] == "values" and answer["ref"] == 7 and answer["tag"] == raw["tag"]
        assert len(answer["families"][0]["values"]) == place["count"]
        ws.send(json.dumps({"type": "values", "ref": 8, "tag": "stale", "families": asked}))
        assert json.loads(ws.recv())["type"] == "error"
        ws.send(json.dumps({"type": "values", "ref": 9, "tag": raw["tag"], "families": asked}))
        assert json.loads(ws.recv())["type"] == "values"  # no position came between


def test_an_update_leaves_out_the_parts_of_the_state_the_page_already_has(shared_server: Server) -> None:
    """A push names in ``kept`` the parts of ``view.state`` unchanged since the listener's last update and leaves
    them out; put back from that update, the view is the seat's whole view (the one HTTP answers with)."""
    s = shared_server
    game, tokens = s.create({"attacker": {"kind": "human"}, "defender": {"kind": "human"}})
    att = tokens["attacker"]
    with connect(f"{s.url.replace('http', 'ws')}/api/games/{game}/ws") as ws:
        ws.send(json.dumps({"type": "hello", "token": att}))
        while (first := json.loads(ws.recv()))["type"] != "update":
            continue
        assert "kept" not in first  # a new listener has nothing yet: the whole view
        ws.send(json.dumps({"type": "decide", "tag": first["tag"], "decision": {"kind": "buy", "type": "infantry"}}))
        while (second := json.loads(ws.recv()))["type"] != "update":
            continue
    kept = second["kept"]
    assert "towns" in kept and "sides" not in kept  # the towns are as they were; the points left changed
    assert not set(kept) & set(second["view"]["state"])
    whole = {**second["view"]["state"], **{k: first["view"]["state"][k] for k in kept}}
    assert whole == s.update(game, att)["view"]["state"]


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_the_computers_play_in_worker_processes_that_end_with_a_killed_server(tmp_path: Path) -> None:
    server = Server(tmp_path / "games.db").start()
    try:
        game, tokens = server.create(HUMAN_VS_COMPUTER)
        opening(server, game, tokens["attacker"])  # the general buys and places in its worker
        assert server.proc is not None
        cmdlines = {p: Path(f"/proc/{p}/cmdline").read_bytes() for p in _children(server.proc.pid)}
        workers = [p for p, cmdline in cmdlines.items() if b"grognard.server.computers" in cmdline]
        assert workers, "no worker process"
        assert any(u.side == "defender" for u in rebuilt(server.db, game).state.units)  # the general's, stored
    finally:
        server.kill()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.2)
    assert not any(_alive(p) for p in workers), "a worker outlived its server"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_games_that_share_a_ruleset_play_as_each_would_on_its_own() -> None:
    """Two games of one scenario on one shared ruleset (its board's caches filled by both, in turns) reach the
    digests each reaches on a ruleset of its own: sharing changes no rule."""
    from grognard.engine import Game
    from grognard.engine.rng import Dice
    from grognard.rulesets.perfect_general import PerfectGeneral
    from grognard.server.sessions import shared_rules

    ref = {"id": "simple_little_war"}
    scenario = PerfectGeneral.scenario_by_id(ref["id"])
    first = shared_rules(PerfectGeneral(scenario), ref)
    assert shared_rules(PerfectGeneral(scenario), ref) is first
    assert shared_rules(PerfectGeneral(scenario, {"view": "full"}), ref) is not first

    def play(games: list[Game], dices: list[Dice], steps: int) -> list[str]:
        for _ in range(steps):
            for game, dice in zip(games, dices, strict=True):
                if not game.over:
                    seat = game.turn().seat
                    assert seat is not None
                    game.apply(seat, game.legal(seat).sample(dice))
        return [g.digest() for g in games]

    together = play([Game(first, 1), Game(first, 2)], [Dice(5), Dice(6)], 300)
    alone = [play([Game(PerfectGeneral(scenario), s)], [Dice(d)], 300)[0] for s, d in ((1, 5), (2, 6))]
    assert together == alone


def test_a_push_joined_from_its_pieces_texts_is_the_message_itself() -> None:
    """``fog.update_text`` joins a push from the JSON of the message's pieces, each encoded once: it reads back as
    the message with the parts left out taken from its view's state and the extra entries added, at every
    position of a game; and the tag changes with anything the seat sees."""
    from grognard.ai import make_player
    from grognard.ai.driver import computer_decision
    from grognard.engine import Game
    from grognard.rulesets.perfect_general import PerfectGeneral
    from grognard.server import fog

    game = Game(PerfectGeneral(PerfectGeneral.scenario_by_id("dawn_patrol")), 4)
    players = {s: make_player("random", PerfectGeneral, i) for i, s in enumerate(PerfectGeneral.seats)}
    tags: dict[str, set[str]] = {s: set() for s in players}
    views: dict[str, set[str]] = {s: set() for s in players}
    while not game.over and len(game.log) < 150:
        for seat in players:
            core = fog.seat_core_texts(game, seat)
            tags[seat].add(core.message["tag"])
            views[seat].add(json.dumps([core.message[k] for k in ("view", "legal", "undo")], sort_keys=True))
            state = core.message["view"]["state"]
            for leave_out in ([], sorted(state)[:1], sorted(state)[1:]):
                extra = {"hold": True, "events_from": 3, "events": [{"kind": "x"}], "kept": leave_out}
                view = {**core.message["view"], "state": {k: v for k, v in state.items() if k not in leave_out}}
                expect = {**core.message, "view": view, **extra}
                assert json.loads(fog.update_text(core, leave_out, extra)) == expect
            assert json.loads(fog.update_text(core)) == core.message
        seat, decision = computer_decision(game, players) or ("", None)
        assert decision is not None
        game.apply(seat, decision)
    assert all(len(tags[s]) == len(views[s]) > 10 for s in players)  # one tag for each picture a seat had
