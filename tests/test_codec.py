"""The codec: typed values to canonical JSON and back, and errors that say where and what (GUIDE habit 7)."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grognard.engine import codec
from grognard.engine.errors import DataError, nearest


class Arm(enum.Enum):
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"


class Level(enum.Enum):
    """An enum with number values, as a ruleset writes elevation levels or directions."""

    LOW = 1
    HIGH = 2


class Facing(enum.IntEnum):
    N = 1
    NE = 2
    E = 3


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    arm: Arm
    strength: int
    cell: int | None = None
    tags: frozenset[str] = frozenset()
    path: tuple[int, ...] = ()
    formation: Literal["line", "column"] = "line"


@dataclass(frozen=True, slots=True)
class Side:
    name: str
    units: tuple[Unit, ...]
    supply: dict[str, int] = field(default_factory=dict)
    losses: dict[int, int] = field(default_factory=dict)
    heights: dict[Level, int] = field(default_factory=dict)
    facings: dict[Facing, Arm] = field(default_factory=dict)
    arms: dict[Arm, tuple[int, str]] = field(default_factory=dict)
    levels: frozenset[Level] = frozenset()
    morale: float = 1.0
    note: Any = None


text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6)
units = st.builds(
    Unit,
    text,
    st.sampled_from(Arm),
    st.integers(-(2**40), 2**40),
    st.none() | st.integers(0, 2000),
    st.frozensets(text, max_size=4),
    st.lists(st.integers(0, 2000), max_size=5).map(tuple),
    st.sampled_from(["line", "column"]),
)
sides = st.builds(
    Side,
    text,
    st.lists(units, max_size=4).map(tuple),
    st.dictionaries(text, st.integers(), max_size=4),
    st.dictionaries(st.integers(-50, 50), st.integers(), max_size=4),
    st.dictionaries(st.sampled_from(Level), st.integers(), max_size=2),
    st.dictionaries(st.sampled_from(Facing), st.sampled_from(Arm), max_size=3),
    st.dictionaries(st.sampled_from(Arm), st.tuples(st.integers(), text), max_size=3),
    st.frozensets(st.sampled_from(Level)),
    st.floats(allow_nan=False, allow_infinity=False),
    st.none() | st.integers() | text | st.lists(st.integers(), max_size=3),
)


@given(sides)
def test_values_round_trip_through_canonical_json(side):
    text_form = codec.dumps(side)
    back = codec.loads(Side, text_form, "side.json")
    assert back == side
    assert codec.dumps(back) == text_form


@given(sides)
def test_equal_values_give_the_same_bytes_whatever_the_order_they_were_built_in(side):
    shuffled = Side(
        side.name,
        side.units,
        dict(reversed(side.supply.items())),
        dict(reversed(side.losses.items())),
        dict(reversed(side.heights.items())),
        dict(reversed(side.facings.items())),
        dict(reversed(side.arms.items())),
        frozenset(reversed(sorted(side.levels, key=lambda x: x.value))),
        side.morale,
        side.note,
    )
    assert codec.dumps(shuffled) == codec.dumps(side)


def test_canonical_form_is_compact_ordered_and_readable():
    side = Side("Union", (Unit("1/2", Arm.CAVALRY, 3, tags=frozenset({"b", "a"})),), {"b": 1, "a": 2}, {10: 1, 2: 0})
    data = json.loads(codec.dumps(side))
    assert list(data) == ["name", "units", "supply", "losses", "heights", "facings", "arms", "levels", "morale", "note"]
    assert data["units"][0]["arm"] == "cavalry" and data["units"][0]["tags"] == ["a", "b"]
    assert list(data["supply"]) == ["a", "b"] and list(data["losses"]) == ["2", "10"]  # numbers in number order
    assert " " not in codec.dumps(side).replace("1/2", "")
    assert codec.dumps(side, indent=2).count("\n") > 10


def test_text_keys_go_in_the_order_of_their_json_text_whether_their_sort_keys_are_kept_or_not():
    """The digest's order of dictionary keys is that of each key's JSON text ("a!" before "a": '"a!"' < '"a"';
    "\u00e9" escaped before the small letters), not of the raw text, with the codec's kept sort keys as without."""
    keyed = {"a": 1, "a!": 2, "b": 3, "\u00e9": 4, "A": 5}
    want = ["A", "\u00e9", "a!", "a", "b"]
    codec._TEXT_KEYS.clear()
    assert list(codec.encode(keyed)) == want  # the keys' texts worked out
    assert list(codec.encode(keyed)) == want  # and kept
    assert want == sorted(keyed, key=json.dumps) != sorted(keyed)


def test_enums_whose_values_are_numbers_or_text_are_written_as_values_inside_sequences_and_records():
    """The encoder takes a scalar inside a sequence or a dataclass as it is: an ``IntEnum`` is an int and a
    ``StrEnum`` a str, yet each is written as its value (an enum first), not as the member."""

    class Mark(enum.StrEnum):
        X = "x"

    value = Unit("u", Arm.CAVALRY, Facing.NE, path=(Facing.E, 4))  # int fields given IntEnum members
    encoded = codec.encode([value, (Facing.N, Mark.X, True, None, "s", 1.5)])
    assert encoded[0]["strength"] == 2 and encoded[0]["path"] == [3, 4]
    assert encoded[1] == [1, "x", True, None, "s", 1.5]
    assert [type(encoded[0]["strength"]), type(encoded[0]["path"][0]), *map(type, encoded[1][:2])] == [
        int,
        int,
        int,
        str,
    ]


def test_dictionaries_keyed_by_number_valued_enums_round_trip():
    # JSON keys are text; {Level.LOW: 3} is written {"1": 3} and must read back as Level.LOW
    side = Side("x", (), heights={Level.LOW: 3, Level.HIGH: 4}, facings={Facing.NE: Arm.INFANTRY})
    assert codec.decode(Side, json.loads(codec.dumps(side))) == side


def test_enum_values_and_names_are_both_read():
    assert codec.decode(Arm, "cavalry") == Arm.CAVALRY
    assert codec.decode(Arm, "CAVALRY") == Arm.CAVALRY
    assert codec.decode(Level, 2) == Level.HIGH
    assert codec.decode(dict[Arm, int], {"artillery": 1}) == {Arm.ARTILLERY: 1}


# --- errors: the file, the key path, the nearest valid name ------------------------------------------------


def error(tp: Any, data: Any, where: str = "oob/union.json") -> DataError:
    with pytest.raises(DataError) as info:
        codec.decode(tp, data, where)
    return info.value


def unit_json(**changes: Any) -> dict[str, Any]:
    return {"id": "u1", "arm": "infantry", "strength": 500, **changes}


def test_an_unknown_key_names_the_file_the_path_and_the_nearest_key():
    e = error(Side, {"name": "Union", "units": [unit_json(), unit_json(strenght=4)]})
    assert e.where == "oob/union.json" and e.key == "units[1].strenght"
    assert "did you mean 'strength'?" in str(e)
    assert str(e).startswith("oob/union.json: units[1].strenght: unknown key 'strenght'")


def test_an_unknown_enum_value_names_the_nearest_member():
    e = error(Side, {"name": "Union", "units": [unit_json(arm="cavalery")]})
    assert e.key == "units[0].arm" and "unknown Arm 'cavalery'" in str(e) and "did you mean 'cavalry'?" in str(e)
    assert "valid: 'artillery', 'cavalry', 'infantry'" in str(error(Arm, "zzz"))


def test_a_value_of_the_wrong_type_says_what_was_expected():
    assert "expected a whole number, found '5'" in str(error(Unit, unit_json(strength="5")))
    assert "expected a whole number, found True" in str(error(Unit, unit_json(strength=True)))
    assert "expected a list, found str" in str(error(Unit, unit_json(path="1,2")))
    assert "expected a table for Unit, found list" in str(error(Unit, []))
    assert "expected text, found 3" in str(error(Unit, unit_json(id=3)))
    assert error(Unit, unit_json(path=[1, "x"])).key == "path[1]"


def test_a_missing_key_is_named():
    e = error(Unit, {"id": "u1", "arm": "infantry"})
    assert e.key == "strength" and "missing required key 'strength'" in str(e)


def test_literals_tuples_and_dictionary_keys_are_checked():
    assert "'colum' is not allowed; did you mean 'column'?" in str(error(Unit, unit_json(formation="colum")))
    e = error(Side, {"name": "x", "units": [], "arms": {"cavalry": [1]}})
    assert e.key == "arms.cavalry" and "expected 2 items, found 1" in str(e)
    e = error(Side, {"name": "x", "units": [], "losses": {"two": 1}})
    assert e.key == "losses.two" and "whole-number key" in str(e)
    assert error(dict[int, int], {"x": 1}).key == "x"  # a top-level table: no leading dot
    assert error(dict[str, int], {"a": "b"}).key == "a"


def test_invalid_json_text_names_the_line_and_column():
    with pytest.raises(DataError, match=r"^side\.json: line 2 column 1: not valid JSON"):
        codec.loads(Side, '{"name": "x",\n}', "side.json")


def test_nearest_lists_the_valid_names_when_none_is_close():
    assert nearest("cavalry", ["cavalry", "infantry"]) == "did you mean 'cavalry'?"
    assert nearest("zzz", [f"n{i:02}" for i in range(20)]).endswith("'n11', ...")


def test_values_the_codec_does_not_know_are_refused():
    with pytest.raises(TypeError, match="cannot encode"):
        codec.encode(object())
