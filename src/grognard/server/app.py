"""The HTTP routes and the websocket of ``grognard serve`` (Starlette); no game logic lives here.

Routes (a seat's token goes in an ``Authorization: Bearer`` header, never in a URL that logs keep):

- ``GET  /api/catalog``: games, scenarios, rule options, computer players.
- ``GET  /api/maps/{game}/{scenario}``: a bundled scenario's public map (the lobby's overview).
- ``GET  /api/games/{id}/map``: the public map of the game's scenario, bundled or embedded in its save.
- ``POST /api/games``: create a game; the answer holds, once, the token of each seat played at this browser,
  the invitation of each remote seat and the creator's secret.
- ``POST /api/games/{id}/claim``: ``{"invite"}``: the first browser to open an invitation gets the seat and a
  token of its own (``{"seat", "token"}``); the invitation then stops working (410).
- ``POST /api/games/upload``: ``{"save", "seats"}``: a new game from a save file (its document or its text),
  after the one check of a save (``persistence.saves.check_save``: every decision re-run, every digest compared).
  A seat's record of a game in play continues that game for the seat the request's token sits in
  (``{"id", "seat", "resumed": true}``), or is refused saying what to do instead.
- ``GET  /api/games/{id}``: the game as the token's seat sees it (the creator's secret: who sits where);
  ``DELETE`` removes it, with the creator's secret only.
- ``GET  /api/games/{id}/update``: the seat's view, legal decisions and tag (what the websocket pushes).
- ``POST /api/games/{id}/values``: ``{"tag", "families"}``: the values of legal families that the update gives
  as a count only (a unit's destinations), as the websocket's ``values`` answers them.
- ``POST /api/games/{id}/decisions``: ``{"tag", "decision"}``, the same as the websocket's ``decide``.
- ``POST /api/games/{id}/undo``: ``{"tag"}``: take back the seat's last decision where the rules allow it.
- ``POST /api/games/{id}/resign``: ``{}``: the token's seat resigns, whoever has the turn; the game ends.
- ``POST /api/games/{id}/go_on``: the person a computer waits for (``"hold": true``: a reaction it may make)
  lets it go on.
- ``GET  /api/games/{id}/replay`` and ``.../replay/{step}``: a finished game's decisions, events and full view
  after each step.
- ``GET  /api/games/{id}/save``: the full save once the game is over, else the seat's own record.
- ``WS   /api/games/{id}/ws``: ``hello`` with the token, then ``update`` pushes and ``decide`` (``undo``,
  ``go_on``, ``resign``) requests, and ``inspect`` and ``values`` questions.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from grognard import rulesets
from grognard.ai.base import player_kinds
from grognard.engine.errors import GrognardError
from grognard.persistence.saves import SeatRecord, save_document, seat_record_of

from . import fog, limits
from .collector import keep_pauses_short
from .computers import ComputerPool
from .jsontext import compact
from .limits import MESSAGE, SAVE, Bounds
from .sessions import SNAPSHOT_EVERY, Listener, Refused, Session, Sessions
from .store import Store

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_MESSAGE = MESSAGE.body  # bytes: the largest request or websocket message accepted
MAX_SAVE = SAVE.body  # bytes: the largest save file accepted for upload
# the store's checkpoints run in a thread of their own after this many decisions (store.py), not on the event loop
CHECKPOINT_EVERY = 200
QUEUE_LIMIT = 256  # messages waiting for a slow browser before it is disconnected
QUESTIONS = ("inspect", "values")  # websocket messages that decide nothing
# processes for the computer players (serve --workers; 0: a thread in the server's process): one per core but the
# one the event loop needs, at least one and at most two; each holds its games' replicas, its generals and their
# rulesets (about 50 MB before any game), and on two cores a second one mostly takes the event loop's core
WORKERS = max(1, min(2, (os.cpu_count() or 2) - 1))


def _error(e: GrognardError) -> JSONResponse:
    return JSONResponse({"error": str(e)}, status_code=getattr(e, "status", 400))


def _token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


async def _body(request: Request, bounds: Bounds = MESSAGE) -> Any:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        chunks.append(chunk)
        size += len(chunk)
        if size > bounds.body:
            raise Refused(f"request too large (at most {bounds.body} bytes)", 413)
    return limits.parse(b"".join(chunks), bounds)


def _seats(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    seats = body.get("seats") or {}
    if not isinstance(seats, dict) or not all(isinstance(v, dict) for v in seats.values()):
        raise Refused("'seats' maps each seat to {kind, player}")
    for spec in seats.values():
        for key in ("kind", "player"):
            if spec.get(key):  # empty: the default (a person; the general)
                limits.name(spec[key], f"a seat's '{key}'")
    return seats


def create_app(
    db: str | Path = "grognard.db",
    resume: bool = True,
    fsync: bool = False,
    snapshot_every: int = SNAPSHOT_EVERY,
    workers: int = WORKERS,
) -> Starlette:
    store = Store(db, fsync, checkpoint_every=CHECKPOINT_EVERY)
    # the computers' worker processes read the games from the store's file (an in-memory store: a thread here)
    computers = ComputerPool(store.path, workers) if workers > 0 and store.path != ":memory:" else None
    sessions = Sessions(store, snapshot_every, computers)
    catalog: list[dict[str, Any]] = []
    maps: dict[tuple[str, str], Any] = {}  # public maps by game and scenario

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # stored games load in the background (a game asked for first loads at once), so the server answers
        # while a long history replays; computers owing a decision make it as their game loads
        task = asyncio.create_task(sessions.resume_all()) if resume else None
        yield
        if task is not None:
            task.cancel()
        if computers is not None:
            await computers.close()
        store.close()

    async def seat_session(request: Request) -> tuple[Session, str]:
        session = await sessions.get(request.path_params["game_id"])
        return session, session.seat_of(_token(request))

    async def seat_request(request: Request, expected: str) -> tuple[Session, str, dict[str, Any]]:
        """The seat's session and the request's JSON object (refused with ``expected`` if it is none)."""
        session, seat = await seat_session(request)
        body = await _body(request)
        if not isinstance(body, dict):
            raise Refused(f"expected a JSON object with {expected}")
        return session, seat, body

    def handle(fn: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            try:
                return await fn(request)  # type: ignore[no-any-return]
            except GrognardError as e:
                return _error(e)

        return endpoint

    @handle
    async def get_catalog(request: Request) -> Response:
        if not catalog:
            for gid in rulesets.game_ids():
                cls = rulesets.get(gid)
                entry = cls.describe_game()
                kinds = player_kinds(cls)
                entry["players"] = sorted(kinds)
                entry["player_levels"] = {k: list(kinds[k](0, 1).levels) for k in sorted(kinds)}
                entry["hotseat_options"] = dict(cls.hotseat_options)
                catalog.append(entry)
        return JSONResponse(catalog)

    @handle
    async def get_map(request: Request) -> Response:
        key = (
            limits.name(request.path_params["game"], "a game"),
            limits.name(request.path_params["scenario"], "a scenario"),
        )
        if key not in maps:
            cls = rulesets.get(key[0])
            maps[key] = cls(cls.scenario_by_id(key[1])).map_json()  # a bundled id only
        return JSONResponse(maps[key])

    @handle
    async def game_map(request: Request) -> Response:
        session, _ = await seat_session(request)
        return JSONResponse(session.map_json())

    @handle
    async def create_game(request: Request) -> Response:
        body = await _body(request)
        if not isinstance(body, dict):
            raise Refused("expected a JSON object")
        seats = _seats(body)
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise Refused("'options' is an object")
        seed = body.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise Refused("'seed' is a whole number")
        game = limits.name(body.get("game"), "'game'")
        session, secrets = await sessions.create(
            game, limits.name(body.get("scenario"), "'scenario'"), options, seats, seed
        )
        return JSONResponse({"id": session.id, **secrets.to_json()}, status_code=201)

    @handle
    async def upload(request: Request) -> Response:
        body = await _body(request, SAVE)
        if not isinstance(body, dict) or not isinstance(body.get("save"), dict | str):
            raise Refused("expected a JSON object with 'save' (a save file, or its text) and 'seats'")
        record = seat_record_of(body["save"])
        if record is not None:
            return JSONResponse(await reopen(record, _token(request)))
        session, secrets = await sessions.upload(body["save"], _seats(body))
        return JSONResponse({"id": session.id, **secrets.to_json()}, status_code=201)

    async def reopen(record: SeatRecord, token: str | None) -> dict[str, Any]:
        """A seat's record of a game in play opens that game again for the browser that plays the seat (the
        record holds no token: the browser's own storage does); anything else is refused saying what to do."""
        try:
            session = await sessions.get(record.game_id)
        except Refused:
            where = "The game is not on this server (deleted, or played on another)"
            raise Refused(f"{record.refusal()}. {where}", 404) from None
        try:
            seat = session.seat_of(token)
        except Refused:
            seat = None
        if seat != record.seat:
            raise Refused(f"{record.refusal()}. This browser does not play that seat", 409)
        return {"id": session.id, "seat": seat, "resumed": True}

    @handle
    async def claim(request: Request) -> Response:
        session = await sessions.get(request.path_params["game_id"])
        body = await _body(request)
        if not isinstance(body, dict):
            raise Refused("expected a JSON object with 'invite'")
        seat, token = await session.claim(body.get("invite"))
        return JSONResponse({"seat": seat, "token": token})

    @handle
    async def game_info(request: Request) -> Response:
        session = await sessions.get(request.path_params["game_id"])
        token = _token(request)
        if request.method == "GET":
            if not session.plays(token) and session.is_creator(token):
                return JSONResponse(session.creator_summary())  # a creator who plays no seat of it
            seat = session.seat_of(token)
            async with session.lock:
                return JSONResponse(session.summary(seat))
        if not session.is_creator(token):
            session.seat_of(token)  # a stranger is told what a stranger is told anywhere
            raise Refused("only the game's creator may delete it", 403)
        async with session.lock:
            sessions.delete(session.id)
            for listener in list(session.listeners):
                await listener.send({"type": "deleted"})
        return JSONResponse({"deleted": session.id})

    @handle
    async def act(request: Request) -> Response:
        """A decision (``{"tag", "decision"}``), an undo (``{"tag"}``) or a resignation (``{}``); answers the seat's
        new message."""
        session, seat, body = await seat_request(request, "'tag' (and 'decision')")
        if request.url.path.endswith("/undo"):
            await session.undo(seat, body.get("tag"))
        elif request.url.path.endswith("/resign"):
            await session.resign(seat)
        else:
            await session.decide(seat, body.get("tag"), body.get("decision"))
        async with session.lock:
            return JSONResponse(session.message(seat))

    @handle
    async def go_on(request: Request) -> Response:
        """The person a computer waits for (a reaction it may make) lets the computer go on."""
        session, seat = await seat_session(request)
        await session.go_on(seat)
        async with session.lock:
            return JSONResponse(session.message(seat))

    @handle
    async def values(request: Request) -> Response:
        """``{"tag", "families"}``: the values of families the seat's message gives as a count only."""
        session, seat, body = await seat_request(request, "'tag' and 'families'")
        return JSONResponse(
            {"tag": body.get("tag"), "families": session.values(seat, body.get("tag"), body.get("families"))}
        )

    @handle
    async def replay(request: Request) -> Response:
        session, _ = await seat_session(request)
        step = request.path_params.get("step")
        return JSONResponse(await session.replay(None if step is None else int(step)))

    @handle
    async def get_update(request: Request) -> Response:
        session, seat = await seat_session(request)
        async with session.lock:
            return JSONResponse(session.message(seat))

    @handle
    async def download_save(request: Request) -> Response:
        session, seat = await seat_session(request)
        async with session.lock:
            game = session.game
            doc = save_document(game) if game.over else fog.seat_record(game, seat, session.id)
        name = f"{game.rules.id}-{session.id}{'' if game.over else '-' + seat}.json"
        return JSONResponse(doc, headers={"content-disposition": f'attachment; filename="{name}"'})

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        # messages go out through a queue, so a browser that stops reading never holds up its game's lock;
        # one that falls QUEUE_LIMIT messages behind is disconnected (it gets the position again on reconnect)
        queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)

        async def writer() -> None:
            while (text := await queue.get()) is not None:
                await ws.send_text(text)

        async def send(message: dict[str, Any] | str) -> None:  # a message, or its JSON text
            try:
                queue.put_nowait(message if isinstance(message, str) else compact(message))
            except asyncio.QueueFull:
                writing.cancel()
                closing.add(asyncio.create_task(ws.close(1013)))  # not awaited: the game's lock is held here
                raise

        writing = asyncio.create_task(writer())
        closing: set[asyncio.Task[None]] = set()

        async def refuse(message: str, **extra: Any) -> None:
            await send({"type": "error", "message": message, **extra})

        listener: Listener | None = None
        session: Session | None = None
        try:
            try:
                session = await sessions.get(ws.path_params["game_id"])
            except GrognardError as e:
                await refuse(str(e))
                await queue.put(None)
                await writing
                await ws.close(4404)
                return
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    await refuse("a message is JSON text: binary frames are not read")
                    continue
                try:
                    msg = limits.parse(text, MESSAGE, "the message")
                except Refused as e:
                    await refuse(str(e))
                    continue
                if not isinstance(msg, dict):
                    await refuse("a message is a JSON object with a 'type'")
                    continue
                kind = msg.get("type")
                ref = msg.get("ref")
                try:
                    if kind == "hello":
                        seat = session.seat_of(msg.get("token") if isinstance(msg.get("token"), str) else None)
                        if listener is not None:
                            session.listeners.discard(listener)
                        listener = Listener(seat, send)
                        async with session.lock:
                            await send({"type": "welcome", "seat": seat, **session.summary(seat)})
                            session.listeners.add(listener)
                            await session.push(listener)
                    elif kind == "decide":
                        if listener is None:
                            raise Refused("say hello with your seat token first", 403)
                        await session.decide(listener.seat, msg.get("tag"), msg.get("decision"))
                        await send({"type": "done", "ref": ref})
                    elif kind == "go_on":
                        if listener is None:
                            raise Refused("say hello with your seat token first", 403)
                        await session.go_on(listener.seat)
                        await send({"type": "done", "ref": ref})
                    elif kind == "undo":
                        if listener is None:
                            raise Refused("say hello with your seat token first", 403)
                        await session.undo(listener.seat, msg.get("tag"))
                        await send({"type": "done", "ref": ref})
                    elif kind == "resign":
                        if listener is None:
                            raise Refused("say hello with your seat token first", 403)
                        await session.resign(listener.seat)
                        await send({"type": "done", "ref": ref})
                    elif kind == "inspect":
                        if listener is None:
                            raise Refused("say hello with your seat token first", 403)
                        answer = session.inspect(listener.seat, msg.get("query"))
                        await send({"type": "inspected", "ref": ref, "answer": answer})
                    elif kind == "values":
                        if listener is None:
                            raise Refused("say hello with your seat token first", 403)
                        tag = msg.get("tag")
                        found = session.values(listener.seat, tag, msg.get("families"))
                        await send({"type": "values", "ref": ref, "tag": tag, "families": found})
                    else:
                        raise Refused(
                            f"unknown message type {kind!r}: hello, decide, undo, go_on, resign, inspect or values"
                        )
                except GrognardError as e:
                    await refuse(str(e), ref=ref)
                    if listener is not None and kind not in QUESTIONS:  # a question changes nothing to resend
                        async with session.lock:
                            listener.last_tag = ""  # resend the current position
                            await session.push(listener)
        except WebSocketDisconnect:
            pass
        finally:
            if listener is not None and session is not None:
                session.listeners.discard(listener)
            writing.cancel()

    routes = [
        Route("/api/catalog", get_catalog),
        Route("/api/maps/{game}/{scenario}", get_map),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/upload", upload, methods=["POST"]),
        Route("/api/games/{game_id}", game_info, methods=["GET", "DELETE"]),
        Route("/api/games/{game_id}/claim", claim, methods=["POST"]),
        Route("/api/games/{game_id}/decisions", act, methods=["POST"]),
        Route("/api/games/{game_id}/undo", act, methods=["POST"]),
        Route("/api/games/{game_id}/resign", act, methods=["POST"]),
        Route("/api/games/{game_id}/update", get_update),
        Route("/api/games/{game_id}/values", values, methods=["POST"]),
        Route("/api/games/{game_id}/go_on", go_on, methods=["POST"]),
        Route("/api/games/{game_id}/replay", replay),
        Route("/api/games/{game_id}/replay/{step:int}", replay),
        Route("/api/games/{game_id}/save", download_save),
        Route("/api/games/{game_id}/map", game_map),
        WebSocketRoute("/api/games/{game_id}/ws", websocket),
        Mount("/", StaticFiles(directory=WEB_DIR, html=True, check_dir=False)),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.sessions = sessions
    app.state.store = store
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | Path = "grognard.db",
    fsync: bool = False,
    snapshot_every: int = SNAPSHOT_EVERY,
    workers: int = WORKERS,
) -> None:
    """Open the store, bind the port, and only then tell the address; each failure is one clear line."""
    import socket

    import uvicorn

    if not 0 < port < 65536:
        raise GrognardError(f"--port {port} is not a port: give 1 to 65535")
    app = create_app(db, fsync=fsync, snapshot_every=snapshot_every, workers=workers)
    try:
        sock = socket.create_server((host, port))
    except OSError as e:
        app.state.store.close()
        raise GrognardError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    print(f"grognard: open http://{host}:{port}/ in a browser (games are kept in {db})", flush=True)
    config = uvicorn.Config(app, ws_max_size=limits.WS_FRAME, log_level="warning")
    keep_pauses_short()  # the process is the server's alone: its collector's pauses stay short (collector.py)
    uvicorn.Server(config).run(sockets=[sock])
