"""A tiny ruleset with orders given at the same time, for the engine's own tests (not a shipped game).

Rules, numbered as a manual would be:

- §1 Two seats, red and blue, on an 8x6 hex field; a game of a few turns. A unit sees 3 hexes: an enemy unit
  farther than that from every friendly unit is hidden from its side.
- §2 Orders. Each turn both seats at once plot a path for each of their units, then commit. A path is 1 to 3
  hexes, each next to the one before, starting next to the unit (§2a), never into water (§2b), never twice
  through one hex (§2c). A unit is plotted at most once a turn (§2d: undo takes a plot back). A seat that
  commits gives no more orders this turn; plots are hidden from the other seat until they execute.
- §3 Execution, when the last seat commits: every plotted unit moves along its path, both sides hex by hex
  at the same time; a unit stops before a hex an enemy unit stands in. Then every pair of enemy units next
  to each other fights: each rolls a d6, the lower loses its unit (ties: both stay).
- §4 After the last turn, the side with more units left wins.

Plots are too many to list (a dozen hexes, three steps), so the plot family accepts by a check that names
the rule a path breaks, and draws a legal path for random play: the engine's "legality by rule".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from grognard.engine import Choice, Decision, IllegalDecision, Legal, Result, Ruleset, Step, Turn
from grognard.engine.rng import Dice, seed_state
from toy import SEATS, ToyScenario, ToyScenarios

MAX_STEPS = 3


@dataclass(frozen=True, slots=True)
class Plot(Decision):
    kind: ClassVar[str] = "plot"
    unit: str
    path: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Commit(Decision):
    kind: ClassVar[str] = "commit"


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    side: str
    cell: int


@dataclass(frozen=True, slots=True)
class OrdersState:
    rng: int
    turn: int
    units: tuple[Unit, ...]
    plots: tuple[tuple[str, tuple[int, ...]], ...] = ()  # (unit, path), hidden from the other side
    committed: tuple[str, ...] = ()


class ToyOrders(ToyScenarios, Ruleset[OrdersState, ToyScenario]):
    id = "toy_orders"
    name = "Toy Orders"
    seats = SEATS
    decision_types = (Plot, Commit)
    state_type = OrdersState

    @classmethod
    def scenario_dir(cls) -> Path:
        return Path(__file__).parent / "toy_orders_scenarios"

    def initial_state(self, seed: int) -> OrdersState:
        units = tuple(Unit(f"{s[0]}{i}", s, c) for s in SEATS for i, c in enumerate(self.scenario.start[s]))
        return OrdersState(seed_state(seed), 1, units)

    # --- who decides ---------------------------------------------------------------------------------------
    def turn(self, state: OrdersState) -> Turn:
        if state.turn > self.scenario.info.turns or len({u.side for u in state.units}) < 2:
            return Turn(None)
        return Turn.at_once([s for s in SEATS if s not in state.committed], phase=f"orders, turn {state.turn}")

    # --- §2 the plot, by rule --------------------------------------------------------------------------------
    def path_refusal(self, state: OrdersState, unit: Unit, path: object) -> IllegalDecision | None:
        """Why ``path`` is not a legal plot for ``unit`` (§2), or None."""
        grid = self.scenario.map.grid
        if not isinstance(path, tuple) or not 1 <= len(path) <= MAX_STEPS:
            return IllegalDecision(f"a path is 1 to {MAX_STEPS} hexes", "Toy Orders §2")
        here = unit.cell
        for cell in path:
            if not isinstance(cell, int) or not 0 <= cell < grid.size or grid.distance(here, cell) != 1:
                return IllegalDecision("each hex of a path is next to the one before", "Toy Orders §2a")
            if self.scenario.map.terrain[cell] == "water":
                return IllegalDecision(f"{grid.label(cell)} is water", "Toy Orders §2b")
            here = cell
        if len(set(path)) < len(path) or unit.cell in path:
            return IllegalDecision("a path passes a hex once", "Toy Orders §2c")
        return None

    def _sample_path(self, unit: Unit, dice: Dice) -> tuple[int, ...]:
        """A legal path at random: a walk of 1 to 3 steps over land, never back on itself."""
        grid = self.scenario.map.grid
        while True:
            path: list[int] = []
            here = unit.cell
            for _ in range(1 + dice.below(MAX_STEPS)):
                nxt = [
                    c
                    for c in grid.neighbors(here)
                    if c >= 0 and self.scenario.map.terrain[c] != "water" and c not in path and c != unit.cell
                ]
                if not nxt:
                    break
                here = nxt[dice.below(len(nxt))]
                path.append(here)
            if path:
                return tuple(path)

    def legal(self, state: OrdersState, seat: str) -> Legal:
        if seat not in self.turn(state).deciding:
            return Legal(seat)
        plotted = {u for u, _ in state.plots}
        choices = [Choice(Commit, label="commit the orders")]
        grid = self.scenario.map.grid
        for u in state.units:
            if u.side != seat or u.id in plotted:  # §2d: one plot a unit a turn
                continue
            first = [c for c in grid.neighbors(u.cell) if self.scenario.map.terrain[c] != "water"]
            land = [c for c in range(grid.size) if self.scenario.map.terrain[c] != "water"]
            reach = sorted(c for c in land if 0 < grid.distance(u.cell, c) <= MAX_STEPS)
            choices.append(
                Choice(
                    Plot,
                    {"unit": u.id},
                    None,
                    check=lambda path, u=u: self.path_refusal(state, u, path),
                    sampler=lambda dice, u=u: self._sample_path(u, dice),
                    size=len(first),  # an estimate: random play plots about as often as it commits
                    hint=reach,
                )
            )
        return Legal(seat, choices, prompt="plot a path for each unit, then commit")

    def explain(self, state: OrdersState, seat: str, decision: Decision, legal: Legal) -> IllegalDecision:
        if isinstance(decision, Plot) and any(u == decision.unit for u, _ in state.plots):
            return IllegalDecision(f"{decision.unit} has its orders for this turn", "Toy Orders §2d")
        return super().explain(state, seat, decision, legal)

    # --- applying ------------------------------------------------------------------------------------------
    def apply(self, state: OrdersState, seat: str, decision: Decision, step: Step) -> OrdersState:
        if isinstance(decision, Plot):
            step.emit("plot", f"{decision.unit} plotted", (seat,), unit=decision.unit, path=list(decision.path))
            return replace(state, plots=(*state.plots, (decision.unit, decision.path)))
        assert isinstance(decision, Commit)
        state = replace(state, committed=(*state.committed, seat))
        step.emit("committed", f"{seat} has given its orders", seat=seat)
        if len(state.committed) < len(SEATS):
            return state
        return self._execute(state, step)

    def _execute(self, state: OrdersState, step: Step) -> OrdersState:
        """§3: all paths at once, hex by hex; then the fights."""
        step.reveal()
        grid = self.scenario.map.grid
        units = {u.id: u for u in state.units}
        paths = dict(state.plots)
        for i in range(MAX_STEPS):
            taken = {u.cell for u in units.values()}
            for uid in sorted(paths):
                u = units[uid]
                if i < len(paths[uid]) and paths[uid][i] not in taken:  # a unit stops before an occupied hex
                    taken.discard(u.cell)
                    units[uid] = replace(u, cell=paths[uid][i])
                    taken.add(units[uid].cell)
        moved = replace(state, units=tuple(units.values()))
        for uid in sorted(paths):
            u = units[uid]
            enemy = next(s for s in SEATS if s != u.side)
            step.emit("moved", f"{uid} moves to {grid.label(u.cell)}", (u.side,), unit=uid, to=u.cell)
            if uid in self._seen(moved, enemy):  # §1: the enemy sees a unit there, not which one
                step.emit("sighted", f"an enemy unit at {grid.label(u.cell)}", (enemy,), to=u.cell)
        for a in sorted(units):
            for b in sorted(units):
                ua, ub = units.get(a), units.get(b)
                if ua is None or ub is None or ua.side != "red" or ub.side != "blue":
                    continue
                if grid.distance(ua.cell, ub.cell) == 1:
                    where = f"{grid.label(ua.cell)} against {grid.label(ub.cell)}"
                    ra, rb = step.roll(6, f"red fights at {where}"), step.roll(6, f"blue fights at {where}")
                    if ra != rb:
                        lost = b if ra > rb else a
                        del units[lost]
                        step.emit("destroyed", f"{lost} destroyed", unit=lost)
        return replace(state, turn=state.turn + 1, units=tuple(units.values()), plots=(), committed=())

    # --- what a seat knows ---------------------------------------------------------------------------------
    def _seen(self, state: OrdersState, seat: str) -> set[str]:
        g = self.scenario.map.grid
        mine = [u for u in state.units if u.side == seat]
        return {u.id for u in state.units if u.side != seat and any(g.distance(u.cell, m.cell) <= 3 for m in mine)}

    def view(self, state: OrdersState, seat: str | None) -> dict[str, Any]:
        seen = self._seen(state, seat) if seat else set()
        side = {u.id: u.side for u in state.units}
        return {
            "turn": state.turn,
            "units": [
                {"id": u.id, "side": u.side, "cell": u.cell}
                for u in state.units
                if seat is None or u.side == seat or u.id in seen
            ],
            "plots": [{"unit": u, "path": list(p)} for u, p in state.plots if seat is None or side.get(u) == seat],
            "committed": list(state.committed),
        }

    def map_json(self) -> dict[str, Any]:
        return self.scenario.map.to_public()

    def hidden_units(self, state: OrdersState, seat: str) -> frozenset[str]:
        seen = self._seen(state, seat)
        return frozenset(u.id for u in state.units if u.side != seat and u.id not in seen)

    def result(self, state: OrdersState) -> Result | None:
        if self.turn(state).seat is not None:
            return None
        n = {s: sum(u.side == s for u in state.units) for s in SEATS}
        winner = None if n["red"] == n["blue"] else max(n, key=lambda s: n[s])
        return Result(winner, {s: "win" if s == winner else "loss" for s in SEATS}, n, f"units left: {n}")
