"""Playing in the terminal: the map as text, decisions typed in their short text form."""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any

from grognard import rulesets
from grognard.ai import make_player
from grognard.ai.driver import asks, computer_decision, seat_seed
from grognard.engine import Decision, Game, GrognardError, IllegalDecision, Legal
from grognard.engine.errors import MalformedDecision
from grognard.engine.game import new_game
from grognard.engine.protocol import SETTING_MODES, ReactionSetting, Resignation


def play_in_terminal(args: argparse.Namespace, options: dict[str, Any]) -> int:
    # a fresh seed unless one is asked for: dice that are the same in every game are dice a player learns
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    if vars(args).get("match"):  # grognard play --match (a Namespace built without it plays one game)
        return play_match_in_terminal(args, options, seed)
    play_game(args, options, seed, args.players)
    return 0


class _Quit(Exception):
    """The person left the match in its middle."""


def play_match_in_terminal(args: argparse.Namespace, options: dict[str, Any], seed: int) -> int:
    """The match game (``Ruleset.match_option``; PG p.3): the scenario twice, you (player 1) on one side and
    then the other, each player's victory points from both games added up. ``--players`` names player 1's and
    player 2's kinds as ``simulate --match`` does; by default you are player 1 against the greedy player."""
    import time

    from grognard.cli.main import _outcome
    from grognard.cli.match import match_sides, play_match

    cls = rulesets.get(args.game)
    first = match_sides(cls, options)[0]  # refuses a game without a match game
    played: list[Game] = []

    def one(players: str, opts: dict[str, Any], game_seed: int) -> tuple[Game, float]:
        side = first if not played else next(s for s in cls.seats if s != first)
        print(f"\n=== the match game (p.3), game {len(played) + 1} of 2: player 1 plays the {side} ===")
        t0 = time.perf_counter()
        game = play_game(args, opts, game_seed, players)
        if game is None:
            raise _Quit
        played.append(game)
        return game, time.perf_counter() - t0

    try:
        out = play_match(cls, args.players or "human,greedy", options, seed, one, _outcome)
    except _Quit:
        return 0
    print(out["result"]["summary"])
    return 0


def play_game(args: argparse.Namespace, options: dict[str, Any], seed: int, players: str | None) -> Game | None:
    """One game in the terminal to its end (``None`` if the person quits)."""
    from grognard.persistence import write_save

    cls = rulesets.get(args.game)
    game = new_game(cls, args.scenario, options, seed)
    seats = cls.seats
    # you take the first seat, or the one player 1 takes (Ruleset.match_option; PG p.8: attacker or defender)
    mine = game.rules.options[cls.match_option] if cls.match_option else seats[0]
    kinds = {s: ("human" if s == mine else "greedy") for s in seats}
    if players:
        for part in players.split(","):
            named, _, kind = part.partition("=")
            if named not in seats:
                raise GrognardError(f"no seat {named!r}: seats are {', '.join(seats)}")
            kinds[named] = kind
    computers = {s: make_player(k, cls, seat_seed(seed, s)) for s, k in kinds.items() if k != "human"}
    humans = [s for s in seats if s not in computers]
    shown_for: tuple[str, str] | None = None
    passed: set[tuple[int, str]] = set()  # (decisions made, seat): a seat that let this moment go without reacting
    while not game.over:
        turn = game.turn()
        assert turn.seat is not None
        # a person who may react is asked before anyone goes on, unless its reaction settings answer (the one
        # driver answers then, as the server does); then the computers; then the person whose turn it is
        seat = next(
            (s for s in turn.optional if s in humans and (len(game.log), s) not in passed and asks(game, s)),
            None,
        )
        if seat is None:
            due = computer_decision(game, computers)
            if due is not None:
                _print_events(game, game.apply(*due), humans)
                continue
            seat = next(s for s in turn.deciding if s in humans)
        if len(humans) > 1 and shown_for is not None and shown_for[0] != seat:
            # hot-seat: each seat decides unseen by the other (orders given at the same time stay hidden)
            print(f"\n--- pass the screen to {seat} ---")
        if shown_for != (seat, turn.phase) or len(humans) > 1:  # the map again at each phase
            print(game.rules.render_text(game.state, seat))
            shown_for = (seat, turn.phase)
        legal = game.legal(seat)
        print("\n".join(asking(game, seat, legal)))
        try:
            line = input("> ").strip()
        except EOFError:
            return None
        if line in ("quit", "q"):
            return None
        if line == "?":
            for i, d in enumerate(legal):
                if i >= 60:
                    print(f"  ... and {len(legal) - 60} more")
                    break
                print(f"  {_typed(game, d):<28} {_words(game, seat, d)}{_odds(legal, d)}")
            continue
        if line == "map":
            print(game.rules.render_text(game.state, seat))
            continue
        if line == "units":
            print(unit_table(game, seat) or "  this game has no unit table")
            continue
        if line == "undo":
            try:
                game.undo(seat)
            except IllegalDecision as e:
                print(f"  {e}")
            continue
        if line == "resign":  # either seat may, whoever has the turn: the game ends and the other side wins
            try:
                sure = input(f"  resign the game as {seat}? the other side wins (yes/no) ").strip().lower()
            except EOFError:
                return None
            if sure in ("y", "yes"):
                _print_events(game, game.apply(seat, Resignation()), humans)
                if args.save:
                    write_save(game, args.save)
            continue
        if line.startswith("react"):
            _set_reactions(game, seat, line)
            continue
        reaction = game.rules.reaction(game.state, seat)
        if line == "." and reaction is not None:  # the setting "never ask this phase" for this kind of reaction
            game.apply(seat, ReactionSetting(reaction.kind, "never"))
            continue
        if not line and seat not in turn.deciding:
            passed.add((len(game.log), seat))
            continue
        if not line and legal.suggested is not None:
            decision = legal.suggested
        else:
            try:
                decision = cls.decisions().parse(game.rules.typed(game.state, seat, _with_cells(game, line)))
            except (IllegalDecision, MalformedDecision) as e:
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
    return game


def _set_reactions(game: Game, seat: str, line: str) -> None:
    """``react`` lists the seat's reaction settings; ``react KIND ask|never|best N`` sets one (a decision of the
    seat's, stored with the game and shown to no one else)."""
    words = line.split()
    if len(words) == 1:
        view = game.view(seat)
        for r in view.get("reactions", []):
            mode = f"best shot at {r['percent']}% or more" if r["mode"] == "best" else r["mode"]
            print(f"  {r['name']:<10} {mode:<28} {r['label']}")
        modes = "|".join(SETTING_MODES)
        print(f"  set one with: react KIND {modes} [PERCENT] ('never' holds for this phase)")
        return
    try:
        percent = int(words[3]) if len(words) > 3 else 50
        game.apply(seat, ReactionSetting(words[1], words[2] if len(words) > 2 else "ask", percent))
    except ValueError:
        print("  a chance is a whole number of per cent")
    except IllegalDecision as e:
        print(f"  {e}")


def asking(game: Game, seat: str, legal: Legal) -> list[str]:
    """What the terminal says when ``seat`` must decide: the question, the suggested order with its odds (Enter
    takes it), and how to answer."""
    turn = game.turn()
    lines = [f"\n[{seat}] {legal.prompt or turn.phase}"]
    reaction = game.rules.reaction(game.state, seat)
    if reaction is not None:
        go_on = "press Enter to let it go on, or " if seat not in turn.deciding else ""
        lines.append(f"  (the enemy is moving: {go_on}'.' not to be asked again this phase; 'react' for your settings)")
    if legal.suggested is not None:
        odds = _odds(legal, legal.suggested)
        lines.append(f"  suggested (Enter takes it): {_words(game, seat, legal.suggested)}{odds}")
    lines.append(
        "  type a decision, '?' to list the legal ones with their odds, 'map' to redraw, 'undo', 'react' for how"
        " you are asked to react, 'resign', or 'quit'"
    )
    if unit_table(game, seat):
        lines.append("  'units' shows the unit data (range by target, movement, defence, hit points, cost)")
    if game.rules.cell_format:
        lines.append(f"  a location may be typed by its number or as {game.rules.cell_format}")
    return lines


def unit_table(game: Game, seat: str) -> str:
    """The ruleset's unit data (its answer to the question ``{"kind": "units"}``) as a text table; empty if it
    has none."""
    try:
        data = game.inspect(seat, {"kind": "units"})
    except IllegalDecision:
        return ""
    cells = [[str(c) for c in data["columns"]], *([str(c) for c in row] for row in data["rows"])]
    widths = [max(len(r[i]) for r in cells) for i in range(len(cells[0]))]
    lines = [data.get("title", "")]
    for r in cells:
        lines.append(
            (
                "  "
                + "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
            ).rstrip()
        )
    return "\n".join(lines + ([f"  {data['note']}"] if data.get("note") else []))


def _words(game: Game, seat: str, d: Decision) -> str:
    return game.rules.describe_for(game.state, seat, d)


CELL_FIELDS = ("to", "cell", "at")  # the fields that name a location, as the page reads them too


def _odds(legal: Legal, d: Decision) -> str:
    """The chance the rules give a decision before it is made, as the page shows it: a shot's
    (``Legal.info["chances"]``, by firer and target), a close assault's (``"assault"``, by unit and location)
    and where an artillery shot may land (``"plots"``, by unit)."""
    chances = legal.info.get("chances")
    fields = d.to_json()
    unit, target = fields.get("unit"), fields.get("target")
    assault = legal.info.get("assault", {}).get(unit, {}).get(fields.get("to"))
    if isinstance(assault, int):
        return f"  ({assault}% to win the assault)"
    plot = legal.info.get("plots", {}).get(unit)
    if isinstance(plot, dict):
        if not plot["drift"]:
            return f"  (lands where aimed; {plot['splash']}% to hit each unit next to it)"
        return (
            f"  ({plot['on_target']}% to land where aimed, else up to {plot['drift']} hexes off;"
            f" {plot['splash']}% to hit each unit next to it)"
        )
    if not isinstance(chances, dict) or unit not in chances:
        return ""
    by_unit = chances[unit]
    if isinstance(by_unit, dict):
        chance = by_unit.get(target)
    else:  # passing fire: each firer's chance at the one unit moving
        chance = by_unit if legal.info.get("mover") == target else None
    return f"  ({chance}% to hit)" if isinstance(chance, int) else ""


def _typed(game: Game, d: Decision) -> str:
    """A decision as a person may type it: locations in the map's own words where the ruleset has them."""
    text = d.text()
    if not game.rules.cell_format:
        return text
    fields = d.to_json()
    words = text.split()
    for value in (fields.get(f) for f in CELL_FIELDS):
        if isinstance(value, int) and not isinstance(value, bool):
            label = game.rules.cell_label(value)
            words = [label if w == str(value) else w for w in words]
    return " ".join(words)


def _with_cells(game: Game, line: str) -> str:
    """The typed line with each ``column,row`` area name turned into the area's number, for rulesets whose maps
    name areas so (``Ruleset.cell_format``: La Grande Armée)."""
    if not game.rules.cell_format:
        return line
    words = []
    for w in line.split():
        if "," in w:
            try:
                w = str(game.rules.parse_cell(w))
            except ValueError as e:
                raise IllegalDecision(f"{w!r} is not an area of the map: {e}") from None
        words.append(w)
    return " ".join(words)


def _print_events(game: Game, events: list[Any], humans: list[str]) -> None:
    from grognard.engine.events import visible_to

    who = humans[0] if len(humans) == 1 else None
    for e in events:
        if e.text and visible_to(e, who):
            print(f"  {e.text}")
    sys.stdout.flush()
