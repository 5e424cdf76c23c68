"""The computers' workers (server/computers.py): which question a worker answers first, and a worker that ends."""

from __future__ import annotations

import asyncio
import os

from grognard.server.computers import ComputerPool, _frame, _Questions


def _questions(*asked: tuple[bool, str, str]) -> list[tuple[str, str]]:
    """The (game, operation) of each question, in the order a worker answers them, when ``asked`` (urgent, game,
    operation) are all in its pipe before it chooses."""
    read, write = os.pipe()
    for seq, (urgent, game, op) in enumerate(asked):
        os.write(write, _frame(((0 if urgent else 1, seq), game, op, (game,))))
    os.close(write)
    questions = _Questions(read)
    answered = []
    while (q := questions.next()) is not None:
        answered.append((q[2][0], q[1]))
    os.close(read)
    return answered


def test_a_reaction_a_person_waits_for_is_answered_before_other_games_questions() -> None:
    order = _questions((False, "a", "next"), (False, "b", "next"), (True, "c", "next"))
    assert order == [("c", "next"), ("a", "next"), ("b", "next")]


def test_a_games_questions_keep_their_order_even_behind_a_later_urgent_one() -> None:
    """A snapshot asked before a reaction of the same game is taken first: the replica must be where the
    snapshot's position says when the reaction is asked (a game's questions carry the decisions since the last)."""
    order = _questions((False, "a", "snapshot"), (False, "b", "next"), (True, "a", "next"))
    assert order == [("a", "snapshot"), ("a", "next"), ("b", "next")]


def test_the_questions_after_a_worker_ended_go_to_a_new_one(tmp_path) -> None:
    async def play() -> None:
        pool = ComputerPool(str(tmp_path / "none.db"), 1)
        try:
            assert await pool._put("g", "forget", ("g",), wait=True) is None
            worker = pool._workers[0]
            assert worker.proc is not None
            first = worker.proc.pid
            worker.proc.kill()
            await worker.proc.wait()
            for _ in range(100):  # the worker's end is read from its pipe
                if worker.proc is None:
                    break
                await asyncio.sleep(0.05)
            assert await pool._put("g", "forget", ("g",), wait=True) is None
            assert worker.proc is not None and worker.proc.pid != first
        finally:
            await pool.close()

    asyncio.run(play())
