"""The server on localhost: decision-to-view round trip against a bare websocket echo, and decisions per second.

Run: ``python benchmarks/bench_server.py [--seconds 10] [--games 20]``.

Ours: a client sends a decision over the websocket of a running ``grognard serve`` (a child process, its own
SQLite file) and waits for the view the server pushes back: the lock, the tag check, ``Game.apply``, the
append to SQLite and the seat's new view and legal decisions built and sent. The decisions are a hot-seat
purchase (buy an infantry, return it, again), so no computer thinks in between.
Peer: a bare websocket echo server (``websockets``, a child process too) sent the same payload, the view
message ours answers with. The two alternate, one round trip each, so a busy machine slows both alike.
Targets: p99 at most 20 ms and at most 50 times the echo's p99; at least 500 decisions/s across 20 games.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from timing import header, table

P99_MS, ECHO_TIMES, RATE = 20.0, 50.0, 500.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "grognard", "serve", "--port", str(port), "--db", str(db)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(url + "/api/catalog", timeout=1).raise_for_status()
            return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def start_echo() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, __file__, "--echo", str(port)], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.readline()  # "ready"
    return proc, f"ws://127.0.0.1:{port}"


async def echo_server(port: int) -> None:
    from websockets.asyncio.server import serve

    async def echo(ws: Any) -> None:
        async for message in ws:
            await ws.send(message)

    async with serve(echo, "127.0.0.1", port, max_size=2**24):
        print("ready", flush=True)
        await asyncio.Future()


class Seat:
    """A websocket client in one seat of one game, making purchase decisions back and forth."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.tag = ""
        self.last = ""
        self.buy = True

    @classmethod
    async def open(cls, url: str) -> Seat:
        r = httpx.post(
            url + "/api/games",
            json={
                "game": "perfect_general",
                "scenario": "simple_little_war",
                "seed": 1,
                "seats": {"attacker": {"kind": "human"}, "defender": {"kind": "human"}},
            },
        )
        game, token = r.json()["id"], r.json()["tokens"]["attacker"]
        ws = await connect(url.replace("http", "ws") + f"/api/games/{game}/ws", max_size=2**24)
        seat = cls(ws)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await seat.until_update()
        return seat

    async def until_update(self) -> None:
        while True:
            text = await self.ws.recv()
            msg = json.loads(text)
            if msg["type"] == "update":
                self.tag, self.last = msg["tag"], str(text)
                return
            if msg["type"] == "error":
                raise RuntimeError(msg["message"])

    async def decide(self) -> float:
        kind = "buy" if self.buy else "sell"
        self.buy = not self.buy
        t0 = time.perf_counter()
        await self.ws.send(
            json.dumps({"type": "decide", "tag": self.tag, "decision": {"kind": kind, "type": "infantry"}})
        )
        await self.until_update()
        dt = time.perf_counter() - t0
        assert json.loads(await self.ws.recv())["type"] == "done"
        return dt


def pct(samples: list[float], p: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(p * len(s)))] * 1e3


async def round_trips(url: str, echo_url: str, n: int) -> tuple[list[float], list[float], int]:
    seat = await Seat.open(url)
    echo = await connect(echo_url, max_size=2**24)
    ours: list[float] = []
    peer: list[float] = []
    for i in range(n + 50):
        a = await seat.decide()
        payload = seat.last
        t0 = time.perf_counter()
        await echo.send(payload)
        await echo.recv()
        b = time.perf_counter() - t0
        if i >= 50:
            ours.append(a)
            peer.append(b)
    size = len(seat.last.encode())
    await seat.ws.close()
    await echo.close()
    return ours, peer, size


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def throughput(url: str, games: int, seconds: float, pid: int) -> tuple[int, float, float]:
    seats = [await Seat.open(url) for _ in range(games)]
    cpu0 = cpu_seconds(pid)
    stop = time.perf_counter() + seconds
    counts = [0] * games

    async def run(i: int) -> None:
        while time.perf_counter() < stop:
            await seats[i].decide()
            counts[i] += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(run(i) for i in range(games)))
    elapsed = time.perf_counter() - t0
    cpu = cpu_seconds(pid) - cpu0
    for s in seats:
        await s.ws.close()
    return sum(counts), elapsed, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--echo", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--n", type=int, default=1000, help="round trips to time")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    if args.echo:
        asyncio.run(echo_server(args.echo))
        return
    with tempfile.TemporaryDirectory() as tmp:
        server, url = start_server(Path(tmp) / "bench.db")
        echo, echo_url = start_echo()
        try:
            ours, peer, size = asyncio.run(round_trips(url, echo_url, args.n))
            total, elapsed, cpu = asyncio.run(throughput(url, args.games, args.seconds, server.pid))
        finally:
            for p in (server, echo):
                p.terminate()
                p.wait()
    header("grognard serve: decision-to-view round trip and decisions per second", "websockets echo server")
    print(f"# {args.n} round trips each, alternating; view message {size} bytes; SQLite WAL without fsync (default)")
    rows = []
    for name, s in (("decision -> view (ours)", ours), ("echo of the same payload", peer)):
        rows.append([name, f"{statistics.median(s) * 1e3:.2f}", f"{pct(s, 0.99):.2f}", f"{max(s) * 1e3:.2f}"])
    table(["round trip", "p50 ms", "p99 ms", "max ms"], rows)
    p99, ratio = pct(ours, 0.99), pct(ours, 0.99) / pct(peer, 0.99)
    rate = total / elapsed
    print()
    print(
        f"p99 {p99:.2f} ms (target <= {P99_MS:g} ms: {'met' if p99 <= P99_MS else 'MISSED'}); "
        f"{ratio:.1f}x the echo's p99 (target <= {ECHO_TIMES:g}x: {'met' if ratio <= ECHO_TIMES else 'MISSED'})"
    )
    print(
        f"{args.games} games, {args.seconds:g} s: {total} decisions, {rate:.0f} decisions/s "
        f"(target >= {RATE:g}: {'met' if rate >= RATE else 'MISSED'}); {os.cpu_count()} cores"
    )
    if cpu:
        print(
            f"server CPU {cpu / total * 1e3:.2f} ms per decision: {total / cpu:.0f} decisions/s per core it is given "
            f"(it had {cpu / elapsed:.0%} of one core; the clients and other jobs share the rest)"
        )


if __name__ == "__main__":
    main()
