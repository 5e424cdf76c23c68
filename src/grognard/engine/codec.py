"""Plain JSON values to typed Python values and back, driven by type annotations.

One codec serves state snapshots, decisions, saves and every data file. Decoding checks each value against
its annotation and raises :class:`DataError` naming the file, the key path and, for an unknown key or enum
name, the nearest valid one. Encoding is canonical: dataclass fields in declaration order, sets and dict keys
sorted, so that equal values give byte-identical JSON (what the digest relies on).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar, Union, get_args, get_origin

from .errors import DataError, nearest

T = TypeVar("T")

JSON = Any  # a value made of dict, list, str, int, float, bool and None


def encode(value: Any) -> JSON:
    """A JSON-ready value for ``value`` (dataclasses, enums, tuples, sets, dicts and scalars)."""
    cls = type(value)
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _kind(cls)
    if kind is _SCALAR:
        return value
    if kind is _ENUM:
        return value.value
    # a scalar inside a dataclass or a sequence is taken as it is, without a call (most of what is encoded: cells,
    # ids, counts)
    if kind is _DATACLASS:
        out = {}
        for name in _names(cls):
            v = getattr(value, name)
            out[name] = v if _KINDS.get(type(v)) is _SCALAR else encode(v)
        return out
    if kind is _SEQUENCE:
        return [v if _KINDS.get(type(v)) is _SCALAR else encode(v) for v in value]
    if kind is _SET:
        return sorted((encode(v) for v in value), key=_sort_key)
    if kind is _MAPPING:
        return {
            k if type(k) is str else str(encode(k)): v if _KINDS.get(type(v)) is _SCALAR else encode(v)
            for k, v in sorted(value.items(), key=_item_key)
        }
    raise TypeError(f"cannot encode {cls.__name__}")


# what :func:`encode` does with a value, by its class (worked out once a class: encoding a legal set or a state
# meets the same few classes hundreds of thousands of times, and each test of the chain costs a call)
_SCALAR, _ENUM, _DATACLASS, _SEQUENCE, _SET, _MAPPING, _NONE = "scalar", "enum", "dataclass", "seq", "set", "map", ""
_KINDS: dict[type, str] = {}


def _kind(cls: type) -> str:
    if issubclass(cls, enum.Enum):
        kind = _ENUM
    elif cls is type(None) or issubclass(cls, bool | int | str | float):
        kind = _SCALAR
    elif dataclasses.is_dataclass(cls):
        kind = _DATACLASS
    elif issubclass(cls, tuple | list):
        kind = _SEQUENCE
    elif issubclass(cls, frozenset | set):
        kind = _SET
    elif issubclass(cls, Mapping):
        kind = _MAPPING
    else:
        kind = _NONE
    _KINDS[cls] = kind
    return kind


def _item_key(item: tuple[Any, Any]) -> tuple[int, Any]:
    """A dictionary item's place: its key's sort key (a text key's kept one, found without the tests)."""
    found = _TEXT_KEYS.get(item[0]) if type(item[0]) is str else None
    return found if found is not None else _sort_key(item[0])


def _sort_key(v: Any) -> tuple[int, Any]:
    if isinstance(v, enum.Enum):
        v = v.value
    if isinstance(v, int | float) and not isinstance(v, bool):
        return (0, v)
    if type(v) is str:  # a dictionary's key: unit ids, field names, labels, the same few again and again
        found = _TEXT_KEYS.get(v)
        if found is None:
            if len(_TEXT_KEYS) >= TEXT_KEYS_KEPT:
                _TEXT_KEYS.clear()
            found = _TEXT_KEYS[v] = (1, json.dumps(v))
        return found
    return (1, json.dumps(v, sort_keys=True))


TEXT_KEYS_KEPT = 1 << 16  # the texts whose sort key is kept (a hundred bytes each at most, in practice)
_TEXT_KEYS: dict[str, tuple[int, str]] = {}


def dumps(value: Any, *, indent: int | None = None) -> str:
    """Canonical JSON text of ``value``."""
    return json.dumps(encode(value), ensure_ascii=False, indent=indent, separators=None if indent else (",", ":"))


_FIELDS: dict[type, tuple[dataclasses.Field[Any], ...]] = {}
_HINTS: dict[type, dict[str, Any]] = {}
_NAMES: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = tuple(f for f in dataclasses.fields(cls) if not f.name.startswith("_"))
    return found


def _names(cls: type) -> tuple[str, ...]:
    found = _NAMES.get(cls)
    if found is None:
        found = _NAMES[cls] = tuple(f.name for f in _fields(cls))
    return found


def _hints(cls: type) -> dict[str, Any]:
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = typing.get_type_hints(cls)
    return found


def decode(tp: Any, data: JSON, where: str = "<data>", key: str = "") -> Any:
    """Build a value of type ``tp`` from JSON ``data``; ``where`` and ``key`` name it in errors."""
    if tp is Any:
        return data
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return decode(arg, data, where, key)
            except DataError as e:
                errors.append(e.problem)
        raise DataError(where, key, "; ".join(errors) or "expected a value")
    if origin is typing.Literal:
        if data in get_args(tp):
            return data
        raise DataError(where, key, f"{data!r} is not allowed; " + nearest(str(data), map(str, get_args(tp))))
    if tp is type(None):
        if data is not None:
            raise DataError(where, key, f"expected null, found {data!r}")
        return None
    if tp is bool:
        if not isinstance(data, bool):
            raise DataError(where, key, f"expected true or false, found {data!r}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise DataError(where, key, f"expected a whole number, found {data!r}")
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise DataError(where, key, f"expected a number, found {data!r}")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise DataError(where, key, f"expected text, found {data!r}")
        return data
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        values = {m.value: m for m in tp}
        if data in values:
            return values[data]
        names = {m.name.lower(): m for m in tp}
        if isinstance(data, str) and data.lower() in names:
            return names[data.lower()]
        raise DataError(where, key, f"unknown {tp.__name__} {data!r}; " + nearest(str(data), map(str, values)))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _decode_dataclass(tp, data, where, key)
    if origin in (tuple, list, frozenset, set):
        if not isinstance(data, list):
            raise DataError(where, key, f"expected a list, found {type(data).__name__}")
        args = get_args(tp)
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(data) != len(args):
                raise DataError(where, key, f"expected {len(args)} items, found {len(data)}")
            return tuple(decode(a, v, where, f"{key}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True)))
        item = args[0] if args else Any
        items = [decode(item, v, where, f"{key}[{i}]") for i, v in enumerate(data)]
        return origin(items) if origin is not list else items
    if origin in (dict, Mapping) or tp is dict:
        if not isinstance(data, dict):
            raise DataError(where, key, f"expected a table of names, found {type(data).__name__}")
        kt, vt = get_args(tp) or (str, Any)
        out = {}
        for k, v in data.items():
            sub = f"{key}.{k}" if key else str(k)
            kk: Any = k
            if kt is int:
                try:
                    kk = int(k)
                except ValueError:
                    raise DataError(where, sub, "expected a whole-number key") from None
            elif isinstance(kt, type) and issubclass(kt, enum.Enum) and k in (keys := _enum_keys(kt)):
                kk = keys[k]  # JSON keys are text: an enum with number values was written as "1"
            else:
                kk = decode(kt, k, where, sub)
            out[kk] = decode(vt, v, where, sub)
        return out
    raise TypeError(f"cannot decode into {tp!r}")


def _enum_keys(tp: type[enum.Enum]) -> dict[str, enum.Enum]:
    """The members of an enum by the text :func:`encode` writes for them as dictionary keys."""
    return {str(m.value): m for m in tp}


def _decode_dataclass(cls: type[T], data: JSON, where: str, key: str) -> T:
    if not isinstance(data, dict):
        raise DataError(where, key, f"expected a table for {cls.__name__}, found {type(data).__name__}")
    fields = {f.name: f for f in _fields(cls)}
    unknown = [k for k in data if k not in fields]
    if unknown:
        k = unknown[0]
        raise DataError(where, f"{key}.{k}" if key else k, f"unknown key {k!r}; " + nearest(k, fields))
    hints = _hints(cls)
    kwargs = {}
    for name, f in fields.items():
        sub = f"{key}.{name}" if key else name
        if name in data:
            kwargs[name] = decode(hints[name], data[name], where, sub)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise DataError(where, sub, f"missing required key {name!r}")
    try:
        return cls(**kwargs)
    except (ValueError, TypeError) as e:  # a __post_init__ check of the dataclass itself
        raise DataError(where, key, str(e)) from None


def loads(tp: type[T], text: str, where: str) -> T:
    """Parse JSON text and decode it as ``tp``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(where, f"line {e.lineno} column {e.colno}", f"not valid JSON: {e.msg}") from None
    result: T = decode(tp, data, where)
    return result
