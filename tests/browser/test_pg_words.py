"""The Perfect General's words and unit data in the browser (issue 15 items 8 and 9)."""

from __future__ import annotations

import re
from typing import Any

from browser_pages import Player, create
from live_server import Server


def test_the_unit_data_table_and_a_placed_units_card_show_range_by_target_movement_defence_and_cost(
    browser: Any, server: Server
) -> None:
    me = Player(browser, server)
    create(me, {"attacker": "human", "defender": "computer:general:normal"}, seed=3)
    me.wait_prompt("^buy your units")
    # the table, one row a unit type, as the manual's Appendix B would have shown it
    me.page.wait_for_selector("details.unit-data table", state="attached")
    me.page.click("details.unit-data summary")
    me.page.wait_for_selector("details.unit-data table")
    header = me.page.eval_on_selector_all("details.unit-data th", "ns => ns.map(n => n.textContent)")
    assert header[:3] == ["unit", "cost", "move"] and "defence" in header and header[-1] == "HA"
    rows = me.page.eval_on_selector_all("details.unit-data tbody tr", "ns => ns.map(n => n.textContent)")
    assert len(rows) == 11 and any(r.startswith("Armored Car59") for r in rows)
    # the buy buttons read as words: "buy an Infantry (1 point)"
    assert me.page.query_selector(".decide button:has-text('buy an Infantry (1 point)')")
    me.buy_and_place(["Medium Tank", "Infantry"])
    me.page.wait_for_selector(".counter[data-unit]")
    unit = me.page.get_attribute(".counter[data-unit]", "data-unit")
    me.page.click(f".counter[data-unit='{unit}']")
    card = me.page.wait_for_selector(f".unit-card[data-unit='{unit}']").inner_text()
    assert "Range by target" in card and "Movement" in card and "Defence" in card and "Cost" in card
    assert unit not in card  # the card names the unit by what it is and where it stands, not by its id


def _play_out(me: Player) -> None:
    """End each of our phases (buying nothing) until the game is over."""
    for _ in range(300):
        if me.page.query_selector(".final-card"):
            return
        me.ready()
        if me.page.query_selector(".final-card"):
            return
        ends = (
            "button[data-kind^=done_], [data-kind=confirm] button[data-value=true], button[data-kind=hold_fire], "
            "button[data-kind=go_on]"
        )
        try:
            me.page.wait_for_selector(f"{ends}, .final-card", state="attached", timeout=60_000)
        except Exception as e:
            raise AssertionError(me.page.inner_text(".decide")) from e
        if not me.page.query_selector(".final-card"):
            me.click(ends)
    raise AssertionError("the game did not end")


def test_the_match_game_is_played_in_the_browser_twice_with_sides_swapped_and_points_added_p3(
    browser: Any, server: Server
) -> None:
    me = Player(browser, server)
    me.lobby()
    me.page.select_option("select[data-seat=attacker]", "human")
    me.page.select_option("select[data-seat=defender]", "computer:greedy")
    me.page.check("#match")
    me.page.click("details.advanced summary")
    me.page.fill("#seed", "5")
    me.page.click("#start")
    me.wait_prompt("^buy your units")
    assert me.page.inner_text("#seat") == "you: attacker"
    _play_out(me)
    first = me.page.inner_text(".final-card")
    a1, d1 = (int(x) for x in re.search(r"attacker (\d+), defender (\d+) victory points", first).groups())
    me.page.click("button[data-kind=match_next]")
    me.page.wait_for_url("**/game.html?match=2#game=*")
    me.page.wait_for_selector("#seat:has-text('you: defender')")  # player 1 on the other side
    _play_out(me)
    second = me.page.inner_text(".final-card")
    a2, d2 = (int(x) for x in re.search(r"attacker (\d+), defender (\d+) victory points", second).groups())
    result = me.page.inner_text(".match-result")
    assert result.startswith(f"Match: player 1 {a1 + d2}, player 2 {d1 + a2}")
    assert me.errors == []
