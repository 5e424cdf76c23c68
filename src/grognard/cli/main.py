"""``grognard``: list games, simulate computer games, replay and verify saves, play in the terminal."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from grognard import __version__, rulesets
from grognard.engine import Game, GrognardError
from grognard.engine.game import Game as _Game


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="grognard", description=__doc__)
    parser.add_argument("--version", action="version", version=f"grognard {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("games", help="list the games, their scenarios and rule options")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = sub.add_parser("simulate", help="play a game to its end with computer players")
    p.add_argument("game")
    p.add_argument("scenario", help="a bundled scenario id or the path of a scenario file")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", default=None, help="seat=kind[:level],... or kind,kind (random, greedy, ...)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option")
    p.add_argument("--save", metavar="FILE", help="write the finished game as a save file")
    p.add_argument("--json", action="store_true", help="print one JSON object with the outcome")
    p.add_argument("--match", action="store_true", help="play the match game (the scenario twice, sides swapped)")

    p = sub.add_parser("replay", help="re-run a save file")
    p.add_argument("file")
    p.add_argument("--verify", action="store_true", help="check that the log reproduces the recorded digest")
    p.add_argument("--show", action="store_true", help="print the final map")

    p = sub.add_parser("show", help="print a scenario's map, or a save's current position, as text")
    p.add_argument("game_or_file")
    p.add_argument("scenario", nargs="?")
    p.add_argument("--seat", default=None)

    p = sub.add_parser("play", help="play in the terminal against the computer or hot-seat")
    p.add_argument("game")
    p.add_argument("scenario")
    p.add_argument("--seed", type=int, default=None, help="the game's seed (default: a fresh one from the system)")
    p.add_argument("--players", default=None, help="seat=human|kind[:level],...; default: you play the first seat")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--save", metavar="FILE", help="save file, written after every decision")
    p.add_argument("--match", action="store_true", help="play the match game: the scenario twice, sides swapped")

    _add_extra_commands(sub)
    args = parser.parse_args(argv)
    try:
        return int(COMMANDS[args.command](args))
    except GrognardError as e:
        print(f"grognard: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _add_extra_commands(sub: Any) -> None:
    """Commands of layers that may be absent (the server)."""
    try:
        from grognard.server.cli import add_commands
    except ImportError:
        return
    add_commands(sub, COMMANDS)


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        if not eq:
            raise GrognardError(f"option {pair!r}: write NAME=VALUE")
        try:
            out[name] = json.loads(text)
        except json.JSONDecodeError:
            out[name] = text
    return out


def cmd_games(args: argparse.Namespace) -> int:
    games = [rulesets.get(g).describe_game() for g in rulesets.game_ids()]
    if args.json:
        print(json.dumps(games, indent=1, ensure_ascii=False))
        return 0
    for g in games:
        print(f"{g['id']}: {g['name']} (seats: {', '.join(g['seats'])})")
        for s in g["scenarios"]:
            print(f"  {s['id']:<28} {s['name']}" + (f" ({s['turns']} turns)" if s.get("turns") else ""))
        if g["options"]:
            print("  options: " + ", ".join(f"{o['name']}={o['default']}" for o in g["options"]))
    return 0


class _Progress:
    """A one-line progress bar on a terminal's standard error."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.last = 0.0

    def __call__(self, game: _Game) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.last < 0.1:
            return
        self.last = now
        view_phase = game.turn().phase
        line = f"\r{len(game.log):>7} decisions  {view_phase[:50]:<50}"
        sys.stderr.write(line)
        sys.stderr.flush()

    def done(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 70 + "\r")
            sys.stderr.flush()


def _simulate_one(
    args: argparse.Namespace, players: str | None, options: dict[str, Any], seed: int
) -> tuple[Game, float]:
    from grognard.ai import parse_players, play_out
    from grognard.engine.game import new_game

    cls = rulesets.get(args.game)
    game = new_game(cls, args.scenario, options, seed)
    if args.save:
        game.trail = []
    progress = _Progress(sys.stderr.isatty() and not args.json)
    t0 = time.perf_counter()
    play_out(game, parse_players(players, cls, cls.seats, seed), progress=progress)
    progress.done()
    return game, time.perf_counter() - t0


def _outcome(game: Game, seconds: float) -> dict[str, Any]:
    result = game.result()
    return {
        "game": game.rules.id,
        "scenario": game.rules.scenario.info.id,
        "seed": game.seed,
        "options": game.rules.options,
        "turns": game.rules.turns_played(game.state),
        "decisions": len(game.log),
        "result": result.to_json() if result else None,
        "digest": game.digest(),
        "seconds": round(seconds, 3),
    }


def cmd_simulate(args: argparse.Namespace) -> int:
    from grognard.cli.match import play_match
    from grognard.persistence import write_save

    options = _options(args.option)
    if args.match:

        def play_one(players: str, opts: dict[str, Any], seed: int) -> tuple[Game, float]:
            return _simulate_one(args, players, opts, seed)

        out = play_match(rulesets.get(args.game), args.players, options, args.seed, play_one, _outcome)
    else:
        game, seconds = _simulate_one(args, args.players, options, args.seed)
        if args.save:
            write_save(game, args.save)
        out = _outcome(game, seconds)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        res = out.get("result") or {}
        print(res.get("summary", "the game ended"))
        print(f"{out.get('decisions', '?')} decisions, digest {str(out.get('digest', ''))[:16]}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from grognard.persistence import check_save

    report = check_save(args.file)  # the one check of a save (persistence.saves), as load_game and uploads
    if not report.ok:
        print(f"grognard: {report.message}", file=sys.stderr)
        return 2
    if args.verify:
        print(report.message)
        return 0
    game = report.game
    assert game is not None
    result = game.result()
    print(f"{game.rules.name}: {game.rules.scenario.info.name}, {len(game.log)} decisions")
    if result:
        print(result.summary)
    if args.show:
        print(game.rules.render_text(game.state, None))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from grognard.engine.game import new_game
    from grognard.persistence import load_game

    if args.scenario is None:
        game = load_game(args.game_or_file)
    else:
        game = new_game(rulesets.get(args.game_or_file), args.scenario, None, 1)
    if args.seat is not None and args.seat not in game.rules.seats:
        raise GrognardError(f"no seat {args.seat!r} in {game.rules.name}: {', '.join(game.rules.seats)}")
    seat = args.seat if not game.over else None
    print(game.rules.render_text(game.state, seat))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from grognard.cli.terminal import play_in_terminal

    return play_in_terminal(args, _options(args.option))


COMMANDS: dict[str, Any] = {
    "games": cmd_games,
    "simulate": cmd_simulate,
    "replay": cmd_replay,
    "show": cmd_show,
    "play": cmd_play,
}


if __name__ == "__main__":
    raise SystemExit(main())
