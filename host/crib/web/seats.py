"""A fresh session key for `crib serve`. Who may answer (the key, seats and their
tokens, the checks before the engine) is cribcore.table.seats, shared with the board's own
server."""

import secrets


def new_key() -> str:
    """A per-session secret for the joining address (URL-safe)."""
    return secrets.token_urlsafe(16)
