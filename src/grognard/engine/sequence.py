"""A turn's sequence declared as data: its parts in order, who decides in each, what the rules do as each begins.

The manuals print a sequence of play (PG p.18-19, La Grande Armée §5.1, Antietam §IA2.3, Kursk §3.3); a
ruleset declares it as a tuple of :class:`Part` and the engine walks it. A part with no seat resolves by
itself; a part whose seats have nothing to decide but to end it (decisions of its ``passes`` kinds) passes by
itself too, as the originals did ("the game will quickly cycle through this phase without prompting you",
PG p.12). Whether a seat has work is read from the ruleset's own legal decisions, so the skip never repeats
the legality it depends on. Several seats in one part give their orders at the same time (``Turn.at_once``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .decisions import Legal
from .events import Step

S = TypeVar("S")


def _nobody(state: object) -> tuple[str, ...]:
    return ()


@dataclass(frozen=True, slots=True)
class Part(Generic[S]):
    """One part of the sequence: a phase, or one side's part of one.

    ``seats`` names who decides in it (none: it resolves by itself; several: at the same time); ``begin`` is
    what the rules do as it begins; ``passes`` the kinds of decision that only end it.
    """

    name: str
    seats: Callable[[S], Sequence[str]] = _nobody
    begin: Callable[[S, Step], S] | None = None
    passes: tuple[str, ...] = ()


class TurnSequence(Generic[S]):
    """Walks a ruleset's declared parts. The state keeps which part it is in: ``where`` reads it, ``put`` writes
    it; ``wrap`` runs when the last part is done (a new turn or season) and ``over`` says the game has ended."""

    def __init__(
        self,
        parts: Sequence[Part[S]],
        legal: Callable[[S, str], Legal],
        where: Callable[[S], int],
        put: Callable[[S, int], S],
        wrap: Callable[[S, Step], S],
        over: Callable[[S], bool],
    ) -> None:
        self.parts = tuple(parts)
        self._legal = legal
        self._where = where
        self._put = put
        self._wrap = wrap
        self._over = over

    def has_work(self, state: S, index: int | None = None) -> bool:
        """Whether some seat of the part has anything to decide but to end it."""
        part = self.parts[self._where(state) if index is None else index]
        return any(
            len(c) and c.cls.kind not in part.passes
            for seat in part.seats(state)
            for c in self._legal(state, seat).choices
        )

    def enter(self, state: S, index: int, step: Step) -> S:
        """Begin part ``index`` and go on through every part with nothing to decide; the state where a seat
        must decide (or the game is over)."""
        for _ in range(10_000):
            state = self._put(state, index)
            part = self.parts[index]
            if part.begin is not None:
                state = part.begin(state, step)
            if self._over(state):
                return state
            if part.seats(state) and self.has_work(state, index):
                return state
            index += 1
            if index == len(self.parts):
                state = self._wrap(state, step)
                if self._over(state):
                    return state
                index = 0
        raise AssertionError("the sequence did not settle: no part asks for a decision")

    def advance(self, state: S, step: Step) -> S:
        """The current part is done: on to the next that asks for a decision."""
        index = self._where(state) + 1
        if index == len(self.parts):
            state = self._wrap(state, step)
            if self._over(state):
                return state
            index = 0
        return self.enter(state, index, step)

    def settle(self, state: S, step: Step) -> S:
        """After a decision: if nothing is left to decide in the current part, on to the next."""
        if self._over(state) or self.has_work(state):
            return state
        return self.advance(state, step)
