"""The engine's declared turn sequence (engine/sequence.py): parts begin in order, empty parts pass by
themselves, the last part wraps to a new round, and the game can end in any of them."""

from dataclasses import dataclass, replace

from grognard.engine import Choice, Legal
from grognard.engine.events import Step
from grognard.engine.sequence import Part, TurnSequence
from toy import EndTurn, Move


@dataclass(frozen=True)
class S:
    part: int = 0
    round: int = 1
    work: frozenset[str] = frozenset()  # the seats that have something to move
    log: tuple[str, ...] = ()


def legal(state: S, seat: str) -> Legal:
    moves = [Choice(Move, {"unit": seat}, [1, 2])] if seat in state.work else []
    return Legal(seat, [*moves, Choice(EndTurn)])


def note(name: str):
    return lambda state, step: replace(state, log=(*state.log, name))


def sequence(last_round: int = 3) -> TurnSequence[S]:
    parts = [
        Part("supply", begin=note("supply")),
        Part("red moves", lambda s: ("red",), note("red"), passes=("end",)),
        Part("both plot", lambda s: ("red", "blue"), note("plot"), passes=("end",)),
    ]
    return TurnSequence(
        parts,
        legal,
        lambda s: s.part,
        lambda s, i: replace(s, part=i),
        lambda s, step: replace(s, round=s.round + 1),
        lambda s: s.round > last_round,
    )


def test_a_part_with_nothing_but_its_end_to_decide_passes_by_itself():
    seq = sequence()
    state = seq.enter(S(work=frozenset({"blue"})), 0, Step(1))
    assert state.part == 2 and state.log == ("supply", "red", "plot")  # red had nothing to move


def test_a_part_that_asks_stops_and_advance_goes_on_to_the_next():
    seq = sequence()
    state = seq.enter(S(work=frozenset({"red"})), 0, Step(1))
    assert state.part == 1 and seq.has_work(state)
    state = seq.advance(state, Step(1))
    assert state.part == 2  # red has work in the plot too


def test_the_last_part_wraps_to_a_new_round_and_the_game_ends_when_it_says():
    seq = sequence(last_round=2)
    state = seq.enter(S(work=frozenset({"red"})), 0, Step(1))
    state = seq.advance(seq.advance(state, Step(1)), Step(1))
    assert (state.round, state.part) == (2, 1)
    assert state.log.count("supply") == 2
    state = seq.advance(seq.advance(state, Step(1)), Step(1))
    assert state.round == 3  # over: no part entered after the end


def test_settle_moves_on_only_when_nothing_is_left():
    seq = sequence()
    state = seq.enter(S(work=frozenset({"red"})), 0, Step(1))
    assert seq.settle(state, Step(1)) is state
    done = replace(state, work=frozenset())
    assert seq.settle(done, Step(1)).part != 1
