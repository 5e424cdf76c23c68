"""The ``serve`` command, added to ``grognard`` when the web stack is installed."""

from __future__ import annotations

import argparse
from typing import Any


def add_commands(sub: Any, commands: dict[str, Any]) -> None:
    p = sub.add_parser("serve", help="play in a web browser: start the server and open the address it prints")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    p.add_argument("--db", default="grognard.db", help="the SQLite file that keeps every game (default grognard.db)")
    p.add_argument(
        "--fsync",
        action="store_true",
        help="flush every decision to disk (survives a machine crash, not only a server crash; slower)",
    )
    p.add_argument(
        "--snapshot-every",
        type=int,
        default=None,
        metavar="N",
        help="keep a snapshot of each game every N decisions, so a restart re-runs fewer (0: never; default 1000)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="processes that run the computer players, so one general's turn never stalls other games "
        "(0: a thread in the server's process; default: the cores less one, 1 or 2)",
    )
    commands["serve"] = cmd_serve


def cmd_serve(args: argparse.Namespace) -> int:
    from .app import WORKERS, serve
    from .sessions import SNAPSHOT_EVERY

    workers = WORKERS if args.workers is None else args.workers
    every = SNAPSHOT_EVERY if args.snapshot_every is None else args.snapshot_every
    serve(args.host, args.port, args.db, args.fsync, every, workers)
    return 0
