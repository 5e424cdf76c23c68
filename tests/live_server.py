"""A real ``grognard serve`` in a child process, for the server and browser tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``grognard serve`` on a free port with its own database; ``kill`` is a SIGKILL, as a crash would be."""

    def __init__(self, db: Path, *extra: str, toys: bool = False, cwd: Path | None = None) -> None:
        self.db = db
        self.extra = list(extra)
        self.toys = toys  # serve the test rulesets too (tests/serve_toys.py)
        self.cwd = cwd  # the server's working directory (default: the tests')
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.creators: dict[str, str] = {}  # game id -> the creator's secret

    def start(self) -> Server:
        launcher = [str(Path(__file__).parent / "serve_toys.py")] if self.toys else ["-m", "grognard"]
        cmd = [sys.executable, *launcher, "serve", "--port", str(self.port), "--db", str(self.db), *self.extra]
        log = self.db.with_suffix(".log")
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=out, env={**os.environ}, cwd=self.cwd)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"grognard serve exited: {log.read_text()}")
            try:
                httpx.get(f"{self.url}/api/catalog", timeout=1).raise_for_status()
                return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("grognard serve did not answer within 30 s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    # --- the API, as a client uses it ------------------------------------------------------------------
    def log(self) -> str:
        """What the server printed (its standard output and error)."""
        return self.db.with_suffix(".log").read_text(errors="replace")

    def create(
        self,
        seats: dict[str, Any],
        seed: int | None = 11,
        game: str = "perfect_general",
        scenario: str = "simple_little_war",
        claim: bool = True,
        **options: Any,
    ) -> tuple[str, dict[str, str]]:
        """A new game and the token of each person's seat: a remote seat's invitation is claimed at once
        (``claim=False``: the invitations instead)."""
        r = httpx.post(
            f"{self.url}/api/games",
            json={
                "game": game,
                "scenario": scenario,
                "seats": seats,
                "options": options,
                **({} if seed is None else {"seed": seed}),
            },
            timeout=60,
        )
        assert r.status_code == 201, r.text
        game_id, tokens, invites = r.json()["id"], r.json()["tokens"], r.json()["invites"]
        self.creators[game_id] = r.json()["creator"]
        if not claim:
            return game_id, {**tokens, **invites}
        for invite in invites.values():
            c = httpx.post(f"{self.url}/api/games/{game_id}/claim", json={"invite": invite}, timeout=60)
            assert c.status_code == 200, c.text
            tokens[c.json()["seat"]] = c.json()["token"]
        return game_id, tokens

    def update(self, game: str, token: str, values: bool = True) -> dict[str, Any]:
        """The seat's message; with ``values``, the families it gives as a count filled in as a page asks for
        them (``POST .../values``), so a test sees every legal value."""
        r = httpx.get(f"{self.url}/api/games/{game}/update", headers=auth(token), timeout=60)
        assert r.status_code == 200, r.text
        update = dict(r.json())
        counted = [f for f in (update["legal"] or {}).get("choices", []) if "count" in f]
        if values and counted:
            asked = [{"kind": f["kind"], "fixed": f["fixed"]} for f in counted]
            v = httpx.post(
                f"{self.url}/api/games/{game}/values",
                headers=auth(token),
                json={"tag": update["tag"], "families": asked},
                timeout=60,
            )
            assert v.status_code == 200, v.text
            for f, got in zip(counted, v.json()["families"], strict=True):
                f.update(got)
        return update

    def go_on(self, game: str, token: str) -> httpx.Response:
        return httpx.post(f"{self.url}/api/games/{game}/go_on", headers=auth(token), timeout=120)

    def decide(self, game: str, token: str, decision: Any, tag: Any = None) -> httpx.Response:
        if tag is None:
            tag = self.update(game, token)["tag"]
        return httpx.post(
            f"{self.url}/api/games/{game}/decisions",
            headers=auth(token),
            json={"tag": tag, "decision": decision},
            timeout=120,
        )


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}
