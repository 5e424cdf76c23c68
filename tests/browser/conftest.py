"""Fixtures: a live server per test, one headless Chromium per module; and the browser the tests need.

The browser tests drive Debian's ``chromium`` (Playwright's own browser download is blocked here). When it is
missing, the test run installs it where it may (as root, with apt-get: once, under a lock, so parallel runs do
not clash); where it may not, the run ends with one failure that says what to run, instead of an error in every
browser test. ``GROGNARD_BROWSER_PATH`` replaces ``PATH`` for finding chromium and apt-get, so a test can
play a machine without them (tests/test_fresh_machine.py).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from live_server import Server

HERE = Path(__file__).resolve().parent
INSTALL = "sudo apt-get install chromium"
CHECK = "test_chromium.py"  # the one test that stands for all of them when there is no browser


def _search_path() -> str:
    return os.environ.get("GROGNARD_BROWSER_PATH", os.environ.get("PATH", os.defpath))


def find_chromium() -> str | None:
    path = _search_path()
    return shutil.which("chromium", path=path) or shutil.which("chromium-browser", path=path)


def _install(config: pytest.Config) -> str:
    """Install Debian's chromium with apt-get (as root); returns why that failed, or "" if it did not."""
    apt = shutil.which("apt-get", path=_search_path())
    if apt is None or os.geteuid() != 0:
        return "not root with apt-get"
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    with (Path(tempfile.gettempdir()) / "grognard-chromium-install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another test run may be installing it right now
        if find_chromium():
            return ""
        if reporter is not None:
            reporter.write_line("the browser tests need Debian's chromium: apt-get install -y chromium ...")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in ([apt, "update", "-qq"], [apt, "install", "-y", "-qq", "chromium"]):
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["no output"]
                return f"{' '.join(cmd[1:3])} failed: {last[0]}"
    return "" if find_chromium() else "apt-get installed no chromium"


@cache
def browser_problem(config: pytest.Config) -> str | None:
    """None when chromium is there (installed now if it may be); else the one line that says what to run."""
    if find_chromium():
        return None
    why = _install(config)
    if not why and find_chromium():
        return None
    return f"the browser tests need Debian's chromium: run `{INSTALL}` (this run could not install it: {why})"


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected what they will
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mine = [i for i in items if i.path.is_relative_to(HERE)]
    if not mine or browser_problem(config) is None:
        return
    check = [i for i in mine if i.path.name == CHECK]
    if not check:
        return  # only some browser tests were asked for: each fails with the same line (the browser fixture)
    dropped = [i for i in mine if i not in check]
    config.hook.pytest_deselected(items=dropped)
    items[:] = [i for i in items if i not in dropped]


@pytest.fixture(scope="session")
def chromium_problem(pytestconfig: pytest.Config) -> str | None:
    """Why there is no browser to test with (the line that says what to run), or None."""
    return browser_problem(pytestconfig)


@pytest.fixture(scope="session")
def chromium(chromium_problem: str | None) -> str:
    """The path of the browser; without one, every test that needs it fails with the same one line."""
    if chromium_problem is not None:
        pytest.fail(chromium_problem, pytrace=False)
    path = find_chromium()
    assert path is not None
    return path


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "games.db").start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Any]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield b
        b.close()
