"""Who may answer: the session's key (carried by the joining address), seats and their
tokens, and the checks an answer passes before the engine sees it.

A phone joins as one player's seat, or as the table (a shared tablet that answers for
everyone). Joining hands the phone a token for its seat, derived from the session key, so
a request that claims a seat it did not join as is refused (a forged seat). Only the seat
asked may answer a question that asks someone; anyone may answer for a player who says so
(the request says `for`), and questions that ask no one (setup, confirmations) are open to
every seat.
"""

import hashlib
import hmac
import secrets
from typing import Any

from crib.errors import CribError

TABLE = "table"  # the seat of a shared screen: it may answer every question
ANSWER_FIELDS = {"question": str, "answer": str, "seat": (int, str, type(None)),
                 "token": (str, type(None)), "for": bool}
UNDO_FIELDS = {"question": str, "seat": (int, str, type(None)), "token": (str, type(None))}
JOIN_FIELDS = {"seat": (int, str)}


class Refused(CribError):
    """A request refused before it reaches the engine: status and a message for the player."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def new_key() -> str:
    """A per-session secret for the joining address (URL-safe)."""
    return secrets.token_urlsafe(16)


def _bytes(text: str) -> bytes:
    """text as bytes for a constant-time comparison, whatever it holds (non-ASCII, lone
    surrogates): compare_digest takes only ASCII str."""
    return text.encode("utf-8", "surrogatepass")


def seat_token(key: str, seat: int | str) -> str:
    """The token of a seat in this session."""
    return hmac.new(key.encode(), f"seat:{seat}".encode(), hashlib.sha256).hexdigest()[:24]


def check_fields(body: Any, fields: dict, required: tuple[str, ...]) -> dict:
    """body as a dict with only known fields of the right types; Refused(400) if not."""
    if not isinstance(body, dict):
        raise Refused(400, "the request must be a JSON object")
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise Refused(400, f"unknown field(s): {', '.join(unknown)}")
    for name in required:
        if name not in body:
            raise Refused(400, f"missing field: {name}")
    for name, value in body.items():
        kinds = fields[name] if isinstance(fields[name], tuple) else (fields[name],)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise Refused(400, f"{name}: wrong type")
    return body


def check_seat(key: str, seat, token, players: int | None) -> int | str:
    """The seat a request speaks for: one joined, with its token. Refused(403) with no seat
    or if the token is not that seat's, Refused(400) if there is no such seat."""
    if seat is None:
        raise Refused(403, "choose your seat first: this screen has not joined the game")
    if seat != TABLE and not (isinstance(seat, int) and players is not None
                              and 0 <= seat < players):
        raise Refused(400, f"no such seat: {seat!r}")
    if not token or not hmac.compare_digest(_bytes(token), _bytes(seat_token(key, seat))):
        raise Refused(403, "this screen did not join as that seat: join again")
    return seat


def check_turn(seat, asks: int | None, names: list[str], on_behalf: bool) -> None:
    """Refused(409) unless seat may answer a question asking `asks`."""
    if asks is None or seat == TABLE or seat == asks or on_behalf:
        return
    who = names[asks] if 0 <= asks < len(names) else "another player"
    raise Refused(409, f"it is {who}'s turn: answer for {who} only if they ask you to")
