"""Orders given at the same time, in two real browsers (the Toy Orders ruleset, tests/toy_orders.py): both
seats plot at once, each sees only its own plots, a refused path names its rule, and the turn resolves when
the last seat commits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_pages import Player
from live_server import Server


@pytest.fixture
def toy_server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "games.db", toys=True).start()
    yield s
    s.stop()


def open_seat(browser: Any, server: Server, game: str, token: str) -> Player:
    p = Player(browser, server)
    p.page.goto(f"{server.url}/game.html#game={game}&token={token}")
    p.ready()
    return p


def plot(p: Player, unit: str, cells: list[int]) -> None:
    """Select ``unit`` on the panel, compose its path on the map hex by hex, and give the order."""
    p.click(f".ready button[data-unit='{unit}']")
    p.click(".unit-orders button.compose")
    for cell in cells:
        p.page.click(f"#map [data-cell='{cell}']", force=True)
    p.click(".unit-orders button.send")


def test_two_browsers_give_their_orders_at_the_same_time(browser: Any, toy_server: Server) -> None:
    s = toy_server
    seats = {"red": {"kind": "human"}, "blue": {"kind": "remote"}}
    game, tokens = s.create(seats, seed=None, game="toy_orders", scenario="meeting")  # the server draws it
    red = open_seat(browser, s, game, tokens["red"])
    blue = open_seat(browser, s, game, tokens["blue"])
    for p, other in ((red, "blue"), (blue, "red")):
        assert "at the same time" in p.page.inner_text("#whose") and other in p.page.inner_text("#whose")

    # both plot while the other has not committed: neither waits for the other
    grid = {"r0": [8], "b0": [39]}  # 1,2 and 8,5 (odd-q, 8 columns): next to each unit's start
    plot(red, "r0", grid["r0"])
    plot(blue, "b0", grid["b0"])
    red.page.wait_for_function("document.querySelector('#log').textContent.includes('r0 plotted')")
    blue.page.wait_for_function("document.querySelector('#log').textContent.includes('b0 plotted')")

    # a path against the rules is refused with its rule, and nothing changes
    plot(red, "r1", [40])  # far from r1: not next to it
    red.page.wait_for_selector(".toast:has-text('Toy Orders §2a')")

    # each page only ever received its own plots
    assert all("b0" not in json.dumps((m.get("view") or {}).get("state", {}).get("plots", [])) for m in red.messages())
    assert all("r0" not in json.dumps((m.get("view") or {}).get("state", {}).get("plots", [])) for m in blue.messages())

    red.click(".families button[data-kind='commit'], button.end[data-kind='commit']")
    red.page.wait_for_function("document.querySelector('#whose').textContent.includes('waiting for blue')")
    blue.click("button.end[data-kind='commit']")
    for p in (red, blue):
        p.page.wait_for_function("document.querySelector('#log').textContent.includes('blue has given its orders')")
        p.page.wait_for_function("document.querySelector('#whose').textContent.includes('at the same time')")
    red.page.wait_for_function("document.querySelector('#log').textContent.includes('r0 moves to')")
    assert "r0 moves" not in blue.page.inner_text("#log")  # out of blue's sight
    assert red.errors == [] and blue.errors == []
