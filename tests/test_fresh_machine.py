"""README's test command on a fresh machine (issue 12, item 8): CI runs that very command, the run installs the
browser the browser tests need where it may, and where it may not they end in one failure that says exactly what
to run, not an error in each. A machine without a browser is played by pointing the browser lookup at another
directory (``GROGNARD_BROWSER_PATH``, tests/browser/conftest.py)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README_TEST_COMMAND = "pip install -e '.[test]' && python -m pytest"


def test_ci_runs_the_readmes_test_command():
    readme = (ROOT / "README.md").read_text()
    quick_start = readme.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert quick_start[1] == README_TEST_COMMAND
    assert (ROOT / ".ci" / "run").read_text().splitlines()[-1] == README_TEST_COMMAND


def test_without_a_browser_the_browser_tests_fail_once_saying_what_to_run(tmp_path):
    env = {**os.environ, "GROGNARD_BROWSER_PATH": str(tmp_path)}
    argv = ["tests/browser/test_chromium.py", "tests/browser/test_browser.py::test_two_browsers_two_seats"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    out = done.stdout + done.stderr
    # the line itself (pytest's short summary repeats it after "FAILED ..." where it has the width, as under CI)
    said = [line for line in out.splitlines() if "sudo apt-get install chromium" in line and "FAILED" not in line]
    assert done.returncode == 1, out
    assert "1 failed, 1 deselected" in out and "error" not in out.lower(), out
    assert said == [
        "the browser tests need Debian's chromium: run `sudo apt-get install chromium` "
        "(this run could not install it: not root with apt-get)"
    ], out


FAKE_APT = """#!/bin/sh
# a stand-in for apt-get: logs its arguments; "install" puts a stand-in chromium beside it
here=$(dirname "$0")
echo "$@" >> "$here/apt.log"
sleep 1
if [ "$1" = install ]; then
  printf '#!/bin/sh\\necho "Chromium 1.0 (a stand-in)"\\n' > "$here/chromium"
  chmod +x "$here/chromium"
fi
"""


def test_a_root_run_with_apt_get_installs_chromium_once_even_from_two_runs_at_a_time(tmp_path):
    apt = tmp_path / "apt-get"
    apt.write_text(FAKE_APT)
    apt.chmod(0o755)
    env = {**os.environ, "GROGNARD_BROWSER_PATH": str(tmp_path)}
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/browser/test_chromium.py"]
    runs = [subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)]
    runs.append(subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    outs = [r.communicate(timeout=120)[0] for r in runs]
    if os.geteuid() != 0:  # only root may install: the run says what to run instead
        assert all(r.returncode == 1 and "sudo apt-get install chromium" in o for r, o in zip(runs, outs, strict=True))
        return
    assert [r.returncode for r in runs] == [0, 0], outs
    assert (tmp_path / "apt.log").read_text() == "update -qq\ninstall -y -qq chromium\n"
