"""Prompts for the table: one line of input per answer, read from any stream (the keyboard
or a script), re-asked with a clear message until it parses.

Every prompt also takes `undo` (take back the last entry), `quit` (stop; the game is saved)
and `?` (what this prompt accepts). Enter takes the default shown in brackets.
"""

from crib.errors import CribError
from cribcore.errors import CoreError

UNDO_WORDS = ("undo", "u")
QUIT_WORDS = ("quit", "exit")  # not "q": that is a queen
HELP_WORDS = ("?", "help")


class UndoRequest(Exception):
    """The player typed `undo` at a prompt."""


class QuitRequest(Exception):
    """The player typed `quit`: stop here, the game stays saved."""


class InputEnded(CribError):
    """The input stream ended while a question was open."""


def is_terminal(stream):
    """True when stream is an interactive terminal (False for pipes, files, StringIO)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Prompter:
    """Ask questions on out and read answers from inp (one line each).

    echo: write each answer after its prompt (when inp is a script, not a terminal), so the
    output reads as a transcript. before: called before each prompt and after each answer
    is read (polls the board; it may raise to drop a question the board made stale).
    """

    def __init__(self, inp, view, echo=False, before=None):
        self.inp = inp
        self.view = view
        self.echo = echo
        self.before = before

    def _readline(self, prompt):
        self.view.prompt(prompt)
        line = self.inp.readline()
        if not line:
            self.view.line("")
            raise InputEnded(f"input ended at {prompt.strip()!r}")
        line = line.rstrip("\r\n")
        if self.echo:
            self.view.echo(line)
        return line.strip()

    def ask(self, prompt, parse, default=None, hint="", undo=True):
        """Ask until parse(answer) returns a value; Enter gives default (when not None)."""
        shown = prompt if default in (None, "") else f"{prompt} [{default}]"
        while True:
            if self.before:
                self.before()
            text = self._readline(shown + ": ")
            if self.before:
                self.before()  # what the board did while we waited comes first
            low = text.lower()
            if undo and low in UNDO_WORDS:
                raise UndoRequest()
            if low in QUIT_WORDS:
                raise QuitRequest()
            if low in HELP_WORDS:
                self.view.note(hint or "answer the question, or: undo, quit")
                continue
            if not text and default is not None:
                text = str(default)
            try:
                return parse(text)
            except (CribError, CoreError, ValueError) as e:
                self.view.problem(str(e) or f"not understood: {text!r}")

    def yes(self, prompt, default=True, undo=True):
        """A yes/no question; Enter gives default."""
        def parse(text):
            return parse_yes(text) if text else default
        marker = "Y/n" if default else "y/N"
        return self.ask(f"{prompt} ({marker})", parse, None, "y or n", undo=undo)


class AnswerError(CribError):
    """An answer that does not fit the question."""


def parse_yes(text):
    """True for y/yes, False for n/no."""
    low = text.strip().lower()
    if low in ("y", "yes"):
        return True
    if low in ("n", "no"):
        return False
    raise AnswerError(f"answer y or n, not {text!r}")


def parse_int(low, high, what="a number"):
    """A parser of whole numbers low..high."""
    def parse(text):
        try:
            n = int(text)
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
        if low.isdigit() and 1 <= int(low) <= len(names):
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
