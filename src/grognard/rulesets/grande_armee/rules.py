"""La Grande Armée as a grognard ruleset: the protocol's calls, dispatching to the rule modules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from grognard.engine import Choice, Decision, Event, IllegalDecision, Legal, Result, Ruleset, Step, Turn
from grognard.engine.decisions import KeptLegal
from grognard.engine.protocol import Reaction, ReactionKind
from grognard.engine.records import replace
from grognard.engine.rng import Dice, seed_state

from . import decisions as D
from . import phases, play, prompts, refusals
from .board import Board
from .display import phase_name, public_map, side_name
from .play import Ctx, enemy_of
from .scenario import SCENARIO_DIR, LGAScenario, read_scenario, scenario_from_document
from .state import OFF_MAP, SEATS, LGAState, Phase, Sighting, Unit
from .tables import load_tables
from .view import seen_tops

FAMILIES_KEPT = 256  # a front's families of the other side's movers (a side has up to a few dozen units)


class GrandeArmee(Ruleset[LGAState, LGAScenario]):
    """La Grande Armée (SDJ Enterprises 1989)."""

    id = "grande_armee"
    name = "La Grande Armée"
    seats = SEATS
    decision_types = D.ALL
    state_type = LGAState
    reaction_events = ("combat",)  # §5.65-5.66: the defender may reinforce or withdraw after each attack
    # §5.65-5.67: one kind of reaction, with no single best shot (where to reinforce is the player's judgement)
    reaction_kinds = (
        ReactionKind("react", "reinforce, withdraw or change the top unit after an enemy attack (§5.65-5.67)", False),
    )
    cell_format = "column,row"  # §2.2: areas are named by column and row
    version = 2  # 2: every die is a logged roll, the opening's included: a version 1 save's event log differs

    @classmethod
    def scenario_dir(cls) -> Path:
        return SCENARIO_DIR

    @classmethod
    def read_scenario(cls, path: Path) -> LGAScenario:
        return read_scenario(path)

    @classmethod
    def scenario_from_document(cls, document: Mapping[str, Any], where: str) -> LGAScenario:
        return scenario_from_document(document, where)

    @classmethod
    def computer_players(cls) -> dict[str, Callable[[int, int], Any]]:
        from .general import General

        return {"general": lambda seed, level: General(seed, level)}

    def __init__(self, scenario: LGAScenario, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(scenario, options)
        tables = load_tables()
        self.ctx = Ctx(Board(scenario, tables), tables, scenario)
        self.sequence = phases.season_sequence(self.ctx, self.legal)
        # the legal set of the last state each seat was asked about: the sequence asks whether a part has work after
        # a decision, and the seat to decide next asks again of the same state; after an attack the mover and the
        # seat that may react are asked in turn
        self._legal_kept = KeptLegal(self._legal)
        self._sighted_kept: tuple[tuple[Sighting, ...], dict[tuple[str, str], int]] | None = None
        self._last_turn: tuple[tuple[object, ...], Turn] = ((), Turn(None))
        self._end_movement = Choice(D.EndMovement)  # the same in every legal set of phase V
        # each seat's last reaction families by unit, with the enemy's ZOC and hexes and the control they read
        self._reacting: dict[
            str, tuple[frozenset[int], frozenset[int], tuple[str, ...], dict[str, tuple[Unit, Choice | None]]]
        ] = {}

    # --- start -----------------------------------------------------------------------------------------
    def opening(self, seed: int) -> tuple[LGAState, list[Event]]:
        """The first season's phases I-III (§5.1): supply and the opening muster rolls, logged."""
        sc = self.scenario
        units = tuple(
            Unit(
                u.id,
                u.power,
                u.type,
                u.cell,
                morale=self.ctx.tables.units[u.type].max_morale,
                stack=i,
                year=u.year,
                bonus=u.bonus,
                garrison=u.garrison,
            )
            for i, u in enumerate(sc.units)
        )
        state = LGAState(
            rng=seed_state(seed),
            year=sc.start[0],
            season=sc.start[1],
            seat=phases.seats_in_play(self.ctx)[0],
            phase=Phase.BUILD,
            control=sc.control,
            units=units,
            mp=tuple((p, s.mp) for p, s in sc.spec.powers.items()),
            serial=len(units),
        )
        step = Step(state.rng)
        state = self.sequence.enter(state, 0, step)
        return self._remember(replace(state, rng=step.rng)), step.events

    def initial_state(self, seed: int) -> LGAState:
        return self.opening(seed)[0]

    # --- asking ----------------------------------------------------------------------------------------
    def turn(self, state: LGAState) -> Turn:
        where = (state.phase, state.year, state.season, state.seat, state.attacked)
        last = self._last_turn
        if last[0] == where:  # asked several times a decision, by the engine, the driver and the sequence
            return last[1]
        if state.phase is Phase.OVER:
            found = Turn(None, phase="game over")
        else:
            season = self.ctx.tables.seasons[state.season].capitalize()
            label = f"{season} {state.year}: {side_name(state.seat)} player turn, {phase_name(state.phase)}"
            optional: tuple[str, ...] = ()
            if state.phase is Phase.MOVE and state.attacked:  # §5.66: reactions only after the first attack
                optional = (enemy_of(state.seat),)
            found = Turn(state.seat, optional, label)
        self._last_turn = (where, found)
        return found

    def legal(self, state: LGAState, seat: str) -> Legal:
        return self._legal_kept(state, seat)

    def _legal(self, state: LGAState, seat: str) -> Legal:
        if state.phase is Phase.OVER:
            return Legal(seat)
        if seat != state.seat:
            if self.turn(state).may_act(seat):
                return self._legal_reactions(state, seat)
            return Legal(seat)
        if state.phase is Phase.BUILD:
            return self._legal_build(state, seat)
        return self._legal_move(state, seat)

    def _legal_build(self, state: LGAState, seat: str) -> Legal:
        ctx = self.ctx
        buildable = play.buildable(ctx, state, seat)
        choices = []
        for u in buildable:
            sites = partial(play.build_sites, ctx, state, u)
            label = prompts.build_label(ctx, u)
            choices.append(Choice(D.Build, {"unit": u.id}, sites, label, check=partial(refusals.build, sites)))
        rally = play.rallyable(ctx, state, seat)
        aid = play.aid_targets(ctx, state, seat)
        choices.append(Choice(D.Rally, values=rally, check=partial(refusals.rally, rally)))
        choices.append(Choice(D.Aid, values=aid))
        choices.append(Choice(D.EndBuild))
        return Legal(
            seat,
            choices,
            prompt=prompts.build_prompt(ctx, state, seat, bool(aid)),
            info=prompts.build_info(ctx, state, seat, buildable, rally),
        )

    def _legal_move(self, state: LGAState, seat: str) -> Legal:
        ctx = self.ctx
        choices: list[Choice] = []
        st = play.standing(ctx, state)
        movers = [u for u in st.front(seat).in_order(ctx) if u.moves > 0]
        enemy = enemy_of(seat)
        # a unit's moves read the unit and the enemy's front alone: a front shared by the positions alike in it keeps
        # the families of the units that did not change, their destinations and keys worked out (issue 17)
        kept = st.front(enemy).moves
        for u in movers:
            found = kept.get(id(u))
            if found is None or found[0] is not u:
                dests = partial(play.destinations, ctx, state, u)
                check = partial(refusals.move, ctx, state, u, dests)
                if len(kept) >= FAMILIES_KEPT:
                    del kept[next(iter(kept))]
                found = kept[id(u)] = (u, Choice(D.Move, {"unit": u.id}, dests, check=check))
            choices.append(found[1])
        garrisoned, cities = (
            st.garrisons(),
            ctx.board.places,
        )  # §3.6: only in a city (the first of may_garrison's tests)
        garrisons = [u.id for u in movers if u.cell in cities and phases.may_garrison(ctx, u, garrisoned)]
        choices.append(Choice(D.Garrison, values=garrisons))
        choices.append(Choice(D.EndUnit, values=[u.id for u in movers]))
        choices.append(self._end_movement)
        info = partial(prompts.move_info, ctx, state, seat, movers, enemy)  # worked out when asked for
        return Legal(seat, choices, prompt=prompts.move_prompt(state), info=info)

    def _legal_reactions(self, state: LGAState, seat: str) -> Legal:
        ctx = self.ctx
        mine = [u for u in play.side_units(ctx, state, seat) if not u.reacted]
        front = play.standing(ctx, state).front(enemy_of(seat))
        zoc, cells, control = front.zoc(ctx), front.cells(), state.control
        neighbors = ctx.board.neighbors
        # a unit's reactions read the unit, and the enemy's ZOC and hexes and who controls the areas in and around its
        # own: the seat's last families are kept, with what they were worked out for, and taken again for the units
        # that did not change and near which none of these did (issue 17: the mover changes one area or two)
        last = self._reacting.get(seat)
        touched: set[int] | None = None
        if last is not None and len(last[2]) == len(control):
            touched = set()
            if last[0] is not zoc:
                touched.update(last[0] ^ zoc)
            if last[1] is not cells:
                touched.update(last[1] ^ cells)
            if last[2] is not control:
                touched.update(i for i, (a, b) in enumerate(zip(last[2], control, strict=True)) if a != b)
        kept = last[3] if last is not None else {}
        families: dict[str, tuple[Unit, Choice | None]] = {}
        choices = []
        for u in mine:
            found = kept.get(u.id)
            if (
                found is None
                or touched is None
                or found[0] is not u
                or u.cell in touched
                or not touched.isdisjoint(neighbors[u.cell])
            ):
                # §2.13: a unit outside an enemy ZOC may only reinforce into one, a unit inside one only withdraw
                withdraw = u.cell in zoc
                to = play.reaction_moves_by(ctx, u, withdraw, front, control)
                kind = D.Withdraw if withdraw else D.Reinforce
                found = (u, Choice(kind, {"unit": u.id}, to, check=partial(refusals.react, to)) if to else None)
            families[u.id] = found
            if found[1] is not None:
                choices.append(found[1])
        self._reacting[seat] = (zoc, cells, control, families)
        tops = play.top_candidates(ctx, state, seat)
        if tops:
            choices.append(Choice(D.SetTop, values=tops))
        return Legal(
            seat,
            choices,
            prompt=prompts.reaction_prompt(ctx, state),
            info=partial(prompts.reaction_info, ctx, state, mine),  # worked out when asked for
        )

    def reaction(self, state: LGAState, seat: str) -> Reaction | None:
        """After an attack the other side may react (§5.66); declining is letting the mover go on."""
        if seat == state.seat or not self.turn(state).may_act(seat) or not self.legal(state, seat):
            return None
        return Reaction("react", None, None, None)

    # --- deciding --------------------------------------------------------------------------------------
    def apply(self, state: LGAState, seat: str, decision: Decision, step: Step) -> LGAState:
        settled = self.sequence.settle(self._apply(state, seat, decision, step), step)
        return self._same_legal(settled, self._remember(settled, state))

    def with_rng(self, state: LGAState, rng: int) -> LGAState:
        return self._same_legal(state, super().with_rng(state, rng))

    def _same_legal(self, state: LGAState, like: LGAState) -> LGAState:
        """``like``, a copy of ``state`` but for what each seat saw and the dice, has the legal set of ``state``:
        the legal set reads neither (tests/grande_armee/test_legal_reuse.py). The sequence asks for it after a
        decision, to know whether a part has work; the seat to decide next asks again, of ``like``."""
        self._legal_kept.carry(state, like)
        return like

    def _apply(self, state: LGAState, seat: str, d: Decision, step: Step) -> LGAState:
        ctx = self.ctx
        match d:
            case D.Build(unit=u, at=at):
                return play.build(ctx, state, step, u, at)
            case D.Rally(unit=u):
                return play.rally(ctx, state, step, u)
            case D.Aid(power=p):
                return play.aid(ctx, state, step, p)
            case D.EndBuild():
                return self.sequence.advance(state, step)
            case D.Move(unit=u, to=to):
                return play.move(ctx, state, step, u, to)
            case D.Garrison(unit=u):
                unit = state.unit(u)
                ctx.emit(step, "garrison", f"{u} garrisons {ctx.board.name(unit.cell)}", (seat,), unit=u)
                return state.with_unit(replace(unit, garrison=True, moves=0))
            case D.EndUnit(unit=u):
                return state.with_unit(replace(state.unit(u), moves=0))
            case D.EndMovement():
                return self.sequence.advance(state, step)
            case D.Reinforce(unit=u, to=to):
                return play.reinforce(ctx, state, step, u, to)
            case D.Withdraw(unit=u, to=to):
                return play.withdraw(ctx, state, step, u, to)
            case D.SetTop(unit=u):
                return play.set_top(ctx, state, step, u)
        raise IllegalDecision(f"{d.text()} is not a La Grande Armée order")

    def _remember(self, state: LGAState, before: LGAState | None = None) -> LGAState:
        """Each seat sees the enemy units on top of their stacks, where it sees them (§3.5, §5.66), and keeps
        where it saw them last.

        ``before``, a state this has remembered (every state the rules hand out), limits the look to the
        stacks a decision changed: elsewhere every top in sight already stands where it was last seen."""
        ctx = self.ctx
        cells = None if before is None else _changed_cells(before, state, play.standing(ctx, state).changes)
        if cells is not None and not cells:
            return state
        if cells is None:  # the whole picture: every area a unit stands in, or a hidden mover is seen in
            cells = {u.cell for u in state.units} | {cell for _, cell, _, _ in state.secret}
            cells.discard(OFF_MAP)
        in_sight = seen_tops(ctx, state, SEATS, cells)  # each seat, an enemy top it sees, and where
        if not in_sight:
            return state
        last = self._sighted(state.sightings)
        seen = [
            (seat, u if u.cell == cell else replace(u, cell=cell))
            for seat, u, cell in in_sight
            if last.get((seat, u.id)) != cell
        ]
        if not seen:
            return state
        remembered = play.record_sightings(state, seen)
        now = dict(last)  # where each seat last saw each unit, for the next decision: these sightings added
        now.update(((seat, u.id), u.cell) for seat, u in seen)
        self._sighted_kept = (remembered.sightings, now)
        return remembered

    def _sighted(self, sightings: tuple[Sighting, ...]) -> dict[tuple[str, str], int]:
        """Where each seat last saw each unit, kept for the last tuple of sightings (most decisions add none)."""
        kept = self._sighted_kept
        if kept is None or kept[0] is not sightings:
            kept = self._sighted_kept = (sightings, {(s.seat, s.unit): s.cell for s in sightings})
        return kept[1]

    # --- what leaves the engine ------------------------------------------------------------------------
    def view(self, state: LGAState, seat: str | None) -> dict[str, Any]:
        from .view import build_view

        return build_view(self.ctx, state, seat)

    def perturb_hidden(self, state: LGAState, seat: str, dice: Dice) -> LGAState:
        from .ai import perturb_hidden

        return perturb_hidden(self.ctx, state, seat, dice)

    def hidden_units(self, state: LGAState, seat: str) -> frozenset[str]:
        from .view import hidden_units

        return hidden_units(self.ctx, state, seat)

    def result(self, state: LGAState) -> Result | None:
        if state.phase is not Phase.OVER:
            return None
        ctx = self.ctx
        vp = {s: state.victory_points(s) for s in ("french", "allied")}
        levels = {s: play.level(ctx, s, v) for s, v in vp.items()}
        rank = {s: play.LEVEL_RANK[lv] for s, lv in levels.items()}
        if rank["french"] == rank["allied"]:
            winner = None
            summary = (
                f"A draw: both sides end at {levels['french']} (French {vp['french']}, Allied {vp['allied']} VPs)."
            )
        else:
            winner = max(rank, key=lambda s: rank[s])
            summary = (
                f"The {side_name(winner)} player wins: French {levels['french']} ({vp['french']} VPs), "
                f"Allied {levels['allied']} ({vp['allied']} VPs)."
            )
        return Result(winner, {**levels, "neutral": "none"}, {**vp, "neutral": 0}, summary)

    def resigned(self, state: LGAState, seat: str) -> Result:
        """The French or the Allied player may resign and the other wins; the neutral player has no victory of
        its own to give up (§ victory: only the French and the Allies score), so it plays on."""
        if seat == "neutral":
            raise IllegalDecision("the neutral player cannot resign: only the French and the Allied player win or lose")
        winner = enemy_of(seat)
        levels = {seat: "resigned", winner: "won by resignation", "neutral": "none"}
        summary = f"The {side_name(seat)} player resigned: the {side_name(winner)} player wins."
        return Result(winner, levels, {}, summary)

    def explain(self, state: LGAState, seat: str, decision: Decision, legal: Legal) -> IllegalDecision:
        if legal.family(decision) is not None:  # its family's check names the rule
            return super().explain(state, seat, decision, legal)
        return refusals.absent(self.ctx, state, seat, decision, super().explain(state, seat, decision, legal))

    def describe(self, decision: Decision) -> str:
        from .view import describe

        return describe(self.ctx, decision)

    def render_text(self, state: LGAState, seat: str | None) -> str:
        from .render import render

        return render(self.ctx, state, seat)

    def rate(self, view: Mapping[str, Any], seat: str, decision: Decision) -> int:
        from .ai import quick_rate

        return quick_rate(self.ctx, view, seat, decision)

    def parse_cell(self, label: str) -> int:
        """An area from its name, ``column,row`` (§2.2), as a person types it at the terminal."""
        return self.ctx.board.grid.parse(label)

    def cell_label(self, cell: int) -> str:
        return self.ctx.board.grid.label(cell)

    def map_json(self) -> dict[str, Any]:
        return public_map(self.ctx.board)

    def turns_played(self, state: LGAState) -> int:
        """The seasons begun (each a French and an Allied player turn, §2.7), as the scenario counts its turns."""
        start_year, start_season = self.scenario.start
        return (state.year - start_year) * len(self.ctx.tables.seasons) + state.season - start_season + 1


__all__ = ["OFF_MAP", "GrandeArmee"]


def _changed_cells(
    before: LGAState, after: LGAState, changes: tuple[tuple[Unit, ...], list[tuple[Unit, Unit]]] | None = None
) -> set[int] | None:
    """The areas whose stacks a seat may see differently in ``after`` than in ``before`` (None: all of them): where
    a changed unit stood or stands, or where a unit whose sightings changed stands. A change of the moving seat
    or of what top secret movement hides (§5.66) changes the whole picture. ``changes``: the units that differ
    from those of a state, as ``Standing.changes`` has them, if that state is ``before``."""
    if before.seat != after.seat or before.secret != after.secret:
        return None
    olds, news = before.units, after.units
    if changes is not None and changes[0] is olds:  # the same units in the same places, these changed
        pairs = changes[1]
    else:  # the same units in the same order: where the unit is the same object, so is its id
        pairs = [(a, b) for a, b in zip(olds, news, strict=False) if a is not b]
    if len(olds) == len(news) and all(a.id == b.id for a, b in pairs):
        # a unit that changed but for where it stands, its place in the stack and what a seat sees of it (its
        # moves, morale, flags) changes no stack's top nor any sighting
        pairs = [(a, b) for a, b in pairs if _looks(a) != _looks(b)]
        changed_old, changed_new = [a for a, _ in pairs], [b for _, b in pairs]
    else:
        old_of, new_of = {u.id: u for u in olds}, {u.id: u for u in news}
        changed_old = [u for u in olds if new_of.get(u.id) is not u]
        changed_new = [u for u in news if old_of.get(u.id) is not u]
    cells = {u.cell for u in changed_old} | {u.cell for u in changed_new}
    if before.sightings is not after.sightings:
        # the sightings that are not the same objects (a new sighting is a new object: comparing them by value hashed
        # every field of every sighting); looking at more areas than changed finds nothing more there
        was, now = set(map(id, before.sightings)), set(map(id, after.sightings))
        moved = {s.unit for s in after.sightings if id(s) not in was} | {
            s.unit for s in before.sightings if id(s) not in now
        }
        cells.update(u.cell for u in news if u.id in moved)
    if after.secret:  # the other seat sees a hidden mover where it stood as phase V began
        ids = {u.id for u in changed_old} | {u.id for u in changed_new}
        cells.update(cell for uid, cell, _, _ in after.secret if uid in ids)
    cells.discard(OFF_MAP)
    return cells


def _looks(u: Unit) -> tuple[object, ...]:
    """What a seat's picture of a stack reads of a unit (its top, §3.5, and a sighting): place, kind, rank."""
    return (u.cell, u.stack, u.garrison, u.type, u.power)
