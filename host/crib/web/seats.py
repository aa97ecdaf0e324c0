"""Who may answer: the session's key, seats and their tokens, and the checks a request
passes before the engine sees it: cribcore.table.seats (shared with the board's own
server), and new_key, a fresh session key for `crib serve`."""

import secrets

from cribcore.table.seats import (
    ANSWER_FIELDS,
    JOIN_FIELDS,
    MAX_BODY,
    TABLE,
    UNDO_FIELDS,
    Refused,
    check_fields,
    check_seat,
    check_turn,
    key_ok,
    seat_token,
)

__all__ = ["ANSWER_FIELDS", "JOIN_FIELDS", "MAX_BODY", "TABLE", "UNDO_FIELDS", "Refused",
           "check_fields", "check_seat", "check_turn", "key_ok", "new_key", "seat_token"]


def new_key() -> str:
    """A per-session secret for the joining address (URL-safe)."""
    return secrets.token_urlsafe(16)
