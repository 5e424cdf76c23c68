"""The tactical plot's syntax and legality (§6.4-6.7, §5.4), each refusal naming the rule it breaks."""

from __future__ import annotations

import pytest
from kursk_helpers import CTX, group

from grognard.engine import IllegalDecision
from grognard.rulesets.kursk.plots import Parsed, parse, refusal

TANKS = {"PZ-IV": 20, "INF": 20}


@pytest.mark.parametrize(
    ("text", "meaning"),
    [
        ("0321", Parsed("move", (0, 3, 2, 1))),  # §6.4
        ("0003", Parsed("move", (0, 0, 0, 3))),  # §6.4
        ("111S", Parsed("move", (1, 1, 1), True)),  # §6.5
        ("2322S", Parsed("move", (2, 3, 2, 2))),  # §6.5: read as 2322
        ("11S4", Parsed("move", (1, 1), True)),  # §6.5: what follows S is ignored
        ("B12", Parsed("bombard", (1, 2))),  # §6.6
        ("B3", Parsed("bombard", (3,))),  # §6.6
        ("R4", Parsed("recon", (4,))),  # §6.7
    ],
)
def test_the_manuals_example_plots_read_as_sections_6_4_to_6_7_say(text: str, meaning: Parsed) -> None:
    assert parse(CTX, text) == meaning


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("", "§6.4"),
        ("07", "§6.4"),
        ("1x", "§6.4"),
        ("S", "§6.5"),
        ("10S", "§6.5"),
        ("B", "§6.6"),
        ("B123", "§6.6"),
        ("B7", "§6.6"),
        ("R", "§6.7"),
        ("R12", "§6.7"),
    ],
)
def test_malformed_plots_are_refused_by_the_syntax_rule(text: str, rule: str) -> None:
    found = parse(CTX, text)
    assert isinstance(found, IllegalDecision) and found.rule == rule


def _refusal(text: str, **kw: object) -> str | None:
    g = group(1, "german", "10,10", kw.pop("weapons", TANKS), **kw)  # type: ignore[arg-type]
    found = refusal(CTX, g, text)
    return None if found is None else found.rule


def test_mode_allowances_of_6_4() -> None:
    """Mechanized: assault 1 hex in any segment, mobile 4; infantry: assault 1, mobile 2, segments 1-2 only."""
    assert _refusal("0003", mode="assault") is None
    assert _refusal("0011", mode="assault") == "§6.4"
    assert _refusal("1234", mode="mobile") is None
    assert _refusal("12", mode="mobile", mech=False) is None
    assert _refusal("123", mode="mobile", mech=False) == "§6.4"
    assert _refusal("003", mode="mobile", mech=False) == "§6.4"  # infantry move in segments 1 and 2 only
    assert _refusal("1", mode="static") == "§6.4"  # only assault and mobile groups move by plot
    assert _refusal("R1", mode="road") == "§6.7"  # road mode plots nothing (AMB-7)


def test_an_unsupplied_group_neither_moves_nor_bombards_but_may_recon() -> None:
    """§5.4: "Unsupplied CGs may not move or perform any fire missions except defensive fire"."""
    assert _refusal("1", supply=0) == "§5.4"
    assert _refusal("B1", mode="static", supply=0, weapons={"150FH": 6}) == "§5.4"
    assert _refusal("R1", supply=0) is None


def test_bombardment_needs_static_field_howitzers_and_a_target_1_or_2_hexes_away() -> None:
    """§6.6."""
    fh = {"150FH": 6, "INF": 10}
    assert _refusal("B12", mode="static", weapons=fh) is None
    assert _refusal("B14", mode="static", weapons=fh) == "§6.6"  # back to its own hex
    assert _refusal("B1", mode="static", weapons={"105H": 6}) == "§6.6"  # H, not FH
    assert _refusal("B1", mode="assault", weapons=fh) == "§6.6"


def test_a_plot_may_not_leave_the_map() -> None:
    g = group(1, "german", "0,0", TANKS, mode="mobile")
    found = refusal(CTX, g, "1")
    assert found is not None and found.rule == "§6.4"
