"""The manual's four historical situations as scenarios (§IA2.2 and the contents' "Historical Situation Maps"
1-4): each loads at its hour with the forces where the reference (c)-(d) puts them, every unit on a legal
square, the casualties already taken counted, and random play reaches the end of the day."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from grognard import rulesets
from grognard.rulesets.antietam import Antietam
from grognard.rulesets.antietam.phases import phase_names
from grognard.rulesets.antietam.scenario import SCENARIO_DIR, read_scenario
from grognard.testing.conformance import run_conformance

SITUATIONS = {  # id: (first turn, the phase it starts in, the clock)
    "2_hooker": (1, "union_operations_1", "06:00"),
    "3_xii_corps": (2, "union_operations_2", "07:00"),
    "4_ii_corps": (4, "union_operations_1", "09:00"),
    "5_ix_corps": (8, "union_operations_1", "13:00"),
}


def test_the_five_scenarios_are_listed() -> None:
    info = rulesets.get("antietam").describe_game()
    assert [s["id"] for s in info["scenarios"]] == ["1_full_battle", *SITUATIONS]
    for s in info["scenarios"][1:]:
        assert len(s["description"]) > 400, s["id"]  # a history and its aftermath


@pytest.mark.parametrize("sid", SITUATIONS)
def test_situation_starts_at_its_hour_with_every_unit_on_a_legal_square(sid: str) -> None:
    """Land only (§IA7.5: no stream or river square), stacking of §B3.5/§IA7.7 (two infantry or cavalry and one
    artillery unit; one unit in a town, ford or bridge square), one side to a square; the first decision is the
    Union's operation phase of the situation's hour."""
    game = Antietam(read_scenario(SCENARIO_DIR / f"{sid}.json"))
    state = game.initial_state(1)
    turn, phase, hour = SITUATIONS[sid]
    assert (state.turn, phase_names(game.ctx)[state.part]) == (turn, phase)
    assert hour in game.turn(state).phase
    board = game.ctx.board
    stacks: defaultdict[int, list[int]] = defaultdict(list)
    for i, u in enumerate(state.units):
        if u.cell >= 0:
            stacks[u.cell].append(i)
    for cell, here in stacks.items():
        where = f"{sid} {board.label(cell)}"
        assert board.map.terrain[cell] not in ("stream", "river"), where
        kinds = Counter(board.spec(i).artillery for i in here)
        assert kinds[False] <= 2 and kinds[True] <= 1, where
        if board.map.terrain[cell] in ("town", "ford", "bridge"):
            assert len(here) == 1, where
        assert len({board.side(i) for i in here}) == 1, where


def test_casualties_already_taken_count_for_victory() -> None:
    """§IA10.1: points for the enemy's casualties; a later start carries those of the morning (the reference's
    (d) phase totals: Cornfield U 4,350 / C 4,200 by 09:00) as men lost, so the 5,000-casualty test and the score
    see them."""
    game = Antietam(read_scenario(SCENARIO_DIR / "4_ii_corps.json"))
    state = game.initial_state(1)
    union_men, confederate_men = state.losses[0], state.losses[3]
    assert 4_000 < union_men < 4_800 and 3_800 < confederate_men < 4_600
    board = game.ctx.board
    lost = sum(board.spec(i).strength - u.strength for i, u in enumerate(state.units) if board.side(i) == "union")
    assert lost == sum(state.losses[:3])


@pytest.mark.parametrize("sid", SITUATIONS)
def test_situation_conformance(sid: str) -> None:
    run_conformance(Antietam, sid, seed=5, max_decisions=20_000)
