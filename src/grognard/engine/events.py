"""Events: what a decision caused, for the log, the browser and the tests; and the step that records them.

Every event names the seats that may see it (``seen_by``; ``None`` means everyone). The rules decide that
when they emit the event, because only they know what each side can see at that moment; a shot from an
unspotted unit, for example, is emitted once in full for its owner and once without the firer for the
target's side. :func:`visible_to` is the one filter the engine applies before an event leaves it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .records import remaker
from .rng import Dice


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    text: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)
    seen_by: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, **dict(self.data)}


# An event made with all its fields given, without the frozen class's checked ``__init__`` (a random game emits
# tens of thousands): the same object ``Event(kind, text, data, seen_by)`` makes.
_BLANK = Event("")
_made = remaker(Event, ("kind", "text", "data", "seen_by"))


def visible_to(event: Event, seat: str | None) -> bool:
    """Whether ``seat`` may see ``event``; ``None`` is the full (omniscient) view of a finished game."""
    return seat is None or event.seen_by is None or seat in event.seen_by


class Step:
    """The working context of one decision: the dice it may roll and the events it emits.

    Rules call :meth:`roll` and :meth:`chance` instead of touching a generator, so that every draw is logged
    with what it was for, and :meth:`reveal` whenever hidden information becomes known; either closes undo.
    """

    __slots__ = ("dice", "events", "revealed")

    def __init__(self, rng_state: int) -> None:
        self.dice = Dice(rng_state)
        self.events: list[Event] = []
        self.revealed = False

    def emit(self, kind: str, text: str = "", seen_by: Iterable[str] | None = None, **data: Any) -> Event:
        """The event logged (the seats as a tuple; a tuple given is kept)."""
        seen = seen_by if seen_by is None or type(seen_by) is tuple else tuple(seen_by)
        event: Event = _made(_BLANK, kind, text, data, seen)
        self.events.append(event)
        return event

    def roll(self, sides: int, why: str, seen_by: Iterable[str] | None = None) -> int:
        """Roll a die of ``sides`` faces for ``why``; the roll is logged as an event."""
        value = self.dice.below(sides) + 1  # ``Dice.roll``, a call less
        self.emit("roll", f"{why}: rolled {value} on d{sides}", seen_by, sides=sides, value=value, why=why)
        return value

    def chance(self, percent: int, why: str, seen_by: Iterable[str] | None = None) -> bool:
        """Succeeds with ``percent`` per cent (a d100 roll of ``percent`` or less); logged as an event."""
        value = self.dice.below(100) + 1  # ``Dice.percent``, two calls less
        ok = value <= percent
        text = f"{why}: {percent}% needed, rolled {value}: {'success' if ok else 'failure'}"
        self.emit("roll", text, seen_by, sides=100, value=value, percent=percent, success=ok, why=why)
        return ok

    @property
    def rng(self) -> int:
        """The generator's state after this step's draws, to store in the new game state."""
        return self.dice.state

    def reveal(self) -> None:
        """Mark that something hidden became known; undo closes."""
        self.revealed = True

    @property
    def irreversible(self) -> bool:
        return self.revealed or self.dice.draws > 0
