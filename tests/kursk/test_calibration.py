"""The calibrated combat readings (§8.0, §8.2, AMB-9) and the balance of §11 at the start (docs/rules/kursk.md,
"History")."""

from __future__ import annotations

from fractions import Fraction

from kursk_helpers import CTX, RULES, group

from grognard.engine import Step
from grognard.rulesets.kursk import combat
from grognard.rulesets.kursk.tables import frac
from grognard.rulesets.kursk.victory import level, points


def test_the_casualty_scale_and_random_factor_of_8_0() -> None:
    """§8.0, AMB-9: casualties = A / DS x K x R with K = 1/10 and R 50-150 % (kept after calibration)."""
    f = CTX.tables["combat"]["formula"]
    assert frac(f["k"]) == Fraction(1, 10) and f["random_percent"] == [50, 150]


def test_soft_disruption_of_8_2_is_d_times_attack_per_target() -> None:
    """§8.2 "ATTACK STRENGTH/TOTAL TARGETS", AMB-9: D = 10 points a unit of attack strength per target, its own
    constant (not 100 K), whatever the casualties rolled."""
    d = CTX.tables["combat"]["disruption"]
    assert frac(d["soft_scale"]) == 10
    rifles = group(64, "soviet", "10,10", {"INF": 100}, mech=False)
    for seed in range(1, 6):
        s = Step(seed)
        out = combat.resolve(CTX, s, (Fraction(0), Fraction(500)), [rifles], {64: Fraction(1)}, "test")
        assert out.disruption == 10 * 500 // 100  # 500 attack on 100 soft targets
        assert 8 <= out.losses[64]["INF"] <= 26  # 500 / 3 x 1/10 x 50-150 %, a last roll on the fraction


def test_the_start_is_a_soviet_substantive_victory_by_the_points_of_11_1() -> None:
    """§11.1, §11.2: towns 70,000 Soviet against 25,000 German (Belgorod) and every surviving weapon's AS + DS,
    the Soviet's reinforcements included, make the start a Soviet substantive victory: the German must destroy
    weapons faster than he loses his own, or take towns, to do better."""
    start = RULES.initial_state(1)
    towns = CTX.tables["victory"]["towns"]
    held = {side: sum(int(towns[t]) for t, s in start.control if s == side) for side in ("german", "soviet")}
    assert held == {"german": 25000, "soviet": 70000}
    vp = points(CTX, start)
    assert vp["soviet"] - vp["german"] == 100451
    assert level(CTX, vp["soviet"] - vp["german"]) == "Soviet Substantive"
