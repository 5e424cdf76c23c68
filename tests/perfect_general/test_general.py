"""The computer general: what it chooses in small positions, that it sees only its seat's view, and that every
level plays a whole game with legal decisions only."""

from __future__ import annotations

from pathlib import Path

import pytest

from grognard.ai import PlayerContext, make_player, play_out
from grognard.engine import Game
from grognard.engine.game import new_game
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.general import General
from grognard.rulesets.perfect_general.scenario import read_scenario
from grognard.rulesets.perfect_general.state import Phase

FIELD = Path(__file__).parent / "field.json"


def decide(game: Game, seat: str, level: int = 1) -> D.Decision:
    ctx = PlayerContext(seat, lambda: game.view(seat), game.legal(seat), game.rules)
    return General(3, level).choose(ctx)


def test_fires_first_at_the_target_with_the_best_odds(field):
    f = field(
        [
            ("attacker", "medium_tank", "2,10"),
            ("defender", "infantry", "2,6", {"spotted": True, "fired": True}),
            ("defender", "infantry", "2,8", {"spotted": True, "fired": True}),
        ]
    )
    chances = f.legal("attacker").info["chances"]["a1"]
    assert chances["d2"] > chances["d1"]
    assert decide(f.game, "attacker") == D.Fire("a1", "d2")


def test_with_equal_odds_fires_at_the_more_valuable_unit(field):
    f = field(
        [
            ("attacker", "medium_tank", "2,10"),
            ("defender", "infantry", "2,8", {"spotted": True, "fired": True}),
            ("defender", "heavy_tank", "4,9", {"spotted": True, "fired": True}),
        ]
    )
    chances = f.legal("attacker").info["chances"]["a1"]
    assert chances["d1"] == chances["d2"]
    assert decide(f.game, "attacker") == D.Fire("a1", "d2")


def test_returns_fire_at_the_shooter(field):
    f = field(
        [
            ("attacker", "medium_tank", "2,10", {"spotted": True}),
            ("attacker", "infantry", "6,10", {"spotted": True, "fired": True}),
            ("defender", "medium_tank", "2,8", {"spotted": True}),
        ],
        side="defender",
    )
    f.apply("defender", D.Fire("d1", "a1"))
    assert decide(f.game, "attacker") == D.ReturnFire("a1", "d1")


def test_takes_passing_fire_at_a_tank_crossing_its_sights(field):
    f = field(
        [("attacker", "medium_tank", "2,10"), ("defender", "medium_tank", "2,6")],
        phase=Phase.MOVEMENT,
    )
    f.apply("attacker", D.Move("a1", f.cell("2,8")))
    assert f.state.offer is not None and f.state.offer.kind == "passing"
    assert decide(f.game, "defender") == D.PassingFire("a1", "d1")


def test_takes_a_free_undefended_town(field):
    f = field([("attacker", "armored_car", "13,3"), ("defender", "infantry", "2,1")], phase=Phase.MOVEMENT)
    d = decide(f.game, "attacker")
    assert isinstance(d, D.Move) and d.unit == "a1"
    assert f.grid.label(d.to) in ("9,3", "10,3")


def test_a_garrison_holds_its_town(field):
    f = field(
        [("defender", "infantry", "9,3"), ("attacker", "medium_tank", "2,10")], phase=Phase.MOVEMENT, side="defender"
    )
    assert decide(f.game, "defender") == D.EndMovement()


def test_assaults_with_good_odds(field):
    f = field(
        [("attacker", "heavy_tank", "6,10"), ("defender", "infantry", "6,8", {"spotted": True})],
        phase=Phase.MOVEMENT,
    )
    assert decide(f.game, "attacker") == D.Assault("a1", f.cell("6,8"))


def test_does_not_assault_with_bad_odds(field):
    f = field(
        [("attacker", "armored_car", "6,10"), ("defender", "heavy_tank", "6,8", {"spotted": True})],
        phase=Phase.MOVEMENT,
    )
    assert D.Assault("a1", f.cell("6,8")) in f.legal("attacker")
    assert not isinstance(decide(f.game, "attacker"), D.Assault)


def test_buys_within_its_points_a_mix_of_types():
    game = new_game(PerfectGeneral, "simple_little_war", None, 5)
    general = make_player("general", PerfectGeneral, 5)
    while game.state.phase is Phase.PURCHASE and game.state.side == "attacker":
        game.apply(
            "attacker",
            general.choose(PlayerContext("attacker", game.view("attacker"), game.legal("attacker"), game.rules)),
        )
    pool = game.state.side_state("attacker").pool
    tables = game.rules.ctx.tables
    assert sum(tables.units[t].cost for t in pool) <= 150
    assert sum(tables.units[t].cost for t in pool) >= 140  # it does not leave much unspent
    kinds = set(pool)
    assert {"infantry", "medium_tank", "bazooka"} <= kinds
    assert any(tables.units[t].indirect_range for t in kinds)  # some artillery


@pytest.mark.parametrize("phase", [Phase.FIRST_FIRE, Phase.MOVEMENT, Phase.ARTILLERY_PLOT])
def test_decides_the_same_whether_or_not_a_hidden_enemy_is_there(field, phase):
    units = [
        ("attacker", "medium_tank", "5,8"),
        ("attacker", "infantry", "9,8"),
        ("attacker", "light_artillery", "2,10"),
        ("defender", "medium_tank", "6,6", {"spotted": True}),
    ]
    hidden = ("defender", "heavy_tank", "3,2")  # in the woods, never seen
    seen = field(units, phase=phase, view="limited")
    unseen = field([*units, hidden], phase=phase, view="limited")
    assert unseen.rules.hidden_units(unseen.state, "attacker") == {"d2"}
    first = [decide(seen.game, "attacker", level) for level in (0, 1, 2)]
    second = [decide(unseen.game, "attacker", level) for level in (0, 1, 2)]
    assert first == second


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_each_level_plays_a_whole_game_with_legal_decisions(level):
    rules = PerfectGeneral(read_scenario(FIELD))
    for seat in PerfectGeneral.seats:
        game = Game(rules, 11)
        players = {
            s: make_player(f"general:{level}" if s == seat else "random", PerfectGeneral, 11) for s in rules.seats
        }
        play_out(game, players, max_decisions=5000)  # Game.apply raises on any illegal decision
        assert game.result() is not None


def test_the_same_seed_plays_the_same_game():
    digests = []
    for _ in range(2):
        game = Game(PerfectGeneral(read_scenario(FIELD)), 4)
        players = {s: make_player("general", PerfectGeneral, 4 + i) for i, s in enumerate(PerfectGeneral.seats)}
        play_out(game, players)
        digests.append(game.digest())
    assert digests[0] == digests[1]


def test_levels_by_name_and_number():
    assert make_player("general", PerfectGeneral).level == 1
    assert make_player("general:hard", PerfectGeneral).level == 2
    assert make_player("general:0", PerfectGeneral).level == 0
