"""The computers' workers (server/computers.py): which question a worker answers first, the urgent questions it
answers at a safe point of another game's question, and a worker that ends."""

from __future__ import annotations

import asyncio
import io
import os
import pickle
from typing import Any

import pytest

from grognard.ai.driver import pause_point
from grognard.engine import Game
from grognard.server import computers
from grognard.server.computers import _HEADER, ComputerPool, _Answers, _frame, _Questions


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
        answered.append((q[0], q[2]))
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


def test_a_reaction_of_another_game_is_answered_at_a_safe_point_of_a_question_in_progress(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While game a's long question is in progress, the urgent question of game b that came meanwhile is answered
    at a's next safe point; a's own urgent question and c's ordinary one wait for the end of a's question."""
    read, write = os.pipe()
    done: list[str] = []

    def long(game: str) -> str:
        done.append(f"{game} long begins")
        for seq, (urgent, other) in enumerate([(True, "b"), (False, "c"), (True, "a")], start=1):
            os.write(write, _frame(((0 if urgent else 1, seq), other, "quick", (other,))))
        os.close(write)  # the last questions: the worker ends once it has answered them
        pause_point()
        done.append(f"{game} long ends")
        return game

    def quick(game: str) -> str:
        done.append(f"{game} quick")
        pause_point()  # an urgent question's own safe points answer nothing
        return game

    monkeypatch.setattr(computers, "_OPS", {"long": long, "quick": quick})
    monkeypatch.setattr(computers, "LOOK_EVERY", 0.0)
    os.write(write, _frame(((1, 0), "a", "long", ("a",))))
    out = io.BytesIO()
    questions = _Questions(read)
    answers = _Answers(questions, out)
    answers.run()
    os.close(read)
    assert done == ["a long begins", "b quick", "a long ends", "a quick", "c quick"]
    assert _answers(out.getvalue()) == [(1, "b"), (0, "a"), (3, "a"), (2, "c")]


def _answers(data: bytes) -> list[tuple[int, Any]]:
    """The (reference, value) of each answer a worker wrote, in order."""
    out = []
    while data:
        size = _HEADER.unpack_from(data)[0]
        ref, ok, value = pickle.loads(data[_HEADER.size : _HEADER.size + size])
        assert ok, value
        out.append((ref, value))
        data = data[_HEADER.size + size :]
    return out


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


def test_a_snapshot_with_safe_points_is_the_document_built_without() -> None:
    """The worker builds a snapshot with ``between`` (its safe points, where other games' reactions are answered):
    the document is the same, and the safe points come every 64 events and between its parts."""
    from grognard.ai import parse_players, play_out
    from grognard.persistence.saves import save_document
    from grognard.rulesets.perfect_general import PerfectGeneral

    game = Game(PerfectGeneral(PerfectGeneral.scenario_by_id("simple_little_war")), 7)
    play_out(game, parse_players("random,random", PerfectGeneral, PerfectGeneral.seats, 7), stop_after=150)
    points = []
    doc = save_document(game, between=lambda: points.append(1))
    assert doc == save_document(game)
    assert len(points) >= 2 * (len(game.events) // 64) + 2
