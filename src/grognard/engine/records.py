"""``replace`` for the frozen dataclasses that states are made of, without reading the class's fields each call.

``dataclasses.replace`` looks up the class's fields and builds a keyword dictionary on every call; a ruleset
replaces a unit or a state for nearly every change it makes, and that lookup was up to a tenth of a random
game's time. This makes, once per class and set of changed fields, a function that makes the same object
``dataclasses.replace`` makes: for a class of slots that checks nothing after ``__init__`` (no
``__post_init__``), a new object whose slots it sets from every field (the changed ones from the values given),
half the time of calling ``__init__``; else a call of the class's own ``__init__`` with every field.

A frozen class's slots can only be set through calls (its ``__setattr__`` refuses), a call a field. A class of
slots made directly on ``object`` has a twin here, a plain class of the same slots: the copy is made as a twin, its
slots set by plain attribute stores (which Python runs without a call), and then given the frozen class (Python
allows ``__class__`` to change between two classes of the same layout); the object is the same, in a third of the
time (an Antietam unit of 17 fields 0.82 → 0.28 µs).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_makers: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}
_remakers: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}
_changers: dict[tuple[type, tuple[str, ...]], Callable[[Any, dict[str, Any]], Any]] = {}
REMAKERS = 1024  # remakers (and changers) kept, one per class and set of changed fields: as many as the call sites


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance ``obj`` with ``changes``, as ``dataclasses.replace(obj, **changes)``."""
    change = _changers.get((type(obj), tuple(changes)))
    if change is None:
        change = _changer(type(obj), tuple(changes))
    out: T = change(obj, changes)  # the keyword dictionary itself: unpacking its values was a third of the call
    return out


def _changer(cls: type, changing: tuple[str, ...]) -> Callable[[Any, dict[str, Any]], Any]:
    """The function (record, changes) that ``replace`` calls for ``cls`` and the fields ``changing`` (in that
    order), made once (at most ``REMAKERS`` are kept; any other set goes through one function made for the
    class, which reads every field from the dictionary or the record)."""
    if len(_changers) >= REMAKERS:
        maker = _makers.get(cls)
        if maker is None:
            maker = _makers[cls] = _maker(cls, None)
        return maker
    change = _changers[cls, changing] = _maker(cls, changing, given=True)
    return change


def remaker(cls: type[T], changing: tuple[str, ...]) -> Callable[..., T]:
    """A function (record, *values) making ``replace(record, **dict(zip(changing, values)))``, made once for the
    class and the fields it changes (at most ``REMAKERS`` are kept; any other set goes through one function made
    for the class, which reads the changes from a dictionary)."""
    remake = _remakers.get((cls, changing))
    if remake is not None:
        return remake
    if len(_remakers) >= REMAKERS:
        maker = _makers.get(cls)
        if maker is None:
            maker = _makers[cls] = _maker(cls, None)
        general = maker
        return lambda obj, *values: general(obj, dict(zip(changing, values, strict=True)))
    remake = _remakers[cls, changing] = _maker(cls, changing)
    return remake


def _maker(cls: type, changing: tuple[str, ...] | None, given: bool = False) -> Callable[..., Any]:
    """The function that makes a copy of a ``cls`` record: (obj, *values) for the fields ``changing``, or (obj,
    changes) with the changes in a dictionary: those fields' values when ``given``, any fields when ``changing``
    is None."""
    fields = dataclasses.fields(cls)
    names = frozenset(f.name for f in fields)
    if len(fields) != len(cls.__dataclass_fields__) or not all(f.init for f in fields):  # type: ignore[attr-defined]
        # InitVar or ClassVar pseudo-fields, or fields left out of __init__: dataclasses' own rules apply
        if changing is None or given:
            return lambda obj, changes: dataclasses.replace(obj, **changes)
        return lambda obj, *values: dataclasses.replace(obj, **dict(zip(changing, values, strict=True)))
    if changing is not None and not set(changing) <= names:
        raise TypeError(f"{cls.__name__} has no field {sorted(set(changing) - names)[0]}")
    if changing is None:
        head = (
            "def make(obj, changes):\n"
            "    if not changes.keys() <= names:\n"
            "        raise TypeError(f'{cls.__name__} has no field {sorted(changes.keys() - names)[0]}')\n"
            "    get = changes.get\n"
        )
        value = {f.name: f"get({f.name!r}, obj.{f.name})" for f in fields}
    else:
        if given:  # the values read from the dictionary of the changes, by their names
            head = "def make(obj, changes):\n"
            read = {name: f"changes[{name!r}]" for name in changing}
        else:
            head = f"def make(obj{''.join(f', _{i}' for i in range(len(changing)))}):\n"
            read = {name: f"_{i}" for i, name in enumerate(changing)}
        value = {f.name: read.get(f.name, f"obj.{f.name}") for f in fields}
    slots = [_slot(cls, f.name) for f in fields]
    space: dict[str, Any] = {"cls": cls, "names": names, "new": object.__new__}
    plain = getattr(cls, "__post_init__", None) is None and all(slots)  # slots only, nothing checked after __init__
    twin = _twin(cls) if plain else None
    if twin is not None:
        # a class of slots that checks nothing after __init__, of the same layout as its twin: the object is made
        # as a twin, whose slots are set by plain attribute stores (no call each), then given its class
        sets = "".join(f"    out.{f.name} = {value[f.name]}\n" for f in fields)
        source = f"{head}    out = new(twin)\n{sets}    out.__class__ = cls\n    return out\n"
        space["twin"] = twin
    elif plain:
        # the same for a class of slots a twin cannot stand for (slots in a base class): the new object's slots
        # are set directly (the object __init__ would make, without its call and its keyword or frozen-field
        # handling)
        sets = "".join(f"    set{i}(out, {value[f.name]})\n" for i, f in enumerate(fields))
        source = f"{head}    out = new(cls)\n{sets}    return out\n"
        space.update({f"set{i}": slot.__set__ for i, slot in enumerate(slots) if slot is not None})
    else:
        # positional where the class allows it: cheaper for __init__ to take than keywords
        args = ", ".join(f"{f.name + '=' if f.kw_only else ''}{value[f.name]}" for f in fields)
        source = f"{head}    return cls({args})\n"
    exec(source, space)
    made: Callable[..., Any] = space["make"]
    return made


def _slot(cls: type, name: str) -> Any:
    """The slot that holds field ``name`` of instances of ``cls`` (None if it is not in a slot)."""
    for klass in cls.__mro__:
        found = klass.__dict__.get(name)
        if found is not None:
            return found if isinstance(found, types.MemberDescriptorType) else None
    return None


_twins: dict[type, type | None] = {}


def _twin(cls: type) -> type | None:
    """A class with the slots of ``cls`` and nothing else (no frozen ``__setattr__``), whose objects can be given
    the class ``cls`` once their slots are set; None when Python refuses (``cls`` not made directly on ``object``
    with its slots only, so the two layouts differ)."""
    if cls in _twins:
        return _twins[cls]
    twin = type(f"_{cls.__name__}Twin", (), {"__slots__": cls.__dict__.get("__slots__", ())})
    try:
        probe: Any = object.__new__(twin)
        probe.__class__ = cls
    except TypeError:
        _twins[cls] = None
        return None
    _twins[cls] = twin
    return twin
