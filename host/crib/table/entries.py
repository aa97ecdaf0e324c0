"""Entries of the game record live in the shared core (cribcore.table.entries): re-exported
here for the history, practice and the board sync."""

from cribcore.table.entries import (
    AUTO,
    BARRIER,
    BOARD,
    PEGGED_ON_BOARD,
    RECONCILE,
    REPLAY,
    TABLE,
    StateChanged,
    describe,
    replay,
    summary,
)

__all__ = ["AUTO", "BARRIER", "BOARD", "PEGGED_ON_BOARD", "RECONCILE", "REPLAY", "TABLE",
           "StateChanged", "describe", "replay", "summary"]
