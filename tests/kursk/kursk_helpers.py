"""Small positions for the rule tests: the real ruleset with a few groups placed by hand."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from grognard.engine import Step
from grognard.rulesets.kursk.rules import Kursk
from grognard.rulesets.kursk.state import Group, KState, Unit

RULES = Kursk(Kursk.load_scenario("southern_pincer"))
CTX = RULES.ctx
GRID = CTX.grid


def cell(label: str) -> int:
    return GRID.parse(label)


def group(
    gid: int, side: str, at: str, weapons: dict[str, int], *, mech: bool = True, mode: str = "assault", **kw: Any
) -> Group:
    fields: dict[str, Any] = {"supply": 18, "morale": 80}
    fields.update(kw)
    return Group(
        gid,
        side,
        "TEST PANZER" if mech else "TEST INF",
        mech,
        cell(at),
        (Unit("TEST", tuple(weapons.items())),),
        mode=mode,
        **fields,
    )


def position(*groups: Group, weather: str = "clear", turn: int = 1, **kw: Any) -> KState:
    start = RULES.initial_state(7)
    return replace(start, groups=tuple(sorted(groups, key=lambda g: g.id)), weather=weather, turn=turn, **kw)


def step(state: KState) -> Step:
    return Step(state.rng)
