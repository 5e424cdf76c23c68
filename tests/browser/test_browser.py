"""The browser client in real headless Chromium (Debian's ``chromium``), driven by Playwright through clicks.

These tests fail, never skip, when Chromium is missing: CI installs it (``.ci/run``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from browser_pages import Player, create, game_id_of, hidden_absent
from live_server import Server

ROOT = Path(__file__).resolve().parents[2]
# The screenshot in docs/ is refreshed on request (GROGNARD_SCREENSHOTS=1 python -m pytest tests/browser), so an
# ordinary test run leaves the working tree clean; otherwise it goes to a temporary folder.
DOCS_SCREENSHOT = ROOT / "docs" / "screenshots" / "perfect_general.png"


def test_a_game_against_the_computer(browser: Any, server: Server, tmp_path: Path) -> None:
    shot = DOCS_SCREENSHOT if os.environ.get("GROGNARD_SCREENSHOTS") else tmp_path / "perfect_general.png"
    me = Player(browser, server)
    create(me, {"attacker": "human", "defender": "computer:general:normal"}, seed=3)
    me.buy_and_place(["Medium Tank", "Medium Tank", "Infantry", "Light Tank"])
    # the computer buys and places its army, then the turn begins: we see its answer in the log
    me.page.wait_for_function("document.querySelector('#log').textContent.includes('defender ends placement')")
    hidden = fog_holds(me, server, game_id_of(me))
    for _ in range(20):  # first fire (if any) until we may move
        if me.prompt().startswith("move your units"):
            break
        me.click("button[data-kind^=done_], button[data-kind=hold_fire]")
    assert me.prompt().startswith("move your units")

    # select a unit by clicking its counter on the map, then click a highlighted destination
    mover = me.page.get_attribute(".ready button", "data-unit")
    me.page.click(f".counter[data-unit='{mover}']")
    me.page.wait_for_selector(".layer-marks polygon.hl-move")
    targets = me.page.eval_on_selector_all(".layer-marks polygon.hl-move", "ns => ns.map(n => n.dataset.cell)")
    goal = targets[len(targets) // 2]
    # the pointer on a destination previews the path the move will take (PG p.14: smart moves)
    me.page.hover(f".layer-marks polygon[data-cell='{goal}']")
    start = me.page.get_attribute(f".counter[data-unit='{mover}']", "data-cell")
    path = me.page.wait_for_selector(".path").get_attribute("data-path").split()
    assert path[0] == start and path[-1] == goal and len(path) >= 2
    # l shows what the selected unit sees (p.32), and hides it again
    me.page.keyboard.press("l")
    me.page.wait_for_selector(f".sight[data-sight='{start}']")
    assert me.page.locator(".sight").count() > 1
    me.page.keyboard.press("l")
    me.page.wait_for_selector(".sight", state="detached")
    me.click(f".layer-marks polygon[data-cell='{goal}']")
    me.page.wait_for_function(
        "id => [...document.querySelectorAll('#log li')].some(li => li.textContent.includes('moves to'))", arg=mover
    )

    # the main screen, with another unit selected and its destinations highlighted
    me.wait_prompt("^move your units")
    others = [u for u in me.page.eval_on_selector_all(".ready button", "ns => ns.map(n => n.dataset.unit)")]
    if others:
        me.page.click(f".ready button[data-unit='{others[-1]}']")
        me.page.wait_for_selector(".layer-marks polygon")
    shot.parent.mkdir(parents=True, exist_ok=True)
    me.page.set_viewport_size({"width": 1024, "height": 640})  # a smaller file for docs/
    me.page.wait_for_timeout(300)
    me.page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000  # a real picture of the map, not a blank page
    me.page.set_viewport_size({"width": 1200, "height": 760})

    # reload: the same position comes back, and play goes on
    game_id = game_id_of(me)
    cell_before = me.page.get_attribute(f".counter[data-unit='{mover}']", "data-cell")
    me.page.reload()
    me.wait_prompt("^move your units")
    assert me.page.get_attribute(f".counter[data-unit='{mover}']", "data-cell") == cell_before
    assert "moves to" in me.log()
    # the server is killed and started again: the page reconnects by itself and play goes on
    server.kill()
    me.page.wait_for_function("document.querySelector('#conn').textContent.includes('reconnecting')")
    server.start()
    me.page.wait_for_function("document.querySelector('#conn').textContent === 'connected'", timeout=30_000)
    me.wait_prompt("^move your units")
    me.click("button[data-kind=done_moving]")
    me.page.wait_for_function(
        "document.querySelector('#log').textContent.match(/defender .* moves to|end of turn|defender ends/)",
        timeout=90_000,
    )

    hidden += fog_holds(me, server, game_id)
    assert hidden, "the scenario should leave some of the defender's units hidden"
    assert me.errors == []


def fog_holds(me: Player, server: Server, game_id: str) -> int:
    """Enemy units the attacker may not know of now are in no message the page received so far, nor in the
    page; returns how many there were (units never seen: their ids cannot have been sent)."""
    _, hidden = hidden_absent(me, server, game_id, "attacker")
    assert all(u["side"] == "attacker" or u["id"] not in hidden for m in me.messages() for u in _units(m))
    return len(hidden)


def _units(message: dict[str, Any]) -> list[dict[str, Any]]:
    return list(((message.get("view") or {}).get("state") or {}).get("units") or [])


def stored_tokens(player: Player) -> dict[str, Any]:
    """The seats this browser holds a token for, by game."""
    games = player.page.evaluate("JSON.parse(localStorage.getItem('grognard.games') || '[]')")
    return {g["id"]: g["tokens"] for g in games}


def test_two_browsers_two_seats(browser: Any, server: Server) -> None:
    """Issue 15, item 5: an invitation is claimed once; the creator's browser never holds the remote seat's
    token and cannot open that seat; only the creator deletes the game; the invitee's lobby names the seats
    from where it sits."""
    host = Player(browser, server)
    create(host, {"attacker": "human", "defender": "remote"}, seed=8)
    link = host.page.input_value("input.invite[data-seat=defender]")
    assert "invite=" in link and "token=" not in link
    game_id = link.split("game=")[1].split("&")[0]
    assert list(stored_tokens(host)[game_id]) == ["attacker"]  # the remote seat's secret is not here
    host.lobby()
    host.page.wait_for_selector(
        f"#my-games tr[data-game='{game_id}'] td:has-text('defender: invited: not claimed yet')"
    )
    guest = Player(browser, server)
    guest.page.goto(link)
    guest.ready()
    assert "invite=" not in guest.page.url  # the invitation leaves the address bar once used
    assert list(stored_tokens(guest)[game_id]) == ["defender"]
    # the link is spent: the creator's browser opening it again gets no seat
    again = host.context.new_page()
    again.goto(link)
    again.wait_for_selector("#conn:has-text('already been claimed')")
    assert "defender" not in stored_tokens(host)[game_id]
    again.close()
    host.lobby()
    host.page.wait_for_selector(f"#my-games tr[data-game='{game_id}'] td:has-text('defender: invited: claimed')")
    assert not host.page.query_selector(f"#my-games tr[data-game='{game_id}'] button:has-text('Copy invitation')")
    guest.lobby()
    row = f"#my-games tr[data-game='{game_id}']"
    guest.page.wait_for_selector(f"{row} td:has-text('defender: you (here)')")
    assert "attacker: the host" in guest.page.inner_text(row)
    assert guest.page.query_selector(f"{row} button.danger") is None  # only the creator deletes
    guest.page.goto(f"{server.url}/game.html#game={game_id}")
    host.page.goto(f"{server.url}/game.html#game={game_id}")

    host.buy_and_place(["Infantry", "Medium Tank"])
    guest.buy_and_place(["Infantry", "Bazooka"])
    guest.page.wait_for_function("document.querySelector('#log').textContent.includes('attacker ends placement')")
    host.page.wait_for_function("document.querySelector('#log').textContent.includes('defender ends placement')")
    assert "you: defender" in guest.page.inner_text("#seat")
    assert "you: attacker" in host.page.inner_text("#seat")
    # each seat's messages only ever carried its own seat's decisions
    assert all(m.get("legal") is None or m["legal"]["seat"] == "defender" for m in guest.messages())
    assert all(m.get("legal") is None or m["legal"]["seat"] == "attacker" for m in host.messages())
    # the lobby lists the game in the host's browser; deleting it there ends it for the guest too
    host.lobby()
    host.page.wait_for_selector(f"#my-games tr[data-game='{game_id}']")
    host.page.on("dialog", lambda d: d.accept())
    host.page.click(f"#my-games tr[data-game='{game_id}'] button.danger")
    host.page.wait_for_selector(f"#my-games tr[data-game='{game_id}']", state="detached")
    guest.page.wait_for_selector(".toast:has-text('deleted')")
    guest.lobby()
    guest.page.wait_for_selector(f"#my-games tr[data-game='{game_id}'] td:has-text('no game')")
    assert host.errors == [] and guest.errors == []


def test_open_a_save_and_replay_it(browser: Any, server: Server, tmp_path: Path) -> None:
    from grognard.ai import parse_players, play_out
    from grognard.engine.game import new_game
    from grognard.persistence import write_save
    from grognard.rulesets.perfect_general import PerfectGeneral

    game = new_game(PerfectGeneral, "simple_little_war", None, 2)
    play_out(game, parse_players("random,random", PerfectGeneral, PerfectGeneral.seats, 2))
    path = write_save(game, tmp_path / "finished.json")
    me = Player(browser, server)
    me.open_save(path, "attacker")
    result = game.result()
    assert result is not None and result.summary in me.page.inner_text(".final-card")  # the saved game's result
    assert me.page.query_selector(".final-card svg.chart polyline")  # the score per turn
    me.lobby()
    me.page.click("#my-games a.button:has-text('Replay')")
    me.page.wait_for_selector(".replay-controls")
    total = len(game.log)
    assert me.page.inner_text(".decide .prompt") == f"Replay: decision 0 of {total}"
    me.page.click("button[data-step=forward]")
    me.page.wait_for_function("document.querySelector('.decide .prompt').textContent.includes('decision 1 of')")
    assert "attacker:" in me.page.inner_text(".replay-decision")
    me.page.click("button[data-step=end]")
    me.page.wait_for_function(f"document.querySelector('.decide .prompt').textContent.includes('{total} of {total}')")
    assert me.errors == []


def test_a_reaction_is_offered_in_the_reacting_seats_browser(browser: Any, server: Server) -> None:
    me = Player(browser, server)
    create(me, {"attacker": "human", "defender": "computer:general:normal"}, seed=4)
    me.buy_and_place(["Medium Tank", "Medium Tank", "Heavy Tank", "Infantry", "Bazooka"])
    for _ in range(200):  # end our phases until the computer's fire or movement offers us a reaction
        prompt = me.prompt()
        if "fire?" in prompt:
            break
        me.click("button[data-kind^=done_], button[data-kind=confirm]")
    else:
        pytest.fail("no return or passing fire was offered")
    shots = me.page.query_selector_all("[data-kind=return_fire] button, [data-kind=passing_fire] button")
    assert me.page.query_selector("button[data-kind=hold_fire]")
    # an offer with nothing of ours able to fire is answered by the server (a reaction with one answer is not asked)
    assert shots and all("%" in b.inner_text() for b in shots)  # each possible shot shows its hit odds
    before = me.page.eval_on_selector_all("#log li", "ns => ns.length")
    me.click(
        "[data-kind=return_fire] button, [data-kind=passing_fire] button" if shots else "button[data-kind=hold_fire]"
    )
    me.page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=before)
    assert me.errors == []


def test_hotseat_at_one_screen_switches_seats_in_full_view(browser: Any, server: Server) -> None:
    me = Player(browser, server)
    me.lobby()
    me.page.select_option("select[data-seat=defender]", "human")
    assert "view = full" in me.page.inner_text("#hotseat-note")
    assert me.page.is_disabled("#options select[name=view]")
    me.page.click("#start")
    me.buy_and_place(["Infantry"])
    me.page.wait_for_function("document.querySelector('#seat').textContent.includes('showing defender')")
    me.buy_and_place(["Bazooka"])
    me.page.wait_for_function("!document.querySelector('#seat').textContent.includes('showing defender')")
    assert me.page.query_selector_all(".counter.side-defender") and me.page.query_selector_all(".counter.side-attacker")
    assert me.errors == []
