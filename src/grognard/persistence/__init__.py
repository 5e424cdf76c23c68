"""Saves and replays: versioned JSON documents of scenario, options, seed and decisions, written atomically."""

from .saves import (
    SAVE_FORMAT,
    SAVE_VERSION,
    check_save,
    load_game,
    read_save,
    save_document,
    verify_save,
    write_save,
)

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "check_save",
    "load_game",
    "read_save",
    "save_document",
    "verify_save",
    "write_save",
]
