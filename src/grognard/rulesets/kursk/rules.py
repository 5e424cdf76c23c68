"""Objective Kursk as a grognard ruleset: the protocol's calls, dispatching to the rule modules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from grognard.engine import Choice, Decision, IllegalDecision, Legal, Result, Ruleset, Step, Turn
from grognard.engine.decisions import KeptLegal
from grognard.engine.events import Event
from grognard.engine.protocol import OptionSpec
from grognard.engine.records import replace
from grognard.engine.rng import Dice, seed_state

from . import adjust, air, phases, plots, roads, supply
from . import decisions as D
from .board import Ctx
from .scenario import SCENARIO_DIR, KurskScenario, order_of_battle, read_scenario, scenario_from_document
from .state import Group, KState
from .tables import SEATS, load_tables

ADJUST_PARTS = {0: "soviet", 4: "german"}
SUPPLY_PARTS = {1: "soviet", 5: "german"}
ROAD_PARTS = {2: "soviet", 6: "german"}
AIR_PARTS = {3: "soviet", 7: "german"}
PLOT_PART = 8
FAMILIES_KEPT = 256  # groups whose families are kept: a side has up to about 70 on the map (each group's take ~2 KB)


class Families:
    """Families of legal decisions kept per group object: for each group, each kind of family with what else it reads
    of the position (``reads``, compared by value). A decision changes a group or two, and the legal set of the next
    position takes the other groups' families as they were, their values, counts and keys already worked out. A
    family's check may hold the position it was made for: it reads nothing there but its group and ``reads``. At most
    ``limit`` groups are kept, the oldest dropped first."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: dict[int, tuple[Group, dict[str, tuple[object, Choice]]]] = {}
        self._shared: dict[tuple[int, ...], tuple[int, ...]] = {}

    def of(self, g: Group) -> dict[str, tuple[object, Choice]]:
        """The families kept for ``g``, by kind (the entry holds the group: no other object has its id meanwhile)."""
        kept = self._kept
        found = kept.get(id(g))
        if found is None or found[0] is not g:
            if found is None and len(kept) >= self.limit:
                del kept[next(iter(kept))]
            found = kept[id(g)] = (g, {})
        return found[1]

    def shared(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        """One tuple for equal tuples of IDs, so that families reading them compare by identity."""
        kept = self._shared
        found = kept.get(ids)
        if found is None:
            if len(kept) >= self.limit:
                kept.clear()
            found = kept[ids] = ids
        return found

    def clear(self) -> None:
        self._kept.clear()
        self._shared.clear()


class Kursk(Ruleset[KState, KurskScenario]):
    """Objective Kursk (SSI 1984)."""

    id = "kursk"
    name = "Objective Kursk"
    seats = SEATS
    counted_families = False  # its page (web/rulesets/kursk.js) reads every family's values from the update
    decision_types = D.ALL
    state_type = KState
    cell_format = "column,row"
    option_specs = (
        OptionSpec(
            "level",
            "Solitaire level (§12)",
            3,
            choices=(1, 2, 3, 4),
            help="Level 3 is historical; each level lower brings Soviet reinforcements 2 turns earlier and makes "
            "Soviet minefields stronger, each level higher the reverse.",
        ),
    )

    @classmethod
    def scenario_dir(cls) -> Path:
        return SCENARIO_DIR

    @classmethod
    def read_scenario(cls, path: Path) -> KurskScenario:
        return read_scenario(path)

    @classmethod
    def scenario_from_document(cls, document: Mapping[str, Any], where: str) -> KurskScenario:
        return scenario_from_document(document, where)

    @classmethod
    def computer_players(cls) -> dict[str, Callable[[int, int], Any]]:
        from .general import General

        return {"general": lambda seed, level: General(seed, level)}

    def __init__(self, scenario: KurskScenario, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(scenario, options)
        self.ctx = Ctx(load_tables(), scenario, int(self.options["level"]))
        self.sequence = phases.turn_sequence(self.ctx, self.legal)
        self.part_names = phases.part_names()
        # the legal set of the last state each seat was asked about: the sequence asks whether a part has work after
        # a decision, and the seat to decide next asks again, of the same state with the dice stored
        self._legal_kept = KeptLegal(self._legal)
        self._families = Families(FAMILIES_KEPT)
        self._last_turn: tuple[tuple[object, ...], Turn] = ((), Turn(None))
        # each seat's last plot families: its groups, the groups plotted, the families and the groups they are about
        self._plotting: dict[str, tuple[tuple[Group, ...], frozenset[int], list[Choice], list[Group]]] = {}

    # --- start -----------------------------------------------------------------------------------------
    def initial_state(self, seed: int) -> KState:
        return self.opening(seed)[0]

    def opening(self, seed: int) -> tuple[KState, list[Event]]:
        """§3.2's set-up and the start of the first turn (§10's weather roll, reinforcements due on turn 1 at
        levels 1-2, §12), logged like every die."""
        ctx = self.ctx
        control = tuple((p.name, str(p.data["control"])) for p in ctx.map.places if p.value)
        groups = order_of_battle(ctx.tables, ctx.level)
        state = KState(seed_state(seed), 1, 0, "clear", groups, control, air=air.pools(ctx))
        step = Step(state.rng)
        state = phases.begin_turn(ctx, state, step)
        state = self.sequence.enter(state, 0, step)
        return replace(state, rng=step.rng), step.events

    def turns_played(self, state: KState) -> int:
        return state.turn

    def cell_label(self, cell: int) -> str:
        return self.ctx.grid.label(cell)

    # --- asking ----------------------------------------------------------------------------------------
    def turn(self, state: KState) -> Turn:
        where = (state.over, state.turn, state.part, state.committed)
        last = self._last_turn
        if last[0] == where:  # asked several times a decision, by the engine, the driver and the sequence
            return last[1]
        if state.over:
            found = Turn(None, phase="game over")
        else:
            label = f"{phases.turn_name(state.turn)}: {self.part_names[state.part]}"
            if state.part == PLOT_PART:
                found = Turn.at_once([s for s in SEATS if s not in state.committed], label)
            else:
                found = Turn(self._mover(state), phase=label)
        self._last_turn = (where, found)
        return found

    @staticmethod
    def _mover(state: KState) -> str:
        return "soviet" if state.part < 4 else "german"

    def legal(self, state: KState, seat: str) -> Legal:
        return self._legal_kept(state, seat)

    def _legal(self, state: KState, seat: str) -> Legal:
        if state.over or not self.turn(state).may_act(seat):
            return Legal(seat)
        if state.part in ADJUST_PARTS:
            return self._legal_adjust(state, seat)
        if state.part in SUPPLY_PARTS:
            return self._legal_supply(state, seat)
        if state.part in ROAD_PARTS:
            return self._legal_road(state, seat)
        if state.part in AIR_PARTS:
            return self._legal_air(state, seat)
        return self._legal_plot(state, seat)

    def _legal_adjust(self, state: KState, seat: str) -> Legal:
        ctx = self.ctx
        kept = self._families
        placed = ctx.placed(state)
        free = kept.shared(adjust.free_ids(ctx, state, seat))
        stacks = placed.stacks(seat)
        choices: list[Choice] = []
        for g in placed.side(seat):
            if g.adjusted:
                continue
            here = stacks[g.cell]
            # each family is kept by its group and what else it reads (the free IDs, the groups in the hex): a
            # decision changes one or two groups, and the others' families stay as they were (issue 17)
            mine = kept.of(g)
            divide, transfer, renumber = mine.get("divide"), mine.get("transfer"), mine.get("renumber")
            at = (ctx, state, g)
            if divide is None or divide[0] != (bool(free), len(here)):
                divide = mine["divide"] = ((bool(free), len(here)), self._units_family(False, at))
            if transfer is None or transfer[0] != here:
                transfer = mine["transfer"] = (here, self._units_family(True, at))
            if renumber is None or renumber[0] is not free:
                # §4.1: a group that may adjust may take any free ID, the one tuple every group's family shares
                check = partial(adjust.renumber_refusal, *at)
                renumber = mine["renumber"] = (free, Choice(D.Renumber, {"group": g.id}, free, check=check))
            choices += (divide[1], transfer[1], renumber[1])
        if seat == "german":
            choices.append(Choice(D.EndGame, label="end the game (§4.6)"))
        choices.append(Choice(D.EndPhase, label="end the group adjustment phase"))
        return Legal(seat, choices, prompt="group adjustment (§4): divide, transfer, renumber, or end the phase")

    @staticmethod
    def _units_family(whole: bool, at: tuple[Ctx, KState, Group]) -> Choice:
        """A group's divide family (``whole`` False: some of its units) or transfer family (any of them), listed and
        counted without asking its check of every candidate: random play sizes every family (issue 17)."""
        kind, listed, refusal, count = (
            (D.Transfer, adjust.transfers, adjust.transfer_refusal, adjust.transfer_count)
            if whole
            else (D.Divide, adjust.divides, adjust.divide_refusal, adjust.divide_count)
        )
        return Choice(
            kind, {"group": at[2].id}, partial(listed, *at), check=partial(refusal, *at), count=partial(count, *at)
        )

    def _legal_supply(self, state: KState, seat: str) -> Legal:
        ctx = self.ctx
        entries = range(len(ctx.entries[seat]))
        choices = [Choice.filtered(D.NewDepot, {}, entries, partial(supply.entry_refusal, ctx, state, seat))]
        if state.depot is not None:
            choices.append(Choice.filtered(D.MoveDepot, {}, range(1, 7), partial(supply.move_refusal, ctx, state)))
            if supply.receivers(ctx, state):
                choices.append(Choice(D.Distribute, label="(S)UPPLY the groups within 2 hexes"))
        choices.append(Choice(D.EndPhase, label="end the supply phase"))
        info = {"depot": None if state.depot is None else {"cell": state.depot.cell, "level": state.depot.quarters / 4}}
        return Legal(seat, choices, prompt="supply (§5): move a depot, supply, or ask for a new one", info=info)

    def _legal_road(self, state: KState, seat: str) -> Legal:
        ctx = self.ctx
        kept = self._families
        placed = ctx.placed(state)
        zoc = placed.zoc(seat)
        cleared = state.cleared
        choices = []
        for g in placed.side(seat):
            if g.road_moved:
                continue
            mine = kept.of(g)
            if not g.mode_set:
                # §6.2 reads the group, whether its hex is next to an enemy and whether its minefield is cleared
                reads = (g.cell in zoc, g.cell in cleared)
                mode = mine.get("mode")
                if mode is None or mode[0] != reads:
                    mode = mine["mode"] = (reads, self._mode_family(ctx, state, g))
                choices.append(mode[1])
            if g.mode == "road":
                # §6.3 reads the enemy's ZOC, the minefields cleared and the hexes holding two friendly groups
                reads_road = (zoc, cleared, placed.full(seat))
                road = mine.get("road")
                if road is None or road[0] != reads_road:
                    road = mine["road"] = (reads_road, self._road_family(ctx, state, g))
                choices.append(road[1])
        choices.append(Choice(D.EndPhase, label="end the mode and road movement phase"))
        return Legal(seat, choices, prompt="modes (§6.2) and road movement (§6.3)")

    @staticmethod
    def _mode_family(ctx: Ctx, state: KState, g: Group) -> Choice:
        return Choice.filtered(D.SetMode, {"group": g.id}, ctx.tables.modes, partial(roads.mode_refusal, ctx, state, g))

    @staticmethod
    def _road_family(ctx: Ctx, state: KState, g: Group) -> Choice:
        reach = partial(lambda g: sorted(roads.road_reach(ctx, state, g)), g)
        return Choice(D.RoadMove, {"group": g.id}, reach, check=partial(roads.road_refusal, ctx, state, g))

    def _legal_air(self, state: KState, seat: str) -> Legal:
        ctx = self.ctx
        choices = []
        if air.may_plan(ctx, state, seat):
            choices.append(
                Choice(
                    D.Airstrike,
                    {},
                    None,
                    check=partial(air.refusal, ctx, state, seat),
                    sampler=partial(air.sample, ctx, state, seat),
                    size=1,  # an estimate: random play plans a strike about as often as it ends the phase
                )
            )
        choices.append(Choice(D.EndPhase, label="end the air missions phase"))
        fighters, bombers = air.available(state, seat)
        return Legal(
            seat,
            choices,
            prompt=f"air missions (§7.1): {fighters} fighters and {bombers} bombers available; the rest fly CAP",
            info={"fighters": fighters, "bombers": bombers, "strikes_left": air.strikes_left(ctx, state, seat)},
        )

    def _legal_plot(self, state: KState, seat: str) -> Legal:
        ctx = self.ctx
        plotted = {gid for gid, _ in state.plots}
        last = self._plotting.get(seat)
        if last is not None and last[0] is state.groups and last[1] <= plotted:
            # the same groups with more plots (a plot changes no group): the families of those plotted drop out
            choices = [c for c in last[2] if c.fixed.get("group") not in plotted]
            plotting = [g for g in last[3] if g.id not in plotted]
        else:
            kept = self._families
            choices = []
            plotting = []
            for g in ctx.side_groups(state, seat):
                if g.id in plotted or not plots.plottable(ctx, g):
                    continue
                mine = kept.of(g)
                plot = mine.get("plot")
                if plot is None:  # a plot reads its group alone
                    plot = mine["plot"] = (None, self._plot_family(ctx, g))
                choices.append(plot[1])
                plotting.append(g)
            choices.append(Choice(D.Commit, label="commit the plots"))
        self._plotting[seat] = (state.groups, frozenset(plotted), choices, plotting)
        # worked out when asked for: a search or a random player never asks
        suggested = partial(self._suggest_plot, state, seat, plotting) if plotting else None
        return Legal(seat, choices, prompt="tactical plot (§6.4-6.7), then commit", suggested=suggested)

    @staticmethod
    def _plot_family(ctx: Ctx, g: Group) -> Choice:
        return Choice(
            D.Plot,
            {"group": g.id},
            None,
            check=partial(plots.refusal, ctx, g),
            sampler=partial(plots.sample, ctx, g),
            size=1,  # an estimate: random play plots a group about as often as it commits
            hint=plots.plot_hint(ctx, g),
        )

    def _suggest_plot(self, state: KState, seat: str, plotting: list[Group]) -> Decision | None:
        """The computer's plot for the first group it has a legal one for."""
        from .general import suggest_plot

        view = self.view(state, seat)
        for g in plotting:
            text = suggest_plot(self.ctx, view, g.id)
            if text is not None and plots.refusal(self.ctx, g, text) is None:
                return D.Plot(g.id, text)
        return None

    def explain(self, state: KState, seat: str, decision: Decision, legal: Legal) -> IllegalDecision:
        if isinstance(decision, D.Plot) and state.plot_of(decision.group) is not None:
            return IllegalDecision(f"group {decision.group} has its plot for this turn", "§6.4")
        return super().explain(state, seat, decision, legal)

    # --- deciding --------------------------------------------------------------------------------------
    def apply(self, state: KState, seat: str, decision: Decision, step: Step) -> KState:
        state = self._apply(state, seat, decision, step)
        return self.sequence.settle(state, step)

    def with_rng(self, state: KState, rng: int) -> KState:
        """The state with the dice stored has the legal sets of ``state``: the legal set reads no dice
        (tests/kursk/test_legal_reuse.py)."""
        like = super().with_rng(state, rng)
        self._legal_kept.carry(state, like)
        return like

    def _apply(self, state: KState, seat: str, d: Decision, step: Step) -> KState:
        ctx = self.ctx
        match d:
            case D.Divide(group=gid, units=units):
                return adjust.divide(ctx, state, state.group(gid), units, step)
            case D.Transfer(group=gid, units=units):
                return adjust.transfer(ctx, state, state.group(gid), units, step)
            case D.Renumber(group=gid, number=number):
                return adjust.renumber(ctx, state, state.group(gid), number, step)
            case D.EndGame():
                step.emit("game_over", "the German player ends the game (§3.5, §4.6)", None)
                return replace(state, over=True, ended_by=seat)
            case D.EndPhase():
                return self.sequence.advance(replace(state, depot=None), step)
            case D.NewDepot(entry=e):
                return supply.new_depot(ctx, state, seat, e, step)
            case D.MoveDepot(direction=direction):
                return supply.move_depot(ctx, state, direction, step)
            case D.Distribute():
                return supply.distribute(ctx, state, step)
            case D.SetMode(group=gid, mode=mode):
                return roads.set_mode(ctx, state, state.group(gid), mode, step)
            case D.RoadMove(group=gid, to=to):
                return roads.road_move(ctx, state, state.group(gid), to, step)
            case D.Plot(group=gid, plot=text):
                parsed = plots.parse(ctx, text)
                assert not isinstance(parsed, IllegalDecision)
                step.emit("plot", f"group {gid} plots {parsed.text()}", (seat,), group=f"CG{gid}", plot=parsed.text())
                return replace(state, plots=(*state.plots, (gid, parsed.text())))
            case D.Airstrike(strike=strike):
                target, bombers, escorts = strike
                return air.plan(ctx, state, seat, (target, bombers, escorts), step)
            case D.Commit():
                step.emit("committed", f"the {seat} side has given its plots", None, seat=seat)
                state = replace(state, committed=(*state.committed, seat))
                if len(state.committed) < len(SEATS):
                    return state
                return self.sequence.advance(state, step)
        raise IllegalDecision(f"{d.text()} is not an Objective Kursk order")

    # --- what leaves the engine ------------------------------------------------------------------------
    def view(self, state: KState, seat: str | None) -> dict[str, Any]:
        from .view import build_view

        return build_view(self.ctx, state, seat, self.turn(state))

    def hidden_units(self, state: KState, seat: str) -> frozenset[str]:
        from .view import hidden_units

        return hidden_units(self.ctx, state, seat)

    def perturb_hidden(self, state: KState, seat: str, dice: Dice) -> KState:
        from .general import perturb_hidden

        return perturb_hidden(self.ctx, state, seat, dice, self.legal)

    def result(self, state: KState) -> Result | None:
        if not state.over:
            return None
        from .victory import result

        return result(self.ctx, state)

    def describe(self, decision: Decision) -> str:
        from .view import describe

        return describe(self.ctx, decision)

    def render_text(self, state: KState, seat: str | None) -> str:
        from .render import render

        return render(self.ctx, state, seat)

    def rate(self, view: Mapping[str, Any], seat: str, decision: Decision) -> int:
        from .general import rate

        return rate(self.ctx, view, seat, decision)

    def parse_cell(self, label: str) -> int:
        return self.ctx.grid.parse(label)

    def map_json(self) -> dict[str, Any]:
        return self.ctx.map.to_public()
