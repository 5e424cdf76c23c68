"""Air missions (§7.1) and airstrike resolution (§9.1)."""

from __future__ import annotations

from dataclasses import replace

from kursk_helpers import CTX, GRID, cell, group, position, step

from grognard.rulesets.kursk import air
from grognard.rulesets.kursk.state import KState

RIFLES = {"INF": 200, "45AT": 10}


def _rule(state: KState, side: str, strike: tuple[int, int, int]) -> str | None:
    found = air.refusal(CTX, state, side, strike)
    return None if found is None else found.rule


def test_airstrikes_only_on_am_turns_at_most_five_within_the_pool() -> None:
    """§7.1: "up to 5 airstrikes each AM turn"; AMB-8: none at night; the bombers and escorts available."""
    ger = group(1, "german", "10,10", {"PZ-IV": 10})
    state = position(ger, air=(("german", 10, 10), ("soviet", 10, 10)))
    target = cell("10,8")
    assert _rule(state, "german", (target, 2, 1)) is None
    assert _rule(replace(state, turn=2), "german", (target, 2, 1)) == "§7.1"
    assert _rule(state, "german", (target, 11, 0)) == "§7.1"
    assert _rule(state, "german", (target, 2, 11)) == "§7.1"
    full = replace(state, strikes=tuple(("german", target, 1, 0) for _ in range(5)))
    assert _rule(full, "german", (target, 1, 0)) == "§7.1"


def test_soviet_strikes_only_next_to_a_soviet_group() -> None:
    """§7.1: "Soviet airstrikes may only be directed against a hex that is adjacent to a Soviet CG"."""
    sov = group(64, "soviet", "10,10", RIFLES, mech=False)
    state = position(sov, air=(("german", 10, 10), ("soviet", 10, 10)))
    assert _rule(state, "soviet", (GRID.neighbor(cell("10,10"), 1), 5, 0)) is None
    assert _rule(state, "soviet", (cell("20,20"), 5, 0)) == "§7.1"


def test_half_the_cap_intercepts_and_fights_the_escort_first() -> None:
    """§9.1: interceptors = ½ of the CAP; min(interceptors, escorts) fight the escort, the rest the bombers."""
    sov = group(64, "soviet", "10,10", RIFLES, mech=False)
    state = position(sov, air=(("german", 30, 40), ("soviet", 80, 0)), strikes=(("german", cell("10,10"), 40, 30),))
    s = step(state)
    after = air.resolve(CTX, state, s)
    words = next(e.text for e in s.events if e.kind == "airstrike")
    assert "40 CAP intercept" in words
    chances = [e.data["why"] for e in s.events if e.kind == "roll"]
    assert chances.count("CAP against the escort") == 30 and chances.count("CAP against the bombers") == 10
    assert after.strikes == ()
    (g_f, g_b), (s_f, _) = air.pool(after, "german"), air.pool(after, "soviet")
    assert g_f <= 30 and g_b <= 40 and s_f <= 80  # losses are permanent


def test_unopposed_bombers_hit_twice_as_hard() -> None:
    """§9.1: with no CAP the bombers' effectiveness is x2.0; the bombs cause casualties and disruption."""
    sov = group(64, "soviet", "10,10", RIFLES, mech=False, mode="assault")
    state = position(sov, air=(("german", 0, 40), ("soviet", 0, 0)), strikes=(("german", cell("10,10"), 40, 0),))
    s = step(state)
    after = air.resolve(CTX, state, s)
    assert after.group(64).disruption > 0 and after.group(64).morale == 79
    assert "0 CAP intercept" in next(e.text for e in s.events if e.kind == "airstrike")
