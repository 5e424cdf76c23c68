"""A small field and helpers to set up Perfect General positions directly, for the rule tests."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from grognard.engine import Game
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general.moves import start_movement_phase
from grognard.rulesets.perfect_general.scenario import read_scenario
from grognard.rulesets.perfect_general.state import Phase, Unit

FIELD = Path(__file__).parent / "field.json"


class Field:
    """A game on the test field with units put down by hand."""

    def __init__(
        self,
        units: list[tuple[Any, ...]],
        phase: Phase = Phase.FIRST_FIRE,
        side: str = "attacker",
        turn: int = 1,
        seed: int = 7,
        **options: Any,
    ) -> None:
        scenario = read_scenario(FIELD)
        self.rules = PerfectGeneral(scenario, options)
        self.grid = scenario.map.grid
        self.game = Game(self.rules, seed)
        made = []
        counters = {"attacker": 0, "defender": 0}
        for spec in units:
            side_, type_, label, *rest = spec
            extra = dict(rest[0]) if rest else {}
            counters[side_] += 1
            uid = f"{side_[0]}{counters[side_]}"
            hp = extra.pop("hp", self.rules.ctx.tables.units[type_].hit_points)
            made.append(Unit(uid, type_, side_, self.cell(label), hp, **extra))
        state = replace(self.game.state, units=tuple(made), phase=phase, side=side, turn=turn, region="")
        if phase is Phase.MOVEMENT:
            state = start_movement_phase(self.rules.ctx, state, side)
        self.game.state = state

    def cell(self, label: str) -> int:
        return self.grid.parse(label)

    @property
    def state(self):
        return self.game.state

    def set(self, **changes: Any) -> None:
        self.game.state = replace(self.game.state, **changes)

    def unit(self, uid: str) -> Unit:
        return self.game.state.unit(uid)

    def edit(self, uid: str, **changes: Any) -> None:
        self.game.state = self.game.state.with_unit(replace(self.unit(uid), **changes))

    def legal(self, seat: str):
        return self.game.legal(seat)

    def apply(self, seat: str, decision: Any) -> list[Any]:
        return self.game.apply(seat, decision)

    def kinds(self, events: list[Any]) -> list[str]:
        return [e.kind for e in events]


@pytest.fixture
def field():
    return Field
