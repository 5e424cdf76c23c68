"""Reactions without drudgery in the browser (issue 15): with "take the best shot at 50% or more" set, an
enemy's movement past the seat's units asks it nothing; the one driver answers each offer as its decision."""

from __future__ import annotations

from typing import Any

from browser_pages import Player, create, full_game, game_id_of
from live_server import Server


def test_with_the_best_shot_at_fifty_per_cent_an_enemy_move_asks_nothing(browser: Any, server: Server) -> None:
    me = Player(browser, server)
    create(me, {"attacker": "computer:general:normal", "defender": "human"}, seed=4)
    me.buy_and_place(["Infantry", "Infantry", "Bazooka", "Bazooka", "Medium Tank"])
    me.ready()
    me.page.click("details.reactions summary")
    for kind in ("passing", "return"):
        me.page.select_option(f"select[data-reaction={kind}]", "best")
        me.ready()
        me.page.wait_for_selector(f"input[data-percent={kind}]:not([hidden])")
        assert me.page.input_value(f"input[data-percent={kind}]") == "50"
    asked = []
    done = "button[data-kind^=done_], [data-kind=confirm] button[data-value=true]"
    for _ in range(150):  # our own phases end with "done"; the enemy's offers must never reach us
        me.page.wait_for_selector(f"{done}, button[data-kind=hold_fire]", timeout=120_000)
        prompt = me.prompt()
        if "fire?" in prompt or me.page.query_selector("button[data-kind=hold_fire]"):
            asked.append(prompt)
            break
        if "Turn 4 /" in me.page.inner_text("header"):
            break
        me.click(done)
    assert asked == []
    game = full_game(server, game_id_of(me))
    settings = [e.decision for e in game.log if e.decision.kind == "reaction_setting"]
    assert [(s.reaction, s.mode, s.percent) for s in settings] == [("passing", "best", 50), ("return", "best", 50)]
    answers = [
        e.decision.kind for e in game.log if e.seat == "defender" and e.decision.kind in ("passing_fire", "hold_fire")
    ]
    assert len(answers) >= 3  # the enemy moved past several of our units, and each offer was answered for us
    assert me.errors == []
