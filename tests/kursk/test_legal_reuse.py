"""The legal set the sequence works out after a decision (to know whether a part has work) is handed to the seat
that decides next, though storing the dice made a new state: the legal set reads no dice. Over random games, the
set handed out equals one worked out afresh (its suggestion included), and one worked out with other dice. The
families each legal set takes from earlier positions (``Families``: kept by their group and what else they read)
are compared with families worked out afresh too."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grognard.ai import make_player
from grognard.ai.driver import computer_decision
from grognard.engine import Game
from grognard.rulesets.kursk import Kursk
from grognard.rulesets.kursk import decisions as D


@pytest.mark.parametrize(("scenario", "seed"), [("first_day", 2), ("southern_pincer", 5)])
def test_the_legal_set_reused_after_a_decision_is_the_one_worked_out_afresh(scenario: str, seed: int) -> None:
    rules = Kursk(Kursk.load_scenario(scenario))
    fresh = Kursk(Kursk.load_scenario(scenario))
    game = Game(rules, seed)
    # greedy in one seat asks for the suggested plot; random in the other goes everywhere
    players = {"soviet": make_player("greedy", Kursk, seed), "german": make_player("random", Kursk, seed + 1)}
    compared = reused = 0
    while not game.over and compared < 400:
        due = computer_decision(game, players)
        assert due is not None
        seat = due[0]
        handed = game.legal(seat)
        fresh._legal_kept.kept.clear()
        fresh._families.clear()
        expected = fresh.legal(game.state, seat).to_json()
        assert handed.to_json() == expected, f"decision {compared + 1}: {seat}'s legal set"
        fresh._legal_kept.kept.clear()
        fresh._families.clear()
        other_dice = replace(game.state, rng=game.state.rng ^ 0x9E3779B9)
        assert fresh.legal(other_dice, seat).to_json() == expected, f"decision {compared + 1}: the dice read"
        game.apply(*due)
        compared += 1
        # the sequence asked for the next legal set inside apply, before the dice were stored: it is kept for the
        # state the game now holds, before any seat asks
        kept = rules._legal_kept.kept.get(game.turn().seat or "")
        reused += kept is not None and kept[0] is game.state
    assert compared >= 100 and reused >= compared // 4  # many decisions reused the sequence's legal set


def test_a_kept_family_is_taken_only_where_what_it_reads_is_the_same() -> None:
    """The same group, unchanged, in two positions of the road phase: on a road hex with no enemy near it may take
    road mode (§6.2), and once an enemy group stands next to it it may not, though its family was kept from the
    first position; in road mode, a hex filled by two friendly groups drops out of its road moves (§9.3)."""
    from kursk_helpers import GRID, RULES, group, position

    road = sorted(RULES.ctx.map.cell_features["road"])[0]
    g = group(1, "german", GRID.label(road), {"PZ-IV": 10})
    part = {"part": 6}  # the German modes and road movement phase
    alone = RULES.legal(position(g, **part), "german")
    assert "road" in alone.family(D.SetMode(1, "road")).values()  # type: ignore[union-attr]
    enemy = group(64, "soviet", GRID.label(GRID.neighbors(road)[0]), {"INF": 10}, mech=False)
    near = RULES.legal(position(g, enemy, **part), "german")
    assert "road" not in near.family(D.SetMode(1, "road")).values()  # type: ignore[union-attr]

    moving = replace(g, mode="road", supply=20)
    reach = RULES.legal(position(moving, **part), "german").family(D.RoadMove(1, road))
    assert reach is not None and reach.values()
    to = reach.values()[0]
    two = [group(i, "german", GRID.label(to), {"INF": 5}, mech=False) for i in (2, 3)]
    full = RULES.legal(position(moving, *two, **part), "german").family(D.RoadMove(1, road))
    assert full is not None and to not in full.values()
