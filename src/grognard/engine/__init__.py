"""The pure engine: geometry, maps, line of sight, movement, dice, decisions, events and the game protocol.

Nothing here does I/O beyond reading data files it is asked to read, keeps a clock or imports from the
rulesets, the computer players, persistence, the server or the command line.
"""

from .decisions import Choice, Decision, DecisionCodec, Families, Legal
from .errors import DataError, GrognardError, IllegalDecision, MalformedDecision, SaveError
from .events import Event, Step, visible_to
from .game import Game, LogEntry, new_game, state_digest
from .protocol import OptionSpec, Result, Ruleset, Scenario, ScenarioInfo, Turn

__all__ = [
    "Choice",
    "DataError",
    "Decision",
    "DecisionCodec",
    "Event",
    "Families",
    "Game",
    "GrognardError",
    "IllegalDecision",
    "Legal",
    "LogEntry",
    "MalformedDecision",
    "OptionSpec",
    "Result",
    "Ruleset",
    "SaveError",
    "Scenario",
    "ScenarioInfo",
    "Step",
    "Turn",
    "new_game",
    "state_digest",
    "visible_to",
]
