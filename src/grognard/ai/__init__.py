"""Computer players. They see only their seat's view and legal decisions, never the game state."""

from .base import Player, PlayerContext, make_player, parse_players, player_kinds
from .driver import play_out

__all__ = ["Player", "PlayerContext", "make_player", "parse_players", "play_out", "player_kinds"]
