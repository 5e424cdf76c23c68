"""The board's caches are bounded by bytes or by a size that does not grow with play (issue 17, item 5)."""

from __future__ import annotations

from grognard.ai import make_player
from grognard.ai.driver import computer_decision
from grognard.engine import Game
from grognard.engine.movement import reach
from grognard.rulesets.perfect_general import PerfectGeneral
from grognard.rulesets.perfect_general.board import ReachCache, _reach_bytes


def test_reach_cache_keeps_within_its_bytes_dropping_the_least_recently_used() -> None:
    costs = tuple(tuple((b, 2) for b in (a - 1, a + 1) if 0 <= b < 400) for a in range(400))  # a line of 400
    searches = [reach(costs, start, 6) for start in range(100, 105)]  # each reaches 7 locations
    size = _reach_bytes(searches[0])
    cache = ReachCache(3 * size)
    for i, r in enumerate(searches[:3]):
        cache.put(i, costs, r)
    assert cache.get(0, costs) is searches[0]  # 0 is now the most recently used: 1 is the oldest
    cache.put(3, costs, searches[3])
    assert len(cache) == 3 and cache.bytes <= 3 * size
    assert cache.get(1, costs) is None and cache.get(0, costs) is searches[0]
    assert cache.get(2, costs) is searches[2] and cache.get(3, costs) is searches[3]
    assert cache.get(3, (*costs[:-1], ())) is None  # another table under a reused id: not answered


def test_movement_searches_of_a_whole_game_stay_within_the_board_budget() -> None:
    cls = PerfectGeneral
    game = Game(cls(cls.load_scenario("lauter_offensive")), 4)
    players = {s: make_player("random", cls, 1) for s in cls.seats}
    board = game.rules.ctx.board  # type: ignore[attr-defined]
    most = 0
    for _ in range(600):
        due = computer_decision(game, players)
        if due is None:
            break
        game.apply(*due)
        most = max(most, board.reaches.bytes)
    assert 0 < most <= board.reaches.budget
    assert board.reaches.bytes == sum(_reach_bytes(r) for _, r, _ in board.reaches._entries.values())
