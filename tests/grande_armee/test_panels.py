"""What each phase asks and shows the player, in the manual's words: the Build/Rally menu with each power's
military points and costs (§2.14, §3.3, §5.5), the attack odds a player can know (§5.64), the chance that a
reinforcement arrives (§5.67), the date, player turn and phase (§2.6-2.7, §5.1), and the public map the
browser draws (§2.2-2.3, §3.1, §7.0)."""

from __future__ import annotations

import json

from grognard.engine.game import new_game
from grognard.rulesets.grande_armee import GrandeArmee
from grognard.rulesets.grande_armee.state import Phase


def test_the_build_phase_names_each_powers_military_points_and_each_units_cost() -> None:
    """§2.14, §5.5: the BUILD option offers each available unit with its ID (§3.4) and cost (§3.3); the prompt
    names the military points of each of the player's powers in words."""
    game = new_game(GrandeArmee, "1_austrian_challenge", None, 3)
    assert game.turn().phase == "Summer 1805: French player turn, Phase IV: Build/Rally"
    legal = game.legal("french")
    assert legal.prompt == "Build and rally: France 8 MP"
    builds = legal.of_kind("build")
    assert [c.label for c in builds] == ["Militia FR-M1 (7 MP)", "Militia FR-M2 (7 MP)"]
    assert legal.info["mp"] == {"france": 8} and legal.info["build_cost"] == {"FR-M1": 7, "FR-M2": 7}
    paris = game.rules.ctx.board.map.place("Paris").cells[0]
    assert game.rules.describe(builds[0].make(paris)) == "build Militia FR-M1 in Paris (8,6)"


def test_the_rally_cost_is_read_from_the_table(position) -> None:
    """§5.5 INCREASE UNIT'S MORALE: 0 to 1 costs 4 MPs, 1 to 2 costs 3, 2 to 3 costs 2, 3 to 4 costs 1."""
    p = position(
        [
            ("FR-I1", "france", "infantry", "8,6", {"morale": 0}),
            ("FR-I2", "france", "infantry", "8,5", {"morale": 1}),
            ("FR-A1", "france", "guard", "9,5", {"morale": 3}),
        ],
        phase=Phase.BUILD,
    )
    p.set(mp=(("france", 20),))
    legal = p.game.legal("french")
    assert legal.info["rally_cost"] == {"FR-I1": 4, "FR-I2": 3, "FR-A1": 1}
    assert legal.prompt == "Build and rally: France 20 MP"


def test_the_attack_odds_count_only_what_the_attacker_knows(position) -> None:
    """§5.64: the attacker knows his unit's morale and fatigue, his HQ in its area, the river and the ground and
    the kind of the defending top unit (§3.5); the defender's morale, fatigue and HQ are not known to him, so
    they change nothing he is shown. The estimate is against a fresh defender at full morale."""
    p = position(
        [
            ("FR-I1", "france", "infantry", "12,6", {"fatigue": 1}),
            ("Napoleon", "france", "hq", "12,6", {"bonus": 2}),
            ("AU-I1", "austria", "infantry", "12,5", {"morale": 1, "fatigue": 2}),
            ("Charles", "austria", "hq", "12,5", {"bonus": 1}),
        ],
        control={"12,5": "allied"},
    )
    frankfurt = p.cell("12,5")
    odds = p.game.legal("french").info["attacks"]["FR-I1"][frankfurt]
    # morale +3, fatigue -1, Napoleon +2, across the Danube -1
    assert odds["mods"] == [["morale", 3], ["fatigue", -1], ["HQ", 2], ["across river", -1]]
    assert odds["known"] == 3
    assert odds["fresh"] == 3 - 3  # less a fresh infantry's full morale of 3
    assert odds["results"] == ["A3", "A2", "A1", "S1", "D1", "D2"]  # die 1..6 + 0 on the Combat Results Table
    assert odds["defender"] == {"type": "infantry", "power": "austria", "garrison": False}
    p.edit("AU-I1", morale=3, fatigue=0)
    p.set(units=tuple(u for u in p.state.units if u.id != "Charles"))
    assert p.game.legal("french").info["attacks"]["FR-I1"][frankfurt] == odds


def test_a_reinforcements_chance_to_arrive(position) -> None:
    """§5.67: a reinforcement arrives on a total of 6 or more (die + morale, -2 militia, +1 cavalry): full-morale
    infantry 4 in 6, guard 5 in 6, cavalry 4 in 6, militia 1 in 6."""
    p = position(
        [
            ("AU-I1", "austria", "infantry", "15,6"),
            ("AU-A1", "austria", "guard", "15,6"),
            ("AU-C1", "austria", "cavalry", "15,6"),
            ("AU-M1", "austria", "militia", "15,6"),
            ("FR-I1", "france", "infantry", "13,6"),
        ],
        control={"15,6": "allied", "14,6": "allied"},
    )
    p.set(attacked=True)
    legal = p.game.legal("allied")
    assert legal.prompt.startswith("The French player has attacked: you may reinforce, withdraw")
    assert legal.info["arrive_in_6"] == {"AU-I1": 4, "AU-A1": 5, "AU-C1": 4, "AU-M1": 1}


def test_the_public_map_carries_what_the_original_drew_and_no_unit() -> None:
    """§2.2-2.3, §3.1, §7.0: seas by name, the black arrows, each power's colours, the glossary's abbreviations,
    ports, and the scenario's prohibited areas (Russia from column 22 in scenario 1); nothing of any unit."""
    game = new_game(GrandeArmee, "1_austrian_challenge", None, 3)
    m = game.rules.map_json()
    legend = m["legend"]
    grid = game.rules.ctx.board.grid
    assert legend["seas"] == {
        "atlantic": "Atlantic Ocean",
        "baltic": "Baltic Sea",
        "mediterranean": "Mediterranean Sea",
        "north_sea": "North Sea",
    }
    assert [(grid.label(a["cell"]), a["label"]) for a in legend["arrows"]] == [("1,7", "To Gibr"), ("1,10", "To Atl")]
    assert legend["powers"]["prussia"] == {
        "name": "Prussia",
        "adjective": "Prussian",
        "background": ["#1a1a1a"],
        "foreground": "#ffffff",
        "border": "#ffffff",
    }  # §3.1: "black background with white foreground and borders"
    places = {p["name"]: p for p in m["places"]}
    assert places["Königsberg"]["short"] == "Konig" and places["Königsberg"]["port"] is True
    assert places["Paris"]["port"] is False and places["Paris"]["kind"] == "capital"
    assert grid.parse("22,3") in legend["prohibited"] and grid.parse("21,3") not in legend["prohibited"]
    assert legend["levels"]["AV"] == "Absolute Victory" and legend["phases"]["build_rally"] == "Phase IV: Build/Rally"
    assert legend["types"]["guard"] == {"name": "Guard/Artillery", "code": "A"}  # §3.3
    text = json.dumps(m, default=list)
    assert not any(u.id in text for u in game.state.units if u.id.startswith(("FR-", "AU-", "RU-")))


def test_decisions_in_words() -> None:
    """The words of each decision kind, as the page and the terminal show them."""
    game = new_game(GrandeArmee, "1_austrian_challenge", None, 3)
    codec = GrandeArmee.decisions()
    words = {
        "rally FR-I1": "rally Infantry FR-I1",
        "aid austria": "British military aid: 1 MP to Austria",
        "end_build": "end the Build/Rally phase",
        "garrison FR-I1": "FR-I1 ends its move and garrisons the city",
        "end_unit FR-I1": "END: FR-I1 moves no more this season",
        "end_movement": "end movement and combat",
        "set_top FR-C1": "put Cavalry FR-C1 on top",
    }
    for text, said in words.items():
        assert game.rules.describe(codec.parse(text)) == said
