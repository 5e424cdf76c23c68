"""``replace`` for the frozen dataclasses that states are made of, without reading the class's fields each call.

``dataclasses.replace`` looks up the class's fields and builds a keyword dictionary on every call; a ruleset
replaces a unit or a state for nearly every change it makes, and that lookup was up to a tenth of a random
game's time. This makes, once per class, a function that calls the class's own ``__init__`` with every field
(the changed ones from ``changes``), so the result is the same object ``dataclasses.replace`` makes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_makers: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance ``obj`` with ``changes``, as ``dataclasses.replace(obj, **changes)``."""
    cls = type(obj)
    maker = _makers.get(cls)
    if maker is None:
        maker = _makers[cls] = _maker(cls)
    out: T = maker(obj, changes)
    return out


def _maker(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    fields = dataclasses.fields(cls)
    if len(fields) != len(cls.__dataclass_fields__) or not all(f.init for f in fields):  # type: ignore[attr-defined]
        # InitVar or ClassVar pseudo-fields, or fields left out of __init__: dataclasses' own rules apply
        return lambda obj, changes: dataclasses.replace(obj, **changes)
    names = frozenset(f.name for f in fields)
    # positional where the class allows it: cheaper for __init__ to take than keywords
    args = ", ".join(f"{f.name + '=' if f.kw_only else ''}get({f.name!r}, obj.{f.name})" for f in fields)
    source = (
        "def make(obj, changes):\n"
        "    if not changes.keys() <= names:\n"
        "        raise TypeError(f'{cls.__name__} has no field {sorted(changes.keys() - names)[0]}')\n"
        "    get = changes.get\n"
        f"    return cls({args})\n"
    )
    space: dict[str, Any] = {"cls": cls, "names": names}
    exec(source, space)
    made: Callable[[Any, dict[str, Any]], Any] = space["make"]
    return made
