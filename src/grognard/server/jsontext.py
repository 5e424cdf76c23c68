"""The server's JSON texts, by encoders made once: ``json.dumps`` with any argument makes a new encoder at every
call (1-2 us), and a seat's message encodes some 25 pieces, most of them a few bytes (the server's fifteenth pass).
The texts are ``json.dumps``'s own, byte for byte."""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any


def _no_default(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _encoder(sort_keys: bool) -> Callable[[Any, int], Any] | None:
    # no check for cycles (``json.dumps``'s ``check_circular``): what the server sends is plain data, and a cycle
    # would end in RecursionError instead of ValueError
    if c_make_encoder is None:  # an interpreter without the json module's C part
        return None
    made: Callable[[Any, int], Any] = c_make_encoder(
        None, _no_default, encode_basestring_ascii, None, ":", ",", sort_keys, False, True
    )
    return made


_CANONICAL = _encoder(True)
_COMPACT = _encoder(False)


def canonical(value: Any) -> str:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"))``: equal data, equal text."""
    if _CANONICAL is None:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    return "".join(_CANONICAL(value, 0))


def compact(value: Any) -> str:
    """``json.dumps(value, separators=(",", ":"))``: the keys in their own order."""
    if _COMPACT is None:
        return json.dumps(value, separators=(",", ":"))
    return "".join(_COMPACT(value, 0))
