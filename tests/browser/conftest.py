"""Fixtures: a live server per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from live_server import Server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "games.db").start()
    yield s
    s.stop()
