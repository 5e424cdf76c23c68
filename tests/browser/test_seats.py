"""Saves and connections in the browser (issue 15, items 4 and 6): a save downloaded mid-game opens again from
the lobby, in the same game and seat; another browser gets a clear refusal, never a 5xx; a click made while the
page reconnects is sent once the socket is back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser_pages import Player, create, game_id_of
from live_server import Server


def test_a_save_downloaded_mid_game_opens_again(browser: Any, server: Server, tmp_path: Path) -> None:
    me = Player(browser, server)
    create(me, {"attacker": "human", "defender": "computer:general:normal"}, seed=5)
    me.wait_prompt("^buy your units")
    me.click(".decide button:has-text(' Infantry (')")
    game_id = game_id_of(me)
    with me.page.expect_download() as dl:
        me.page.click("#download")
    path = tmp_path / "mid-game.json"
    dl.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["format"] == "grognard-seat-record" and record["game_id"] == game_id
    assert "seed" not in record and "decisions" not in record  # only what the seat may know

    me.lobby()
    me.page.set_input_files("#save-file", str(path))
    me.page.wait_for_selector("#upload-note:has-text('record of a game in play')")
    me.page.click("#upload button[type=submit]")
    me.page.wait_for_url(f"**/game.html#game={game_id}")
    me.wait_prompt("^buy your units")
    assert "attacker buys a Infantry" in me.log() or "attacker buys an Infantry" in me.log()  # the same game

    stranger = Player(browser, server)  # a browser that does not play the seat
    stranger.lobby()
    stranger.page.set_input_files("#save-file", str(path))
    stranger.page.click("#upload button[type=submit]")
    stranger.page.wait_for_selector(".toast:has-text('This browser does not play that seat')")
    assert all(r.status < 500 for r in stranger.responses)
    assert me.errors == [] and stranger.errors == []


def test_a_click_made_while_reconnecting_is_sent_when_the_socket_is_back(browser: Any, server: Server) -> None:
    me = Player(browser, server)
    create(me, {"attacker": "human", "defender": "computer:general:normal"}, seed=6)
    me.wait_prompt("^buy your units")
    before = me.page.evaluate("window.grognard.conns.get('attacker').update.tag")
    # the socket drops (as a network hiccup would) and the player clicks before it is back
    me.page.evaluate("window.grognard.conns.get('attacker').ws.close()")
    me.page.click(".decide button:has-text(' Infantry (')")
    me.page.wait_for_selector(".toast:has-text('will be sent as soon as the connection is back')")
    me.page.wait_for_function(
        "t => { const c = window.grognard.conns.get('attacker'); return c.update.tag !== t && !c.outbox }",
        arg=before,
    )
    me.ready()
    assert me.log().count("attacker buys") == 1  # taken, once
    assert me.errors == []


def test_a_seat_resigns_from_the_page_and_the_game_ends_with_the_other_side_winning(
    browser: Any, server: Server
) -> None:
    """Issue 15 item 5: either seat may resign, whoever has the turn (here while the computer has nothing to do
    and the person is buying); the page asks first and then shows the end."""
    me = Player(browser, server)
    create(me, {"attacker": "human", "defender": "computer:general:normal"}, seed=7)
    me.wait_prompt("^buy your units")
    me.page.once("dialog", lambda d: d.dismiss())  # asked first: "no" keeps the game going
    me.page.click("#resign")
    me.wait_prompt("^buy your units")
    me.page.once("dialog", lambda d: d.accept())
    me.page.click("#resign")
    me.page.wait_for_selector("#final:not([hidden])")
    assert "resigned" in me.page.inner_text("#final")
    assert me.page.is_hidden("#resign")
    assert me.errors == []
