"""The one interface through which a computer drives any seat of any ruleset.

A player gets an :class:`~.observation.Observation` (built by :func:`~.observation.observe`): its seat, its view
(``Game.view(seat)``, the same filtered data a person's browser gets), its legal decisions, the events its seat
has seen and the scenario's static facts, never the game's state or the game's ruleset. For the ruleset's
tables, map, helpers and ``rate`` a player uses a ruleset of its own built from those facts
(:meth:`Player.rules`). Any cheat would have to be a named handicap; none exists.
"""

from __future__ import annotations

import copy
import hashlib
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from grognard.engine import Decision, Legal, Ruleset
from grognard.engine.errors import DataError, nearest
from grognard.engine.rng import Dice, seed_state

from .observation import Facts, Observation

# the name computer players were given their input by before it became a typed observation
PlayerContext = Observation


# Level names any player accepts after the colon; level 1 is every player's default.
LEVEL_NAMES = {"easy": 0, "normal": 1, "hard": 2}


def level_name(level: int) -> str:
    """The name of a level number, the nearest there is for numbers past the ends."""
    names = sorted(LEVEL_NAMES, key=LEVEL_NAMES.__getitem__)
    return names[max(0, min(level, len(names) - 1))]


@cache
def read_tuning(path: Path) -> dict[str, Any]:
    """A computer player's weights, read once from its TOML file (tuning, not manual values)."""
    with path.open("rb") as f:
        return tomllib.load(f)


def tuning_at(path: Path, level: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A computer player's weights and, from their ``[levels]`` table, those of ``level``."""
    cfg = read_tuning(path)
    return cfg, cfg["levels"][level_name(level)]


class Player(ABC):
    """A computer player. ``seed`` makes its own choices repeatable; it never touches the game's dice.
    ``levels`` names the levels it plays differently at (the lobby offers them); none for a player that has one."""

    kind = ""
    levels: tuple[str, ...] = tuple(LEVEL_NAMES)

    # whether the player keeps a memory between decisions that is not a pure cache (see ``catch_up``)
    remembers = False

    def __init__(self, seed: int = 0, level: int = 1) -> None:
        self.dice = Dice(seed_state(seed))
        self.seed = seed
        self.level = level
        self._rules: tuple[Facts, Ruleset[Any, Any]] | None = None
        self._step: tuple[str, int] | None = None  # (seat, decisions it had made) at the next observation due

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.level}" if self.level != 1 else self.kind

    @abstractmethod
    def choose(self, ctx: Observation) -> Decision:
        """The decision to make now; must be one of ``ctx.legal``."""

    def interject(self, ctx: Observation) -> Decision | None:
        """A reaction to make while another seat is deciding (``Turn.optional``), or None to wait."""
        return None

    def reflex(self, ctx: Observation) -> Decision | None:
        """A decision made from the legal decisions alone (their info included), without the view, the memory or
        the dice, and the one ``choose`` or ``interject`` would make there; None: the player thinks. The one
        driver asks it first, so that a server can make it in its own process, where the game is, instead of
        asking its computers' worker while a person waits (``sessions.Session._computer_due``)."""
        return None

    def rules(self, obs: Observation) -> Ruleset[Any, Any]:
        """This player's own ruleset, built from the observation's static facts (kept while they stay the same):
        the tables, the map and the rule helpers, whose caches see only the states this player passes to them
        (beliefs built from its views), never the game's."""
        if self._rules is None or not self._rules[0].same(obs.facts):
            self._rules = (obs.facts, obs.facts.rules())
        return self._rules[1]

    def copy(self) -> Player:
        """A copy with the same memory and dice (for the fog-honesty check), sharing this player's own ruleset,
        whose caches are pure."""
        return copy.deepcopy(self, {id(self._rules): self._rules} if self._rules is not None else {})

    # --- memory ----------------------------------------------------------------------------------------------
    def forget(self) -> None:
        """Drop everything remembered (a player that ``remembers`` extends it to clear its memory)."""
        self._step = None

    def recall(self, obs: Observation) -> None:
        """Live through one earlier observation again, to rebuild memory: what ``choose`` does, its decision unused."""
        self.choose(obs)

    def catch_up(self, obs: Observation) -> None:
        """Make this player's memory what it would be had it been asked at every earlier moment its seat had to
        decide: a fresh player (a server restarted mid-game) forgets and relives the seat's earlier observations.
        A player in step (it saw the last observation and the seat has made one decision since) does nothing.
        Call it first in ``choose`` and ``interject``; call ``decided`` when they return a decision."""
        if not self.remembers or self._step == (obs.seat, obs.made):
            return
        self.forget()
        for past in obs.earlier():
            self._step = (obs.seat, past.made)
            self.recall(past)
        self._step = (obs.seat, obs.made)

    def decided(self, obs: Observation) -> None:
        """Note that this player made the seat's next decision from ``obs``."""
        self._step = (obs.seat, obs.made + 1)

    def reflexed(self, seat: str, made: int) -> None:
        """Note that the seat's decision after its first ``made`` was a :meth:`reflex` (here or in another
        process): memory is as it was, so a player in step before it is in step after it."""
        if self._step == (seat, made):
            self._step = (seat, made + 1)


class RandomPlayer(Player):
    """Picks a legal decision uniformly at random over all of them (``Legal.sample``: families are sized by their
    counts where they have one, and only the family drawn from is listed)."""

    kind = "random"
    levels = ()

    def choose(self, ctx: Observation) -> Decision:
        return ctx.legal.sample(self.dice)

    def interject(self, ctx: Observation) -> Decision | None:
        if ctx.legal and self.dice.below(8) == 0:
            return ctx.legal.sample(self.dice)
        return None


class GreedyPlayer(Player):
    """Takes the decision the ruleset's quick rating likes best, looking no further ahead.

    Families are many and can be large, so it rates at most ``budget`` decisions: the suggested one, then
    every member of small families and a random sample of large ones. Ties go to a random one.
    """

    kind = "greedy"
    levels = ()
    budget = 400

    def choose(self, ctx: Observation) -> Decision:
        candidates = self._candidates(ctx.legal)
        best: list[Decision] = []
        best_score = None
        for d in candidates:
            s = self.rules(ctx).rate(ctx.view, ctx.seat, d)
            if best_score is None or s > best_score:
                best, best_score = [d], s
            elif s == best_score:
                best.append(d)
        if not best:
            return ctx.legal.sample(self.dice)
        return self.dice.pick(best)

    def _candidates(self, legal: Legal) -> list[Decision]:
        out: list[Decision] = []
        if legal.suggested is not None:
            out.append(legal.suggested)
        families = [c for c in legal.choices if len(c)]
        if not families:
            return out
        share = max(4, self.budget // len(families))
        for c in families:
            values = c.values()
            if len(values) <= share:
                out.extend(c.make(v) for v in values)
            else:
                out.extend(c.make(values[self.dice.below(len(values))]) for _ in range(share))
        return out

    def interject(self, ctx: Observation) -> Decision | None:
        if not ctx.legal:
            return None
        d = self.choose(ctx)
        return d if self.rules(ctx).rate(ctx.view, ctx.seat, d) > 0 else None


def derived_seed(seed: int, *parts: object) -> int:
    """A seed for one decision from a player's seed and what its context shows (the same on every machine:
    Python's own ``hash`` of text is not)."""
    # one part (the driver's count of decisions, before every decision): the same text without the join
    text = f"{seed}:{parts[0]}" if len(parts) == 1 else ":".join(map(str, (seed, *parts)))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def seat_seed(seed: int, seat: str) -> int:
    """The seed of the computer player in ``seat`` of a game seeded ``seed``: the same in every front end, so
    ``simulate`` plays the game the server played with the same seats and seed."""
    return derived_seed(seed, "player", seat)


PlayerFactory = Callable[[int, int], Player]

_GENERIC: dict[str, PlayerFactory] = {
    "random": lambda seed, level: RandomPlayer(seed, level),
    "greedy": lambda seed, level: GreedyPlayer(seed, level),
}


def player_kinds(rules: type[Ruleset[Any, Any]] | None = None) -> dict[str, PlayerFactory]:
    """The computer players available for a ruleset: the generic ones plus the ruleset's own."""
    kinds = dict(_GENERIC)
    if rules is not None:
        kinds.update(rules.computer_players())
    return kinds


def make_player(spec: str, rules: type[Ruleset[Any, Any]] | None = None, seed: int = 0) -> Player:
    """A player from ``kind`` or ``kind:level`` (``random``, ``greedy``, ``general:2``, ``general:hard``...)."""
    kind, _, level_text = spec.partition(":")
    kinds = player_kinds(rules)
    if kind not in kinds:
        raise DataError("players", spec, f"unknown computer player {kind!r}; {nearest(kind, kinds)}")
    if level_text in LEVEL_NAMES:
        return kinds[kind](seed, LEVEL_NAMES[level_text])
    try:
        level = int(level_text) if level_text else 1
    except ValueError:
        raise DataError(
            "players", spec, f"the level after ':' is a whole number or one of {', '.join(LEVEL_NAMES)}"
        ) from None
    return kinds[kind](seed, level)


def parse_players(
    spec: str | None, rules: type[Ruleset[Any, Any]], seats: Sequence[str], seed: int = 0, default: str = "greedy"
) -> dict[str, Player]:
    """Players per seat from ``"seat=kind[:level],..."`` or ``"kind,kind"`` in seat order; missing seats get
    ``default``. Each player's own seed is derived from ``seed`` and its seat."""
    chosen: dict[str, str] = {s: default for s in seats}
    if spec:
        parts = [p.strip() for p in spec.split(",") if p.strip()]
        if all("=" not in p for p in parts):
            if len(parts) == 1:
                chosen = {s: parts[0] for s in seats}
            else:
                if len(parts) != len(seats):
                    raise DataError("players", spec, f"give one player per seat: {', '.join(seats)}")
                chosen = dict(zip(seats, parts, strict=True))
        else:
            for p in parts:
                seat, _, kind = p.partition("=")
                if seat not in seats:
                    raise DataError("players", p, f"no seat {seat!r}; {nearest(seat, seats)}")
                chosen[seat] = kind
    return {s: make_player(k, rules, seat_seed(seed, s)) for s, k in chosen.items()}
