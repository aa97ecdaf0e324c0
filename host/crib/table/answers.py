"""Answers to the table's questions: the parsers that validate them, and the requests a
player can make instead of answering (undo). A parser takes the text a player gave (typed,
or tapped on a phone) and returns a value, or raises AnswerError saying why not."""

from crib.errors import CribError


class AnswerError(CribError):
    """An answer that does not fit the question (nothing was changed)."""


class UndoRequest(Exception):
    """Take back the last entry (or step back inside a question of several steps)."""


def parse_yes(text):
    """True for y/yes, False for n/no."""
    low = text.strip().lower()
    if low in ("y", "yes"):
        return True
    if low in ("n", "no"):
        return False
    raise AnswerError(f"answer y or n, not {text!r}")


def yes_parser(default):
    """A parser of a yes/no answer where Enter gives default."""
    def parse(text):
        return parse_yes(text) if text.strip() else default
    return parse


def whole_number(text: str) -> int:
    """text as a whole number written in ASCII digits (an optional sign, spaces around);
    ValueError otherwise (int() would also take other scripts' digits and underscores)."""
    t = text.strip()
    if not (t.isascii() and t.lstrip("+-").isdigit() and len(t) - len(t.lstrip("+-")) <= 1):
        raise ValueError(f"not a whole number: {text!r}")
    return int(t)


def parse_int(low, high, what="a number"):
    """A parser of whole numbers low..high."""
    def parse(text):
        try:
            n = whole_number(text)
        except ValueError:
            raise AnswerError(f"{what} must be a whole number {low}-{high},"
                              f" not {text!r}") from None
        if not low <= n <= high:
            raise AnswerError(f"{what} must be {low}-{high}, not {n}")
        return n
    return parse


def parse_choice(names, what="a player"):
    """A parser of one of names (by number 1.., full name or a unique prefix): its index."""
    def parse(text):
        low = text.strip().lower()
        if low.isascii() and low.isdigit() and 1 <= int(low) <= len(names):
            return int(low) - 1
        exact = [i for i, n in enumerate(names) if n.lower() == low]
        if exact:
            return exact[0]
        hits = [i for i, n in enumerate(names) if low and n.lower().startswith(low)]
        if len(hits) == 1:
            return hits[0]
        raise AnswerError(f"{what}: one of {', '.join(names)} (or 1-{len(names)}),"
                          f" not {text!r}")
    return parse
