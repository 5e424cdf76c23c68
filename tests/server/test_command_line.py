"""The command line around the server answers a mistake with one clear line and no traceback (issue 15,
item 13): a port out of range, a database that is not SQLite, a port already in use, an unknown seat."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from live_server import free_port


def grognard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "grognard", *args], capture_output=True, text=True, timeout=60, check=False
    )


def one_line_error(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("grognard: ") and words in done.stderr


@pytest.mark.parametrize("port", ["99999", "0", "-1"])
def test_a_port_out_of_range(tmp_path: Path, port: str) -> None:
    one_line_error(grognard("serve", "--port", port, "--db", str(tmp_path / "g.db")), "not a port")


def test_a_database_that_is_not_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "notes.db"
    db.write_text("not a database, a shopping list\n" * 100)
    one_line_error(grognard("serve", "--port", str(free_port()), "--db", str(db)), "not a grognard database")


def test_a_port_in_use_is_told_before_any_address(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = str(taken.getsockname()[1])
        done = grognard("serve", "--port", port, "--db", str(tmp_path / "g.db"))
    one_line_error(done, f"cannot listen on 127.0.0.1:{port}")
    assert "open http" not in done.stdout + done.stderr


def test_show_with_an_unknown_seat() -> None:
    one_line_error(grognard("show", "perfect_general", "simple_little_war", "--seat", "nobody"), "no seat 'nobody'")


def test_sqlites_side_files_are_ignored_by_git() -> None:
    ignored = (Path(__file__).parents[2] / ".gitignore").read_text().split()
    assert {"*.db", "*.db-wal", "*.db-shm"} <= set(ignored)
