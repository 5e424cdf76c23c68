"""Battle of Antietam (SSI 1985) as a grognard ruleset: the basic game ("quick start" rules, §B1-§B7) on the
sequence of play of §IA2.3. The protocol's calls, dispatching to the rule modules."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from functools import partial
from itertools import compress
from operator import attrgetter, not_
from pathlib import Path
from typing import Any

from grognard.engine import Choice, Decision, Event, IllegalDecision, Legal, Result, Ruleset, Step, Turn
from grognard.engine.protocol import OptionSpec, TimeLimit
from grognard.engine.records import replace
from grognard.engine.rng import Dice, seed_state

from . import activation, leaders, plots, view
from . import decisions as D
from . import orders as unit_orders
from .board import Board
from .combat import count_loss
from .ctx import CHANGED_AT_MOST, ENEMY, Ctx, Options, changed
from .moves import Steps, enemy_zoc_of, held_formations, held_refusal, locked, move
from .phases import arrive, clock, deciding_side, operations_side, phase_names, phase_title, turn_sequence
from .scenario import SCENARIO_DIR, AntietamScenario, read_scenario, scenario_from_document
from .state import GONE, OFF_MAP, AntietamState, Unit
from .tables import SEATS, load_tables
from .victory import LEVEL_NAMES

_RULES = load_tables().rules


class Antietam(Ruleset[AntietamState, AntietamScenario]):
    """Battle of Antietam (SSI 1985): the basic, intermediate and advanced games (§IA2.1 #4)."""

    id = "antietam"
    name = "Battle of Antietam"
    seats = SEATS
    counted_families = False  # its page (web/rulesets/antietam.js) reads every family's values from the update
    decision_types = D.ALL
    state_type = AntietamState
    option_specs = (
        OptionSpec(
            "level",
            "Level of play (§IA2.1 #1): 3 historical, 1-2 favour the Confederates, 4-5 the Union",
            _RULES["options"]["historical_level"],
            tuple(_RULES["options"]["levels"]),
        ),
        OptionSpec(
            "game",
            "Basic, intermediate or advanced game (§IA2.1 #4)",
            "basic",
            tuple(_RULES["options"]["complexity"]),
        ),
        OptionSpec("hidden", "Hidden units (§IA2.1 #5): only sighted enemy units appear", True),
        OptionSpec(
            "time_limit",
            "Time limit per operation phase in minutes (§IA2.1 #6; 0: none; kept by the server for people)",
            0,
            (0, *_RULES["options"]["time_limit_minutes"]),
        ),
        OptionSpec(
            "activation",
            "Activation (§IA2.1 #8): §B2.0 the corps schedule (basic), §IA3 the activation cycle (others)",
            True,
        ),
        OptionSpec(
            "display", "Icons or symbols (§IA2.1 #9; the basic game always shows icons)", "icons", ("icons", "symbols")
        ),
        OptionSpec(
            "version",
            "The program's version: ibm holds Union cavalry until turn 3 (§B2.0, §IA3.2), c64 as the rules print",
            "c64",
            ("c64", "ibm"),
        ),
    )

    @classmethod
    def scenario_dir(cls) -> Path:
        return SCENARIO_DIR

    @classmethod
    def read_scenario(cls, path: Path) -> AntietamScenario:
        return read_scenario(path)

    @classmethod
    def scenario_from_document(cls, document: Mapping[str, Any], where: str) -> AntietamScenario:
        return scenario_from_document(document, where)

    @classmethod
    def computer_players(cls) -> dict[str, Callable[[int, int], Any]]:
        from .general import General

        return {"general": lambda seed, level: General(seed, level)}

    def __init__(self, scenario: AntietamScenario, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(scenario, options)
        self.ctx = Ctx(Board(scenario), Options.of(self.options))
        self.sequence = turn_sequence(self.ctx, self.legal)
        self._last_legal: tuple[AntietamState, str, Legal] | None = None
        self._turns: dict[tuple[int, int, bool], Turn] = {}
        self._steps_kept: Steps | None = None
        # the families that are the same in every operation phase, and the plot family's hint and suggested plot
        # for the last units that may plot (``plots.aims`` hands out the same answer while it stands)
        self._fixed_choices = {
            "next": Choice(D.Next, label="the next unit"),
            "put_down": Choice(D.PutDown, label="put the unit down"),
            "end_phase": Choice(D.EndPhase, label="end the operation phase"),
        }
        self._plot_extras: tuple[dict[int, plots.Aim], dict[str, list[str]], Callable[[], D.Plot] | None] | None = None

    # --- start ------------------------------------------------------------------------------------------------
    def initial_state(self, seed: int) -> AntietamState:
        return self.opening(seed)[0]

    def opening(self, seed: int) -> tuple[AntietamState, list[Event]]:
        """§IA2.2 the historical set-up; §IA1.3 one to seven random fords on the creek (their rolls logged)."""
        ctx, board, sc = self.ctx, self.ctx.board, self.scenario
        units: list[Unit] = []
        for spec in board.specs:
            square = sc.start_square(spec)
            men = sc.start_strength(spec)
            cell = board.grid.parse(square) if square else (OFF_MAP if men else GONE)
            units.append(arrive(ctx, len(units), Unit(cell=cell, strength=men), False))
        state = AntietamState(rng=seed_state(seed), turn=sc.spec.first_turn, part=0, units=tuple(units))
        for i, spec in enumerate(board.specs):  # a later start's casualties already taken (scenario.py)
            state = count_loss(ctx, state, i, spec.strength - state.units[i].strength)
        step = Step(state.rng)
        f = ctx.tables.terrain["fords"]
        count = f["random_min"] - 1 + step.roll(f["random_max"] - f["random_min"] + 1, "random fords")
        fords: list[int] = []
        while len(fords) < count:
            c = board.stream[step.roll(len(board.stream), "a random ford's square") - 1]
            if c not in fords:
                fords.append(c)
        state = replace(
            state, fords=tuple(sorted(fords)), holders=self._first_holders(state), leaders=leaders.initial(ctx)
        )
        state = self.sequence.enter(state, sc.first_part, step)
        return replace(state, rng=step.rng), step.events

    def _first_holders(self, state: AntietamState) -> tuple[str, ...]:
        """Each victory square is first held by the side whose unit stands nearest it at the start (AMB-18
        reading; ties to the Confederates, on whose side of the creek the squares lie)."""
        board = self.ctx.board
        out = []
        for cell, _, _ in board.victory:
            best = min(
                (int(board.dist[cell, u.cell]), board.side(i) != "confederate", board.side(i))
                for i, u in enumerate(state.units)
                if u.cell >= 0
            )
            out.append(best[2])
        return tuple(out)

    # --- asking -----------------------------------------------------------------------------------------------
    def turn(self, state: AntietamState) -> Turn:
        if state.over:
            return Turn(None, phase="the battle is over")
        # asked many times a decision: one answer a turn, phase and side (at most 11 x 14 x 2 of them)
        key = (state.turn, state.part, bool(state.offer))
        found = self._turns.get(key)
        if found is None:
            side = deciding_side(self.ctx, state)
            label = (
                f"Turn {state.turn} ({clock(self.ctx, state.turn)}): {phase_title(phase_names(self.ctx)[state.part])}"
            )
            found = self._turns[key] = Turn(side or None, phase=label)
        return found

    def time_limit(self, state: AntietamState) -> TimeLimit | None:
        """§IA2.1 #6 "a time limit to how much time a player has to complete his operations phase" (AMB-25: 2, 4
        or 8 minutes): the phasing side's, for the whole phase; when it runs out the phase ends as C ends it, with
        the orders given so far (the manual says no more; docs/rules/antietam.md)."""
        minutes = self.ctx.options.time_limit
        side = operations_side(self.ctx, state.part)
        if not minutes or state.over or not side:
            return None
        return TimeLimit(side, f"{state.turn}/{state.part}", 60.0 * minutes, D.EndPhase())

    def turns_played(self, state: AntietamState) -> int:
        """The hourly turns begun since the scenario's first (``simulate --json``'s ``turns``)."""
        spec = self.scenario.spec
        return min(state.turn, spec.last_turn) - spec.first_turn + 1

    def with_rng(self, state: AntietamState, rng: int) -> AntietamState:
        return replace(state, rng=rng)  # the state module's quicker replace (after every decision)

    def legal(self, state: AntietamState, seat: str) -> Legal:
        cached = self._last_legal
        if cached is not None and cached[1] == seat and _same_position(cached[0], state):
            return cached[2]  # the sequence asks what the driver asks next (the generator aside, states agree)
        legal = self._legal(state, seat)
        self._last_legal = (state, seat, legal)
        return legal

    def _legal(self, state: AntietamState, seat: str) -> Legal:
        if state.over or seat != deciding_side(self.ctx, state):
            return Legal(seat)
        ctx, board = self.ctx, self.ctx.board
        if state.part == ctx.activation_part:  # §IA3.1 activate or bypass the division offered
            d = state.offer[0]
            return Legal(
                seat,
                [Choice(D.Activate, None, [d], label="activate"), Choice(D.Bypass, None, [d], label="bypass")],
                prompt=f"activate {d}'s division? ({state.limit} activations left)",
            )
        choices: list[Choice] = []
        ready, ids = self._ready_units(state, seat)
        others = len(ready) > (state.accessed in ready)
        # SPACE BAR: any ready unit, by a check (listing them all would make a random player pick units up for
        # ever); N: the next one not yet picked up, in the OOB's order
        choices.append(
            Choice(
                D.Access,
                None,
                None,
                label="pick up a unit",
                check=partial(self._access_refusal, state, seat),
                sampler=partial(_draw_other, ids, board.spec(state.accessed).id if state.accessed >= 0 else ""),
                size=1 if others else 0,
                hint=ids,
            )
        )
        fixed_choices = self._fixed_choices
        if self._next_unit(state, seat) >= 0:
            choices.append(fixed_choices["next"])
        if state.accessed >= 0:
            i = state.accessed
            occ = ctx.occupants(state)
            ezoc = enemy_zoc_of(ctx, state, seat)
            here = state.units[i].cell
            steps = self._steps(state, i, occ, ezoc)

            def check(to: object) -> IllegalDecision | None:
                cell = board.parse(to) if isinstance(to, str) else None
                return steps.refusal(-1 if cell is None else cell)[0]

            def allowed() -> list[str]:  # the squares next to it that ``check`` accepts, in direction order
                return list(map(board.labels.__getitem__, steps.allowed()))

            fixed = {"unit": board.spec(i).id, "at": board.label(here)}
            choices.append(Choice(D.Move, fixed, allowed, "move one square", check=check))
            choices.append(fixed_choices["put_down"])
            if unit_orders.may_abort(state):
                choices.append(Choice(D.Abort, None, [board.spec(i).id], label="abort: back as picked up (Z)"))
            if not ctx.basic:
                choices.extend(self._unit_orders(state, i))
        aims = plots.aims(ctx, state, seat)
        extras = self._plot_extras
        if extras is None or extras[0] is not aims:
            # for the page: each unit that may plot, with the enemy squares it may fire into (all sighted); the
            # suggested plot (worked out when asked): the units that can fire and have no plot yet, each at its
            # nearest enemy square, with a melee where the enemy is next to it (the computer players' start)
            hint = dict(zip(map(board.unit_ids.__getitem__, aims), map(_LABELS, aims.values()), strict=True))
            suggested = partial(_suggested_plot, aims) if aims else None
            extras = self._plot_extras = (aims, hint, suggested)
        choices.append(
            Choice(
                D.Plot,
                None,
                None,
                label="plot fire and melee",
                check=partial(plots.plot_refusal, ctx, state, seat),
                sampler=partial(plots.sample, ctx, state, seat),
                size=len(aims),
                hint=extras[1],
            )
        )
        choices.append(fixed_choices["end_phase"])
        return Legal(seat, choices, prompt="operation phase: move, plot fire and melee, then C", suggested=extras[2])

    def _steps(self, state: AntietamState, i: int, occ: dict[int, list[int]], ezoc: frozenset[int]) -> Steps:
        """The picked-up unit's steps, kept while all they read stays the same (a plot or an order to another
        unit leaves them: the squares it may step into are then listed once)."""
        kept = self._steps_kept
        if (
            kept is not None
            and kept.i == i
            and kept.u is state.units[i]
            and kept.occ is occ
            and kept.enemy_zoc is ezoc
            and kept.reads(kept.state) == kept.reads(state)
        ):
            return kept
        self._steps_kept = steps = Steps(self.ctx, state, i, occ, ezoc)
        return steps

    def _unit_orders(self, state: AntietamState, i: int) -> list[Choice]:
        """S mode, D facing, X force march, B fortify for the accessed unit (§IA7.8-§IA7.11), each listed only
        when its rule allows it."""
        ctx = self.ctx
        uid = ctx.board.spec(i).id
        out = []
        one = {"unit": uid}
        if unit_orders.mode_refusal(ctx, state, i) is None:
            out.append(Choice(D.Mode, None, [uid], label="change mode"))
        faces = [f for f in range(1, 9) if unit_orders.face_refusal(ctx, state, i, f) is None]
        out.append(Choice(D.Face, one, faces, label="face", check=partial(unit_orders.face_refusal, ctx, state, i)))
        if unit_orders.force_march_refusal(ctx, state, i) is None:
            out.append(Choice(D.ForceMarch, None, [uid], label="force march"))
        if unit_orders.fortify_refusal(ctx, state, i) is None:
            out.append(Choice(D.Fortify, None, [uid], label="fortify"))
        for k in leaders.riding(ctx, state, i) if ctx.has["leaders"] else ():
            name = str(ctx.tables.leaders[k]["name"])
            to = [ctx.board.spec(j).id for j in leaders.transfer_targets(ctx, state, k)]
            check = partial(leaders.transfer_refusal, ctx, state, name)
            out.append(Choice(D.Transfer, {"leader": name}, to, label=f"transfer {name}", check=check))
        return out

    def _ready(self, state: AntietamState, i: int) -> bool:
        """A unit that may still act this phase: operation points left, not held by the §B2.0 schedule, and
        not a routed unit that has made its one move (§B4.3). In the intermediate and advanced games a unit not
        activated may still do all but move (§IA3.3, AMB-8)."""
        u = state.units[i]
        if u.cell < 0 or u.op <= 0 or (u.routed and u.moved):
            return False
        return self.ctx.cycle or not locked(self.ctx, state, i)

    def _ready_units(self, state: AntietamState, seat: str) -> tuple[list[int], list[str]]:
        """The units of ``seat`` that may still act this phase (``_ready`` of each, with the formations the
        schedule holds worked out once), with their ids (read only). Kept for the last unit table and patched for
        the units whose records changed since: a decision changes one unit or a few."""
        ctx, units = self.ctx, state.units
        # by the phase, the turn and the releases: a new phase (every unit's points reset) starts afresh
        known = ctx.memo(f"ready {seat}", (state.part, state.turn, state.released))
        last = known.get("last")
        if last is not None and last[0] is units:
            return last[1], last[2]
        held = known.get("held")  # the formations the schedule holds: by the turn and the releases, the memo's key
        if held is None:
            held = known["held"] = frozenset() if ctx.cycle else held_formations(ctx, state)
        formations, sides = ctx.formations, ctx.board.sides

        def ready(ids: Sequence[int]) -> list[int]:
            return [  # the records' slots read directly (3.11's specialised loads, cheaper than a getter's tuples)
                i
                for i in ids
                if (u := units[i]).cell >= 0 and u.op > 0 and not (u.routed and u.moved) and formations[i] not in held
            ]

        diff = [] if last is None else changed(last[0], units)
        if last is None or len(diff) > CHANGED_AT_MOST:  # a new phase, or many units changed at once
            found = ready(ctx.side_units(state, seat))
            if last is not None and found == last[1]:
                found = last[1]
        else:
            found = was = last[1]
            for i in diff:
                if sides[i] != seat:
                    continue
                k = bisect_left(found, i)
                there = k < len(found) and found[k] == i
                if there != bool(ready((i,))):
                    if found is was:
                        found = list(was)
                    if there:
                        del found[k]
                    else:
                        found.insert(k, i)
        ids = last[2] if last is not None and found is last[1] else list(map(ctx.board.unit_ids.__getitem__, found))
        known["last"] = (units, found, ids)
        return found, ids

    def _access_refusal(self, state: AntietamState, seat: str, uid: object) -> IllegalDecision | None:
        i = self.ctx.board.index.get(uid) if isinstance(uid, str) else None
        if i is None or self.ctx.board.side(i) != seat or state.units[i].cell < 0:
            return IllegalDecision(f"{uid!r} is not a unit of yours on the map", "§B3.1")
        if i == state.accessed:
            return IllegalDecision("that unit is picked up already", "§B3.3")
        if not self._ready(state, i):
            held = held_refusal(self.ctx, state, i)
            if held is not None:
                return held
            return IllegalDecision(f"{self.ctx.board.spec(i).name} has nothing left to do this phase", "§B3.4")
        return None

    def _next_unit(self, state: AntietamState, seat: str) -> int:
        """§B3.3 N: the next unit after the one picked up, in OOB order, not yet picked up this phase; -1 if none."""
        ready = self._ready_units(state, seat)[0]
        k = bisect_right(ready, state.accessed)
        order = ready[k:] + ready[:k]
        return next(compress(order, map(not_, map(_ACTED, map(state.units.__getitem__, order)))), -1)

    # --- deciding ---------------------------------------------------------------------------------------------
    def apply(self, state: AntietamState, seat: str, decision: Decision, step: Step) -> AntietamState:
        state = self._apply(state, seat, decision, step)
        return self.sequence.settle(state, step)

    def _apply(self, state: AntietamState, seat: str, d: Decision, step: Step) -> AntietamState:
        ctx = self.ctx
        match d:
            case D.Access(unit=uid):
                return self._pick_up(state, ctx.board.index[uid])
            case D.Next():
                return self._pick_up(state, self._next_unit(state, seat))
            case D.Move() | D.Mode() | D.Face() | D.ForceMarch() | D.Fortify():
                # the accessed unit's own orders: what they change is kept for (Z) abort (§B3.3, §IA7.3)
                return unit_orders.track(state, self._order(state, seat, d, step))
            case D.Abort():
                return unit_orders.abort(ctx, state, step)
            case D.Activate(division=div):
                return activation.answer(ctx, state, div, True, step)
            case D.Bypass(division=div):
                return activation.answer(ctx, state, div, False, step)
            case D.Transfer(leader=name, to=to):
                return leaders.transfer(ctx, state, name, to)
            case D.PutDown():
                return replace(state, accessed=-1, pick=None)
            case D.Plot(orders=orders):
                return plots.apply_plot(ctx, state, seat, orders, step)
            case D.EndPhase():
                return self.sequence.advance(state, step)
        raise IllegalDecision(f"{d.text()} is not a Battle of Antietam order")

    def _pick_up(self, state: AntietamState, i: int) -> AntietamState:
        """SPACE BAR / N (§B3.3): unit ``i`` picked up."""
        ctx = self.ctx
        state = replace(state.with_unit(i, state.units[i].updated(acted=True)), accessed=i)
        if not ctx.basic:  # §IA7.9 "all units in a square will assume the facing of the last unit accessed"
            state = unit_orders.face(ctx, state, i, state.units[i].facing)
        return unit_orders.picked_up(state, i)

    def _order(self, state: AntietamState, seat: str, d: Decision, step: Step) -> AntietamState:
        """An order to the accessed unit: a step (§B3.4), mode, facing, force march, fortification (§IA7.8-11)."""
        ctx, i = self.ctx, state.accessed
        match d:
            case D.Move(to=to):
                cell = ctx.board.square(to)
                occ = ctx.occupants(state)  # the steps the legal set checked the move by (kept for this position)
                why, cost = self._steps(state, i, occ, enemy_zoc_of(ctx, state, seat)).refusal(cell)
                assert why is None
                return move(ctx, state, i, cell, cost, step)
            case D.Mode():
                return unit_orders.change_mode(ctx, state, i, step)
            case D.Face(facing=f):
                return unit_orders.face(ctx, state, i, f)
            case D.ForceMarch():
                return unit_orders.force_march(ctx, state, i, step)
        return unit_orders.fortify(ctx, state, i, step)

    # --- what leaves the engine -------------------------------------------------------------------------------
    def view(self, state: AntietamState, seat: str | None) -> dict[str, Any]:
        return view.build_view(self.ctx, state, seat)

    def hidden_units(self, state: AntietamState, seat: str) -> frozenset[str]:
        return view.hidden_units(self.ctx, state, seat)

    def perturb_hidden(self, state: AntietamState, seat: str, dice: Dice) -> AntietamState:
        return perturb_hidden(self.ctx, state, seat, dice)

    def result(self, state: AntietamState) -> Result | None:
        if not state.over:
            return None
        union, confederate = state.score
        found = view.result_level(self.ctx, state)
        words = LEVEL_NAMES[found]
        winner = None if found == "draw" else found.split("_")[0]
        levels = {s: words for s in SEATS}
        summary = (
            f"{words}: Union {union} points, Confederate {confederate} (score {union - confederate}); losses "
            f"Union {state.losses[0]} infantry, {state.losses[1]} cavalry, {state.losses[2]} guns; Confederate "
            f"{state.losses[3]} infantry, {state.losses[4]} cavalry, {state.losses[5]} guns"
        )
        return Result(winner, levels, {"union": union, "confederate": confederate}, summary)

    def describe(self, decision: Decision) -> str:
        return view.describe(self.ctx, decision)

    def render_text(self, state: AntietamState, seat: str | None) -> str:
        from .render import render

        return render(self.ctx, state, seat)

    def map_json(self) -> dict[str, Any]:
        from .render import public_map

        return public_map(self.ctx)

    def inspect(self, state: AntietamState, seat: str, query: Mapping[str, Any]) -> dict[str, Any]:
        return view.inspect(self.ctx, state, seat, query)

    def typed(self, state: AntietamState, seat: str, line: str) -> str:
        from .render import typed

        return typed(self.ctx, state, seat, line, partial(self._ready, state))

    def rate(self, view_: Mapping[str, Any], seat: str, decision: Decision) -> int:
        from .rate import quick_rate

        return quick_rate(self.ctx, view_, seat, decision)


def perturb_hidden(ctx: Ctx, state: AntietamState, seat: str, dice: Dice) -> AntietamState:
    """``state`` with what ``seat`` may not know changed (the fog-honesty check): the generator, and one enemy unit
    it does not sight removed, chosen among those three or more squares from every unit of the seat, so that its
    zone of control (§B3.6) touches no square the seat's units could step into."""
    new = replace(state, rng=seed_state(dice.bits32()))
    board, hidden = ctx.board, view.hidden_units(ctx, state, seat)
    mine = [state.units[i].cell for i in ctx.side_units(state, seat)]
    far = [
        i
        for i, u in enumerate(state.units)
        if u.cell >= 0 and board.spec(i).id in hidden and all(int(board.dist[u.cell, c]) >= 3 for c in mine)
    ]
    if not far:
        return new
    i = dice.pick(far)
    return new.with_unit(i, replace(state.units[i], cell=GONE))


def _draw_other(ids: list[str], accessed: str, dice: Dice) -> str:
    """A ready unit at random for SPACE BAR, not the one already picked up (§B3.3): the next in the list when the
    draw falls on it, so every other draw stays as it was."""
    k = dice.below(len(ids))
    return ids[(k + 1) % len(ids)] if ids[k] == accessed else ids[k]


def _suggested_plot(aims: dict[int, plots.Aim]) -> D.Plot:
    return D.Plot(tuple(map(_NEAREST, aims.values())))


_LABELS, _NEAREST = attrgetter("labels"), attrgetter("nearest")


def _same_position(a: AntietamState, b: AntietamState) -> bool:
    """Whether two states ask the same decisions: every field but the generator (a new unit table counts as a
    new position: comparing tables unit by unit would cost what the legal set saves)."""
    return a is b or (a.units is b.units and _POSITION(a) == _POSITION(b))


_ACTED = attrgetter("acted")
_POSITION = attrgetter(*(f.name for f in fields(AntietamState) if f.name not in ("rng", "units")))


__all__ = ["ENEMY", "Antietam"]
