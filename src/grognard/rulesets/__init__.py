"""The games grognard plays, by id. Each ruleset is a package under this one."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from grognard.engine.errors import DataError, nearest
from grognard.engine.protocol import Ruleset

# game id -> (module, class). A game is listed once its package exists.
_KNOWN: dict[str, tuple[str, str]] = {
    "perfect_general": ("grognard.rulesets.perfect_general", "PerfectGeneral"),
    "grande_armee": ("grognard.rulesets.grande_armee", "GrandeArmee"),
    "antietam": ("grognard.rulesets.antietam", "Antietam"),
    "kursk": ("grognard.rulesets.kursk", "Kursk"),
}


_REGISTERED: dict[str, type[Ruleset[Any, Any]]] = {}


def register(cls: type[Ruleset[Any, Any]]) -> None:
    """Make a ruleset defined elsewhere (a test's toy game, a plugin) known by its id."""
    _REGISTERED[cls.id] = cls


def _has_package(module: str) -> bool:
    """A game's package exists (a folder with an ``__init__.py``; a bare data folder does not count)."""
    spec = importlib.util.find_spec(module)
    return spec is not None and spec.origin is not None


def _available() -> dict[str, tuple[str, str]]:
    found = {k: v for k, v in _KNOWN.items() if _has_package(v[0])}
    found.update({k: (c.__module__, c.__name__) for k, c in _REGISTERED.items()})
    return found


def game_ids() -> list[str]:
    """Ids of the games this installation can play."""
    return list(_available())


def get(game_id: str) -> type[Ruleset[Any, Any]]:
    """The ruleset class of a game id (``perfect_general``, ``grande_armee``, ``antietam``, ``kursk``)."""
    known = _available()
    if game_id not in known:
        raise DataError("game", game_id, f"unknown game {game_id!r}; {nearest(game_id, known)}")
    if game_id in _REGISTERED:
        return _REGISTERED[game_id]
    module, name = known[game_id]
    cls: type[Ruleset[Any, Any]] = getattr(importlib.import_module(module), name)
    return cls
