"""Battle of Antietam (SSI 1985): the battle of 17 September 1862 on a square map, one turn an hour."""

from .rules import Antietam

__all__ = ["Antietam"]
