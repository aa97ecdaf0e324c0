"""Answers to the table's questions: the parsers that validate them, and the requests a
player can make instead of answering (undo). A parser takes the text a player gave (typed,
or tapped on a phone) and returns a value, or raises AnswerError saying why not."""

from cribcore import CoreError


class AnswerError(CoreError):
    """An answer that does not fit the question (nothing was changed)."""


class UndoRequest(Exception):
    """Take back the last entry (or step back inside a question of several steps)."""


def is_digits(text):
    """True for a non-empty run of ASCII digits (str.isdigit also takes other scripts')."""
    if not text:
        return False
    for ch in text:
        if not "0" <= ch <= "9":
            return False
    return True


def parse_yes(text):
    """True for y/yes, False for n/no."""
    low = text.strip().lower()
    if low in ("y", "yes"):
        return True
    if low in ("n", "no"):
        return False
    raise AnswerError("answer y or n, not %r" % (text,))


def yes_parser(default):
    """A parser of a yes/no answer where Enter gives default."""
    def parse(text):
        return parse_yes(text) if text.strip() else default
    return parse


def whole_number(text):
    """text as a whole number written in ASCII digits (an optional sign, spaces around);
    ValueError otherwise (int() would also take other scripts' digits and underscores)."""
    t = text.strip()
    digits = t[1:] if t[:1] in ("+", "-") else t
    if not is_digits(digits):
        raise ValueError("not a whole number: %r" % (text,))
    return int(t)


def parse_int(low, high, what="a number"):
    """A parser of whole numbers low..high."""
    def parse(text):
        try:
            n = whole_number(text)
        except ValueError:
            raise AnswerError("%s must be a whole number %d-%d, not %r"
                              % (what, low, high, text)) from None
        if not low <= n <= high:
            raise AnswerError("%s must be %d-%d, not %d" % (what, low, high, n))
        return n
    return parse


def parse_choice(names, what="a player"):
    """A parser of one of names (by number 1.., full name or a unique prefix): its index."""
    def parse(text):
        low = text.strip().lower()
        if is_digits(low) and 1 <= int(low) <= len(names):
            return int(low) - 1
        exact = [i for i, n in enumerate(names) if n.lower() == low]
        if exact:
            return exact[0]
        hits = [i for i, n in enumerate(names) if low and n.lower().startswith(low)]
        if len(hits) == 1:
            return hits[0]
        raise AnswerError("%s: one of %s (or 1-%d), not %r"
                          % (what, ", ".join(names), len(names), text))
    return parse
