"""La Grande Armée's computer general: what it chooses in small positions, that it repeats itself with the same
seed, that it decides from its seat's view only, and that every level plays every scenario to the end."""

from __future__ import annotations

import pytest

from grognard.ai import make_player, observe, play_out
from grognard.engine import Decision
from grognard.engine.game import new_game
from grognard.rulesets.grande_armee import GrandeArmee, play
from grognard.rulesets.grande_armee import decisions as D
from grognard.rulesets.grande_armee.campaign import Order
from grognard.rulesets.grande_armee.general import General
from grognard.rulesets.grande_armee.state import Phase

SCENARIOS = GrandeArmee.scenario_ids()


def ask(p, seat: str, general: General | None = None) -> Decision | None:
    """The general's decision for ``seat`` now: its own (choose) or a reaction (interject)."""
    general = general or General(3, 1)
    ctx = observe(p.game, seat)
    return general.choose(ctx) if p.game.turn().seat == seat else general.interject(ctx)


def run_phase(p, seat: str, limit: int = 200) -> list[Decision]:
    """The general's decisions through the rest of its phase (the enemy does not react)."""
    general = General(3, 1)
    out: list[Decision] = []
    phase = p.state.phase
    while p.game.turn().seat == seat and p.state.phase is phase and len(out) < limit:
        d = ask(p, seat, general)
        assert d is not None
        out.append(d)
        p.game.apply(seat, d)
    return out


def attacks_on(p, decisions: list[Decision], cell: str) -> list[Decision]:
    return [d for d in decisions if isinstance(d, D.Move) and d.to == p.cell(cell)]


# --- combat (§5.64) ---------------------------------------------------------------------------------------------
def test_attacks_a_weak_enemy_at_good_odds_with_its_leader(position):
    """§5.64: two infantry with Napoleon (+2) next to a lone Austrian militia attack it."""
    p = position(
        [
            ("FR-I1", "france", "infantry", "13,6"),
            ("FR-I2", "france", "infantry", "13,6"),
            ("Napoleon", "france", "hq", "13,6", {"bonus": 2}),
            ("AU-M1", "austria", "militia", "14,6", {"morale": 1}),
        ]
    )
    decisions = run_phase(p, "french")
    assert attacks_on(p, decisions, "14,6")
    assert p.unit("AU-M1").cell == -1 or p.unit("AU-M1").morale < 1


def test_does_not_attack_at_bad_odds(position):
    """§5.64: a weakened militia does not attack an Austrian guard (total modifier about -3: A3 A3 A2 A1 ...)."""
    p = position(
        [
            ("FR-M1", "france", "militia", "13,6", {"morale": 1}),
            ("AU-A1", "austria", "guard", "14,6"),
        ]
    )
    assert D.Move("FR-M1", p.cell("14,6")) in p.game.legal("french")
    assert not attacks_on(p, run_phase(p, "french"), "14,6")


def test_concentrates_with_its_leader_next_to_the_enemy_before_attacking(position):
    """§5.64 (leader in the attacker's area), §5.66 (every move before the first attack): infantry from two
    areas and Napoleon gather in one area next to an Austrian stack, then attack from it."""
    p = position(
        [
            ("FR-I1", "france", "infantry", "12,6"),
            ("FR-I2", "france", "infantry", "12,6"),
            ("FR-I3", "france", "infantry", "12,5"),
            ("Napoleon", "france", "hq", "12,6", {"bonus": 2}),
            ("AU-I1", "austria", "infantry", "14,6", {"morale": 2}),
        ]
    )
    decisions = run_phase(p, "french")
    attacks = attacks_on(p, decisions, "14,6")
    assert attacks
    first = decisions.index(attacks[0])
    where = {"FR-I1": p.cell("12,6"), "FR-I2": p.cell("12,6"), "FR-I3": p.cell("12,5"), "Napoleon": p.cell("12,6")}
    for d in decisions[:first]:  # where each stood when the first attack was made
        assert isinstance(d, D.Move) and d.to != p.cell("14,6")
        where[d.unit] = d.to
    assert p.cell("14,6") in p.ctx.board.neighbors[where["Napoleon"]]
    assert attacks[0].unit in where and where[attacks[0].unit] == where["Napoleon"]
    assert sum(where[u] == where["Napoleon"] for u in ("FR-I1", "FR-I2", "FR-I3")) >= 2


# --- cities and supply (§2.3, §3.6, §5.4) -------------------------------------------------------------------------
def test_garrisons_its_capital_when_the_enemy_is_near(position):
    """§3.6: the infantry in Paris garrisons it when an Austrian cavalry could reach it next season."""
    p = position([("FR-I1", "france", "infantry", "8,6"), ("AU-C1", "austria", "cavalry", "11,6")])
    decisions = run_phase(p, "french")
    assert D.Garrison("FR-I1") in decisions
    assert p.unit("FR-I1").cell == p.cell("8,6") and p.unit("FR-I1").garrison


def test_takes_an_empty_enemy_capital_within_reach(position):
    """§2.4, §5.2: a cavalry walks into undefended Vienna (an Allied capital and source of supply)."""
    p = position([("FR-C1", "france", "cavalry", "13,6"), ("AU-M1", "austria", "militia", "18,8")])
    run_phase(p, "french")
    assert p.state.control[p.cell("16,6")] == "french"


def test_does_not_end_its_move_out_of_supply(position):
    """§5.4: units do not end their move where they would be out of supply when the next turn begins."""
    p = position(
        [
            ("FR-I1", "france", "infantry", "13,6"),
            ("FR-I2", "france", "infantry", "12,6"),
            ("Napoleon", "france", "hq", "12,6", {"bonus": 2}),
            ("AU-I1", "austria", "infantry", "16,6"),
            ("AU-I2", "austria", "infantry", "15,4"),
        ]
    )
    run_phase(p, "french")
    areas = play.supplied_areas(p.ctx, p.state, "french")
    for uid in ("FR-I1", "FR-I2", "Napoleon"):
        assert p.unit(uid).cell in areas, uid


def test_holds_its_only_source_of_supply_against_a_superior_enemy(position):
    """§2.3, §5.4: Paris is the only French source of supply in 1815; with a Prussian army far too strong to hold
    it against within reach, the French units around it still go into it (as many as the tuning's
    ``vital_units``) rather than give it up for distant cities and starve everywhere."""
    p = position(
        [
            ("FR-I1", "france", "infantry", "9,6"),
            ("FR-I2", "france", "infantry", "9,6"),
            ("FR-I3", "france", "infantry", "8,5"),
            ("FR-C1", "france", "cavalry", "8,5"),
            *[(f"PR-I{i}", "prussia", "infantry", "10,5") for i in range(1, 9)],
            ("Blucher", "prussia", "hq", "10,5", {"bonus": 2}),
            ("AU-M1", "austria", "militia", "10,7", {"morale": 1}),  # a weak enemy to lure them away
        ],
        scenario="7_waterloo",
    )
    run_phase(p, "french")
    kept = [u.id for u in p.state.units if u.power == "france" and u.cell == p.cell("8,6")]
    assert len(kept) >= General(3, 1).cfg["march"]["vital_units"], kept


def test_stays_in_the_enemy_city_it_steps_into(position):
    """§2.4: a unit with moves left that walks into an empty enemy city after its planned march ends its move
    there to keep it, instead of going back where its order had it stand."""
    p = position([("FR-C1", "france", "cavalry", "8,5")], scenario="7_waterloo")
    general = General(3, 1)
    brussels = p.cell("9,5")
    assert p.state.control[brussels] == "allied"
    first = ask(p, "french", general)
    assert general.plan is not None
    general.plan.orders["FR-C1"] = Order("FR-C1", p.cell("8,5"), "march")  # the plan had it stand where it is
    if first is not None and first != D.Move("FR-C1", brussels):
        p.game.apply("french", first)
    phase = p.state.phase
    while p.game.turn().seat == "french" and p.state.phase is phase:
        d = ask(p, "french", general)
        assert d is not None
        p.game.apply("french", d)
    assert p.state.control[brussels] == "french"
    assert p.unit("FR-C1").cell == brussels


def test_prefers_to_end_in_a_city_before_winter(position):
    """§5.4: infantry musters +3 in a city and -2 in winter; a battered infantry unit with nothing to do ends its
    autumn move in the friendly city next to it rather than in the open."""
    p = position(
        [("FR-I1", "france", "infantry", "9,6", {"morale": 1}), ("AU-I1", "austria", "infantry", "16,6")],
        scenario="7_waterloo",
        season="autumn",
    )
    general = General(3, 1)
    _, pic = general._picture(observe(p.game, "french"))
    unit = pic.units["FR-I1"]
    assert pic.muster_loss(unit, p.cell("8,6")) < pic.muster_loss(unit, p.cell("9,6"))
    run_phase(p, "french")
    assert p.ctx.board.kind(p.unit("FR-I1").cell) in ("capital", "major", "minor")


# --- build and rally (§5.5) ---------------------------------------------------------------------------------------
def test_rallies_a_weakened_unit_at_the_front(position):
    """§5.5: with military points, a morale-1 infantry facing the enemy is rallied."""
    p = position(
        [("FR-I1", "france", "infantry", "13,6", {"morale": 1}), ("AU-I1", "austria", "infantry", "14,6")],
        phase=Phase.BUILD,
    )
    p.set(mp=(("france", 6), ("austria", 0), ("russia", 0), ("britain", 0)))
    assert ask(p, "french") == D.Rally("FR-I1")


def test_britain_gives_military_aid_to_an_ally_with_units_to_rally(position):
    """§5.5: Britain, with no units of its own here, gives its points to Austria."""
    p = position(
        [("AU-I1", "austria", "infantry", "14,6", {"morale": 1}), ("FR-I1", "france", "infantry", "13,6")],
        seat="allied",
        phase=Phase.BUILD,
    )
    p.set(mp=(("france", 0), ("austria", 0), ("russia", 0), ("britain", 3)))
    assert ask(p, "allied") == D.Aid("austria")


# --- reinforce and withdraw (§2.13, §5.65-5.67) ------------------------------------------------------------------
def test_withdraws_a_demoralised_unit_from_before_the_enemy(position):
    """§5.65: a demoralised cavalry (which does not rout, §3.3) next to an Austrian stack withdraws once the
    enemy has attacked (§5.66)."""
    p = position(
        [
            ("FR-C1", "france", "cavalry", "13,6", {"morale": 0}),
            ("AU-I1", "austria", "infantry", "14,6"),
            ("AU-I2", "austria", "infantry", "14,6"),
        ],
        seat="allied",
    )
    p.set(attacked=True)
    d = ask(p, "french")
    assert isinstance(d, D.Withdraw) and d.unit == "FR-C1"


def test_keeps_a_strong_unit_where_it_stands(position):
    """A full-strength guard next to the same stack stays (the rout and the lost area cost more)."""
    p = position(
        [("FR-A1", "france", "guard", "13,6"), ("AU-I1", "austria", "infantry", "14,6")],
        seat="allied",
    )
    p.set(attacked=True)
    assert not isinstance(ask(p, "french"), D.Withdraw)


def test_puts_its_best_unit_on_top_of_a_threatened_stack(position):
    """§3.5, §5.65: the unit on top meets the attack; a fresh guard goes on top of a weakened militia."""
    p = position(
        [
            ("FR-A1", "france", "guard", "13,6", {"stack": 1}),
            ("FR-M1", "france", "militia", "13,6", {"morale": 1, "stack": 2}),
            ("AU-I1", "austria", "infantry", "14,6"),
        ],
        seat="allied",
    )
    p.set(attacked=True)
    assert ask(p, "french") == D.SetTop("FR-A1")


def test_reinforces_its_empty_capital_next_to_the_enemy(position):
    """§2.13: an Austrian infantry outside the French zone of control moves into empty Vienna inside it."""
    p = position(
        [("AU-I1", "austria", "infantry", "17,6"), ("FR-I1", "france", "infantry", "15,6")],
    )
    p.set(attacked=True)
    assert ask(p, "allied") == D.Reinforce("AU-I1", p.cell("16,6"))


# --- what it knows ------------------------------------------------------------------------------------------------
def test_decides_the_same_whether_or_not_a_screened_enemy_unit_exists(position):
    """§3.5, fog: a unit under an enemy cavalry screen is not in the view (the stack shows no number), so the
    general decides the same with and without it, decision by decision, until the screen is destroyed and the
    unit comes into view."""
    base = [
        ("FR-I1", "france", "infantry", "12,6"),
        ("FR-I2", "france", "infantry", "12,6"),
        ("Napoleon", "france", "hq", "12,6", {"bonus": 2}),
        ("AU-M1", "austria", "militia", "14,7", {"morale": 1}),
        ("AU-C1", "austria", "cavalry", "16,5", {"stack": 9}),
    ]
    plain = position(base)
    hidden = position([*base, ("AU-I9", "austria", "infantry", "16,5", {"stack": 1})])
    assert "AU-I9" in hidden.rules.hidden_units(hidden.state, "french")
    generals = General(3, 1), General(3, 1)
    same = 0
    while plain.game.turn().seat == "french" and plain.state.phase is Phase.MOVE:
        views = [p.game.view("french")["state"] for p in (plain, hidden)]
        if views[0]["enemy"] != views[1]["enemy"] or views[0]["last_seen"] != views[1]["last_seen"]:
            break  # the screen is gone: the unit is in view now
        decisions = [ask(p, "french", g) for p, g in zip((plain, hidden), generals, strict=True)]
        assert decisions[0] == decisions[1]
        for p, d in zip((plain, hidden), decisions, strict=True):
            p.game.apply("french", d)
        same += 1
    assert same >= 10


def test_same_seed_same_decisions():
    """A game is its inputs: the general draws only on its own seed, so two games with the same seeds match
    decision by decision."""
    logs = []
    for _ in range(2):
        game = new_game(GrandeArmee, "2_prussias_turn", None, 5)
        players = {
            "french": make_player("general", GrandeArmee, 21),
            "allied": make_player("greedy", GrandeArmee, 22),
            "neutral": make_player("random", GrandeArmee, 23),
        }
        play_out(game, players)
        logs.append([(e.seat, e.decision) for e in game.entries()])
    assert logs[0] == logs[1]


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_plays_every_scenario_to_the_end_at_every_level(scenario, level):
    game = new_game(GrandeArmee, scenario, None, 3)
    players = {
        "french": make_player(f"general:{level}", GrandeArmee, 11),
        "allied": make_player(f"general:{level}", GrandeArmee, 12),
        "neutral": make_player("random", GrandeArmee, 13),
    }
    play_out(game, players)
    result = game.result()
    assert result is not None and set(result.levels) >= {"french", "allied"}


def test_the_generals_distance_fields_are_kept_in_a_size_that_does_not_grow_with_play(monkeypatch) -> None:
    """Issue 17 item 5: a cache whose size does not grow with play; a pure cache, so what it drops changes nothing
    (the same game, generals in every seat, with room for 2 fields and for the default)."""
    from grognard.ai import parse_players
    from grognard.rulesets.grande_armee import campaign

    digests = []
    for kept in (campaign.FIELDS_KEPT, 2):
        monkeypatch.setattr(campaign, "FIELDS_KEPT", kept)
        game = new_game(GrandeArmee, "1_austrian_challenge", seed=1)
        players = parse_players("general,general,general", GrandeArmee, GrandeArmee.seats, 1)
        play_out(game, players)
        assert all(len(p.fields) <= kept for p in players.values() if isinstance(p, General))
        digests.append(game.digest())
    assert digests[0] == digests[1]
