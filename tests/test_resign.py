"""Either seat may resign (issue 15, item 5): the game ends, the other side wins, and the resignation is a logged
decision that replays, saves and verifies like any other."""

from __future__ import annotations

import pytest

from grognard.engine import IllegalDecision, new_game
from grognard.engine.protocol import Resignation
from grognard.persistence.saves import check_save, load_game, save_document
from grognard.rulesets import game_ids, get
from toy import Toy

TWO_SIDED = [g for g in game_ids() if len(get(g).seats) == 2]


@pytest.mark.parametrize("game_id", TWO_SIDED)
def test_either_seat_may_resign_and_the_other_wins(game_id: str) -> None:
    cls = get(game_id)
    for seat in cls.seats:
        game = new_game(cls, cls.scenario_ids()[0], seed=3)
        other = next(s for s in cls.seats if s != seat)
        events = game.apply(seat, Resignation())  # whoever has the turn: a seat resigns at any moment
        assert game.over and game.turn().seat is None
        result = game.result()
        assert result is not None and result.winner == other
        assert result.levels[seat] == "resigned" and result.levels[other] == "won by resignation"
        assert [e.kind for e in events] == ["resigned"] and seat.capitalize() in events[0].text
        assert game.events[-1] is events[0]
        assert game.decisions_json()[-1]["decision"] == {"kind": "resign"}
        with pytest.raises(IllegalDecision, match="over"):
            game.apply(other, Resignation())
        assert not game.can_undo(seat)


def test_la_grande_armee_french_or_allied_resign_the_neutral_player_may_not() -> None:
    cls = get("grande_armee")
    game = new_game(cls, cls.scenario_ids()[0], seed=3)
    with pytest.raises(IllegalDecision, match="neutral player cannot resign"):
        game.apply("neutral", Resignation())
    assert not game.over and game.log == []
    game.apply("allied", Resignation())
    result = game.result()
    assert result is not None and result.winner == "french" and "Allied" in result.summary


def test_a_resignation_mid_game_is_saved_reloaded_and_verified() -> None:
    game = new_game(Toy, "skirmish", seed=5)
    for _ in range(3):
        seat = game.turn().seat
        assert seat is not None
        game.apply(seat, next(iter(game.legal(seat))))
    resigner = next(s for s in Toy.seats if s != game.turn().seat)
    game.apply(resigner, Resignation())
    doc = save_document(game)
    assert doc["result"]["winner"] != resigner
    for replay in (False, True):
        again = load_game(doc, replay=replay)
        assert again.over and again.resigned == resigner
        assert again.result() == game.result() and again.digest() == game.digest()
    assert check_save(doc).ok


def test_the_terminal_resigns_after_asking_and_prints_the_end(monkeypatch, capsys) -> None:
    import argparse

    from grognard.cli.terminal import play_in_terminal

    typed = iter(["resign", "no", "resign", "yes"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    args = argparse.Namespace(game="perfect_general", scenario="simple_little_war", seed=5, players=None, save=None)
    assert play_in_terminal(args, {}) == 0
    out = capsys.readouterr().out
    assert "Attacker resigned. Defender wins." in out
