"""Saves and replays: versioned JSON documents of scenario, options, seed and decisions, written atomically."""

from .saves import (
    SAVE_FORMAT,
    SAVE_VERSION,
    SEAT_RECORD_FORMAT,
    SeatRecord,
    check_save,
    load_game,
    read_save,
    save_document,
    seat_record_of,
    verify_save,
    write_save,
)

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SEAT_RECORD_FORMAT",
    "SeatRecord",
    "check_save",
    "load_game",
    "read_save",
    "save_document",
    "seat_record_of",
    "verify_save",
    "write_save",
]
