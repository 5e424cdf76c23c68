"""The random draw sizes families by counting and lists only the family it draws from (issue 17 item 2), and is
still uniform over every legal decision, drawn with the same dice as when every family was listed."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from grognard.ai import play_out
from grognard.ai.base import RandomPlayer
from grognard.engine import Choice, Decision, Families, Legal
from grognard.engine.game import Game, new_game
from grognard.engine.rng import Dice, seed_state
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general.decisions import Move
from grognard.rulesets.perfect_general.state import Phase


def movement_position() -> tuple[Game, str]:
    """A real position of The Perfect General: a seat's movement phase, a few decisions into a random game of A
    Simple Little War, where every unit's destinations are counted without being listed."""
    game = new_game(PerfectGeneral, "simple_little_war", {}, 5)
    players = {s: RandomPlayer(seed) for seed, s in enumerate(PerfectGeneral.seats)}

    def at_movement(g: Game) -> bool:
        seat = g.turn().seat
        return g.state.phase is Phase.MOVEMENT and g.state.offer is None and seat is not None

    while not at_movement(game):
        play_out(game, players, stop_after=1)
    seat = game.turn().seat
    assert seat is not None
    return game, seat


def chi_square_limit(degrees: int, z: float = 3.09) -> float:
    """The chi-square value that a uniform draw exceeds with probability 0.001 (z = 3.09), by Wilson and
    Hilferty's approximation (within 1% for 20 or more degrees of freedom)."""
    k = degrees
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


def test_the_lazy_draw_is_uniform_over_the_listed_legal_set() -> None:
    game, seat = movement_position()
    everything = list(game.rules.legal(game.state, seat))  # every family listed
    assert len(everything) == len(set(everything)) >= 50
    lazy = game.rules.legal(game.state, seat)
    assert len(lazy) == len(everything), "the families' counts add up to the listed legal set"
    draws = 40 * len(everything)
    dice = Dice(seed_state(17))
    seen = Counter(lazy.sample(dice) for _ in range(draws))
    assert set(seen) <= set(everything), "every decision drawn is a listed legal one"
    expected = draws / len(everything)
    chi2 = sum((seen[d] - expected) ** 2 / expected for d in everything)
    assert chi2 < chi_square_limit(len(everything) - 1), f"chi-square {chi2:.1f} over {len(everything)} decisions"


def test_the_lazy_draw_takes_the_dice_and_the_decision_of_the_listed_draw() -> None:
    game, seat = movement_position()
    listed = game.rules.legal(game.state, seat)
    for family in listed.choices:
        family.values()  # listed first: sized by the lists' lengths, as every draw was before counting
    lazy = game.rules.legal(game.state, seat)
    assert any(c.counted() is not None for c in lazy.choices), "the movement phase has counted families"
    a, b = Dice(seed_state(3)), Dice(seed_state(3))
    for _ in range(300):
        assert lazy.sample(a) == listed.sample(b)
        assert a.state == b.state


class _Listing:
    """A family's values that note when they are listed."""

    def __init__(self, values: Sequence[int], listed: list[str], name: str) -> None:
        self.values, self.listed, self.name = values, listed, name

    def __call__(self) -> Sequence[int]:
        self.listed.append(self.name)
        return self.values

    def count(self) -> int:
        return len(self.values)


def _legal(listed: list[str], counted: bool) -> Legal:
    def family(unit: str, cells: Sequence[int]) -> Choice:
        values = _Listing(cells, listed, unit)
        count: Callable[[], int] | None = values.count if counted else None
        return Choice(Move, {"unit": unit}, values, count=count)

    return Legal("attacker", [family("a", [1, 2, 3]), family("b", [4]), family("c", [5, 6])])


def test_a_draw_lists_only_the_family_drawn_from() -> None:
    listed: list[str] = []
    legal = _legal(listed, counted=True)
    drawn = legal.sample(Dice(seed_state(1)))
    assert isinstance(drawn, Move)
    assert listed == [str(drawn.unit)], "only the family drawn from was listed"
    uncounted: list[str] = []
    _legal(uncounted, counted=False).sample(Dice(seed_state(1)))
    assert uncounted == ["a", "b", "c"], "without counts every family is listed to size it"


def test_is_this_decision_legal_lists_one_family() -> None:
    listed: list[str] = []
    legal = _legal(listed, counted=True)
    decisions: list[Decision] = [Move("b", 4), Move("c", 4)]
    assert [d in legal for d in decisions] == [True, False]
    assert listed == ["b", "c"]


def test_a_count_needs_a_family_listed_when_asked() -> None:
    with pytest.raises(ValueError, match="lists its values when asked"):
        Choice(Move, {"unit": "a"}, [1, 2], count=lambda: 2)


def test_a_trusted_family_is_the_family_the_constructor_makes() -> None:
    # Choice.trusted skips the constructor's checks and copy: everything a family answers must be the same
    game, seat = movement_position()
    for family in game.legal(seat).of_kind("move")[:5]:
        values, check, count = family._values, family.check, family._count
        made = Choice(family.cls, dict(family.fixed), values, check=check, count=count)
        trusted = Choice.trusted(family.cls, dict(family.fixed), values, check, count)
        assert (trusted.key, trusted.listed, trusted.label, trusted.hint) == (
            made.key,
            made.listed,
            made.label,
            made.hint,
        )
        assert len(trusted) == len(made) == trusted.counted() and list(trusted.values()) == list(made.values())
        first = made.values()[0]
        assert first in trusted and trusted.make(first) == made.make(first) and trusted.refusal(first) is None
        assert str(trusted.refusal(-1)) == str(made.refusal(-1))


def _named(made: list[str], counts: dict[str, int | None]) -> Legal:
    """The families of ``_legal`` named by unit and made when asked for, ``counts`` sizing them all at once (None:
    made and their length taken); ``made`` notes each family made."""
    cells = {"a": [1, 2, 3], "b": [4], "c": [5, 6]}
    ignored: list[str] = []

    def make(unit: str) -> Choice:
        made.append(unit)
        return Choice(Move, {"unit": unit}, _Listing(cells[unit], ignored, unit))

    return Legal("attacker", families=Families(["a", "b", "c"], make, lambda units: [counts[u] for u in units]))


def test_families_named_by_items_draw_as_the_families_made_do() -> None:
    for seed in range(40):
        made: list[str] = []
        named = _named(made, {"a": 3, "b": 1, "c": 2})
        a, b = Dice(seed_state(seed)), Dice(seed_state(seed))
        drawn = named.sample(a)
        assert drawn == _legal([], counted=True).sample(b) and a.state == b.state
        assert isinstance(drawn, Move) and made == [drawn.unit], "only the family drawn from was made"
        assert drawn in named
        index = "abc".index(drawn.unit)
        kept = named._choice(index)
        assert named.choices[index] is kept, "the family drawn from is the one listed later"
        assert made == [drawn.unit, *[u for u in "abc" if u != drawn.unit]], "each family made once"


def test_named_families_without_a_count_are_made_to_be_sized() -> None:
    made: list[str] = []
    named = _named(made, {"a": 3, "b": None, "c": 2})
    assert named.sizes() == [3, 1, 2] and made == ["b"]
    assert len(named) == 6 and made == ["b"], "a family made is kept"
    assert [len(c) for c in named.choices] == named.sizes() and made == ["b", "a", "c"]


def test_a_legal_set_has_its_choices_or_its_families() -> None:
    with pytest.raises(ValueError, match="not both"):
        Legal("attacker", [Choice(Move, {"unit": "a"}, [1])], families=Families(["a"], lambda u: Choice(Move), list))
