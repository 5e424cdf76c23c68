"""The Perfect General (QQP 1991): tactical battles on hexes, with buy points, hidden units and artillery."""

from .rules import PerfectGeneral

__all__ = ["PerfectGeneral"]
