"""``records.replace`` makes what ``dataclasses.replace`` makes, faster (issue 17: states are replaced per change)."""

from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field

import pytest

from grognard.engine import records
from grognard.engine.records import remaker, replace


@dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: str = "x"
    c: tuple[int, ...] = ()
    d: int = field(default=0, kw_only=True)


@dataclass(frozen=True)
class Checked:
    n: int

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("negative")


@dataclass
class Derived:
    a: int
    twice: int = field(init=False)
    scale: InitVar[int] = 2

    def __post_init__(self, scale: int) -> None:
        self.twice = self.a * scale


def test_replace_gives_the_object_dataclasses_replace_gives() -> None:
    p = Plain(1, "y", (2, 3), d=4)
    for changes in ({}, {"a": 5}, {"b": "z", "d": 7}, {"c": (), "a": 0, "b": "", "d": 1}):
        got = replace(p, **changes)
        assert got == dataclasses.replace(p, **changes) and got is not p
    assert replace(p, a=9).c is p.c  # fields not changed are the same objects


def test_replace_runs_the_class_checks_and_refuses_unknown_fields() -> None:
    assert replace(Checked(1), n=2) == Checked(2)
    with pytest.raises(ValueError, match="negative"):
        replace(Checked(1), n=-1)
    with pytest.raises(TypeError, match="no field e"):
        replace(Plain(1), e=2)


def test_replace_of_a_class_with_init_vars_or_derived_fields_follows_dataclasses_rules() -> None:
    d = Derived(3, scale=2)
    assert replace(d, a=4, scale=3).twice == 12
    with pytest.raises(ValueError):
        replace(d, twice=1)  # dataclasses refuses a field left out of __init__


@dataclass(frozen=True, slots=True)
class CheckedSlots:
    n: int

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("negative")


@dataclass(frozen=True, slots=True)
class Child(Plain):
    e: int = 0


def test_a_replaced_object_of_slots_is_whole_frozen_and_hashes_alike() -> None:
    # a class of slots without checks gets its slots set directly: the object must be what __init__ makes
    p = Child(1, "y", (2,), d=3, e=4)
    got = replace(p, a=2, e=5)
    assert (
        type(got) is Child
        and got == dataclasses.replace(p, a=2, e=5)
        and hash(got) == hash(Child(2, "y", (2,), d=3, e=5))
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.a = 3  # type: ignore[misc]
    assert replace(CheckedSlots(1), n=2) == CheckedSlots(2)
    with pytest.raises(ValueError, match="negative"):
        replace(CheckedSlots(1), n=-1)  # a class that checks after __init__ is made by it


def test_a_remaker_makes_what_replace_makes_for_its_fields() -> None:
    p = Child(1, "y", (2,), d=3, e=4)
    both = remaker(Child, ("e", "a"))
    assert both(p, 5, 2) == dataclasses.replace(p, a=2, e=5) and both(p, 5, 2).c is p.c
    assert remaker(Child, ("e", "a")) is both  # made once for the class and the fields
    assert remaker(CheckedSlots, ("n",))(CheckedSlots(1), 2) == CheckedSlots(2)
    with pytest.raises(ValueError, match="negative"):
        remaker(CheckedSlots, ("n",))(CheckedSlots(1), -1)
    with pytest.raises(TypeError, match="no field z"):
        remaker(Plain, ("a", "z"))


def test_past_the_limit_a_remaker_still_makes_the_same_object(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records, "_remakers", {})
    monkeypatch.setattr(records, "_changers", {})
    monkeypatch.setattr(records, "REMAKERS", 0)
    p = Plain(1, "y", (2,), d=4)
    assert remaker(Plain, ("b", "d"))(p, "z", 7) == dataclasses.replace(p, b="z", d=7)
    assert replace(p, c=(), a=0) == dataclasses.replace(p, c=(), a=0)
    assert records._remakers == {} and records._changers == {}
    with pytest.raises(TypeError, match="no field z"):
        replace(p, z=1)


def test_a_record_made_through_its_twin_is_of_its_class_frozen_and_whole() -> None:
    # Plain is made directly on object: its copies are made as a plain twin of its slots, then given its class
    p = Plain(1, "y", (2,), d=3)
    assert records._twin(Plain) is not None and records._twin(Child) is None  # Child's slots are partly Plain's
    got = remaker(Plain, ("b",))(p, "z")
    assert type(got) is Plain and got == Plain(1, "z", (2,), d=3) and hash(got) == hash(Plain(1, "z", (2,), d=3))
    assert [getattr(got, name) for name in Plain.__slots__] == [1, "z", (2,), 3]  # every slot set
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.a = 3  # type: ignore[misc]


def test_replace_reads_each_change_by_its_name_whatever_their_order() -> None:
    # one function per class and order of the changed fields, each reading the keyword dictionary by name
    p = Plain(1, "y", (2,), d=4)
    assert replace(p, b="z", d=7) == replace(p, d=7, b="z") == Plain(1, "z", (2,), d=7)
    assert (Plain, ("b", "d")) in records._changers and (Plain, ("d", "b")) in records._changers
    assert replace(p, d=8, b="w") == Plain(1, "w", (2,), d=8)  # the same function, other values
