"""The browser tests' helpers: a page in real headless Chromium (Debian's ``chromium``) driven by Playwright,
recording what it receives."""

from __future__ import annotations

import json
import re
from typing import Any

from grognard.engine.game import Game
from grognard.server.sessions import rebuild
from grognard.server.store import Store
from live_server import Server


class Player:
    """One browser page, recording every websocket message it receives and every page error."""

    def __init__(self, browser: Any, server: Server) -> None:
        self.context = browser.new_context(viewport={"width": 1200, "height": 760})
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.server = server
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda f: self.frames.append(f)))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.responses: list[Any] = []  # the API's HTTP answers, read after the fact
        self.page.on("response", lambda r: self.responses.append(r) if "/api/" in r.url else None)

    def lobby(self) -> None:
        self.page.goto(self.server.url + "/")
        self.page.wait_for_selector(".scenario svg")

    def ready(self) -> None:
        """Wait until the page has the position, no decision of ours is in flight, and the phase has been shown
        long enough for the page to take a "Done" (game.js: an end of phase is refused just after a change)."""
        self.page.wait_for_function(
            "window.grognard && window.grognard.active && !window.grognard.pending && window.grognard.settled()"
        )
        self.page.wait_for_selector(".decide .prompt, .decide .muted")

    def prompt(self) -> str:
        self.ready()
        node = self.page.query_selector(".decide .prompt")
        return node.inner_text() if node else ""

    def click(self, selector: str) -> None:
        self.ready()
        self.page.click(selector)
        self.ready()

    def wait_prompt(self, pattern: str) -> None:
        self.page.wait_for_function(
            "p => { const n = document.querySelector('.decide .prompt');"
            " return n && new RegExp(p).test(n.textContent) && !window.grognard.pending }",
            arg=pattern,
            timeout=60_000,
        )

    def buy_and_place(self, units: list[str]) -> None:
        self.wait_prompt("^buy your units")
        for name in units:
            self.click(f".decide button:has-text(' {name} (')")  # "buy a Medium Tank (8 points)"
        self.click("button[data-kind=done_buying]")
        if self.page.query_selector("[data-kind=confirm]"):
            self.click("[data-kind=confirm] button[data-value=true]")
        self.wait_prompt("^place your units")
        for i in range(len(units)):
            # the armed placement's cells come when the page asks for them (docs/server.md, "values")
            self.page.wait_for_function("!window.grognard.pending && document.querySelector('.layer-marks polygon')")
            cells = self.page.eval_on_selector_all(".layer-marks polygon", "ns => ns.map(n => n.dataset.cell)")
            self.click(f".layer-marks polygon[data-cell='{cells[(i * 41 + 7) % len(cells)]}']")
        self.click("button[data-kind=done_placing]")

    def open_save(self, path: Any, seat: str) -> None:
        """Open a finished game's save from the lobby, in ``seat``, and wait for its final screen."""
        self.lobby()
        self.page.set_input_files("#save-file", str(path))
        self.page.wait_for_selector(f"#upload-seat option[value={seat}]", state="attached")
        self.page.click("#upload button[type=submit]")
        self.page.wait_for_selector(".final-card")

    def log(self) -> str:
        return self.page.inner_text("#log")

    def messages(self) -> list[dict[str, Any]]:
        """The messages the page received, each update whole: the parts of its view's state it left out as
        unchanged (``kept``, docs/server.md) taken from the seat's update before, as the page takes them."""
        out, last = [], {}
        for msg in (json.loads(f) for f in self.frames if isinstance(f, str)):
            if msg.get("type") == "update":
                seat = msg["view"].get("seat")
                for k in msg.pop("kept", ()):
                    msg["view"]["state"][k] = last[seat]["view"]["state"][k]
                last[seat] = msg
            out.append(msg)
        return out


def create(player: Player, seats: dict[str, str], seed: int, game: str | None = None) -> None:
    """A new game from the lobby: the game (the first listed by default), its first scenario, who sits where."""
    player.lobby()
    if game is not None:
        player.page.select_option("#game", game)
        player.page.wait_for_selector(f"#seats select[data-seat={next(iter(seats))}]")
    for seat, value in seats.items():
        player.page.select_option(f"select[data-seat={seat}]", value)
    player.page.click("details.advanced summary")
    player.page.fill("#seed", str(seed))
    player.page.click("#start")


def full_game(server: Server, game_id: str) -> Any:
    store = Store(server.db)
    try:
        return rebuild(store, game_id)[1]
    finally:
        store.close()


def hidden_absent(player: Player, server: Server, game_id: str, seat: str) -> tuple[Any, set[str]]:
    """Asserts that the units ``seat`` has never been allowed to know of are in no message the page received and
    nowhere in the page; returns the full game and those units. A unit seen once may have been sent then and be
    hidden now (Antietam's cavalry rides out of sight): the units checked are those hidden now and in every state
    of the game so far in which they stood (its log replayed)."""
    before = full_game(server, game_id)  # a computer may act meanwhile: hidden before the page is read and after
    text = received(player)
    page_html = player.page.content()
    full = full_game(server, game_id)
    hidden = never_seen(before, seat, before.rules.hidden_units(before.state, seat)) & full.rules.hidden_units(
        full.state, seat
    )
    leaked = [u for u in hidden if u in text]
    assert leaked == [], leaked
    found = [u for u in hidden if u in page_html]
    assert found == [], [page_html[max(0, page_html.index(u) - 200) : page_html.index(u) + 80] for u in found]
    return full, hidden


def never_seen(game: Game, seat: str, units: frozenset[str]) -> set[str]:
    """Those of ``units`` that were hidden from ``seat`` in every state of ``game`` in which they stood (in the
    full view): its log replayed from the start."""
    rules = game.rules
    replay = Game(type(rules)(rules.scenario, rules.options), game.seed)
    seen: set[str] = set()

    def look() -> None:
        visible = units - seen - replay.rules.hidden_units(replay.state, seat)
        if visible:
            everything = json.dumps(replay.rules.view(replay.state, None), default=str)
            seen.update(u for u in visible if u in everything)

    look()
    for entry in game.log:
        replay.apply(entry.seat, entry.decision)
        look()
    return set(units - seen)


def game_id_of(player: Player) -> str:
    m = re.search(r"game=([^&]+)", player.page.url)
    assert m, player.page.url
    return m.group(1)


def received(player: Player) -> str:
    """Every websocket message and every readable HTTP answer of the API the page has received."""
    text = "\n".join(f for f in player.frames if isinstance(f, str))
    assert text, "the page received no websocket message"
    bodies = [body(r) for r in player.responses]
    assert any(bodies), "no HTTP answer of the API could be read"
    return text + "\n".join(bodies)


def body(response: Any) -> str:
    try:
        return str(response.text())
    except Exception:  # a response the browser has let go of (after a reload)
        return ""
