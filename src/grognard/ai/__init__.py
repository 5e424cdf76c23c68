"""Computer players. They see only their seat's observation (view, legal decisions, events, static facts), never
the game state."""

from .base import Player, PlayerContext, make_player, parse_players, player_kinds
from .driver import play_out
from .observation import Facts, Observation, observe

__all__ = [
    "Facts",
    "Observation",
    "Player",
    "PlayerContext",
    "make_player",
    "observe",
    "parse_players",
    "play_out",
    "player_kinds",
]
