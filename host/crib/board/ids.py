"""Operation ids: what makes a change to the board apply once however often it is sent.

One scheme for every sender (the link's own ids, the table's record, the solitaire's total):
a random prefix per run or per game, a dash, then a counter. The board remembers the last
few ids it applied and answers a repeat without applying it again, so a prefix must not
repeat across runs; the protocol allows ids of 1-16 letters, digits, _ and -.
"""

import secrets

MAX_ID = 16  # the protocol's longest id


def new_prefix() -> str:
    """A fresh random prefix (6 hex digits: 16**6 of them)."""
    return secrets.token_hex(3)


def op_id(prefix: str, n: int) -> str:
    """The n-th id of a prefix."""
    return f"{prefix}-{n}"


class Ids:
    """A run of ids: a random prefix, then a counter; a new prefix when an id would not fit."""

    def __init__(self, prefix: "str | None" = None):
        self.prefix = prefix or new_prefix()
        self.count = 0

    def next(self) -> str:
        """A fresh id."""
        self.count += 1
        ident = op_id(self.prefix, self.count)
        if len(ident) > MAX_ID:  # after 10**9 ids of one run: a new run
            self.prefix, self.count = new_prefix(), 1
            ident = op_id(self.prefix, self.count)
        return ident
