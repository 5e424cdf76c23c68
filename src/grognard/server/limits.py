"""Every size a client controls, bounded, and the one reader of a client's JSON (HTTP bodies and websocket
messages alike): anything outside the bounds is refused with a reason before it reaches a game or the store.

A JSON document is checked as it is parsed (integers by their digits, floats for being finite, nesting before
Python's recursion limit) and then walked once for the rest (strings: length and no lone surrogates, which
could not be written out again as UTF-8; lists and objects: length; depth).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .sessions import Refused

MAX_NAME = 64  # characters: a game, scenario, map, seat or option name, a game id
MAX_TOKEN = 200  # characters: a seat token (the server's are 24)


@dataclass(frozen=True, slots=True)
class Bounds:
    """The bounds of one kind of client input."""

    body: int  # bytes of the whole request body or websocket message
    depth: int  # nesting of arrays and objects
    string: int  # characters of one string (or object key)
    items: int  # entries of one array or object
    integer: int  # |n| < integer


# a request's integers fit SQLite's INTEGER (a seed); a save's snapshot holds the generator's 64-bit states
MESSAGE = Bounds(body=16 * 1024, depth=16, string=4096, items=1024, integer=2**63)
# a whole Antietam battle saves to about 6 MB; the lobby sends a save's text as one string, so a string may be
# as long as the body
SAVE = Bounds(body=16 * 1024 * 1024, depth=32, string=16 * 1024 * 1024, items=1_000_000, integer=2**64)
WS_FRAME = 1024 * 1024  # bytes: a larger websocket frame closes the connection (1009); up to it, MESSAGE applies


def _int(bound: int) -> Callable[[str], int]:
    digits = len(str(bound))

    def parse(text: str) -> int:
        if len(text.lstrip("-")) > digits or not -bound < int(text) < bound:
            raise Refused(f"a number is out of range (less than {bound} in size): {text[:24]}")
        return int(text)

    return parse


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Refused(f"a number is out of range: {text[:24]}")
    return value


def _constant(name: str) -> Any:
    raise Refused(f"{name} is not JSON")


def parse(data: bytes | str, bounds: Bounds = MESSAGE, what: str = "the request") -> Any:
    """``data`` as JSON within ``bounds``, or a :class:`Refused` (400, 413 for the size) saying why."""
    if len(data) > bounds.body:
        raise Refused(f"{what} is too large (at most {bounds.body} bytes)", 413)
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(f"{what} is not UTF-8 text") from None
    # no deeper than its brackets are many: most messages have a few, and are not walked character by character
    if data.count("[") + data.count("{") > bounds.depth and _nesting(data) > bounds.depth:
        raise Refused(f"{what} is nested too deeply (at most {bounds.depth} levels)")
    try:
        value = json.loads(data, parse_int=_int(bounds.integer), parse_float=_float, parse_constant=_constant)
    except (json.JSONDecodeError, RecursionError):
        raise Refused(f"{what} is not valid JSON") from None
    check(value, bounds, what)
    return value


def _nesting(text: str) -> int:
    """The deepest nesting of brackets outside strings (counted before parsing, which would recurse)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def check(value: Any, bounds: Bounds, what: str = "the request") -> None:
    """Strings, arrays and objects of a parsed value within ``bounds`` (iteratively: no recursion)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            _string(v, bounds, what)
        elif isinstance(v, list):
            if len(v) > bounds.items:
                raise Refused(f"{what} has a list of more than {bounds.items} entries")
            stack.extend(v)
        elif isinstance(v, dict):
            if len(v) > bounds.items:
                raise Refused(f"{what} has an object of more than {bounds.items} entries")
            for k in v:
                _string(k, bounds, what)
            stack.extend(v.values())


def _string(s: str, bounds: Bounds, what: str) -> None:
    if len(s) > bounds.string:
        raise Refused(f"{what} has a string longer than {bounds.string} characters")
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(f"{what} has a string with a lone surrogate (not text)") from None


def name(value: Any, what: str) -> str:
    """A name a client sends (game, scenario, map, player): a string of at most :data:`MAX_NAME` characters."""
    if not isinstance(value, str) or not value or len(value) > MAX_NAME:
        raise Refused(f"{what} is a name of 1 to {MAX_NAME} characters, not {str(value)[:MAX_NAME]!r}")
    return value
