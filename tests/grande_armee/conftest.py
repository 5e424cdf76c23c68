"""Positions set up by hand on the map of Europe, for the rule tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from grognard.ai import make_player
from grognard.ai.driver import computer_decision
from grognard.engine import Decision, Game, Step
from grognard.rulesets.grande_armee import GrandeArmee
from grognard.rulesets.grande_armee.scenario import SCENARIO_DIR, read_scenario
from grognard.rulesets.grande_armee.state import LGAState, Phase, Unit


class Position:
    """A game of a scenario with its units replaced by the ones given: ``(id, power, type, "col,row", extra)``."""

    def __init__(
        self,
        units: list[tuple[Any, ...]],
        scenario: str = "1_austrian_challenge",
        seat: str = "french",
        phase: Phase = Phase.MOVE,
        season: str = "summer",
        seed: int = 7,
        control: dict[str, str] | None = None,
    ) -> None:
        self.rules = GrandeArmee(read_scenario(SCENARIO_DIR / f"{scenario}.json"))
        self.ctx = self.rules.ctx
        self.grid = self.ctx.board.grid
        self.game = Game(self.rules, seed)
        made = []
        for i, spec in enumerate(units):
            uid, power, type_, label, *rest = spec
            extra = dict(rest[0]) if rest else {}
            ut = self.ctx.tables.units[type_]
            fields: dict[str, Any] = {"morale": ut.max_morale, "moves": ut.moves, "stack": i + 1}
            fields.update(extra)
            cell = self.cell(label) if label else -1
            made.append(Unit(uid, power, type_, cell, **fields))
        state = self.game.state
        ctl = list(state.control)
        for label, side in (control or {}).items():
            ctl[self.cell(label)] = side
        state = replace(
            state,
            units=tuple(made),
            seat=seat,
            phase=phase,
            season=self.ctx.tables.seasons.index(season),
            control=tuple(ctl),
            attacked=False,
            serial=len(made) + 1,
            sightings=(),
        )
        self.game.state = state

    def cell(self, label: str) -> int:
        return self.grid.parse(label)

    @property
    def state(self) -> LGAState:
        return self.game.state

    def set(self, **changes: Any) -> None:
        self.game.state = replace(self.game.state, **changes)

    def unit(self, uid: str) -> Unit:
        return self.game.state.unit(uid)

    def edit(self, uid: str, **changes: Any) -> None:
        self.game.state = self.game.state.with_unit(replace(self.unit(uid), **changes))

    def labels(self, cells: list[int]) -> list[str]:
        return sorted(self.grid.label(c) for c in cells)

    def step(self, seed: int = 1) -> Step:
        from grognard.engine.rng import seed_state

        return Step(seed_state(seed))


@pytest.fixture
def position() -> type[Position]:
    return Position


RandomDecisions = Callable[[str, int, int], Iterator[tuple[Game, str, Decision]]]


@pytest.fixture
def random_decisions() -> RandomDecisions:
    return _random_decisions


def _random_decisions(scenario: str, seed: int, most: int) -> Iterator[tuple[Game, str, Decision]]:
    """A random game of ``scenario``: the game, the seat and its decision before each decision is applied (at
    most ``most`` of them, fewer if the game ends first)."""
    rules = GrandeArmee(read_scenario(SCENARIO_DIR / f"{scenario}.json"))
    game = Game(rules, seed)
    players = {s: make_player("random", GrandeArmee, seed + i) for i, s in enumerate(rules.seats)}
    for _ in range(most):
        if game.over:
            return
        due = computer_decision(game, players)
        assert due is not None
        yield game, *due
        game.apply(*due)
