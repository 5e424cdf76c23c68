"""The browser the browser tests drive: Debian's chromium, installed by the test run where it may be (conftest)."""

import subprocess

import pytest


def test_chromium_is_there_and_starts(chromium_problem: str | None, request: pytest.FixtureRequest) -> None:
    """Stands for every browser test when there is no browser: it fails with the one line that says what to run."""
    if chromium_problem is not None:
        pytest.fail(chromium_problem, pytrace=False)
    path = request.getfixturevalue("chromium")
    done = subprocess.run([path, "--version"], capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0 and "Chromium" in done.stdout, done.stdout + done.stderr
