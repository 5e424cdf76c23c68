"""Decisions, and the legal decisions of a seat at one moment.

A decision is a small frozen dataclass with a short text form and a JSON form (python-chess's ``Move``).
Legal decisions come as :class:`Choice` families: decisions of one kind that differ only in one field, for
instance one unit's move to each cell it can reach. That is the shape a player sees (select a unit, then its
highlighted destinations), it lets a family's values be computed only when needed, and it makes
``decision in legal`` a set lookup. The same :class:`Legal` object lists and validates: there is one source
of truth for legality.

Some families are too large to list (a plotted path of up to a dozen hexes, a fire plot naming several
units): such a family accepts by a *check*, a function that names the rule a value breaks (or None), and
draws a legal value for random play with its *sampler*. A listed family may carry a check too: then one set
of checks lists (:meth:`Choice.filtered`), validates and explains. A decision that is not well formed
(unknown kind, wrong fields or types) is a :class:`MalformedDecision`, raised before legality is asked.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from . import codec
from .errors import DataError, IllegalDecision, MalformedDecision, nearest
from .rng import Dice


@dataclass(frozen=True, slots=True)
class Decision:
    """Base of every decision. Subclasses are frozen dataclasses with a unique ``kind``.

    ``vary`` names the field that varies inside a family of legal decisions (the last field by default);
    every other field identifies the family.
    """

    kind: ClassVar[str] = ""
    vary: ClassVar[str | None] = None

    @classmethod
    def vary_field(cls) -> str | None:
        return _shape(cls)[0]

    def family(self) -> tuple[Any, ...]:
        """The key of the family this decision belongs to: its kind and every field but the varying one."""
        return (self.kind, *(getattr(self, name) for name in _shape(type(self))[1]))

    def varying(self) -> Any:
        v = self.vary_field()
        return None if v is None else getattr(self, v)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        data.update(codec.encode(self))
        return data

    def text(self) -> str:
        """A short text form, for logs, golden files and tests: ``move 12 340``."""
        parts = [self.kind]
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                parts.append("/".join(str(v) for v in value) or "-")
            elif isinstance(value, bool):
                parts.append(f"{f.name}={'yes' if value else 'no'}")
            else:
                parts.append(str(getattr(value, "value", value)))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()


_SHAPES: dict[type[Decision], tuple[str | None, tuple[str, ...]]] = {}


def _shape(cls: type[Decision]) -> tuple[str | None, tuple[str, ...]]:
    """A decision class's varying field and the fields that fix its family, worked out once per class
    (``dataclasses.fields`` was a sixth of a search step when asked for every family of every legal set)."""
    found = _SHAPES.get(cls)
    if found is None:
        names = [f.name for f in dataclasses.fields(cls)]
        vary = cls.vary if cls.vary is not None else (names[-1] if names else None)
        found = _SHAPES[cls] = (vary, tuple(n for n in names if n != vary))
    return found


class DecisionCodec:
    """Reads decisions of a ruleset's kinds from JSON and from their text form."""

    def __init__(self, types: Iterable[type[Decision]]) -> None:
        self.types: dict[str, type[Decision]] = {}
        for t in types:
            if not t.kind or t.kind in self.types:
                raise ValueError(f"decision kind {t.kind!r} of {t.__name__} is empty or taken")
            self.types[t.kind] = t

    def from_json(self, data: Any, where: str = "<decision>") -> Decision:
        """A decision from its JSON form; anything not well formed raises :class:`MalformedDecision`."""
        if not isinstance(data, dict) or "kind" not in data:
            raise MalformedDecision(where, "", "a decision is a table with a 'kind'")
        kind = data["kind"]
        cls = self.types.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise MalformedDecision(where, "kind", f"unknown decision {kind!r}; {nearest(str(kind), self.types)}")
        fields = {k: v for k, v in data.items() if k != "kind"}
        try:
            decision: Decision = codec.decode(cls, fields, where)
        except DataError as e:
            raise MalformedDecision(e.where, e.key, e.problem) from None
        return decision

    def parse(self, text: str) -> Decision:
        """A decision from its text form (``move 12 340``), as typed at the terminal."""
        words = text.split()
        if not words:
            raise MalformedDecision("<text>", "", "empty decision")
        cls = self.types.get(words[0])
        if cls is None:
            raise MalformedDecision("<text>", "", f"unknown decision {words[0]!r}; {nearest(words[0], self.types)}")
        fields = dataclasses.fields(cls)
        if len(words) - 1 != len(fields):
            names = " ".join(f.name for f in fields)
            raise MalformedDecision("<text>", "", f"{cls.kind} takes {len(fields)} values: {cls.kind} {names}".rstrip())
        hints = codec._hints(cls)
        values: dict[str, Any] = {}
        for f, w in zip(fields, words[1:], strict=True):
            values[f.name] = _parse_word(hints[f.name], w)
        try:
            decision: Decision = codec.decode(cls, values, "<text>")
        except DataError as e:
            raise MalformedDecision(e.where, e.key, e.problem) from None
        return decision


def _parse_word(tp: Any, word: str) -> Any:
    if tp is int:
        try:
            return int(word)
        except ValueError:
            raise MalformedDecision("<text>", "", f"{word!r} is not a number") from None
    if tp is bool:
        return word.lower() in ("yes", "y", "true", "1", "yes=yes") or word.endswith("=yes")
    if "tuple" in str(tp):
        return [] if word == "-" else [int(w) if w.lstrip("-").isdigit() else w for w in word.split("/")]
    return word


Check = Callable[[Any], IllegalDecision | None]
Sampler = Callable[[Dice], Any]


class Choice:
    """A family of legal decisions: ``cls(**fixed, <vary>=value)`` for each legal value.

    A listed family has ``values`` (a sequence, or a callable evaluated the first time the family is listed or
    searched). A family too large to list has ``values=None``, a ``check`` that accepts a value (None) or names
    the rule it breaks, a ``sampler`` that draws a legal value, and ``size``, the number of legal values or an
    estimate of it (random play weighs families by it). ``hint`` is what a page may show of an unlisted family
    (the cells a path can reach, say). A listed family may have a ``check`` too: it explains why a value that
    is not listed is refused.

    A listed family whose values come from a callable may also have a ``count``: the number of its values,
    worked out without listing them (the cells a search reached, less those a unit may not stop in, say).
    Sizing the families for a random draw (:meth:`Legal.sample`) then lists none but the family drawn. The
    count must equal the length of the list: the conformance check compares them over random games.
    """

    __slots__ = (
        "_count",
        "_counted",
        "_key",
        "_set",
        "_size",
        "_values",
        "check",
        "cls",
        "fixed",
        "hint",
        "label",
        "sampler",
    )

    def __init__(
        self,
        cls: type[Decision],
        fixed: Mapping[str, Any] | None = None,
        values: Sequence[Any] | Callable[[], Sequence[Any]] | None = (None,),
        label: str = "",
        *,
        check: Check | None = None,
        sampler: Sampler | None = None,
        size: int | None = None,
        hint: Any = None,
        count: Callable[[], int] | None = None,
    ) -> None:
        if values is None and (check is None or sampler is None or size is None):
            raise ValueError(f"a {cls.kind} family that is not listed needs a check, a sampler and a size")
        if count is not None and not callable(values):
            raise ValueError(f"a {cls.kind} family counted without listing lists its values when asked")
        self.cls = cls
        self.fixed = dict(fixed or {})
        self._values = values
        self._count = count
        self._counted: int | None = None
        self._key: tuple[Any, ...] | None = None
        self._set: frozenset[Any] | None = None
        self.label = label
        self.check = check
        self.sampler = sampler
        self._size = size
        self.hint = hint

    @classmethod
    def trusted(
        cls,
        kind: type[Decision],
        fixed: dict[str, Any],
        values: Sequence[Any] | Callable[[], Sequence[Any]],
        check: Check | None = None,
        count: Callable[[], int] | None = None,
    ) -> Choice:
        """A listed family, as ``Choice(kind, fixed, values, check=check, count=count)`` without its checks and its
        copy of ``fixed``, which the family then keeps (the caller's own, changed by nobody): for the families a
        ruleset makes by the dozen for every position (each unit's move)."""
        c = object.__new__(cls)
        c.cls, c.fixed, c._values, c.check, c._count, c.label = kind, fixed, values, check, count, ""
        c._counted = c._key = c._set = c.sampler = c._size = c.hint = None
        return c

    @classmethod
    def filtered(
        cls,
        kind: type[Decision],
        fixed: Mapping[str, Any] | None,
        candidates: Iterable[Any],
        check: Check,
        label: str = "",
        count: Callable[[], int] | None = None,
    ) -> Choice:
        """A listed family whose values are the ``candidates`` the ``check`` accepts: the same check lists,
        validates and explains (``count``, if given, how many it accepts)."""
        pool = tuple(candidates)
        return cls(kind, fixed, lambda: tuple(v for v in pool if check(v) is None), label, check=check, count=count)

    @property
    def key(self) -> tuple[Any, ...]:
        key = self._key
        if key is None:
            fixed = self.fixed
            key = self._key = (self.cls.kind, *[fixed[name] for name in _shape(self.cls)[1]])
        return key

    @property
    def listed(self) -> bool:
        return self._values is not None

    def values(self) -> Sequence[Any]:
        """The legal values of a listed family (an unlisted family has none to list: empty)."""
        if self._values is None:
            return ()
        if callable(self._values):
            self._values = tuple(self._values())
        return self._values

    def __len__(self) -> int:
        values = self._values
        if values is None:
            return self._size or 0
        if not callable(values):
            return len(values)  # listed already (a random draw sizes every family: no call more)
        if self._count is not None:
            if self._counted is None:
                self._counted = self._count()
            return self._counted
        return len(self.values())

    def counted(self) -> int | None:
        """The family's count worked out afresh without listing (None if it has no count): for checks."""
        return None if self._count is None else self._count()

    def __contains__(self, value: object) -> bool:
        if self._values is None:
            assert self.check is not None
            return self.check(value) is None
        if self._set is None:
            self._set = frozenset(self.values())
        return value in self._set

    def refusal(self, value: Any) -> IllegalDecision | None:
        """Why ``value`` is refused (the check's rule, where the family has a check), or None if it is legal."""
        if value in self:
            return None
        found = self.check(value) if self.check is not None else None
        return found or IllegalDecision(f"that {self.cls.vary_field()!r} is not allowed now")

    def draw(self, dice: Dice) -> Decision:
        """A legal decision of this family at random: uniform over a listed family's values."""
        if self._values is None:
            assert self.sampler is not None
            return self.make(self.sampler(dice))
        values = self.values()
        return self.make(values[dice.below(len(values))])

    def make(self, value: Any) -> Decision:
        v = _shape(self.cls)[0]
        if v is None:
            return self.cls(**self.fixed)
        return self.cls(**{**self.fixed, v: value})

    def decisions(self) -> Iterator[Decision]:
        """Every decision of a listed family (none of an unlisted one)."""
        for value in self.values():
            yield self.make(value)


@dataclass(frozen=True, slots=True)
class Families:
    """The families of a legal set named by ``items`` and made when asked for (:class:`Legal`'s ``families``): a
    random draw sizes every family and lists the one it draws, so a position with dozens of units need not make
    dozens of families, each with its callables, for every decision. ``make(item)`` makes the item's family;
    ``counts(items)`` sizes them all at once, as ``len`` of each made family would (None where the family is to
    be made and its ``len`` taken): the conformance check compares the two."""

    items: Sequence[Any]
    make: Callable[[Any], Choice]
    counts: Callable[[Sequence[Any]], Sequence[int | None]]


class Legal:
    """Everything a seat may decide now, what it is asked, and a suggested answer.

    ``prompt`` says what the game asks in the manual's terms; ``suggested`` is the pre-selected answer (the
    best target, for instance); ``info`` carries what helps to decide (hit chances per target) and goes to
    that seat only; a callable ``info`` or ``suggested`` is worked out when first asked for. The families come
    as ``choices``, or as :class:`Families` made when first asked for (``choices`` is then every one of them).
    """

    def __init__(
        self,
        seat: str,
        choices: Iterable[Choice] = (),
        prompt: str = "",
        suggested: Decision | Callable[[], Decision | None] | None = None,
        info: Mapping[str, Any] | Callable[[], Mapping[str, Any]] | None = None,
        *,
        families: Families | None = None,
    ) -> None:
        if families is not None and choices:
            raise ValueError("a legal set has its choices or its families, not both")
        self.seat = seat
        self._choices: list[Choice] | None = [c for c in choices] if families is None else None
        self._families = families
        self._made: dict[int, Choice] = {}  # the families made one by one (sized or drawn), by index
        self.prompt = prompt
        self._suggested = suggested
        self._info: dict[str, Any] | Callable[[], Mapping[str, Any]] = info if callable(info) else dict(info or {})
        self._by_key: dict[tuple[Any, ...], Choice] | None = None
        self._drawn: Decision | None = None  # the last decision :meth:`sample` drew (legal by its family's making)

    @property
    def choices(self) -> list[Choice]:
        """Every family, in order (those named by ``families`` made now if they were not)."""
        found = self._choices
        if found is None:
            fam = self._families
            assert fam is not None
            made = self._made
            found = self._choices = [made[i] if i in made else fam.make(item) for i, item in enumerate(fam.items)]
        return found

    @property
    def named(self) -> bool:
        """Whether the families are named by items and not all made yet (sized by their counts all at once)."""
        return self._families is not None and self._choices is None

    def _choice(self, i: int) -> Choice:
        """The ``i``-th family, made alone if the families are not all made."""
        if self._choices is not None:
            return self._choices[i]
        found = self._made.get(i)
        if found is None:
            fam = self._families
            assert fam is not None
            found = self._made[i] = fam.make(fam.items[i])
        return found

    def sizes(self) -> list[int]:
        """How many decisions each family holds, in order: the families' counts all at once where the families
        are named by items (only those without a count are made)."""
        if not self.named:
            return [len(c) for c in self.choices]
        fam = self._families
        assert fam is not None
        return [n if n is not None else len(self._choice(i)) for i, n in enumerate(fam.counts(fam.items))]

    @property
    def suggested(self) -> Decision | None:
        """The pre-selected answer; given as a callable, worked out the first time it is asked for."""
        if callable(self._suggested):
            self._suggested = self._suggested()
        return self._suggested

    @property
    def info(self) -> dict[str, Any]:
        """What helps to decide; given as a callable, it is worked out the first time it is asked for (a search
        or a random player that only samples never asks)."""
        if callable(self._info):
            self._info = dict(self._info())
        return self._info

    def _family_of(self, decision: Decision) -> Choice | None:
        """The family ``decision`` would belong to, looked up by its key (the index is built when first asked:
        a random draw or a search step may never ask)."""
        if self._by_key is None:
            by_key: dict[tuple[Any, ...], Choice] = {}
            for c in self.choices:
                key = c.key
                if by_key.setdefault(key, c) is not c:
                    raise ValueError(f"two families of legal decisions share the key {key}")
            self._by_key = by_key
        return self._by_key.get(decision.family())

    def __contains__(self, decision: object) -> bool:
        if decision is self._drawn and decision is not None:
            # the drawn decision, applied next: made from one of its family's listed values, or drawn by its
            # family's sampler, which draws legal values (random play checks each against its family anyway:
            # ``conformance.check_family_found``)
            return True
        if not isinstance(decision, Decision):
            return False
        choice = self._family_of(decision)
        return choice is not None and decision.varying() in choice

    def family(self, decision: Decision) -> Choice | None:
        return self._family_of(decision)

    def refusal(self, decision: Decision) -> IllegalDecision | None:
        """None if ``decision`` is legal; else why not, from its family's check where it has one. A decision of
        no family is refused in general terms (``Ruleset.explain`` may name the rule)."""
        choice = self._family_of(decision)
        if choice is None:
            kinds = sorted({c.cls.kind for c in self.choices})
            return IllegalDecision(
                f"{decision.text()!r} is not possible now; {self.prompt or 'the game asks for'}: "
                f"{', '.join(kinds) or 'nothing'}"
            )
        found = choice.refusal(decision.varying())
        if found is not None and not found.rule and choice.check is None:
            return IllegalDecision(f"{decision.text()!r}: that {decision.vary_field()!r} is not allowed now")
        return found

    def __iter__(self) -> Iterator[Decision]:
        """Every listed decision (families too large to list are left out: see :attr:`Choice.listed`)."""
        for c in self.choices:
            yield from c.decisions()

    def __len__(self) -> int:
        return sum(self.sizes())

    def __bool__(self) -> bool:
        if self.named:
            return any(self.sizes())
        return any(len(c) for c in self.choices)

    def of_kind(self, kind: str) -> list[Choice]:
        return [c for c in self.choices if c.cls.kind == kind]

    def sample(self, dice: Dice) -> Decision:
        """A legal decision uniformly at random over all of them (OpenSpiel's random agent): a player that
        picked a family first would end phases early, since "done" is a family of its own. Families with a
        count are sized without listing them: only the family drawn is listed."""
        sizes = self.sizes()
        total = sum(sizes)
        if not total:
            raise IllegalDecision(f"{self.seat} has no legal decision")
        k = dice.below(total)
        for i, size in enumerate(sizes):
            if k < size:
                choice = self._choice(i)
                # an unlisted family draws its own value (weighed by its size, uniform if the size is exact)
                drawn = self._drawn = choice.make(choice.values()[k]) if choice.listed else choice.draw(dice)
                return drawn
            k -= size
        raise AssertionError("unreachable: k < total")

    def to_json(
        self, describe: Callable[[Decision], str] | None = None, counted: Callable[[Choice], bool] | None = None
    ) -> dict[str, Any]:
        """The families as plain data: what the browser shows (units, their destinations and targets). A listed
        family ``counted`` accepts goes as its ``count`` (worked out without listing where it can) instead of its
        ``values``."""
        out = []
        for c in self.choices:
            vf = c.cls.vary_field()
            family: dict[str, Any] = {"kind": c.cls.kind, "fixed": codec.encode(c.fixed), "field": vf}
            if c.listed and counted is not None and counted(c):
                family["count"] = len(c)
            else:
                family["values"] = codec.encode(list(c.values())) if c.listed else None
            family["label"] = c.label
            if not c.listed:  # accepted by its check: the page composes a value and the server says yes or no
                family["size"] = len(c)
                family["hint"] = codec.encode(c.hint)
            out.append(family)
        return {
            "seat": self.seat,
            "prompt": self.prompt,
            "suggested": self.suggested.to_json() if self.suggested else None,
            "suggested_text": describe(self.suggested) if (describe and self.suggested) else None,
            "info": codec.encode(self.info),
            "choices": out,
        }


class KeptLegal:
    """The legal set of the last state each seat was asked about, for a ruleset's ``legal``: a ruleset's sequence
    asks whether a part has work after a decision, and the seat to decide next asks again of the same position.
    :meth:`carry` hands a state's legal sets to a copy that differs only in what its legal sets never read (the
    dice stored after a decision, say)."""

    def __init__(self, work: Callable[[Any, str], Legal]) -> None:
        self._work = work
        self.kept: dict[str, tuple[Any, Legal]] = {}

    def __call__(self, state: Any, seat: str) -> Legal:
        found = self.kept.get(seat)
        if found is not None and found[0] is state:
            return found[1]
        legal = self._work(state, seat)
        self.kept[seat] = (state, legal)
        return legal

    def carry(self, state: Any, like: Any) -> None:
        """``like`` has the legal sets of ``state``."""
        if like is state:
            return
        for seat, (was, legal) in list(self.kept.items()):
            if was is state:
                self.kept[seat] = (like, legal)
