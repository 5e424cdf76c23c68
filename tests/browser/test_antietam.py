"""Battle of Antietam in real headless Chromium, against the computer, with hidden units on (§IA2.1 #5): the
activation prompt (§IA3.1), a unit picked up and its unit display (§IA7.2), a move, a fire plot drawn as an arrow
for its own side (§IA7.13), the combat steps with their rolls and table rows, the map north up; and no
Confederate unit the Union has not sighted ever reaches the Union's page."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from browser_pages import Player, full_game, game_id_of, hidden_absent
from live_server import Server

ROOT = Path(__file__).resolve().parents[2]
# refreshed on request (GROGNARD_SCREENSHOTS=1), like the other games' (test_browser.py)
DOCS_SCREENSHOT = ROOT / "docs" / "screenshots" / "antietam.png"


def start(me: Player, options: dict[str, Any], seed: int, scenario: str = "", computer: str = "") -> None:
    """A new game from the lobby: the Union here, the Confederates the computer's (the lobby's default player, or
    ``computer``); the full battle, or ``scenario``."""
    me.lobby()
    me.page.select_option("#game", "antietam")
    me.page.wait_for_selector("#seats select[data-seat=union]")
    me.page.select_option("select[data-seat=union]", "human")
    if computer:
        me.page.select_option("select[data-seat=confederate]", computer)
    if scenario:
        me.page.check(f"input[name=scenario][value='{scenario}']")
    for name, value in options.items():
        me.page.select_option(f'#options [name="{name}"]', json.dumps(value))
    me.page.click("details.advanced summary")
    me.page.fill("#seed", str(seed))
    me.page.click("#start")
    me.page.wait_for_selector(".layer-units .counter", timeout=60_000)


def last_update(me: Player) -> dict[str, Any]:
    return [m for m in me.messages() if m["type"] == "update"][-1]


def family(update: dict[str, Any], kind: str) -> dict[str, Any] | None:
    return next((f for f in (update["legal"] or {}).get("choices", []) if f["kind"] == kind), None)


def click_square(me: Player, cell: int) -> None:
    """A click on a square of the map (its terrain, under whatever stands there)."""
    me.ready()
    me.page.click(f".layer-terrain polygon[data-cell='{cell}']", force=True)
    me.ready()


def test_antietam_against_the_computer_with_hidden_units(browser: Any, server: Server, tmp_path: Path) -> None:
    shot = DOCS_SCREENSHOT if os.environ.get("GROGNARD_SCREENSHOTS") else tmp_path / "antietam.png"
    me = Player(browser, server)
    start(me, {"game": "intermediate", "display": "symbols"}, seed=5)
    game_id = game_id_of(me)
    columns = 42

    # north up: Sharpsburg (y 6-8) is drawn below the North Woods (y 24-25), the West Woods (x 32-34) left of the
    # East Woods (x 27-28), as on any map of the battle
    def centre(square: str) -> list[float]:
        x, y = map(int, square.split(","))
        js = "n => { const b = n.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; }"
        return list(me.page.eval_on_selector(f".layer-terrain polygon[data-cell='{y * columns + x}']", js))

    assert centre("32,7")[1] > centre("30,24")[1] and centre("33,18")[0] < centre("27,21")[0]
    assert me.page.query_selector(".atm-creek") and len(me.page.query_selector_all(".atm-bridge")) == 3
    assert len(me.page.query_selector_all(".atm-contour")) > 100 and me.page.query_selector_all(".atm-tree")
    assert len(me.page.query_selector_all(".atm-vp")) == 8 and me.page.query_selector(".atm-north")

    # §IA3.1: McClellan offers the divisions one by one; activate the first, bypass the rest until operations
    me.wait_prompt("^activate .*'s division\\?")
    assert "McClellan asks: activate" in me.page.inner_text(".atm-activation")
    assert "activations left this turn" in me.page.inner_text(".atm-activation")
    offered = last_update(me)["view"]["state"]["activation"]["offer"][0]
    framed = me.page.eval_on_selector_all(".atm-division", "ns => ns.map(n => n.dataset.division)")
    division = {u["id"] for u in last_update(me)["view"]["state"]["units"] if u.get("division") == offered}
    assert framed and set(framed) <= division  # "inverse all squares that contain units of that division"
    me.page.keyboard.press("y")  # a YES/NO question: Y activates
    me.page.wait_for_function(
        "d => document.querySelector('#log').textContent.includes(d + \"'s division is activated\")", arg=offered
    )
    for _ in range(40):
        if not me.page.query_selector("[data-kind=bypass] button"):
            break
        me.click("[data-kind=bypass] button")
    me.wait_prompt("^operation phase")
    hidden_absent(me, server, game_id, "union")

    # SPACE BAR: a click on a square of ours picks its unit up; the unit display shows its figures (§IA7.2)
    update = last_update(me)
    ready = family(update, "access")["hint"]
    units = {u["id"]: u for u in update["view"]["state"]["units"]}
    mover = next(uid for uid in ready if units[uid]["type"] == "infantry" and units[uid]["active"])
    click_square(me, units[mover]["cell"])
    me.page.wait_for_function("u => window.grognard.selected === u", arg=mover)
    u = units[mover]
    pages = me.page.eval_on_selector_all(f"pre.atm-display[data-unit='{mover}']", "ns => ns.map(n => n.textContent)")
    assert len(pages) == 2  # the display's two pages
    display = "\n".join(pages)
    assert f"{u['men']} MEN" in display and f"MRL:{u['morale']}" in display and f"EFF:{u['eff']}" in display
    assert f"OP:{u['op']}" in display and f"DIR:{u['facing']}" in display and "CC.IN" in display
    assert f"X,Y:{u['square']}" in display and u["mode"].upper() in display
    card = me.page.inner_text(f".unit-card[data-unit='{mover}']")
    for words in ("Men", "Effectiveness", "Fatigue", "Morale", "Ammunition", "Mode", "Operation points", "Facing"):
        assert words in card
    assert "Command control" in card
    me.page.keyboard.press("v")  # V: the squares it sees (§B3.1)
    me.page.wait_for_selector(".layer-marks polygon.sight")
    me.page.keyboard.press("v")
    me.page.wait_for_selector(".layer-marks polygon.sight", state="detached")

    # a green square moves it (keys 1-8 do too)
    moves = me.page.eval_on_selector_all(".layer-marks polygon.hl-move", "ns => ns.map(n => Number(n.dataset.cell))")
    assert moves
    click_square(me, moves[0])
    me.page.wait_for_function("u => document.querySelector('#log').textContent.includes(u + ' moves')", arg=u["name"])
    # Z: the unit goes back as it was picked up (§IA7.3), still picked up; the same square moves it again
    me.page.keyboard.press("z")
    back = f"{u['name']} goes back to {u['square']}"
    me.page.wait_for_function("t => document.querySelector('#log').textContent.includes(t)", arg=back)
    click_square(me, moves[0])
    me.page.wait_for_function(
        "u => document.querySelector('#log').textContent.split(u + ' moves').length === 3", arg=u["name"]
    )

    # F: a unit with an enemy square in range and sight; a click on the red square plots fire: an arrow
    update = last_update(me)
    plot = family(update, "plot")
    assert plot is not None
    firer, targets = next(iter(sorted(plot["hint"].items())))
    units = {x["id"]: x for x in update["view"]["state"]["units"]}
    if units[firer]["cell"] != units.get(update["view"]["state"]["accessed"], {}).get("cell"):
        click_square(me, units[firer]["cell"])
    if me.page.evaluate("window.grognard.selected") != firer:
        me.page.click(f".layer-units [data-unit='{firer}']", force=True)
    me.page.wait_for_selector(f".atm-target[data-target='{targets[0]}']")
    me.page.click(f".atm-target[data-target='{targets[0]}']", force=True)  # under the enemy's counter
    me.page.wait_for_selector(f".atm-arrow[data-plot='{firer}'][data-to='{targets[0]}']")
    own = {x["id"] for x in last_update(me)["view"]["state"]["units"] if x["side"] == "union"}
    arrows = me.page.eval_on_selector_all(".atm-arrow[data-plot]", "ns => ns.map(n => n.dataset.plot)")
    assert arrows and set(arrows) <= own  # the seat's own plots only

    me.page.set_viewport_size({"width": 1280, "height": 800})
    me.page.evaluate("window.grognard.map.zoom(0.62, 0.3, 0.5)")  # the fields from the North Woods to Sharpsburg
    me.page.wait_for_timeout(400)
    shot.parent.mkdir(parents=True, exist_ok=True)
    me.page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    hidden_absent(me, server, game_id, "union")

    # C: on to combat; the computer plays its phases; the steps are listed with their rolls and table rows
    me.click("button[data-kind=end_phase]")
    me.page.wait_for_selector(".atm-combat[open] li", timeout=120_000)
    me.wait_prompt("^(operation phase|activate)")
    steps = "\n".join(me.page.eval_on_selector_all(".atm-combat", "ns => ns.map(n => n.textContent)"))
    assert "Union combat phase" in steps and "Confederate combat phase" in steps
    assert re.search(r"Weapon/range table: \w+ at range \d+: \d+ per (100 men|gun) × \d+", steps), steps
    assert re.search(r"d(100|\d+) \d+", steps)
    _, hidden = hidden_absent(me, server, game_id, "union")
    assert hidden, "some Confederate units should be out of the Union's sight"
    assert me.errors == []


def test_the_time_limit_is_the_servers_clock(browser: Any, server: Server) -> None:
    """§IA2.1 #6: the clock of the operation phase shows the time the server gives the seat (its message's
    ``time_left``) counting down; the server ends the phase when it runs out (tests/server/test_time_limit.py)."""
    me = Player(browser, server)
    start(me, {"time_limit": 2}, seed=9)
    me.wait_prompt("^operation phase")
    me.page.wait_for_selector("#atm-clock")
    first = me.page.inner_text("#atm-clock")
    assert re.search(r"time left [12]:\d\d", first)
    me.page.wait_for_function(f"document.querySelector('#atm-clock').textContent !== {first!r}")
    assert "Union combat phase" not in me.log()
    assert me.errors == []


def test_the_end_screen_shows_the_score_the_level_and_both_sides_losses(browser: Any, server: Server) -> None:
    """§IA10: the level of victory, the score with each side's points, and the losses of both sides. The IX
    Corps' afternoon (four turns) against the random player, every operation phase ended at once (C)."""
    me = Player(browser, server)
    start(me, {}, seed=4, scenario="5_ix_corps", computer="computer:random")
    for _ in range(12):
        me.page.wait_for_selector("button[data-kind=end_phase], .final-card", timeout=60_000)
        if me.page.query_selector(".final-card"):
            break
        me.click("button[data-kind=end_phase]")
    me.page.wait_for_selector(".final-card")
    full = full_game(server, game_id_of(me))
    result = full.result()
    assert result is not None
    card = me.page.inner_text(".final-card")
    assert card.startswith(result.levels["union"])
    union, confederate = result.scores["union"], result.scores["confederate"]
    assert f"Score {union - confederate}: Union {union} points, Confederate {confederate}" in card
    losses = full.state.losses
    assert f"Union losses: {losses[0]} infantry, {losses[1]} cavalry, {losses[2]} guns" in card
    assert f"Confederate losses: {losses[3]} infantry, {losses[4]} cavalry, {losses[5]} guns" in card
    assert me.errors == []
