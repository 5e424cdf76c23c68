"""Checks every ruleset must pass, on each of its scenarios.

- random legal play reaches the end of the game without an error, and ends with a result; on the way, every
  family counted without listing counts what it lists;
- an illegal decision (a perturbed legal one, one from a seat that may not act, one of the wrong kind) is
  refused with :class:`IllegalDecision` and leaves the state's digest unchanged;
- two games with the same seed, stepped side by side with the same decisions, have the same digest and the
  same events after every decision;
- a save verifies, loads from its snapshot and by replay to the same digest, and a tampered save does not;
- no seat's view names a unit the rules say it may not know of, nor the generator state or the seed;
- no computer player (every kind, every level) decides differently when what its seat cannot know changes
  (``check_players_see_only_their_seat``);
- after every decision of these random games, the ruleset's own invariants hold (``Ruleset.check_invariants``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from typing import Any

from grognard.ai.base import Player, PlayerFactory, make_player, player_kinds, seat_seed
from grognard.ai.driver import computer_decision
from grognard.ai.observation import observe
from grognard.engine import Decision, Game, IllegalDecision, Ruleset
from grognard.engine.game import new_game
from grognard.engine.protocol import ReactionSetting, Resignation
from grognard.engine.rng import Dice, seed_state


def _random_game(
    cls: type[Ruleset[Any, Any]],
    scenario: str,
    seed: int,
    options: Mapping[str, Any] | None,
    max_decisions: int,
    player: str = "random",
) -> Iterator[tuple[Game, str, Decision]]:
    """Play legal decisions chosen by ``player`` (random, greedy or a ruleset's own) in every seat through the one
    driver, yielding (game before the decision, seat, decision). Who is asked first among the seats that may
    act is drawn at random, so reactions and orders given at the same time come in every interleaving."""
    game = new_game(cls, scenario, options, seed)
    players = {s: make_player(player, cls, seat_seed(seed, s)) for s in cls.seats}
    order = Dice(seed_state(seed ^ 0x5EED))
    for _ in range(max_decisions):
        due = computer_decision(game, players, order)
        if due is None:
            assert game.over, f"{cls.id}/{scenario}: nobody decides and the game is not over"
            return
        yield game, *due
        game.apply(*due)
        broken = game.rules.check_invariants(game.state)
        assert not broken, f"{cls.id}/{scenario} seed {seed}, decision {len(game.log)}: {'; '.join(broken)}"
    raise AssertionError(f"{cls.id}/{scenario} seed {seed}: no end after {max_decisions} random decisions")


def check_random_play(
    cls: type[Ruleset[Any, Any]],
    scenario: str,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = 100_000,
    player: str = "random",
) -> Game:
    """Random legal play ends with a result, and every family counted without listing counts what it lists
    (``check_counts_agree``) before every decision; returns the finished game."""
    game: Game | None = None
    for played, seat, decision in _random_game(cls, scenario, seed, options, max_decisions, player):
        game = played  # the same game object throughout; it is finished when the loop ends
        check_counts_agree(played, seat)
        check_family_found(played, seat, decision)
    if game is None:
        game = new_game(cls, scenario, options, seed)
    assert game.over, "the game is not over"
    assert game.result() is not None, "a finished game has a result"
    return game


def _perturbations(game: Game, seat: str, decision: Decision) -> Iterator[tuple[str, Decision]]:
    legal = game.legal(seat)
    field = decision.vary_field()
    if field is not None:
        value = getattr(decision, field)
        candidates: list[Any] = []
        if isinstance(value, bool):
            candidates = [not value]
        elif isinstance(value, int):
            candidates = [value + 100_003, -7, value + 1, value - 1]
        elif isinstance(value, str):
            candidates = [value + "_not_a_name", ""]
        elif isinstance(value, tuple):
            candidates = [(*value, 999_983), ()]
        for c in candidates:
            try:
                bad = dataclasses.replace(decision, **{field: c})
            except (TypeError, ValueError):
                continue
            if bad not in legal:
                yield seat, bad
    turn = game.turn()
    for other in game.rules.seats:
        if not turn.may_act(other):
            yield other, decision


def check_family_checks_agree(game: Game, seat: str, per_family: int = 3) -> int:
    """Where a listed family has a check (one set of checks lists, validates and explains), the check accepts
    what the family lists: a check that refused a listed value would be a second copy of legality that drifted.
    Returns how many values were checked."""
    checked = 0
    for family in game.legal(seat).choices:
        if family.check is None or not family.listed:
            continue
        values = family.values()
        for value in values[:: max(1, len(values) // per_family)][:per_family]:
            found = family.check(value)
            assert found is None, f"{family.cls.kind} {family.fixed}: the check refuses the listed {value!r}: {found}"
            checked += 1
    return checked


def check_family_found(game: Game, seat: str, decision: Decision) -> None:
    """The decision a player drew is found in its family by the family's key (which also checks that no two
    families share a key): ``Game.apply`` takes a decision ``Legal.sample`` drew (from a listed family's values or
    by an unlisted family's sampler) without looking it up again."""
    legal = game.legal(seat)
    if game.turn().may_act(seat) and not isinstance(decision, (ReactionSetting, Resignation)):
        family = legal.family(decision)
        assert family is not None and decision.varying() in family, f"{decision.text()} is not in its family"


def check_counts_agree(game: Game, seat: str) -> int:
    """Every family that is counted without listing (``Choice(count=...)``, and the families of a legal set named by
    items, sized all at once: what random play sizes families by) counts exactly as many values as it lists: a count
    off by one would draw from the wrong family, and games would no longer replay as their logs and golden
    playthroughs say. Returns how many families were compared."""
    compared = 0
    legal = game.legal(seat)
    # sized as a random draw sizes them, in a legal set of its own (the game's may have made its families already)
    fresh = game.rules.legal(game.state, seat) if game.turn().may_act(seat) else legal
    if fresh.named:
        sizes = fresh.sizes()
        assert len(sizes) == len(legal.choices), "the families sized are the families listed"
        for family, size in zip(legal.choices, sizes, strict=True):
            made = len(family.values()) if family.listed else len(family)
            assert size == made, f"{family.cls.kind} {family.fixed}: sized {size} but lists {made}"
            compared += 1
    for family in legal.choices:
        counted = family.counted()  # counts afresh, whatever the family holds
        if counted is None:
            continue
        listed = len(family.values())
        assert counted == listed, f"{family.cls.kind} {family.fixed}: counts {counted} values but lists {listed}"
        compared += 1
    return compared


def check_illegal_decisions_change_nothing(
    cls: type[Ruleset[Any, Any]],
    scenario: str,
    seed: int = 2,
    options: Mapping[str, Any] | None = None,
    every: int = 7,
    max_decisions: int = 100_000,
    player: str = "random",
) -> int:
    """At every ``every``-th step of a random game, illegal variants are refused and change nothing."""
    tried = 0
    for i, (game, seat, decision) in enumerate(_random_game(cls, scenario, seed, options, max_decisions, player)):
        if i % every:
            continue
        check_family_checks_agree(game, seat)
        before = game.digest()
        n_log, n_events = len(game.log), len(game.events)
        for who, bad in _perturbations(game, seat, decision):
            try:
                game.apply(who, bad)
            except IllegalDecision as refused:
                family = game.legal(who).family(bad) if who == seat else None
                if family is not None and family.check is not None:  # the family's own check says why, by rule
                    found = family.check(bad.varying())
                    assert found is not None, f"{bad.text()} is refused but its family's check accepts it (step {i})"
                    assert str(found) == str(refused), f"{bad.text()}: refused as {refused}, its check says {found}"
            else:
                raise AssertionError(f"illegal decision accepted: {who}: {bad.text()} at step {i}")
            assert game.digest() == before, f"refused decision {bad.text()} changed the state"
            assert (len(game.log), len(game.events)) == (n_log, n_events), "refused decision left a trace"
            tried += 1
    return tried


def check_determinism(
    cls: type[Ruleset[Any, Any]],
    scenario: str,
    seed: int = 3,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = 100_000,
    player: str = "random",
) -> str:
    """Two games, same seed, same decisions, side by side: same digest and events after every decision."""
    twin = new_game(cls, scenario, options, seed)
    game = twin
    for i, (game, seat, decision) in enumerate(_random_game(cls, scenario, seed, options, max_decisions, player)):
        # equal states (generator included) step by step; the digests, dearer, at the end
        assert game.state == twin.state, f"states differ before decision {i + 1}"
        assert game.events[-3:] == twin.events[-3:], f"events differ before decision {i + 1}"
        twin.apply(seat, decision)
    assert twin.over
    assert twin.digest() == game.digest(), "the final digests differ"
    assert twin.events_digest() == game.events_digest()
    return twin.digest()


def check_saves(game: Game) -> None:
    """A finished (or running) game saves, verifies, reloads both ways, and a tampered save fails."""
    from grognard.persistence import load_game, save_document, verify_save
    from grognard.persistence.saves import parse_save

    doc = parse_save(json.dumps(save_document(game)))
    report = verify_save(doc)
    assert report.ok, report.message
    assert load_game(doc).digest() == game.digest()
    assert load_game(doc, replay=True).digest() == game.digest()
    if doc["decisions"]:
        tampered = json.loads(json.dumps(doc))
        tampered["seed"] = doc["seed"] + 1
        assert not verify_save(tampered).ok, "a save with another seed still verifies"


def check_views_hide(
    cls: type[Ruleset[Any, Any]],
    scenario: str,
    seed: int = 4,
    options: Mapping[str, Any] | None = None,
    every: int = 3,
    max_decisions: int = 100_000,
    player: str = "random",
) -> int:
    """No seat's view (nor its legal decisions' info, nor its events) names a hidden unit or the generator."""
    checked = 0
    for i, (game, _, _) in enumerate(_random_game(cls, scenario, seed, options, max_decisions, player)):
        if i % every:
            continue
        for seat in game.rules.seats:
            hidden = game.rules.hidden_units(game.state, seat)
            view = game.view(seat)
            text = json.dumps(view)
            assert '"rng"' not in text and '"seed"' not in text, f"{seat}'s view carries the generator or seed"
            legal = game.legal(seat)
            payload = json.dumps([view, legal.to_json(), game.events_for(seat)])
            leaked = {u for u in hidden if json.dumps(u) in payload}  # as a whole string value or key
            assert not leaked, f"{seat}'s view names hidden units {sorted(leaked)[:5]} at step {i}"
            checked += 1
    return checked


def run_conformance(
    cls: type[Ruleset[Any, Any]],
    scenario: str,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = 100_000,
    player: str = "random",
) -> None:
    """All of the above on one scenario, with decisions chosen by ``player`` (random, greedy, ...)."""
    game = check_random_play(cls, scenario, seed, options, max_decisions, player)
    check_saves(game)
    check_illegal_decisions_change_nothing(cls, scenario, seed + 1, options, max_decisions=max_decisions, player=player)
    check_determinism(cls, scenario, seed + 2, options, max_decisions, player)
    check_views_hide(cls, scenario, seed + 3, options, max_decisions=max_decisions, player=player)


@dataclasses.dataclass
class FogReport:
    """What ``check_players_see_only_their_seat`` checked: the players, the positions asked about (and how many of
    them had enemy units hidden from the seat asked), and the perturbed positions compared."""

    players: list[str] = dataclasses.field(default_factory=list)
    where: list[str] = dataclasses.field(default_factory=list)  # player, seat, decision number and phase of each
    positions: int = 0
    hidden: int = 0
    compared: int = 0


def _every_player(
    cls: type[Ruleset[Any, Any]], kinds: Mapping[str, PlayerFactory] | None
) -> Iterator[tuple[str, PlayerFactory, int]]:
    """Every computer player of a ruleset at every level it has (players without levels once)."""
    for kind, factory in sorted((kinds if kinds is not None else player_kinds(cls)).items()):
        probe = factory(0, 1)
        for level in range(len(probe.levels)) if probe.levels else (1,):
            yield kind, factory, level


def _ask(player: Player, game: Game, seat: str, choose: bool) -> Decision | None:
    obs = observe(game, seat)
    return player.choose(obs) if choose else player.interject(obs)


def check_players_see_only_their_seat(
    cls: type[Ruleset[Any, Any]],
    scenario: str,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    positions: int = 4,
    perturbations: int = 3,
    spacing: int = 60,
    max_decisions: int = 20_000,
    kinds: Mapping[str, PlayerFactory] | None = None,
) -> FogReport:
    """Fog honesty of the computer players (issue 12, GUIDE habit 6): each player kind at each level plays every
    seat of a seeded game; at its first decision and then at about one in ``every`` decisions where the seat has
    hidden enemy units (``positions`` in all), a copy of the seat's player is asked again in ``perturbations``
    variants of the position that differ only in what the seat may not know (the generator, and
    ``Ruleset.perturb_hidden``: unseen enemy units moved or removed, hidden plots changed). The seat's view must be
    the same in each, and so must the decision; a player whose choice follows something hidden fails."""
    report = FogReport()
    for kind, factory, level in _every_player(cls, kinds):
        name = f"{kind}:{level}"
        report.players.append(name)
        game = new_game(cls, scenario, options, seed)
        players = {s: factory(seed * 7919 + i, level) for i, s in enumerate(cls.seats)}
        taken, due = 0, 0
        for n in range(max_decisions):
            turn = game.turn()
            if turn.seat is None or taken >= positions:
                break
            asked = [(s, False) for s in turn.optional if game.legal(s)] + [(turn.seat, True)]
            for seat, choose in asked:
                hidden = game.rules.hidden_units(game.state, seat)
                if n == 0 or (n >= due and hidden):
                    taken += 1
                    due = 2 * due + spacing
                    report.positions += 1
                    report.where.append(f"{name} {seat} #{n} {turn.phase}")
                    report.hidden += bool(hidden)
                    report.compared += _compare(game, seat, choose, players[seat], perturbations, n, name)
            for seat, choose in asked:  # the game goes on as the driver plays it: reactions first
                d = _ask(players[seat], game, seat, choose)
                if d is not None:
                    game.apply(seat, d)
                    break
    return report


def _compare(game: Game, seat: str, choose: bool, player: Player, perturbations: int, n: int, name: str) -> int:
    """Ask copies of ``player`` (the same memory) in the position and in variants of it; returns the variants."""
    where = f"{name} as {seat} at decision {n} ({game.turn().phase})"
    expected = _ask(player.copy(), game, seat, choose)
    view = game.view(seat)
    dice = Dice(seed_state(n * 7919 + len(game.log)))
    compared = 0
    for k in range(perturbations):
        state = (
            game.rules.perturb_hidden(game.state, seat, dice) if k else game.rules.with_rng(game.state, dice.bits32())
        )
        other = Game.restore(game.rules, game.seed, state, game.log, game.events, game.event_counts, None)
        assert other.view(seat) == view, f"{where}: perturb_hidden changed what {seat} sees (variant {k})"
        got = _ask(player.copy(), other, seat, choose)
        assert got == expected, (
            f"{where}: the decision follows what {seat} cannot know: {expected} in the game, {got} in variant {k}"
        )
        compared += 1
    return compared
