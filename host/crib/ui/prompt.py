"""The terminal front end of the table engine: each question as a prompt, one line of
input per answer, from the keyboard or a script.

Every prompt also takes `undo` (take back the last entry), `quit` (stop; the game is saved)
and `?` (what this prompt accepts); Enter takes the default shown in brackets. While it
waits for a line, the board is polled (a press on its buttons is recorded and shown when
it happens, and the prompt shown again); the line typed meanwhile is kept and answers the
question open when Enter is pressed. At a terminal, lines are edited with readline where
Python has it (arrows, Home/End, earlier answers with Up). Where it has not (Windows, a
Python built without it), keys a terminal sends as codes (arrows, Backspace left in the
line) could reach the answer: such a line is refused and asked again, never stored.
"""

import queue
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any, TextIO

from crib.env import isatty
from crib.errors import CribError
from crib.ui.view import View
from cribcore.table.answers import AnswerError
from cribcore.table.questions import Question

UNDO_WORDS = ("undo", "u")
QUIT_WORDS = ("quit", "exit")  # not "q": that is a queen
HELP_WORDS = ("?", "help")
POLL_S = 0.1  # how often the board is polled while a prompt waits
# Control characters an edited line must not hold: Escape (arrow and function keys arrive as
# ESC [ D ...), Backspace and Delete, and the rest of C0 but Tab.
KEY_CODES = frozenset(chr(c) for c in range(32) if c != 9) | {"\x7f"}
KEY_CODES_REFUSED = ("that answer holds key codes (arrow keys or Backspace, which this "
                     "terminal does not edit with): type it again")


def has_key_codes(text: str) -> bool:
    """True if text holds a control character a person would not mean to type."""
    return any(c in KEY_CODES for c in text)


class QuitRequest(Exception):
    """The player typed `quit`: stop here, the game stays saved."""


class InputEnded(CribError):
    """The input stream ended while a question was open."""


def _has_fd(stream: Any) -> bool:
    try:
        stream.fileno()
    except (AttributeError, ValueError, OSError):
        return False
    return True


def line_editor(stream: Any) -> ModuleType | None:
    """The readline module when stream is this process's terminal and Python has it (not
    on every platform), else None."""
    if stream is not sys.stdin or not isatty(stream) or not isatty(sys.stdout):
        return None
    try:
        import readline
    except ImportError:
        return None
    return readline


class _Lines:
    """Lines of a stream, each read on request by a thread of its own, so the caller can
    poll the board while a person types (a script in memory is read directly). With a
    line editor the thread reads through input(), which shows the prompt itself."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.threaded = _has_fd(stream)
        self.editor = line_editor(stream)
        self._want: queue.Queue[str | None] = queue.Queue()
        self._got: queue.Queue[str] = queue.Queue()
        self._asked = False
        self._thread: threading.Thread | None = None

    def _reader(self) -> None:
        while True:
            prompt = self._want.get()
            if prompt is None:
                return
            try:
                if self.editor:
                    line = input(prompt) + "\n"
                else:
                    line = self.stream.readline()
            except (OSError, ValueError, EOFError):
                line = ""
            self._got.put(line)

    def redisplay(self) -> None:
        """Show the prompt and the line being edited again (after other output)."""
        if self.editor:
            self.editor.redisplay()

    def get(self, timeout: float, prompt: str = "") -> str | None:
        """The next line ('' at the end), or None if none came within timeout."""
        if not self.threaded:
            return self.stream.readline()
        if self._thread is None:
            self._thread = threading.Thread(target=self._reader, daemon=True)
            self._thread.start()
        if not self._asked:
            self._asked = True
            self._want.put(prompt)
        try:
            line = self._got.get(timeout=timeout)
        except queue.Empty:
            return None
        self._asked = False
        return line


class Terminal:
    """Drive a TableEngine from a text stream (inp) to a View (module docstring).

    echo: write each answer after its prompt (when inp is a script, not a terminal), so the
    output reads as a transcript."""

    def __init__(self, engine: Any, inp: TextIO, view: View, echo: bool = False,
                 auto: Callable[[Question], str | None] | None = None) -> None:
        self.engine = engine
        self.auto = auto  # question -> an answer given without asking (a computer seat)
        self.view = view
        self.echo = echo
        self.lines = _Lines(inp)
        self._status = None

    def run(self) -> None:
        """Ask until the session is over; QuitRequest or InputEnded stop it early."""
        self.view.events(self.engine.start())
        while True:
            self.view.events(self.engine.poll())
            q = self.engine.question()
            if q is None:
                return
            given = self.auto(q) if self.auto else None
            if given is not None:
                self.view.events(self.engine.answer(q.id, given))
                continue
            text = self._read(q)
            if has_key_codes(text):
                self.view.problem(KEY_CODES_REFUSED)
                continue
            low = text.lower()
            if low in QUIT_WORDS:
                raise QuitRequest()
            if low in HELP_WORDS:
                self.view.note(q.hint or "answer the question, or: undo, quit")
                continue
            self.view.events(self.engine.poll())  # what the board did while we waited
            q = self.engine.question()
            if q is None:
                return
            try:
                if low in UNDO_WORDS and q.undo:
                    self.view.events(self.engine.undo(q.id))
                else:
                    self.view.events(self.engine.answer(q.id, text))
            except AnswerError as e:
                self.view.problem(str(e) or f"not understood: {text!r}")

    def _show(self, q: Question) -> str:
        status = q.known
        if status != self._status or self.view.tty:
            self.view.status(status)
            self._status = status
        shown = q.prompt if q.default in (None, "") else f"{q.prompt} [{q.default}]"
        if self.lines.editor:
            return shown + ": "  # input() shows it, so readline can redraw the line
        self.view.prompt(shown + ": ")
        return ""

    def _read(self, q: Question) -> str:
        """One line for question q, the board polled (and news shown) while it waits."""
        prompt = self._show(q)
        while True:
            line = self.lines.get(POLL_S, prompt)
            if line is not None:
                break
            news = self.engine.poll()
            if news:
                self.view.line("")
                self.view.events(news)
                q = self.engine.question()
                if q is None:
                    return ""
                if self.lines.editor:  # the prompt input() shows stays: say what is asked
                    self.view.note("now: " + q.prompt)
                    self.lines.redisplay()
                else:
                    self._show(q)
        if not line:
            self.view.line("")
            raise InputEnded(f"input ended at {q.prompt!r}")
        line = line.rstrip("\r\n")
        if self.echo:
            self.view.echo(line)
        return line.strip()
