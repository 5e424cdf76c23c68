"""Code quality gates run as tests, so the one test command checks them: ruff, mypy --strict on the engine,
and the direction of dependencies (the engine imports nothing above it)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_is_clean():
    r = run(sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks", "scripts")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_on_the_engine():
    r = run(sys.executable, "-m", "mypy")
    assert r.returncode == 0, r.stdout + r.stderr


def test_engine_imports_nothing_above_it():
    code = (
        "import sys, grognard.engine, grognard.engine.los, grognard.engine.movement, grognard.engine.maps\n"
        "above = [m for m in sys.modules if m.startswith(('grognard.rulesets', 'grognard.ai', "
        "'grognard.server', 'grognard.persistence', 'grognard.cli', 'starlette', 'uvicorn'))]\n"
        "assert not above, above\n"
    )
    r = run(sys.executable, "-c", code)
    assert r.returncode == 0, r.stdout + r.stderr
