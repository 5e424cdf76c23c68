"""Code quality gates run as tests, so the one test command checks them: ruff, mypy --strict on all of src,
the direction of dependencies (the engine imports nothing above it), and dice drawn only through the step's
logged roll."""

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_is_clean():
    r = run(sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks", "scripts")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_on_all_of_src():
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


RULESETS = ROOT / "src" / "grognard" / "rulesets"
# Modules of the computer players that live beside their ruleset: they draw from their own ``Dice`` for their own
# choices (which move to try, a deliberate blunder), which are not dice of the game and are not logged.
COMPUTER_PLAYER_MODULES = frozenset({"general.py", "ai.py", "reckon.py", "campaign.py"})
RANDOM_MODULES = ("random", "secrets", "numpy.random")


def direct_draws(source: str) -> list[str]:
    """Where ``source`` draws a die other than through ``Step.roll``/``Step.chance``: a ``.dice`` attribute (the
    step's generator), a ``Dice(...)`` of its own, or an import of a random module."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Attribute) and node.attr == "dice":
            found.append((line, ".dice"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            if name == "Dice":
                found.append((line, "Dice(...)"))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [(line, f"import {n}") for n in names if n.startswith(RANDOM_MODULES)]
    return [f"line {line}: {what}" for line, what in sorted(found)]


def test_the_direct_draw_check_finds_each_kind_of_draw():
    bad = "import random\nfrom numpy.random import default_rng\nr = step.dice.roll(6)\nd = Dice(1)\n"
    assert direct_draws(bad) == [
        "line 1: import random",
        "line 2: import numpy.random",
        "line 3: .dice",
        "line 4: Dice(...)",
    ]
    assert direct_draws("r = step.roll(6, 'combat', ('french',))\nok = step.chance(5, 'fog')\n") == []


def test_rulesets_draw_dice_only_through_the_steps_logged_roll():
    """Every die of a game is logged with what it was for (architecture: "Dice rolls are events too")."""
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sorted(RULESETS.rglob("*.py"))
        if path.name not in COMPUTER_PLAYER_MODULES and (found := direct_draws(path.read_text()))
    }
    assert not offenders, offenders


ABOVE_THE_RULESETS = ("ai", "cli", "persistence", "server", "testing")
# (module, attribute) looked up by name for a reason other than a ruleset hook
LOOKUPS_ALLOWED = {
    ("server/app.py", "status"),  # the HTTP status of a refusal, on the errors that carry one
    ("server/computers.py", "nice"),  # os.nice, which Windows lacks
}


def looked_up_by_name(source: str) -> list[str]:
    """Attributes ``source`` reads with ``getattr``/``hasattr`` and a literal name: what a ruleset would have to
    declare."""
    return [
        node.args[1].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("getattr", "hasattr")
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
    ]


def test_the_lookup_check_finds_getattr_and_hasattr_of_a_named_attribute():
    source = 'f = getattr(rules, "map_json", None)\nif hasattr(rules, "parse_cell"): pass\nv = getattr(d, name)\n'
    assert looked_up_by_name(source) == ["map_json", "parse_cell"]


def test_the_server_page_and_command_line_call_only_declared_ruleset_hooks():
    """Every hook called on a ruleset is declared on ``Ruleset`` (or ``Scenario``) with a default, so it is
    called directly; none is looked up by name with ``getattr``/``hasattr``."""
    src = ROOT / "src" / "grognard"
    found = {
        (rel, name)
        for layer in ABOVE_THE_RULESETS
        for path in sorted((src / layer).rglob("*.py"))
        for rel in [str(path.relative_to(src))]
        for name in looked_up_by_name(path.read_text())
    }
    assert found <= LOOKUPS_ALLOWED, found - LOOKUPS_ALLOWED


def ruleset_kinds() -> set[str]:
    """Every decision kind of every ruleset (``kind: ClassVar[str] = "..."``), and every event kind the rulesets
    emit with a literal name."""
    kinds: set[str] = set()
    for path in RULESETS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            named_kind = (
                isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "kind"
            )
            if named_kind and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                kinds.add(node.value.value)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit":
                # the kind is the first literal text: step.emit("kind", ...) or ctx.emit(step, "kind", ...)
                texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                kinds.update(texts[:1])
    return kinds


def test_the_generic_page_names_no_rulesets_decision_or_event_kinds():
    """``web/game.js`` serves every game; what one game's decisions and events look like is in its own module
    ``web/rulesets/<game>.js`` (docs/server.md)."""
    page = (ROOT / "src" / "grognard" / "web" / "game.js").read_text()
    quoted = set(re.findall(r"""["'`]([a-z_]+)["'`]""", page)) | set(re.findall(r"/\^\(([a-z_|]+)\)/", page))
    assert sorted(quoted & ruleset_kinds()) == []


def test_no_merge_conflict_markers_are_left_in_any_file():
    """A merge that left its markers in a document or data file breaks nothing that runs, so nothing else
    would notice."""
    root = Path(__file__).resolve().parent.parent
    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=False).stdout
    marked = []
    for name in tracked.split():
        path = root / name
        if not path.is_file() or path.suffix in (".png", ".db"):
            continue
        text = path.read_text(errors="replace")
        if any(line.startswith(("<<<<<<< ", ">>>>>>> ")) for line in text.splitlines()):
            marked.append(name)
    assert marked == []
