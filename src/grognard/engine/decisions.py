"""Decisions, and the legal decisions of a seat at one moment.

A decision is a small frozen dataclass with a short text form and a JSON form (python-chess's ``Move``).
Legal decisions come as :class:`Choice` families: decisions of one kind that differ only in one field, for
instance one unit's move to each cell it can reach. That is the shape a player sees (select a unit, then its
highlighted destinations), it lets a family's values be computed only when needed, and it makes
``decision in legal`` a set lookup. The same :class:`Legal` object lists and validates: there is one source
of truth for legality.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from . import codec
from .errors import DataError, IllegalDecision, nearest
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
        if cls.vary is not None:
            return cls.vary
        names = [f.name for f in dataclasses.fields(cls)]
        return names[-1] if names else None

    def family(self) -> tuple[Any, ...]:
        """The key of the family this decision belongs to: its kind and every field but the varying one."""
        v = self.vary_field()
        return (self.kind, *(getattr(self, f.name) for f in dataclasses.fields(self) if f.name != v))

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


class DecisionCodec:
    """Reads decisions of a ruleset's kinds from JSON and from their text form."""

    def __init__(self, types: Iterable[type[Decision]]) -> None:
        self.types: dict[str, type[Decision]] = {}
        for t in types:
            if not t.kind or t.kind in self.types:
                raise ValueError(f"decision kind {t.kind!r} of {t.__name__} is empty or taken")
            self.types[t.kind] = t

    def from_json(self, data: Any, where: str = "<decision>") -> Decision:
        if not isinstance(data, dict) or "kind" not in data:
            raise DataError(where, "", "a decision is a table with a 'kind'")
        kind = data["kind"]
        cls = self.types.get(kind)
        if cls is None:
            raise DataError(where, "kind", f"unknown decision {kind!r}; {nearest(str(kind), self.types)}")
        fields = {k: v for k, v in data.items() if k != "kind"}
        decision: Decision = codec.decode(cls, fields, where)
        return decision

    def parse(self, text: str) -> Decision:
        """A decision from its text form (``move 12 340``), as typed at the terminal."""
        words = text.split()
        if not words:
            raise IllegalDecision("empty decision")
        cls = self.types.get(words[0])
        if cls is None:
            raise IllegalDecision(f"unknown decision {words[0]!r}; {nearest(words[0], self.types)}")
        fields = dataclasses.fields(cls)
        if len(words) - 1 != len(fields):
            names = " ".join(f.name for f in fields)
            raise IllegalDecision(f"{cls.kind} takes {len(fields)} values: {cls.kind} {names}".rstrip())
        hints = codec._hints(cls)
        values: dict[str, Any] = {}
        for f, w in zip(fields, words[1:], strict=True):
            values[f.name] = _parse_word(hints[f.name], w)
        try:
            decision: Decision = codec.decode(cls, values, "<text>")
        except DataError as e:
            raise IllegalDecision(str(e)) from None
        return decision


def _parse_word(tp: Any, word: str) -> Any:
    if tp is int:
        try:
            return int(word)
        except ValueError:
            raise IllegalDecision(f"{word!r} is not a number") from None
    if tp is bool:
        return word.lower() in ("yes", "y", "true", "1", "yes=yes") or word.endswith("=yes")
    if "tuple" in str(tp):
        return [] if word == "-" else [int(w) if w.lstrip("-").isdigit() else w for w in word.split("/")]
    return word


class Choice:
    """A family of legal decisions: ``cls(**fixed, <vary>=value)`` for each of ``values``.

    ``values`` may be a callable, evaluated the first time the family is listed or searched.
    """

    __slots__ = ("_set", "_values", "cls", "fixed", "label")

    def __init__(
        self,
        cls: type[Decision],
        fixed: Mapping[str, Any] | None = None,
        values: Sequence[Any] | Callable[[], Sequence[Any]] = (None,),
        label: str = "",
    ) -> None:
        self.cls = cls
        self.fixed = dict(fixed or {})
        self._values = values
        self._set: frozenset[Any] | None = None
        self.label = label

    @property
    def key(self) -> tuple[Any, ...]:
        v = self.cls.vary_field()
        return (self.cls.kind, *(self.fixed[f.name] for f in dataclasses.fields(self.cls) if f.name != v))

    def values(self) -> Sequence[Any]:
        if callable(self._values):
            self._values = tuple(self._values())
        return self._values

    def __len__(self) -> int:
        return len(self.values())

    def __contains__(self, value: object) -> bool:
        if self._set is None:
            self._set = frozenset(self.values())
        return value in self._set

    def make(self, value: Any) -> Decision:
        v = self.cls.vary_field()
        if v is None:
            return self.cls(**self.fixed)
        return self.cls(**self.fixed, **{v: value})

    def decisions(self) -> Iterator[Decision]:
        for value in self.values():
            yield self.make(value)


class Legal:
    """Everything a seat may decide now, what it is asked, and a suggested answer.

    ``prompt`` says what the game asks in the manual's terms; ``suggested`` is the pre-selected answer (the
    best target, for instance); ``info`` carries what helps to decide (hit chances per target) and goes to
    that seat only.
    """

    def __init__(
        self,
        seat: str,
        choices: Iterable[Choice] = (),
        prompt: str = "",
        suggested: Decision | None = None,
        info: Mapping[str, Any] | None = None,
    ) -> None:
        self.seat = seat
        self.choices = [c for c in choices]
        self.prompt = prompt
        self.suggested = suggested
        self.info = dict(info or {})
        self._by_key: dict[tuple[Any, ...], Choice] = {}
        for c in self.choices:
            if c.key in self._by_key:
                raise ValueError(f"two families of legal decisions share the key {c.key}")
            self._by_key[c.key] = c

    def __contains__(self, decision: object) -> bool:
        if not isinstance(decision, Decision):
            return False
        choice = self._by_key.get(decision.family())
        return choice is not None and decision.varying() in choice

    def family(self, decision: Decision) -> Choice | None:
        return self._by_key.get(decision.family())

    def __iter__(self) -> Iterator[Decision]:
        for c in self.choices:
            yield from c.decisions()

    def __len__(self) -> int:
        return sum(len(c) for c in self.choices)

    def __bool__(self) -> bool:
        return any(len(c) for c in self.choices)

    def of_kind(self, kind: str) -> list[Choice]:
        return [c for c in self.choices if c.cls.kind == kind]

    def sample(self, dice: Dice) -> Decision:
        """A legal decision uniformly at random over all of them (OpenSpiel's random agent): a player that
        picked a family first would end phases early, since "done" is a family of its own."""
        sizes = [len(c) for c in self.choices]
        total = sum(sizes)
        if not total:
            raise IllegalDecision(f"{self.seat} has no legal decision")
        k = dice.below(total)
        for choice, size in zip(self.choices, sizes, strict=True):
            if k < size:
                return choice.make(choice.values()[k])
            k -= size
        raise AssertionError("unreachable: k < total")

    def to_json(self, describe: Callable[[Decision], str] | None = None) -> dict[str, Any]:
        """The families as plain data: what the browser shows (units, their destinations and targets)."""
        out = []
        for c in self.choices:
            vf = c.cls.vary_field()
            out.append(
                {
                    "kind": c.cls.kind,
                    "fixed": codec.encode(c.fixed),
                    "field": vf,
                    "values": codec.encode(list(c.values())),
                    "label": c.label,
                }
            )
        return {
            "seat": self.seat,
            "prompt": self.prompt,
            "suggested": self.suggested.to_json() if self.suggested else None,
            "suggested_text": describe(self.suggested) if (describe and self.suggested) else None,
            "info": codec.encode(self.info),
            "choices": out,
        }
