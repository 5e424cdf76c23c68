"""(4) The server with concurrent games of the largest scenario played to the end over its websocket.

A real ``grognard serve`` runs in a child process on 127.0.0.1 with its own SQLite file (``bench_server``).
``--games`` games (default 20) of The Perfect General's largest scenario are created over HTTP, the attacker a
person's seat and the defender the computer general. One client per game (all in this process, concurrently)
says hello on the game's websocket and, whenever its update offers legal decisions, sends one of them picked
uniformly at random from the families in the message, with the message's tag, until the game is over. A family
the message gives as a count only (a unit's destinations: docs/server.md) is asked for (``values``) once it is
picked, as the page asks when a person selects the unit. ``--think S``: each person waits a random time, uniform
between 0 and twice S seconds, before each decision, as a person looks at the position (0: at once, every
client always waiting for the server, so that a decision's latency is mostly the 19 other games' queue).

Decision -> view: from sending ``decide`` to the first ``update`` that answers it. A decision that ends the
person's phase is answered only after the computer's whole turn (the server runs computers before it pushes),
so the latencies are reported apart: decisions answered in the same phase (the server's own work: the lock,
the tag, ``Game.apply``, the SQLite append, the seat's message built and sent) against the 20 ms target, and
those across a phase change (including the general's thinking) for information. Bytes: every ``update``
message received. CPU per decision: the server process's user + system time over all decisions made in the
games (the person's and the computer's), the computers' worker processes included. Peak RSS: the server
process's ``VmHWM`` at the end plus that of each worker process (the computers'), a sum of peaks that may not
have come at the same moment: an upper bound. The server's own time: the server is started with
``GROGNARD_TIMINGS`` (server/sessions.py), so it writes, for each person's decision, the wall time of its own
work under the game's lock less its waits for the computers' worker; the decisions after which no computer
decided are reported (p50/p99), apart from the queueing of 20 clients and the other games' messages. Each line
also names the game and when the server began the decision (``CLOCK_MONOTONIC``, the clock of the clients'
``perf_counter`` on Linux), so the same-phase latencies are also split by whether a computer decided before the
answer (a general's reaction, which waits for the computers' worker) or none did. A decision answered in a phase
of the same name and seat in which a computer played its own part of the turn meanwhile (the person answered the
general's fire and the general went on firing or moving until it offered the person another shot: the server's
line counts such decisions) goes with the phase changes, as the general's turn it waited for; the same-phase
p99 by the phase's name alone, as before 2026-11-29's fifth pass, is given too. The workers' lines
(``GROGNARD_TIMINGS``.worker) give each reaction's way to the worker, its wait there and its own time, and the
longest stretch of the other questions without a safe point (server/computers.py). CPU is given per process, and
that of the clients (this process) per person's decision. ``REAL_SERVER_KEEP=FOLDER`` keeps the timing lines and
the clients' send times (``sent.txt``: game, when sent, latency in seconds) in that folder.
``--quick``: two games of the smallest scenario. Targets (issue 17): p99 at most 20 ms, message p95 at most
16 KB, peak RSS at most 300 MB.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from bench_server import cpu_seconds, start_server
from real import Figure, Report, largest_scenario, percentile

P99_MS, P95_KB, RSS_MB = 20.0, 16.0, 300.0


@dataclass
class Stats:
    same_phase: list[float] = field(default_factory=list)
    new_phase: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    decisions: int = 0
    refused: int = 0
    finished: int = 0
    # each same-phase decision: its game, when it was sent and its latency (perf_counter: CLOCK_MONOTONIC, the
    # server's clock too on Linux), to be joined with the server's timing line of the same decision
    sent: list[tuple[str, float, float]] = field(default_factory=list)


def size(family: dict[str, Any]) -> int:
    """How many decisions a family stands for: its values, or its count where the message gives only that (a
    family composed on the map, ``values`` None, is left out as before)."""
    return int(family["count"]) if "count" in family else len(family.get("values") or ())


def pick(legal: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], int] | None:
    """A decision uniformly at random over all those the families in a message stand for: its family and the
    index of its value."""
    families = [f for f in legal.get("choices", ()) if size(f)]
    total = sum(size(f) for f in families)
    if not total:
        return None
    k = rng.randrange(total)
    for f in families:
        if k < size(f):
            return f, k
        k -= size(f)
    raise AssertionError("unreachable")


def make(family: dict[str, Any], values: list[Any], k: int) -> dict[str, Any]:
    d = {"kind": family["kind"], **family["fixed"]}
    if family["field"]:
        d[family["field"]] = values[k]
    return d


def phase(update: dict[str, Any]) -> tuple[Any, Any]:
    turn = update["view"]["turn"]
    return turn["seat"], turn["phase"]


async def play(url: str, scenario: str, seed: int, stats: Stats, think: float = 0.0) -> None:
    async with httpx.AsyncClient(timeout=120) as client:
        r = await client.post(
            url + "/api/games",
            json={
                "game": "perfect_general",
                "scenario": scenario,
                "seed": seed,
                "seats": {"attacker": {"kind": "human"}, "defender": {"kind": "computer", "player": "general"}},
            },
        )
        r.raise_for_status()
    game, token = r.json()["id"], r.json()["tokens"]["attacker"]
    rng = random.Random(seed)
    async with connect(url.replace("http", "ws") + f"/api/games/{game}/ws", max_size=2**26) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        update: dict[str, Any] | None = None

        async def receive() -> dict[str, Any]:
            nonlocal update
            text = str(await ws.recv())
            msg: dict[str, Any] = json.loads(text)
            if msg["type"] == "update":
                stats.sizes.append(len(text.encode()))
                update = msg
            return msg

        while update is None:
            await receive()
        while not update["view"]["over"]:
            picked = pick(update["legal"], rng) if update.get("legal") else None
            if picked is None:
                await receive()  # not this seat's turn: wait for the position to change
                continue
            family, k = picked
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            values: list[Any] = family.get("values") or []
            if "count" in family:  # the page asks for a unit's destinations when it is selected
                asked = {"kind": family["kind"], "fixed": family["fixed"]}
                tag = update["tag"]
                await ws.send(json.dumps({"type": "values", "ref": "values", "tag": tag, "families": [asked]}))
                msg = await receive()
                while msg["type"] not in ("values", "error"):
                    msg = await receive()
                if msg["type"] == "error" or update["tag"] != tag:
                    continue  # the position moved on meanwhile (the computer's reaction): decide again
                values = msg["families"][0]["values"]
            decision = make(family, values, k)
            before = phase(update)
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "decide", "tag": update["tag"], "decision": decision}))
            answered = False
            while True:
                msg = await receive()
                if msg["type"] == "update" and not answered:
                    answered = True
                    dt = time.perf_counter() - t0
                    (stats.same_phase if phase(msg) == before else stats.new_phase).append(dt)
                    if phase(msg) == before:
                        stats.sent.append((game, t0, dt))
                elif msg["type"] == "done":
                    stats.decisions += 1
                    break
                elif msg["type"] == "error":
                    stats.refused += 1  # the position follows: decide again from it
                    answered = True
                    await receive()
                    break
        stats.finished += 1


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def family_pids(pid: int) -> list[int]:
    """The process and its children (the computers' workers), from ``/proc``."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return [pid, *(int(c) for c in children)]


def run(report: Report, args: Any) -> None:
    from grognard.rulesets.perfect_general import PerfectGeneral

    if args.quick:
        ids = PerfectGeneral.scenario_ids()
        scenario = min(ids, key=lambda s: PerfectGeneral.load_scenario(s).map.grid.size)
        count = 2
    else:
        scenario, count = largest_scenario(PerfectGeneral), args.games
    stats = Stats()
    with tempfile.TemporaryDirectory() as tmp:
        timings = Path(tmp) / "timings.txt"
        os.environ["GROGNARD_TIMINGS"] = str(timings)
        try:
            server, url = start_server(Path(tmp) / "bench.db")
        finally:
            del os.environ["GROGNARD_TIMINGS"]
        try:
            cpu0, t0, clients0 = cpu_seconds(server.pid), time.perf_counter(), time.process_time()
            think = float(getattr(args, "think", 0.0) or 0.0)

            async def all_games() -> None:
                await asyncio.gather(*(play(url, scenario, i + 1, stats, think) for i in range(count)))

            asyncio.run(all_games())
            wall, clients = time.perf_counter() - t0, time.process_time() - clients0
            pids = family_pids(server.pid)
            cpus = [cpu_seconds(p) - (cpu0 if p == server.pid else 0.0) for p in pids]
            cpu = sum(cpus)
            peaks = [peak_rss_mb(p) for p in pids]
            rss, each = sum(peaks), " + ".join(f"{m:.0f}" for m in peaks)
            total = decisions_in_store(Path(tmp) / "bench.db")
            own, cpu_own = own_times(timings)
            keep = os.environ.get("REAL_SERVER_KEEP")
            if keep:  # the timing lines and the clients' send times, for a closer look (a folder that exists)
                import shutil

                for f in Path(tmp).glob("timings*"):
                    shutil.copy(f, keep)
                Path(keep, "sent.txt").write_text("".join(f"{g} {t0:.6f} {dt:.6f}\n" for g, t0, dt in stats.sent))
            quiet, reacted, waits, played = split_by_computers(timings, stats.sent)
            worker = worker_reactions(Path(f"{timings}.worker"))
        finally:
            server.terminate()
            server.wait()
    by_name, same, new = stats.same_phase, quiet + reacted, stats.new_phase + played
    note = (
        f"{stats.finished}/{count} games of {scenario} to the end in {wall:.0f} s; {stats.decisions} person's "
        f"decisions ({stats.refused} refused), {total} in all; a person thinks {think:g} s on average"
    )
    part = "4 server"
    report.add(
        Figure(part, "decision -> view p50, same phase", percentile(same, 0.5) * 1e3, "ms", note=note),
        Figure(part, "decision -> view p99, same phase", percentile(same, 0.99) * 1e3, "ms", P99_MS),
        Figure(
            part,
            "decision -> view p99, same phase by its name alone (as before the fifth pass)",
            percentile(by_name, 0.99) * 1e3,
            "ms",
            note=f"{len(by_name)} decisions, {len(played)} of them after a computer played its own part",
        ),
        Figure(part, "decision -> view p50, phase changes (with the general's turn)", percentile(new, 0.5) * 1e3, "ms"),
        Figure(
            part, "decision -> view p99, phase changes (with the general's turn)", percentile(new, 0.99) * 1e3, "ms"
        ),
        Figure(
            part,
            "server's own time per person's decision p50, same phase",
            percentile(own or [0.0], 0.5),
            "ms",
            note=f"{len(own)} decisions after which no computer decided; wall clock under the game's lock",
        ),
        Figure(part, "server's own time per person's decision p99, same phase", percentile(own or [0.0], 0.99), "ms"),
        Figure(part, "server's own CPU per person's decision p50, same phase", percentile(cpu_own or [0.0], 0.5), "ms"),
        Figure(
            part, "server's own CPU per person's decision p99, same phase", percentile(cpu_own or [0.0], 0.99), "ms"
        ),
        *(
            Figure(
                part,
                f"decision -> view p50 / p99, same phase, {who}",
                percentile(split or [0.0], 0.5) * 1e3,
                "ms",
                note=f"{len(split)} decisions; p99 {percentile(split or [0.0], 0.99) * 1e3:.1f} ms",
            )
            for who, split in (("no computer decided", quiet), ("a computer reacted", reacted))
        ),
        Figure(
            part,
            "the server's wait for its worker per decision a computer reacted to, p50 / p99",
            percentile(waits or [0.0], 0.5) * 1e3,
            "ms",
            note=f"p99 {percentile(waits or [0.0], 0.99) * 1e3:.1f} ms (question sent -> answer read, all of them)",
        ),
        *(
            Figure(
                part,
                f"{what} p50 / p99",
                percentile(worker[key] or [0.0], 0.5),
                "ms",
                note=f"p99 {percentile(worker[key] or [0.0], 0.99):.1f} ms{more}",
            )
            for key, what, more in (
                ("way", "a reaction's way to the worker (sent -> read)", f"; {len(worker['way'])} reactions"),
                ("wait", "a reaction's wait in the worker (read -> begun)", ""),
                (
                    "own",
                    "the worker's own time per reaction (begun -> answered)",
                    f"; {sum(worker['inside']):.0f} answered at a safe point of another game's question",
                ),
                ("stretch", "the worker's longest stretch without a safe point, per other question", ""),
            )
        ),
        Figure(part, "update message p50", percentile([float(s) for s in stats.sizes], 0.5) / 1024, "KB"),
        Figure(part, "update message p95", percentile([float(s) for s in stats.sizes], 0.95) / 1024, "KB", P95_KB),
        Figure(
            part,
            "server CPU per decision (all decisions)",
            cpu / max(1, total) * 1e3,
            "ms",
            note=f"{cpu:.0f} s CPU: {' + '.join(f'{c:.0f}' for c in cpus)} s (server, worker)",
        ),
        Figure(
            part,
            "the clients' CPU per person's decision",
            clients / max(1, stats.decisions) * 1e3,
            "ms",
            note=f"{clients:.1f} s CPU: the {count} clients, in this process, on the same cores as the server",
        ),
        Figure(
            part,
            "server peak RSS",
            rss,
            "MB",
            RSS_MB,
            note=f"{count} games; the peaks of {len(pids)} processes added up: {each} MB",
        ),
    )


def decisions_in_store(db: Path) -> int:
    """Every decision the server stored (the person's and the computer's)."""
    import sqlite3

    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT COUNT(*) FROM decisions").fetchone()[0])


def own_times(path: Path) -> tuple[list[float], list[float]]:
    """The server's own milliseconds (wall, CPU) on each person's decision after which no computer decided."""
    rows = [line.split() for line in path.read_text().splitlines()] if path.exists() else []
    same = [(float(row[0]), float(row[1])) for row in rows if row[2] == "0"]
    return [w for w, _ in same], [c for _, c in same]


def worker_reactions(path: Path) -> dict[str, list[float]]:
    """From the workers' timing lines (``GROGNARD_TIMINGS``.worker, server/computers.py), in milliseconds: each
    urgent question's (a general's reaction) way to the worker (sent -> read), wait there (read -> begun) and own
    time (begun -> answered), wall clock; "inside": 1 for each begun at a safe point of another question; and each
    other question's longest stretch without a safe point."""
    rows = [line.split() for line in path.read_text().splitlines()] if path.exists() else []
    out: dict[str, list[float]] = {"way": [], "wait": [], "own": [], "inside": [], "stretch": []}
    for r in rows:
        if len(r) < 10:
            continue
        read, begun, ended, sent = float(r[3]), float(r[4]), float(r[5]), float(r[8])
        if r[2] == "1":
            out["way"].append((read - sent) * 1e3)
            out["wait"].append((begun - read) * 1e3)
            out["own"].append((ended - begun) * 1e3)
            out["inside"].append(float(r[7]))
        else:
            out["stretch"].append(float(r[9]))
    return out


def split_by_computers(
    path: Path, sent: list[tuple[str, float, float]]
) -> tuple[list[float], list[float], list[float], list[float]]:
    """The latencies (seconds) of the decisions answered in a phase of the same name: of those after which no
    computer decided, of those a computer answered with reactions only (a general's shot at the moving unit),
    with how long the server waited for its worker on each (seconds), and of those after which a computer played
    its own part of the turn; from the server's timing line of each: the first of its game that started after
    the client sent the decision."""
    starts: dict[str, list[tuple[float, int, float, int]]] = {}
    for row in (line.split() for line in path.read_text().splitlines()) if path.exists() else ():
        if len(row) >= 5:  # the wait and the computers' own part are in the lines of the fifth pass on
            waited, played = (float(row[5]) / 1e3, int(row[6])) if len(row) >= 7 else (0.0, 0)
            starts.setdefault(row[3], []).append((float(row[4]), int(row[2]), waited, played))
    for rows in starts.values():
        rows.sort()
    quiet: list[float] = []
    reacted: list[float] = []
    waits: list[float] = []
    played: list[float] = []
    for game, t0, dt in sent:
        rows = starts.get(game, [])
        i = bisect.bisect_left(rows, (t0, -1, 0.0, 0))
        if i >= len(rows):
            continue
        _, made, waited, own_part = rows[i]
        if own_part:
            played.append(dt)
        elif made:
            reacted.append(dt)
            waits.append(waited)
        else:
            quiet.append(dt)
    return quiet, reacted, waits, played
