"""No phase ends under a click (issue 15 item 7): an "e" or "Done" that comes just as a new phase appears was
meant for the old one, and is not taken; once the phase has been seen, it is."""

from __future__ import annotations

from typing import Any

from browser_pages import Player, create, full_game, game_id_of
from live_server import Server


def test_an_e_pressed_as_the_next_phase_appears_does_not_end_it(browser: Any, server: Server) -> None:
    me = Player(browser, server)
    create(me, {"attacker": "human", "defender": "computer:greedy"}, seed=2)
    me.wait_prompt("^buy your units")
    me.click(".decide button:has-text(' Infantry (')")
    me.click("button[data-kind=done_buying]")
    if me.page.query_selector("[data-kind=confirm]"):
        me.page.click("[data-kind=confirm] button[data-value=true]")
    me.wait_prompt("^place your units")  # the placement phase has just come up
    me.page.keyboard.press("e")  # meant for the purchase: it must not end the placement unseen
    me.page.wait_for_selector(".toast:has-text('the phase has changed')")
    me.page.wait_for_timeout(300)
    assert me.prompt().startswith("place your units")
    game = full_game(server, game_id_of(me))
    assert game.log[-1].decision.kind != "done_placing" and "placement" in game.turn().phase
    me.ready()  # seen long enough: now "e" ends the phase (after placing, since PG p.10 wants the force placed)
    me.page.wait_for_selector(".layer-marks polygon")  # the placement cells, asked for once it is armed
    cells = me.page.eval_on_selector_all(".layer-marks polygon", "ns => ns.map(n => n.dataset.cell)")
    me.click(f".layer-marks polygon[data-cell='{cells[0]}']")
    me.page.keyboard.press("e")
    me.page.wait_for_function("document.querySelector('#log').textContent.includes('attacker ends placement')")
    assert me.errors == []
