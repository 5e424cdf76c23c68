"""The game's own random number generator.

Every die a game rolls comes from a :class:`Dice` seeded from the integer ``rng`` field held in its state.
The generator is PCG32 (O'Neill 2014, the XSH-RR output function) written with plain integer arithmetic,
so the same seed gives the same rolls on every machine and every Python version; nothing here uses
:mod:`random`, whose ``randint`` and ``choice`` are not guaranteed stable across versions.

The state is one 64-bit integer, so a state that holds it stays a simple value. Unbiased bounded draws use
Lemire's rejection method.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_MULT = 6364136223846793005
_INC = 1442695040888963407  # a fixed odd stream increment: one stream per game is enough

T = TypeVar("T")


def seed_state(seed: int) -> int:
    """The generator state a game starts from, for a seed given by the player (any integer)."""
    state = 0
    state = (state * _MULT + _INC) & _MASK64
    state = (state + (seed & _MASK64)) & _MASK64
    state = (state * _MULT + _INC) & _MASK64
    return state


class Dice:
    """A mutable cursor over the generator, used while one decision is applied.

    The rules draw through it; the game stores :attr:`state` back into the new game state afterwards and
    counts :attr:`draws` to know whether anything random happened (which closes undo).
    """

    __slots__ = ("draws", "state")

    def __init__(self, state: int) -> None:
        self.state = state
        self.draws = 0

    def bits32(self) -> int:
        """One PCG32 step: the next state, and the 32-bit output (XSH-RR) of the state before it (every die of a
        game comes here: one frame, no tuple)."""
        state = self.state
        self.state = (state * _MULT + _INC) & _MASK64
        self.draws += 1
        xorshifted = (((state >> 18) ^ state) >> 27) & _MASK32
        rot = state >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` (Lemire's unbiased method)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        state = self.state
        while True:
            # :meth:`bits32` written out (every die of a game comes here: a call less a draw)
            self.draws += 1
            xorshifted = (((state >> 18) ^ state) >> 27) & _MASK32
            rot = state >> 59
            state = (state * _MULT + _INC) & _MASK64
            m = (((xorshifted >> rot) | (xorshifted << (32 - rot))) & _MASK32) * n
            low = m & _MASK32
            # Lemire's threshold, (2**32 - n) % n, is below n: a low part of n or more is kept without working it out
            if low >= n or low >= ((1 << 32) - n) % n:
                self.state = state
                return m >> 32

    def roll(self, sides: int) -> int:
        """A die of ``sides`` faces: ``1 .. sides``."""
        return self.below(sides) + 1

    def percent(self) -> int:
        """A percentile roll, ``1 .. 100``."""
        return self.roll(100)

    def chance(self, percent: int) -> tuple[bool, int]:
        """Succeeds with ``percent`` per cent probability; returns the outcome and the d100 roll."""
        r = self.percent()
        return r <= percent, r

    def pick(self, options: Sequence[T]) -> T:
        return options[self.below(len(options))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
