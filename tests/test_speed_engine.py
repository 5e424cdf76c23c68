"""What every decision pays outside the rules (issue 17): the shortcuts of ``Game.apply``, the driver and the players
make what the plain code made."""

from __future__ import annotations

import gc
import weakref
from dataclasses import FrozenInstanceError, replace
from typing import Any

import pytest

from grognard.ai import play_out
from grognard.ai.base import derived_seed, parse_players, seat_seed
from grognard.ai.driver import computer_decision
from grognard.ai.observation import facts_of
from grognard.engine import Decision, Event, Game, Step
from grognard.engine.game import LogEntry
from grognard.engine.protocol import Resignation
from grognard.engine.rng import Dice
from toy import Toy, ToyState


class Recording(Toy):
    """The toy ruleset, keeping what each ``apply`` returned and the step it was given."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.applied: list[tuple[ToyState, Step]] = []

    def apply(self, state: ToyState, seat: str, decision: Decision, step: Step) -> ToyState:
        out = super().apply(state, seat, decision, step)
        self.applied.append((out, step))
        return out


def random_game(seed: int) -> tuple[Game, Recording]:
    rules = Recording(Recording.load_scenario("skirmish"))
    game = Game(rules, seed)
    play_out(game, parse_players("random", Recording, Recording.seats, seed))
    return game, rules


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_dice_are_stored_after_a_roll_and_a_state_that_rolled_nothing_is_kept(seed: int) -> None:
    # ``with_rng`` is asked only when the generator moved: the game's state is what the rules made with the dice
    # stored, and the very object the rules made when they rolled nothing
    game, _ = random_game(seed)
    replayed = Game(Recording(Recording.load_scenario("skirmish")), seed)
    applied: list[tuple[ToyState, Step]] = replayed.rules.applied  # type: ignore[attr-defined]
    rolled = 0
    for entry in game.log:
        replayed.apply(entry.seat, entry.decision)
        made, step = applied[-1]
        assert replayed.state == replace(made, rng=step.dice.state)
        assert (replayed.state is made) == (step.dice.draws == 0)
        rolled += step.dice.draws > 0
    assert 0 < rolled < len(game.log) and replayed.digest() == game.digest()  # both kinds of decision were seen


def test_the_log_holds_the_entries_logentry_makes() -> None:
    game, _ = random_game(1)
    entry = game.log[0]
    made = LogEntry(entry.seat, entry.decision)
    assert type(entry) is LogEntry and entry == made and hash(entry) == hash(made)
    with pytest.raises(FrozenInstanceError):
        entry.seat = "blue"  # type: ignore[misc]


def test_a_derived_seed_is_pinned() -> None:
    # a computer's dice before each decision and each seat's player come from these: saved games depend on them
    assert derived_seed(7, 12) == 15242159292459756690
    assert derived_seed(2**63 + 5, 0) == 18079508796317041444
    assert derived_seed(7, "player", "attacker") == 916219142652364281
    assert derived_seed(7) == 16667848380713045890
    assert seat_seed(1, "blue") == 18303985757966691734


def test_the_legal_set_kept_for_a_position_is_not_given_once_a_seat_resigned() -> None:
    game = Game(Toy(Toy.load_scenario("skirmish")), 1)
    assert game.legal("red")  # kept for this state and seat
    game.apply("blue", Resignation())  # the state stays the same object
    assert not game.legal("red") and not game.legal("blue")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_driver_asks_one_computer_seat_as_its_loops_would(seed: int) -> None:
    # a turn of one seat played by a computer is answered without the loops; the loops run when an order is
    # given (a one-seat list draws nothing from it): both give the same decision at every step of a game
    game = Game(Toy(Toy.load_scenario("skirmish")), seed)
    players = parse_players("random", Toy, Toy.seats, seed)
    while not game.over:
        due = computer_decision(game, players)
        assert due is not None and due == computer_decision(game, players, order=Dice(0))
        game.apply(*due)


def test_the_facts_kept_for_the_last_ruleset_are_its_own_and_follow_its_options() -> None:
    # facts_of keeps the last ruleset's facts beside its table: asked of another ruleset, or of one whose options
    # changed, it must not give the kept ones
    one, two = Toy(Toy.load_scenario("skirmish")), Toy(Toy.load_scenario("skirmish"))
    first = facts_of(one)
    assert facts_of(one) is first and facts_of(two).scenario is two.scenario is not one.scenario
    assert facts_of(one) is first
    one.options = {"y": 2}  # (a ruleset's options are not changed in play: the facts follow them all the same)
    assert facts_of(one) is not first and facts_of(one).options == {"y": 2}


def test_the_facts_kept_for_the_last_ruleset_do_not_keep_it_alive() -> None:
    rules = Toy(Toy.load_scenario("skirmish"))
    facts_of(rules)
    gone = weakref.ref(rules)
    del rules
    gc.collect()
    assert gone() is None


def test_an_emitted_event_is_the_event_made_with_its_fields() -> None:
    step = Step(0)
    seats = ("red",)
    kept = step.emit("move", "r0 moves", seats, unit="r0", to=5)
    listed = step.emit("fire", "", ["red", "blue"], target="b1")
    assert kept == Event("move", "r0 moves", {"unit": "r0", "to": 5}, seats) and kept.seen_by is seats
    assert listed == Event("fire", "", {"target": "b1"}, ("red", "blue")) and step.emit("end").seen_by is None
    assert step.events == [kept, listed, Event("end")] and type(kept) is Event
