"""The die tables as played: each rule rolled many times with a fixed seed, the share of each result within a
stated tolerance of the manual's odds (a fair die read on the table at the modifier the rules give)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from grognard.rulesets.grande_armee import play

N = 3000
TOLERANCE = 0.03  # about four standard deviations of a 1/6 share over 3,000 tries


def _odds(read, modifier: int) -> dict[object, Fraction]:
    """The manual's odds of each result: the six faces of the die plus ``modifier``, read on the table."""
    out: Counter[object] = Counter(read(face + modifier) for face in range(1, 7))
    return {k: Fraction(v, 6) for k, v in out.items()}


def _close(seen: Counter, expected: dict[object, Fraction]) -> None:
    total = sum(seen.values())
    assert set(seen) <= set(expected), (seen, expected)
    for result, chance in expected.items():
        assert abs(seen[result] / total - float(chance)) < TOLERANCE, (result, seen, expected)


def test_muster_odds(position) -> None:
    """§5.4: a militia (morale 2) in a forest in winter musters at 2 - 1 - 2 = -1: M2 on 1-3, M1 on 4-5, M0 on 6."""
    p = position([("FR-M1", "france", "militia", "10,5")], season="winter")
    assert play.muster_modifier(p.ctx, p.state, p.unit("FR-M1")) == -1
    step = p.step(31)
    seen: Counter[object] = Counter()
    for _ in range(N):
        seen[2 - play.supply_and_muster(p.ctx, p.state, step).unit("FR-M1").morale] += 1
    expected = _odds(p.ctx.tables.muster.read, -1)
    assert expected == {2: Fraction(1, 2), 1: Fraction(1, 3), 0: Fraction(1, 6)}
    _close(seen, expected)


def test_long_march_odds(position) -> None:
    """§5.62: a rested unit in summer: F2, F1 and F0 a third of the time each."""
    p = position([("FR-I1", "france", "infantry", "8,6", {"moves": 1})])
    step = p.step(32)
    seen: Counter[object] = Counter()
    for _ in range(N):
        seen[play.move(p.ctx, p.state, step, "FR-I1", p.cell("9,6")).unit("FR-I1").fatigue] += 1
    _close(seen, _odds(p.ctx.tables.long_march.read, 0))


def test_combat_odds_at_zero_and_plus_two(position) -> None:
    """§5.64: at +0 each of A3 A2 A1 S1 D1 D2 comes once in six, D3 never; at +2 (Napoleon's HQ) the totals 3-8
    read A1 S1 D1 D2 D3 D3."""
    for modifier, extra in ((0, []), (2, [("Napoleon", "france", "hq", "14,6", {"bonus": 2})])):
        p = position([("FR-A1", "france", "guard", "14,6"), ("AU-A1", "austria", "guard", "15,6"), *extra])
        assert play.combat_modifier(p.ctx, p.state, p.unit("FR-A1"), p.unit("AU-A1"))[0] == modifier
        step = p.step(33)
        seen: Counter[object] = Counter()
        for _ in range(N):
            after = play.attack(p.ctx, p.state, step, "FR-A1", p.cell("15,6"))
            seen[(4 - after.unit("FR-A1").morale, 4 - after.unit("AU-A1").morale)] += 1
        _close(
            seen,
            _odds(
                lambda total, t=p.ctx.tables: (t.combat_attacker.read(total), t.combat_defender.read(total)), modifier
            ),
        )


def test_rout_odds(position) -> None:
    """§5.67: an infantry unit (morale 3) withdrawing over a river rolls at +3 - 2: M2 on a 1, M1 on 2-3, M0 on 4-6."""
    p = position([("FR-I1", "france", "infantry", "11,5")])
    step = p.step(34)
    seen: Counter[object] = Counter()
    for _ in range(N):
        seen[3 - play.withdraw(p.ctx, p.state, step, "FR-I1", p.cell("12,5")).unit("FR-I1").morale] += 1
    expected = _odds(p.ctx.tables.rout.read, 1)
    assert expected == {2: Fraction(1, 6), 1: Fraction(1, 3), 0: Fraction(1, 2)}
    _close(seen, expected)


def test_siege_odds(position) -> None:
    """§5.7 SIEGE TABLE, the die alone: M5 once in six, M4 and M3 twice, M2 once; a guard garrison (morale 4)
    cut off from supply is destroyed on M5."""
    p = position(
        [
            ("AU-A1", "austria", "guard", "17,6", {"supplied": False, "garrison": True}),
            ("FR-I1", "france", "infantry", "16,6"),
        ],
        seat="allied",
        control={"16,6": "french"},
    )
    step = p.step(35)
    seen: Counter[object] = Counter()
    for _ in range(N):
        after = play.destroy_unsupplied(p.ctx, p.state, step).unit("AU-A1")
        seen[5 if after.cell == -1 else 4 - after.morale] += 1
    _close(seen, _odds(p.ctx.tables.siege.read, 0))
