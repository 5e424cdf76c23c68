"""La Grande Armée (SDJ Enterprises 1989): the Napoleonic wars on a hex map of Europe, one turn per season."""

from .rules import GrandeArmee

__all__ = ["GrandeArmee"]
