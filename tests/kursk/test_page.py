"""What the page (web/rulesets/kursk.js) reads from the view and the events: the segment markers its replay
steps by (§9.0), the plots a group's mode allows (§6.2-6.7), and no enemy group named to a seat (§4.5)."""

from __future__ import annotations

from dataclasses import replace

from kursk_helpers import CTX, GRID, RULES, group, position, step

from grognard.engine import Turn
from grognard.engine.events import visible_to
from grognard.rulesets.kursk.execute import execute
from grognard.rulesets.kursk.view import build_view


def test_both_sides_see_the_eight_half_segments_in_the_order_of_9_0() -> None:
    """§9.0: segment 1 German, segment 1 Soviet, ... segment 4 Soviet; every turn has all eight."""
    state = position(group(1, "german", "10,10", {"PZ-IV": 10}))
    s = step(state)
    execute(CTX, state, s)
    for seat in ("german", "soviet"):
        marks = [(e.data["segment"], e.data["side"]) for e in s.events if e.kind == "segment" and visible_to(e, seat)]
        assert marks == [(n, side) for n in (1, 2, 3, 4) for side in ("german", "soviet")]


def test_a_groups_view_gives_the_plots_of_its_mode_and_its_hexes_a_turn() -> None:
    """§6.4-6.7: static bombards and recons, assault and mobile move and recon, road mode does not plot;
    mechanized in mobile mode 4 hexes, infantry 2 (the page's composer offers what these allow)."""
    groups = [
        group(1, "german", "10,10", {"PZ-IV": 10}, mode="mobile"),
        group(2, "german", "12,10", {"INF": 10}, mech=False, mode="mobile"),
        group(3, "german", "14,10", {"105FH": 10}, mode="static"),
        group(4, "german", "16,10", {"INF": 10}, mode="road"),
    ]
    view = build_view(CTX, position(*groups), "german", Turn("german"))
    seen = {g["id"]: (g["may_plot"], g["move"]) for g in view["groups"]}
    assert seen[1] == (["move", "recon"], 4) and seen[2] == (["move", "recon"], 2)
    assert seen[3][0] == ["bombard", "recon"] and seen[4][0] == []


def test_the_minefield_clearing_roll_does_not_name_the_german_group_to_the_soviet() -> None:
    """§4.5: the Soviet sees an enemy group's symbol, never its ID or designation; the clearing roll (§9.4) is
    seen by both sides, so its words name the side only."""
    mine = min(CTX.map.cell_features["minefield"])
    ger = group(1, "german", GRID.label(mine), {"ENGR": 10, "PZ-IV": 10})
    state = replace(position(ger), plots=((1, "0"),))
    s = step(state)
    execute(CTX, state, s)
    rolls = [e for e in s.events if e.kind == "roll" and "minefield" in e.text and visible_to(e, "soviet")]
    assert rolls and all(ger.label() not in e.text and "GROUP 1" not in str(e.to_json()) for e in rolls)
    assert RULES.hidden_units(state, "soviet") == {"CG1"}


def test_a_combats_roll_that_names_a_weapon_is_seen_by_its_owner_only() -> None:
    """§9.2: a side learns the weapons of enemy groups only by recon (counts), so the roll deciding whether a last
    weapon is lost, which names it, is logged for the weapon's owner alone; a whole first day, generals on both
    sides (random play hardly assaults)."""
    from grognard.ai import parse_players, play_out
    from grognard.engine import new_game
    from grognard.rulesets.kursk import Kursk

    game = new_game(Kursk, "first_day", seed=3)
    play_out(game, parse_players("general,general", Kursk, Kursk.seats, 3))
    named = [e for e in game.events if e.kind == "roll" and ": a last " in e.text]
    assert named, "the game had no such roll: choose another seed"
    assert all(e.seen_by is not None and len(e.seen_by) == 1 for e in named)
    assert {e.seen_by for e in named} == {("german",), ("soviet",)}  # both sides lost weapons so
