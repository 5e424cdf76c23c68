"""The Perfect General's words and unit data in the browser (issue 15 items 8 and 9)."""

from __future__ import annotations

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
