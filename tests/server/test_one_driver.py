"""One driver (issue 12 item 4): a game played on the server with a computer seat is the game ``simulate``
plays with the same seats and seed, and its exported save replays and verifies."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from grognard.ai import make_player
from grognard.ai.base import seat_seed
from grognard.ai.driver import computer_decision
from grognard.cli.main import main
from grognard.engine.game import new_game
from grognard.rulesets.perfect_general import PerfectGeneral
from live_server import Server, auth

SEED = 21
SCENARIO = "simple_little_war"


# the general's reflexes (passing fire declined from the offer's chances) are made by the server, its other
# decisions by the computers' worker (test_reflexes.py)
@pytest.mark.parametrize("kind", ["greedy", "general"])
def test_a_server_game_is_the_game_simulate_plays_and_its_save_verifies(
    server: Server, tmp_path: Path, capsys, kind: str
) -> None:
    # the person's seat is played by the player simulate would put there; the server plays the other seat
    seats = {"attacker": {"kind": "human"}, "defender": {"kind": "computer", "player": kind}}
    game_id, tokens = server.create(seats, seed=SEED, scenario=SCENARIO)
    person = {"attacker": make_player("random", PerfectGeneral, seat_seed(SEED, "attacker"))}
    computer = {"defender": make_player(kind, PerfectGeneral, seat_seed(SEED, "defender"))}
    mirror = new_game(PerfectGeneral, SCENARIO, None, SEED)  # what the person knows the server did, and more
    me = auth(tokens["attacker"])
    with httpx.Client(timeout=120) as http:
        while not mirror.over:
            due = computer_decision(mirror, computer)  # the server has made this one already
            if due is None:
                due = computer_decision(mirror, person)
                assert due is not None
                tag = http.get(f"{server.url}/api/games/{game_id}/update", headers=auth(tokens["attacker"])).json()[
                    "tag"
                ]
                r = http.post(
                    f"{server.url}/api/games/{game_id}/decisions",
                    headers=auth(tokens["attacker"]),
                    json={"tag": tag, "decision": due[1].to_json()},
                )
                assert r.status_code == 200, r.text
            mirror.apply(*due)
        save = http.get(f"{server.url}/api/games/{game_id}/save", headers=me).json()
    assert save["digest"] == mirror.digest()
    path = tmp_path / "server-game.json"
    path.write_text(json.dumps(save))
    assert main(["replay", str(path), "--verify"]) == 0
    capsys.readouterr()
    assert (
        main(["simulate", "perfect_general", SCENARIO, "--seed", str(SEED), "--players", f"random,{kind}", "--json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["digest"] == save["digest"]
