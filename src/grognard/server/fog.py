"""The one function that builds what leaves the server for a seat: every message, HTTP answer and in-play save.

It reads only ``Game.view(seat)``, ``Game.legal(seat)`` and the events ``seen_by`` that seat (the engine's own
filters; the engine leaves out of a seat's view the count of decisions, which would tell how many units the
enemy bought or placed). The message carries a ``tag``, a
digest of what the seat sees: a decision sent with an old tag was made on a stale picture and is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from grognard.engine import Choice, Decision, Game, Legal, codec
from grognard.engine.events import visible_to
from grognard.persistence.saves import SEAT_RECORD_FORMAT, SEAT_RECORD_VERSION

from .jsontext import canonical as _canonical
from .jsontext import compact

# families of legal decisions up to this size are also described in words (for the generic decision list)
DESCRIBE_UP_TO = 24
# A family that varies over locations (a unit's destinations, a type's placement cells, an artillery plot) with
# more values than this goes in a message as its count only; the page asks for the values (``family_values``)
# when it shows them: the unit selected, the placement armed. A message then grows with the families, not with
# every unit's reach.
LIST_UP_TO = 8
LOCATION_FIELDS = frozenset({"to", "cell", "at"})


def summarised(choice: Choice) -> bool:
    """Whether a family goes in a message as a count, its values asked for when the page shows them."""
    return choice.listed and choice.cls.vary_field() in LOCATION_FIELDS and len(choice) > LIST_UP_TO


@dataclass(frozen=True, slots=True)
class Core:
    """A seat's message (:func:`seat_core`) and the JSON text of its pieces, each encoded once (canonical: keys
    sorted): the tag is their digest, and a push joins them (:func:`update_text`) instead of encoding the message
    again."""

    message: dict[str, Any]
    view: str  # the view without its state
    state: dict[str, str] | None  # each part of view.state (None: the view's state is no object, it is in ``view``)
    legal: str
    undo: str


def seat_core(game: Game, seat: str, describe: Callable[[Decision], str] | None = None) -> dict[str, Any]:
    """What ``seat`` may know now: its view and, when it may act, its legal decisions; with their tag.

    ``describe`` puts a decision in words (default: the ruleset's ``describe_for`` this state and seat; a session
    passes a cached one).
    """
    return seat_core_texts(game, seat, describe).message


def seat_core_texts(game: Game, seat: str, describe: Callable[[Decision], str] | None = None) -> Core:
    """:func:`seat_core`'s message with the JSON text of its pieces."""
    describe = describe or partial(game.rules.describe_for, game.state, seat)
    view = game.view(seat)
    legal_json: dict[str, Any] | None = None
    if not game.over and game.turn().may_act(seat):
        legal = game.legal(seat)
        # a family sent as its count is never listed here: a unit's destinations are searched when asked for
        legal_json = legal.to_json(describe, summarised if game.rules.counted_families else None)
        for family, choice in zip(legal_json["choices"], legal.choices, strict=True):
            if "count" not in family and len(choice) <= DESCRIBE_UP_TO:
                family["texts"] = [describe(d) for d in choice.decisions()]
    undo = not game.over and game.can_undo(seat)  # the seat's own last decision, with nothing revealed since
    state = view.get("state")
    parts = {k: _canonical(v) for k, v in state.items()} if isinstance(state, dict) else None
    rest = _canonical({k: v for k, v in view.items() if k != "state"} if parts is not None else view)
    texts = (rest, *(f"{k}={t}" for k, t in sorted((parts or {}).items())), _canonical(legal_json), _canonical(undo))
    tag = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:20]
    message = {"type": "update", "tag": tag, "view": view, "legal": legal_json, "undo": undo}
    return Core(message, rest, parts, texts[-2], texts[-1])


def update_text(core: Core, leave_out: Container[str] = (), extra: Mapping[str, Any] | None = None) -> str:
    """The JSON text of ``core``'s message, the parts ``leave_out`` of its ``view.state`` left out and ``extra``
    added at its top level: the message :func:`seat_core` gives, so changed, encoded, from the texts already made."""
    view = core.view
    if core.state is not None:
        state = ",".join(f"{json.dumps(k)}:{text}" for k, text in core.state.items() if k not in leave_out)
        view = f'{view[:-1]}{"," if len(view) > 2 else ""}"state":{{{state}}}}}'
    head = f'{{"type":"update","tag":{json.dumps(core.message["tag"])},"view":{view},"legal":{core.legal}'
    tail = compact(dict(extra))[1:] if extra else "}"
    return f'{head},"undo":{core.undo}{"," if len(tail) > 1 else ""}{tail}'


def family_values(legal: Legal, asked: Any, describe: Callable[[Decision], str]) -> list[dict[str, Any]] | None:
    """The values of the families ``asked`` (``[{"kind", "fixed"}]``, as a message names them) of a seat's legal
    decisions, described in words where a family is small; None if one of them is not a family of ``legal``
    (a page that asks about another position, or another seat's decisions, learns nothing)."""
    if not isinstance(asked, list):
        return None
    # only the families of the kinds asked about are keyed (a legal set has dozens; a page asks about one unit's)
    kinds = {a.get("kind") for a in asked if isinstance(a, dict) and isinstance(a.get("kind"), str)}
    by_key = {
        _family_key(c.cls.kind, codec.encode(c.fixed)): c for c in legal.choices if c.listed and c.cls.kind in kinds
    }
    out = []
    for a in asked:
        choice = by_key.get(_family_key(a.get("kind"), a.get("fixed"))) if isinstance(a, dict) else None
        if choice is None:
            return None
        family: dict[str, Any] = {"kind": a["kind"], "fixed": a["fixed"], "values": codec.encode(list(choice.values()))}
        if len(choice) <= DESCRIBE_UP_TO:
            family["texts"] = [describe(d) for d in choice.decisions()]
        out.append(family)
    return out


def _family_key(kind: Any, fixed: Any) -> str:
    return _canonical([kind, fixed])


def seat_events(game: Game, seat: str, start: int = 0) -> list[dict[str, Any]]:
    """The event log from ``start`` as ``seat`` may see it (all of it once the game is over)."""
    return events_json(game, seat_event_indices(game, seat, start))


def seat_event_indices(game: Game, seat: str, start: int = 0) -> list[int]:
    """Where the events from ``start`` that ``seat`` may see (all of them once the game is over) are in the log."""
    who = None if game.over else seat
    events = game.events
    return [i for i in range(start, len(events)) if visible_to(events[i], who)]


def events_json(game: Game, indices: list[int]) -> list[dict[str, Any]]:
    return [game.events[i].to_json() for i in indices]


def seat_record(game: Game, seat: str, game_id: str) -> dict[str, Any]:
    """What a seat downloads as a save while the game runs: its own view and log, never the game's inputs
    (seed and decision log would rebuild the whole state, hidden units and all). It names the server's game
    (``game_id``) and the seat, so the lobby of the browser that plays the seat can go on with it; it holds no
    token (``persistence.saves.SeatRecord``)."""
    core = seat_core(game, seat)
    return {
        "format": SEAT_RECORD_FORMAT,
        "version": SEAT_RECORD_VERSION,
        "note": "a seat's record of a game in play: open it in the lobby of the browser that plays this seat to "
        "go on; the full save is available once the game is over",
        "game": game.rules.id,
        "game_id": game_id,
        "scenario": game.rules.scenario.info.id,
        "seat": seat,
        "view": core["view"],
        "events": seat_events(game, seat),
    }
