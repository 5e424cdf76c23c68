"""A person's reactions while a computer has the turn: La Grande Armée's reinforce and withdraw (§5.65-5.66)."""

from __future__ import annotations

import time
from typing import Any

from live_server import Server

FRENCH_VS_COMPUTER = {
    "french": {"kind": "human"},
    "allied": {"kind": "computer", "player": "greedy"},
    "neutral": {"kind": "computer", "player": "greedy"},
}


def kinds(update: dict[str, Any]) -> list[str]:
    return [f["kind"] for f in (update["legal"] or {}).get("choices", [])]


def end_my_turn(server: Server, game: str, token: str) -> None:
    if "end_build" in kinds(server.update(game, token)):
        assert server.decide(game, token, {"kind": "end_build"}).status_code == 200
    assert server.decide(game, token, {"kind": "end_movement"}).status_code == 200


def test_the_computer_waits_after_its_attack_until_the_defender_lets_it_go_on(server: Server) -> None:
    """§5.65-5.66: after the mover's first attack the defending player may reinforce, withdraw or change the
    unit on top of a stack; a computer mover waits after each attack until the person lets it go on, and the
    person may make several reactions meanwhile."""
    game, tokens = server.create(FRENCH_VS_COMPUTER, seed=3, game="grande_armee", scenario="1_austrian_challenge")
    me = tokens["french"]
    end_my_turn(server, game, me)
    update = server.update(game, me)
    assert update.get("hold") is True
    state = update["view"]["state"]
    assert update["view"]["turn"]["seat"] == "allied" and state["attacked"] and state["phase"] == "movement_combat"
    assert update["legal"]["prompt"].startswith("The Allied player has attacked")
    log = update["view"]
    time.sleep(0.5)
    assert server.update(game, me)["view"] == log  # the computer waits

    # a reaction keeps the wait: the person may make another
    set_top = next(f for f in update["legal"]["choices"] if f["kind"] == "set_top")
    assert server.decide(game, me, {"kind": "set_top", "unit": set_top["values"][0]}).status_code == 200
    update = server.update(game, me)
    assert update.get("hold") is True and update["view"]["turn"]["seat"] == "allied"

    # letting it go on: the computer moves on (to its next attack, or to the end of its turn)
    answer = server.go_on(game, me)
    assert answer.status_code == 200, answer.text
    after = server.update(game, me)
    assert after["view"] != update["view"]
    if not after.get("hold"):
        assert server.go_on(game, me).status_code == 409  # nothing waits for us: refused, nothing changes
    for _ in range(20):  # every later attack waits for us too, until our next turn
        if not after.get("hold"):
            break
        assert server.go_on(game, me).status_code == 200
        after = server.update(game, me)
    assert after["view"]["turn"]["seat"] == "french"


def test_the_wait_survives_a_restart(server: Server) -> None:
    """The wait is worked out from the decision log, so a restart does not let the computer run on."""
    game, tokens = server.create(FRENCH_VS_COMPUTER, seed=3, game="grande_armee", scenario="1_austrian_challenge")
    me = tokens["french"]
    end_my_turn(server, game, me)
    before = server.update(game, me)
    assert before.get("hold") is True
    server.stop()
    server.start()
    after = server.update(game, me)
    assert after.get("hold") is True and after["view"] == before["view"]
