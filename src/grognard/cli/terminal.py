"""Playing in the terminal: the map as text, decisions typed in their short text form."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from grognard import rulesets
from grognard.ai import PlayerContext, make_player
from grognard.engine import Game, GrognardError, IllegalDecision
from grognard.engine.game import new_game


def play_in_terminal(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from grognard.persistence import write_save

    cls = rulesets.get(args.game)
    game = new_game(cls, args.scenario, options, args.seed)
    seats = cls.seats
    # you take the first seat, or the one a "player1" option names (PG p.8: player 1 attacker or defender)
    mine = game.rules.options.get("player1", seats[0])
    kinds = {s: ("human" if s == mine else "greedy") for s in seats}
    if args.players:
        for part in args.players.split(","):
            seat, _, kind = part.partition("=")
            if seat not in seats:
                raise GrognardError(f"no seat {seat!r}: seats are {', '.join(seats)}")
            kinds[seat] = kind
    computers = {s: make_player(k, cls, args.seed + i) for i, (s, k) in enumerate(kinds.items()) if k != "human"}
    humans = [s for s in seats if s not in computers]
    shown_for: str | None = None
    while not game.over:
        turn = game.turn()
        seat = turn.seat
        assert seat is not None
        if seat in computers:
            legal = game.legal(seat)
            d = computers[seat].choose(PlayerContext(seat, lambda s=seat: game.view(s), legal, game.rules))
            events = game.apply(seat, d)
            _print_events(game, events, humans)
            continue
        if shown_for != seat or len(humans) > 1:
            print(game.rules.render_text(game.state, seat))
            shown_for = seat
        legal = game.legal(seat)
        print(f"\n[{seat}] {legal.prompt or turn.phase}")
        if legal.suggested is not None:
            print(f"  suggested: {legal.suggested.text()}   ({game.rules.describe(legal.suggested)})")
        print("  type a decision, '?' to list the legal ones, 'map' to redraw, 'undo', or 'quit'")
        try:
            line = input("> ").strip()
        except EOFError:
            return 0
        if line in ("quit", "q"):
            return 0
        if line == "?":
            for i, d in enumerate(legal):
                if i >= 60:
                    print(f"  ... and {len(legal) - 60} more")
                    break
                print(f"  {d.text():<28} {game.rules.describe(d)}")
            continue
        if line == "map":
            print(game.rules.render_text(game.state, seat))
            continue
        if line == "undo":
            try:
                game.undo(seat)
            except IllegalDecision as e:
                print(f"  {e}")
            continue
        if not line and legal.suggested is not None:
            decision = legal.suggested
        else:
            try:
                decision = cls.decisions().parse(line)
            except IllegalDecision as e:
                print(f"  {e}")
                continue
        try:
            events = game.apply(seat, decision)
        except IllegalDecision as e:
            print(f"  refused: {e}")
            continue
        _print_events(game, events, humans)
        if args.save:
            write_save(game, args.save)
    result = game.result()
    print(game.rules.render_text(game.state, None))
    if result:
        print(result.summary)
    return 0


def _print_events(game: Game, events: list[Any], humans: list[str]) -> None:
    from grognard.engine.events import visible_to

    who = humans[0] if len(humans) == 1 else None
    for e in events:
        if e.text and visible_to(e, who):
            print(f"  {e.text}")
    sys.stdout.flush()
