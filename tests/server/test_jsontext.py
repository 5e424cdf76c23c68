"""The server's encoders made once give ``json.dumps``'s own texts, byte for byte (the tag is a digest of them and
the store keeps them)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from grognard.server.jsontext import canonical, compact

VALUES: list[Any] = [
    None,
    True,
    0,
    -7,
    2.5,
    float("inf"),
    "",
    'Lauter \u00e9t\u00e9 \u2014 \U0001f600 "quoted" \\ \n',
    [],
    {},
    [1, "a", None, [True, {"b": 2, "a": 1}]],
    {"z": 1, "a": [1, 2, {"y": None, "x": "é"}], "m": {"k": False, "c": 1.0}},
    {3: "int key", 1: "one"},
    ("a", "tuple"),
]


@pytest.mark.parametrize("value", VALUES)
def test_texts_are_json_dumps_own(value: Any) -> None:
    assert canonical(value) == json.dumps(value, sort_keys=True, separators=(",", ":"))
    assert compact(value) == json.dumps(value, separators=(",", ":"))


def test_compact_keeps_the_keys_order_and_canonical_sorts_them() -> None:
    value = {"b": 1, "a": {"d": 2, "c": 3}}
    assert compact(value) == '{"b":1,"a":{"d":2,"c":3}}'
    assert canonical(value) == '{"a":{"c":3,"d":2},"b":1}'


def test_what_json_cannot_encode_is_refused() -> None:
    with pytest.raises(TypeError):
        canonical({"a": object()})
    with pytest.raises(TypeError):
        compact([{1, 2}])
