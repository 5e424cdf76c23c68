"""The Perfect General as a grognard ruleset: the protocol's calls, dispatching to the rule modules."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from grognard.engine import Choice, Decision, Families, IllegalDecision, Legal, Result, Ruleset, Step, Turn
from grognard.engine.protocol import OptionSpec, Reaction
from grognard.engine.records import replace
from grognard.engine.rng import Dice, seed_state

from . import decisions as D
from . import moves, odds, reactions, refusals, setup
from .artillery import can_plot, plot, plot_cells, plot_count
from .board import Board
from .combat import best_target, passing_fire_units, resolve_shot, return_fire_targets, shot_chance, targets
from .context import ALONE, Ctx, own_units
from .inspect import inspect
from .phases import acting, begin_interrupt, end_part, fire_ready, has_work
from .scenario import SCENARIO_DIR, PGScenario, read_scenario, scenario_from_document
from .state import SIDES, Offer, PGState, Phase, SideState, Unit
from .tables import load_tables
from .words import describe

PROMPTS = {
    Phase.PURCHASE: "buy your units",
    Phase.PLACEMENT: "place your units",
    Phase.MOBILE_PLOT: "plot your mobile artillery",
    Phase.ARTILLERY_PLOT: "plot your artillery for next turn",
    Phase.FIRST_FIRE: "first direct fire",
    Phase.MOVEMENT: "move your units",
    Phase.SECOND_FIRE: "second direct fire",
}

# a family of the movement phase named before it is made (PerfectGeneral._legal_move): its kind, its unit (None for
# the bridge builders and the end of movement) and what is listed already (an engineer's jobs, the builders)
MoveItem = tuple[type[Decision], Unit | None, list[int] | list[str] | None]


class PerfectGeneral(Ruleset[PGState, PGScenario]):
    """The Perfect General (QQP 1991)."""

    id = "perfect_general"
    name = "The Perfect General"
    seats = SIDES
    decision_types = D.ALL
    state_type = PGState
    hotseat_options: ClassVar[Mapping[str, Any]] = {"view": "full"}  # PG p.33: two players at one screen
    match_option = "player1"  # PG p.3: the match game, player 1 attacker in one game and defender in the other
    cell_format = "column,row, as the map writes them (3,13)"
    shareable = True  # the board's caches are keyed by the terrain, weather and units they were derived from
    version = 2  # 2: cargo hidden from the enemy in load and unload events: a version 1 save's event log differs
    option_specs = (
        OptionSpec(
            "kill",
            "Full Kill or Partial Kill (p.3)",
            "full",
            ("full", "partial"),
            help="full: a hit destroys; partial: a hit takes hit points",
        ),
        OptionSpec(
            "hit",
            "Random Hit or Always Hit (p.3)",
            "random",
            ("random", "always"),
            help="random: shots may miss; always: a shot in range always hits",
        ),
        OptionSpec(
            "view",
            "Limited View or Full View (p.33)",
            "limited",
            ("limited", "full"),
            help="full view shows unspotted enemy units (they still cannot be targeted); "
            "two people at one screen must use it",
        ),
        OptionSpec(
            "attacker_handicap",
            "Attacker's handicap: per cent of buy points taken away (p.17)",
            0,
            minimum=0,
            maximum=90,
        ),
        OptionSpec(
            "defender_handicap",
            "Defender's handicap: per cent of buy points taken away (p.17)",
            0,
            minimum=0,
            maximum=90,
        ),
        OptionSpec(
            "player1", "Player 1 plays the attacker or the defender (p.8)", "attacker", ("attacker", "defender")
        ),
    )

    @classmethod
    def scenario_dir(cls) -> Path:
        return SCENARIO_DIR

    @classmethod
    def read_scenario(cls, path: Path) -> PGScenario:
        return read_scenario(path)

    @classmethod
    def scenario_from_document(cls, document: Mapping[str, Any], where: str) -> PGScenario:
        return scenario_from_document(document, where)

    @classmethod
    def computer_players(cls) -> dict[str, Callable[[int, int], Any]]:
        from .general import General

        return {"general": lambda seed, level: General(seed, level)}

    def __init__(self, scenario: PGScenario, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(scenario, options)
        tables = load_tables()
        self.board = Board(scenario, tables)
        self.ctx = Ctx(
            self.board,
            tables,
            self.options["kill"] == "partial",
            self.options["hit"] == "random",
            self.options["view"] == "full",
        )
        # what a movement position asks of each unit's type: may it close assault, carry, work as an engineer
        self._roles = {t: (u.has("assault"), u.has("carrier"), u.has("engineer")) for t, u in tables.units.items()}
        # the turn of each part of a game turn, by who acts, the turn, the phase and the offer (see turn)
        self._turns: dict[tuple[str, int, Phase, str], Turn] = {}

    # --- start -----------------------------------------------------------------------------------------
    def initial_state(self, seed: int) -> PGState:
        points = {}
        for side in SIDES:
            base = self.scenario.buy_points[side]
            handicap = self.options[f"{side}_handicap"]
            points[side] = base - base * handicap // 100  # p.17: a handicap reduces a side's buy points
        return PGState(
            rng=seed_state(seed),
            secret=seed_state(seed ^ 0x5A17_0B0E),
            turn=1,
            phase=Phase.PURCHASE,
            side="attacker",
            region="setup",
            units=(),
            sides=(SideState(points=points["attacker"]), SideState(points=points["defender"])),
        )

    # --- asking ----------------------------------------------------------------------------------------
    def turn(self, state: PGState) -> Turn:
        if state.phase is Phase.OVER:
            return Turn(None, phase="game over")
        seat = acting(state)
        offer = state.offer.kind if state.offer is not None else ""
        key = (seat, state.turn, state.phase, offer)
        found = self._turns.get(key)  # asked of every new state: one (frozen) Turn each, as many as the parts
        if found is None:
            phase = f"{offer} fire offer" if offer else state.phase.value.replace("_", " ")
            found = self._turns[key] = Turn(seat, phase=f"turn {state.turn}: {phase}")
        return found

    def legal(self, state: PGState, seat: str) -> Legal:
        if state.phase is Phase.OVER or acting(state) != seat:
            return Legal(seat)
        ctx = self.ctx
        if state.offer is not None:
            return self._legal_offer(state, seat, state.offer)
        phase = state.phase
        if phase is Phase.PURCHASE:
            ss = state.side_state(seat)
            if ss.confirming:
                return Legal(
                    seat,
                    [Choice(D.ConfirmPurchase, values=(True, False))],
                    prompt=f"you have {ss.points} buy points left: are you done?",
                )
            return Legal(
                seat,
                [
                    Choice(D.Buy, values=setup.buyable(ctx, state)),
                    Choice(D.Sell, values=sorted(set(ss.pool), key=ss.pool.index)),
                    Choice(D.EndPurchase),
                ],
                prompt=f"buy your units: {ss.points} points left",
                info={"points": ss.points},
            )
        if phase is Phase.PLACEMENT:
            ss = state.side_state(seat)
            choices = []
            for t in dict.fromkeys(ss.pool):
                cells = partial(setup.placement_cells, ctx, state, t)
                check = partial(refusals.place, ctx, cells)
                count = partial(setup.count_placement_cells, ctx, state, t)  # random play sizes every type's cells
                choices.append(Choice(D.Place, {"type": t}, cells, check=check, count=count))
            choices += [
                Choice(D.PickUp, values=setup.placed_units(state)),
                Choice(D.PickUpMine, values=setup.placed_mines(state)),
                Choice(D.EndPlacement),
            ]
            left = f"{len(ss.pool)} left to place" if ss.pool else "all of your units have been placed"
            return Legal(seat, choices, prompt=f"place your units: {left}")
        if phase in (Phase.MOBILE_PLOT, Phase.ARTILLERY_PLOT):
            return self._legal_plot(state, seat)
        if phase in (Phase.FIRST_FIRE, Phase.SECOND_FIRE):
            return self._legal_fire(state, seat)
        return self._legal_move(state, seat)

    def _legal_plot(self, state: PGState, seat: str) -> Legal:
        ctx = self.ctx
        choices = []
        for u in own_units(state, seat):
            if can_plot(ctx, state, u, state.phase):
                cells = partial(plot_cells, ctx, state, u)
                count = partial(plot_count, ctx, state, u)  # random play sizes every family
                choices.append(Choice.trusted(D.Plot, {"unit": u.id, "barrage": False}, cells, count=count))
                if ctx.tables.units[u.type].has("barrage"):
                    choices.append(Choice.trusted(D.Plot, {"unit": u.id, "barrage": True}, cells, count=count))
        choices.append(Choice(D.EndPlot))
        plotting = {c.fixed["unit"]: state.unit(c.fixed["unit"]).type for c in choices if "unit" in c.fixed}
        return Legal(seat, choices, prompt=PROMPTS[state.phase], info={"plots": odds.plot_odds(ctx, state, plotting)})

    def _legal_fire(self, state: PGState, seat: str) -> Legal:
        ctx = self.ctx
        ready = []
        info: dict[str, dict[str, int]] = {}
        for u in own_units(state, seat):
            if fire_ready(ctx, state, u):
                options = targets(ctx, state, u)
                if options:
                    ready.append(u)
                    info[u.id] = dict(options)
        choices = [
            Choice(
                D.Fire, {"unit": u.id}, sorted(info[u.id]), check=partial(refusals.target, ctx, state, u, info[u.id])
            )
            for u in ready
        ]
        choices.append(Choice(D.Ignore, values=[u.id for u in ready]))
        if len(ready) > 1:
            choices.append(Choice(D.NextUnit))
        choices.append(Choice(D.EndFire))
        suggested = None
        prompted = next((u for u in ready if u.id == state.prompt), ready[0] if ready else None)
        if prompted is not None:
            best = best_target(ctx, state, prompted)
            if best is not None:
                suggested = D.Fire(prompted.id, best)
        return Legal(seat, choices, prompt=PROMPTS[state.phase], suggested=suggested, info={"chances": info})

    def _legal_offer(self, state: PGState, seat: str, offer: Offer) -> Legal:
        ctx = self.ctx
        if offer.kind == "return":
            target = state.unit(offer.target)
            options = return_fire_targets(ctx, state, target)
            aims = sorted(o for o, _ in options)
            check = partial(refusals.target, ctx, state, target, aims)
            choices = [Choice(D.ReturnFire, {"unit": target.id}, aims, check=check), Choice(D.HoldFire)]
            return Legal(
                seat,
                choices,
                prompt="your unit is fired upon: return fire?",
                info={
                    "chances": {target.id: dict(options)},
                    "shooter": offer.shooter if (state.unit(offer.shooter).spotted or ctx.full_view) else None,
                },
            )
        mover = state.unit(offer.target)
        firers = passing_fire_units(ctx, state, mover)
        chances = {f: shot_chance(ctx, state, state.unit(f), mover) for f in firers}
        check = partial(refusals.passing_firer, ctx, state, mover, firers)
        choices = [Choice.trusted(D.PassingFire, {"target": mover.id}, firers, check), Choice(D.HoldFire)]
        suggested = D.PassingFire(mover.id, max(firers, key=lambda f: (chances[f] or 0, f))) if firers else None
        return Legal(
            seat,
            choices,
            prompt="an enemy unit moves in sight: passing fire?",
            suggested=suggested,
            info={"chances": chances, "mover": mover.id},
        )

    def _legal_move(self, state: PGState, seat: str) -> Legal:
        """The movement phase's families, named by unit and kind and made when asked for (:class:`Families`): a
        random draw sizes them all and lists one, and sizing a unit's move is a look-up in the side's counts."""
        ctx = self.ctx
        items: list[MoveItem] = []
        add = items.append
        builders: list[str] = []
        roles = self._roles
        for u in own_units(state, seat):
            assault, carrier, engineer = roles[u.type]
            if moves.can_move(ctx, u):
                add((D.Move, u, None))
                if assault and not u.fired:
                    add((D.Assault, u, None))
                if carrier:
                    add((D.Unload if u.cargo else D.Load, u, None))
            if engineer and moves.can_work(ctx, u):
                jobs = moves.engineer_jobs(ctx, state, u)
                if jobs.bridge:
                    builders.append(u.id)
                add((D.BlowBridge, u, jobs.blow))
                add((D.LayMine, u, jobs.lay))
                add((D.ClearMine, u, jobs.clear))
        add((D.BuildBridge, None, builders))
        add((D.EndMovement, None, None))
        families = Families(items, partial(self._move_family, state), partial(self._move_counts, state, seat))
        info = lambda: {"assault": odds.assault_chances(ctx, state, seat)}  # noqa: E731 (worked out when asked)
        return Legal(seat, prompt=PROMPTS[Phase.MOVEMENT], info=info, families=families)

    def _move_family(self, state: PGState, item: MoveItem) -> Choice:
        """One family of :meth:`_legal_move`: a unit's move, close assault, loading or unloading, or an engineer's
        job (values listed when asked for: fresh callables or lists, so no checks or copies needed); a bridge
        built by one of the engineers that can; the end of movement."""
        ctx = self.ctx
        kind, u, jobs = item
        listed = Choice.trusted
        if u is None:
            return Choice(D.BuildBridge, values=jobs) if kind is D.BuildBridge else Choice(D.EndMovement)
        fixed = {"unit": u.id}
        if kind is D.Move:
            dests = partial(moves.destinations, ctx, state, u)
            count = partial(moves.count_destinations, ctx, state, u)
            return listed(D.Move, fixed, dests, partial(refusals.move, ctx, u, dests), count)
        if kind is D.Assault:
            aims = partial(moves.assault_targets, ctx, state, u)
            return listed(D.Assault, fixed, aims, None, partial(moves.count_assault_targets, ctx, state, u))
        if kind is D.Unload:
            return listed(D.Unload, fixed, partial(moves.unload_destinations, ctx, state, u))
        if kind is D.Load:
            cargo = partial(moves.load_candidates, ctx, state, u)
            return listed(D.Load, fixed, cargo, partial(refusals.load, cargo))
        assert jobs is not None
        return listed(kind, fixed, jobs)

    def _move_counts(self, state: PGState, seat: str, items: Sequence[MoveItem]) -> list[int | None]:
        """The sizes of :meth:`_legal_move`'s families, as their ``len``: moves read from the side's counts of
        every unit's destinations (one look-up each), assaults counted, loads, listed jobs and builders by their
        length; unloading by the family made (None)."""
        ctx = self.ctx
        counts = moves.move_counts(ctx, state, seat)
        out: list[int | None] = []
        add = out.append
        for kind, u, jobs in items:
            if kind is D.Move:
                assert u is not None
                add(counts[u.id])
            elif kind is D.Assault:
                assert u is not None
                add(moves.count_assaults(ctx, state, u))  # named for a unit that may assault (_legal_move)
            elif kind is D.Load:
                assert u is not None
                add(len(moves.carrier_loads(ctx, state, u)))  # named for a carrier that may load (_legal_move)
            elif jobs is not None:
                add(len(jobs))
            else:
                add(1 if kind is D.EndMovement else None)
        return out

    # --- deciding --------------------------------------------------------------------------------------
    def apply(self, state: PGState, seat: str, decision: Decision, step: Step) -> PGState:
        ctx = self.ctx
        state = self._apply(state, seat, decision, step)
        if state.interrupt is not None and state.phase not in (Phase.PURCHASE, Phase.PLACEMENT):
            return begin_interrupt(ctx, state, step)
        if (
            state.phase
            in (Phase.MOBILE_PLOT, Phase.ARTILLERY_PLOT, Phase.FIRST_FIRE, Phase.SECOND_FIRE, Phase.MOVEMENT)
            and state.offer is None
            and state.walk is None
            and not has_work(ctx, state)
        ):
            return end_part(ctx, state, step)  # nothing left to do in this part
        return state

    def _apply(self, state: PGState, seat: str, d: Decision, step: Step) -> PGState:
        ctx = self.ctx
        match d:  # its cases are tried in order: a game's commonest orders first
            case D.Move(unit=u, to=c):
                return moves.start_move(ctx, state, step, u, c)
            case D.HoldFire():
                assert state.offer is not None
                if state.offer.kind == "return":
                    return self._after_return(state, step, None)
                return moves.resume_after_passing_fire(ctx, state, step, fired=False)
            case D.Buy(type=t):
                return setup.buy(ctx, state, step, t)
            case D.Sell(type=t):
                return setup.sell(ctx, state, step, t)
            case D.EndPurchase():
                if setup.needs_confirmation(ctx, state):
                    return state.with_side(seat, confirming=True)
                return end_part(ctx, state, step)
            case D.ConfirmPurchase(done=done):
                state = state.with_side(seat, confirming=False)
                return end_part(ctx, state, step) if done else state
            case D.Place(type=t, cell=c):
                return setup.place(ctx, state, step, t, c)
            case D.PickUp(unit=u):
                return setup.pick_up(ctx, state, step, u)
            case D.PickUpMine(cell=c):
                return setup.pick_up_mine(ctx, state, step, c)
            case D.EndPlacement():
                return end_part(ctx, state, step)
            case D.Plot(unit=u, barrage=b, cell=c):
                return plot(ctx, state, step, u, c, b)
            case D.EndPlot() | D.EndFire() | D.EndMovement():
                return end_part(ctx, state, step)
            case D.Fire(unit=u, target=t):
                target = state.unit(t)
                if return_fire_targets(ctx, state, target):
                    step.emit("fire_declared", "direct fire declared", ALONE[seat], unit=u, target=t)
                    return replace(state, offer=Offer("return", u, t), prompt=u)
                return replace(resolve_shot(ctx, state, step, u, t, "direct"), prompt="")
            case D.Ignore(unit=u):
                return replace(state.with_unit(replace(state.unit(u), ignored=True)), prompt="")
            case D.NextUnit():
                return replace(state, prompt=self._next_prompt(state, seat))
            case D.ReturnFire(unit=u, target=t):
                return self._after_return(state, step, (u, t))
            case D.PassingFire(target=t, unit=u):
                state = resolve_shot(ctx, state, step, u, t, "passing")
                return moves.resume_after_passing_fire(ctx, state, step, fired=True)
            case D.Assault(unit=u, to=c):
                return moves.start_assault(ctx, state, step, u, c)
            case D.Load(unit=u, cargo=c):
                return moves.start_load(ctx, state, step, u, c)
            case D.Unload(unit=u, to=c):
                return moves.start_unload(ctx, state, step, u, c)
            case D.BuildBridge(unit=u):
                return moves.work(ctx, state, step, u, "build_bridge", state.unit(u).cell)
            case D.BlowBridge(unit=u, cell=c):
                return moves.work(ctx, state, step, u, "blow_bridge", c)
            case D.LayMine(unit=u, cell=c):
                return moves.work(ctx, state, step, u, "lay_mine", c)
            case D.ClearMine(unit=u, cell=c):
                return moves.work(ctx, state, step, u, "clear_mine", c)
        raise IllegalDecision(f"{d.text()} is not a Perfect General order")

    def _after_return(self, state: PGState, step: Step, shot: tuple[str, str] | None) -> PGState:
        """p.29: the return shot is fired first; then the original shot, if its firer survived."""
        offer = state.offer
        assert offer is not None and offer.kind == "return"
        state = replace(state, offer=None)
        if shot is not None:
            state = resolve_shot(self.ctx, state, step, shot[0], shot[1], "return")
        if state.find(offer.shooter) is not None and state.find(offer.target) is not None:
            state = resolve_shot(self.ctx, state, step, offer.shooter, offer.target, "direct")
        return replace(state, prompt="")

    def _next_prompt(self, state: PGState, seat: str) -> str:
        ready = [u.id for u in own_units(state, seat) if fire_ready(self.ctx, state, u) and targets(self.ctx, state, u)]
        if not ready:
            return ""
        current = state.prompt if state.prompt in ready else ready[0]
        return ready[(ready.index(current) + 1) % len(ready)]

    # --- what leaves the engine ------------------------------------------------------------------------
    # --- reactions: return and passing fire (p.13-14, p.29), answered by a seat's settings ------------------
    reaction_kinds = reactions.KINDS

    def reaction(self, state: PGState, seat: str) -> Reaction | None:
        return reactions.pending(self.ctx, state, seat)

    def reaction_phase(self, state: PGState) -> str:
        return reactions.phase_key(state)

    def view(self, state: PGState, seat: str | None) -> dict[str, Any]:
        from .view import build_view

        return build_view(self.ctx, state, seat)

    def perturb_hidden(self, state: PGState, seat: str, dice: Dice) -> PGState:
        from .ai import perturb_hidden

        return perturb_hidden(self.ctx, state, seat, dice)

    def hidden_units(self, state: PGState, seat: str) -> frozenset[str]:
        from .view import hidden_units

        return hidden_units(self.ctx, state, seat)

    def check_invariants(self, state: PGState) -> list[str]:
        """p.25: "Two units cannot occupy the same location, unless one of them is moving"; a carrier and its
        cargo are one unit."""
        moving = state.walk.unit if state.walk is not None else ""
        at: dict[int, list[Unit]] = {}
        for u in state.units:
            if not u.carried_by and u.id != moving:
                at.setdefault(u.cell, []).append(u)
        names = self.ctx.tables.units
        return [
            f"{' and '.join(f'{u.side} {names[u.type].name}' for u in us)} at rest in "
            f"{self.board.grid.label(cell)} (p.25)"
            for cell, us in sorted(at.items())
            if len(us) > 1
        ]

    def result(self, state: PGState) -> Result | None:
        if state.phase is not Phase.OVER:
            return None
        a, d = state.side_state("attacker").score, state.side_state("defender").score
        winner = "attacker" if a > d else "defender" if d > a else None
        levels = {s: ("victory" if s == winner else "defeat") if winner else "draw" for s in SIDES}
        if winner is None:
            summary = f"A draw: attacker {a}, defender {d} victory points."
        else:
            summary = f"The {winner} wins: attacker {a}, defender {d} victory points."
        return Result(winner, levels, {"attacker": a, "defender": d}, summary)

    def describe(self, decision: Decision) -> str:
        return describe(self.ctx, decision)

    def describe_for(self, state: PGState, seat: str | None, decision: Decision) -> str:
        return describe(self.ctx, decision, state, seat)  # units by what they are and where they stand

    def render_text(self, state: PGState, seat: str | None) -> str:
        from .render import render

        return render(self.ctx, state, seat)

    def inspect(self, state: PGState, seat: str, query: Mapping[str, Any]) -> dict[str, Any]:
        return inspect(self.ctx, state, seat, query)  # a move's path, a unit's line of sight

    def rate(self, view: Mapping[str, Any], seat: str, decision: Decision) -> int:
        from .ai import quick_rate

        return quick_rate(self.ctx, view, seat, decision)

    def explain(self, state: PGState, seat: str, decision: Decision, legal: Legal) -> IllegalDecision:
        if legal.family(decision) is not None:  # its family's check names the rule
            return super().explain(state, seat, decision, legal)
        return refusals.absent(self.ctx, state, seat, decision, super().explain(state, seat, decision, legal))

    def parse_cell(self, label: str) -> int:
        return self.scenario.map.grid.parse(label)

    def cell_label(self, cell: int) -> str:
        return self.scenario.map.grid.label(cell)

    def map_json(self) -> dict[str, Any]:
        return self.scenario.map.to_public()

    def turns_played(self, state: PGState) -> int:
        return state.turn
