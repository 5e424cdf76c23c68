"""Objective Kursk (SSI 1984): the southern pincer of the battle of Kursk, July 1943, with plotted movement."""

from .rules import Kursk

__all__ = ["Kursk"]
