"""What the server reads from a client is JSON within bounds (server/limits.py): nesting is counted before
parsing, outside strings."""

from __future__ import annotations

import pytest

from grognard.server.limits import MESSAGE, parse
from grognard.server.sessions import Refused


def nested(depth: int) -> str:
    return "[" * (depth - 1) + '{"a":1}' + "]" * (depth - 1)


def test_a_message_nested_as_deep_as_the_bound_is_read_and_one_level_deeper_is_refused() -> None:
    assert parse(nested(MESSAGE.depth)) is not None
    with pytest.raises(Refused, match="nested too deeply"):
        parse(nested(MESSAGE.depth + 1))


def test_brackets_inside_strings_are_not_nesting() -> None:
    text = '{"type":"chat","text":"' + "[{" * (2 * MESSAGE.depth) + '"}'
    assert parse(text)["text"] == "[{" * (2 * MESSAGE.depth)


def test_many_brackets_side_by_side_are_not_deep() -> None:
    text = "[" + ",".join(["[1]"] * (3 * MESSAGE.depth)) + "]"
    assert len(parse(text)) == 3 * MESSAGE.depth
