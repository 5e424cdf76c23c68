"""A tiny ruleset for the engine's own tests (not a shipped game).

Two seats on an 8x6 hex field. In turn, a seat moves a unit (up to 2 movement points: clear 1, forest 2,
water impassable), fires a unit at a seen enemy within 2 (d6 of 4 or more destroys), or ends its turn.
A unit fired at may return fire first (a reaction). Units farther than 3 from every enemy are hidden from
that enemy. After the last turn, the side with more units left wins.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from grognard.engine import Choice, Decision, Legal, Result, Ruleset, Scenario, ScenarioInfo, Step, Turn
from grognard.engine.errors import DataError
from grognard.engine.maps import GameMap, build_map
from grognard.engine.movement import edge_costs, reach
from grognard.engine.rng import seed_state

SEATS = ("red", "blue")


@dataclass(frozen=True, slots=True)
class Move(Decision):
    kind: ClassVar[str] = "move"
    unit: str
    to: int


@dataclass(frozen=True, slots=True)
class Fire(Decision):
    kind: ClassVar[str] = "fire"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class EndTurn(Decision):
    kind: ClassVar[str] = "end"


@dataclass(frozen=True, slots=True)
class Pass(Decision):
    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    side: str
    cell: int
    fired: bool = False
    moved: bool = False


@dataclass(frozen=True, slots=True)
class Pending:
    shooter: str
    target: str


@dataclass(frozen=True, slots=True)
class ToyState:
    rng: int
    turn: int
    side: str
    units: tuple[Unit, ...]
    pending: Pending | None = None


class ToyScenario(Scenario):
    def __init__(self, doc: Mapping[str, Any], where: str, sid: str) -> None:
        self.doc = dict(doc)
        self.map: GameMap = build_map(doc["map"], where, {"clear", "forest", "water"})
        self.info = ScenarioInfo(sid, doc["name"], turns=int(doc["turns"]))
        self.start = {s: tuple(self.map.grid.parse(c) for c in doc["units"][s]) for s in SEATS}

    def document(self) -> dict[str, Any]:
        return self.doc

    @classmethod
    def read(cls, path: Path) -> ToyScenario:
        try:
            doc = json.loads(path.read_text())
        except json.JSONDecodeError as e:
            raise DataError(str(path), "", f"not JSON: {e}") from None
        return cls(doc, str(path), path.stem)


class ToyScenarios:
    """How both toy rulesets read their scenarios (a file of their folder, or the document a save embeds)."""

    @classmethod
    def read_scenario(cls, path: Path) -> ToyScenario:
        return ToyScenario.read(path)

    @classmethod
    def scenario_from_document(cls, document: Mapping[str, Any], where: str) -> ToyScenario:
        return ToyScenario(document, where, "custom")


class Toy(ToyScenarios, Ruleset[ToyState, ToyScenario]):
    id = "toy"
    name = "Toy Skirmish"
    seats = SEATS
    decision_types = (Move, Fire, EndTurn, Pass)
    state_type = ToyState

    @classmethod
    def scenario_dir(cls) -> Path:
        return Path(__file__).parent / "toy_scenarios"

    def __init__(self, scenario: ToyScenario, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(scenario, options)
        m = scenario.map
        cost = {"clear": 1, "forest": 2}
        self.costs = edge_costs(m.grid, lambda a, b, d: cost.get(m.terrain[b]))

    def initial_state(self, seed: int) -> ToyState:
        units = tuple(Unit(f"{s[0]}{i}", s, c) for s in SEATS for i, c in enumerate(self.scenario.start[s]))
        return ToyState(seed_state(seed), 1, "red", units)

    def _unit(self, state: ToyState, uid: str) -> Unit:
        return next(u for u in state.units if u.id == uid)

    def _seen(self, state: ToyState, seat: str) -> set[str]:
        g = self.scenario.map.grid
        mine = [u for u in state.units if u.side == seat]
        return {u.id for u in state.units if u.side != seat and any(g.distance(u.cell, m.cell) <= 3 for m in mine)}

    def turn(self, state: ToyState) -> Turn:
        if state.turn > self.scenario.info.turns:
            return Turn(None)
        if state.pending:
            return Turn(self._unit(state, state.pending.target).side, phase="return fire")
        return Turn(state.side, phase=f"turn {state.turn}")

    def _targets(self, state: ToyState, u: Unit) -> list[str]:
        g = self.scenario.map.grid
        seen = self._seen(state, u.side)
        return sorted(e.id for e in state.units if e.id in seen and g.distance(u.cell, e.cell) <= 2)

    def legal(self, state: ToyState, seat: str) -> Legal:
        if self.turn(state).seat != seat:
            return Legal(seat)
        if state.pending:
            t = self._unit(state, state.pending.target)
            choices = [Choice(Pass)]
            if not t.fired:
                choices.append(Choice(Fire, {"unit": t.id}, self._targets(state, t)))
            return Legal(seat, choices, prompt="return fire?")
        choices = [Choice(EndTurn)]
        occupied = {u.cell for u in state.units}
        enemies = {u.cell for u in state.units if u.side != seat}
        for u in state.units:
            if u.side != seat:
                continue
            if not u.moved:
                r = reach(self.costs, u.cell, 2, blocked=enemies, no_stop=occupied)
                choices.append(Choice(Move, {"unit": u.id}, r.destinations()))
            if not u.fired:
                choices.append(Choice(Fire, {"unit": u.id}, lambda u=u: self._targets(state, u)))
        return Legal(seat, choices, prompt="move, fire or end the turn")

    def apply(self, state: ToyState, seat: str, decision: Decision, step: Step) -> ToyState:
        units = {u.id: u for u in state.units}
        if isinstance(decision, Move):
            u = units[decision.unit]
            units[u.id] = replace(u, cell=decision.to, moved=True)
            step.emit("move", f"{u.id} moves", (u.side,), unit=u.id, to=decision.to)
            return replace(state, units=tuple(units.values()))
        if isinstance(decision, EndTurn):
            units = {k: replace(u, fired=False, moved=False) for k, u in units.items()}
            nxt = "blue" if state.side == "red" else "red"
            return replace(state, side=nxt, turn=state.turn + (nxt == "red"), units=tuple(units.values()))
        if isinstance(decision, Pass):
            assert state.pending
            return self._resolve(replace(state, pending=None), state.pending.shooter, state.pending.target, step)
        assert isinstance(decision, Fire)
        if state.pending:  # return fire, then the original shot
            pend = state.pending
            state = self._resolve(replace(state, pending=None), decision.unit, decision.target, step)
            if any(u.id == pend.shooter for u in state.units):
                state = self._resolve(state, pend.shooter, pend.target, step)
            return state
        return replace(state, pending=Pending(decision.unit, decision.target))

    def _resolve(self, state: ToyState, shooter: str, target: str, step: Step) -> ToyState:
        units = {u.id: u for u in state.units}
        units[shooter] = replace(units[shooter], fired=True)
        if step.roll(6, f"{shooter} fires at {target}") >= 4:
            del units[target]
            step.emit("destroyed", f"{target} destroyed", unit=target)
        return replace(state, units=tuple(units.values()))

    def view(self, state: ToyState, seat: str | None) -> dict[str, Any]:
        seen = self._seen(state, seat) if seat else set()
        units = [
            {"id": u.id, "side": u.side, "cell": u.cell}
            for u in state.units
            if seat is None or u.side == seat or u.id in seen
        ]
        return {"turn": state.turn, "side": state.side, "units": units}

    def hidden_units(self, state: ToyState, seat: str) -> frozenset[str]:
        seen = self._seen(state, seat)
        return frozenset(u.id for u in state.units if u.side != seat and u.id not in seen)

    def result(self, state: ToyState) -> Result | None:
        if state.turn <= self.scenario.info.turns:
            return None
        n = {s: sum(u.side == s for u in state.units) for s in SEATS}
        winner = None if n["red"] == n["blue"] else max(n, key=lambda s: n[s])
        return Result(winner, {s: "win" if s == winner else "loss" for s in SEATS}, n, f"units left: {n}")

    def rate(self, view: Mapping[str, Any], seat: str, decision: Decision) -> int:
        return 10 if isinstance(decision, Fire) else 1 if isinstance(decision, Move) else 0
