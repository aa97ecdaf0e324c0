"""The one terminal writer: lines of (text, style) segments, in colour through rich on a
terminal, plain text in a pipe, a file, a test, or wherever NO_COLOR is set (no-color.org).

A line is a list of (text, style) segments; style names are rich's ("bold red", "cyan").
"""

from typing import Any, Optional, Sequence, TextIO, Tuple

from crib.env import isatty, wants_colour

__all__ = ["Line", "Segment", "Writer", "isatty", "plain", "wants_colour", "write_lines"]

Segment = Tuple[str, str]
Line = Sequence[Segment]


def plain(line: Line) -> str:
    """A line's text without its styles."""
    return "".join(text for text, _ in line)


class Writer:
    """Writes lines to out, in colour or not (default: wants_colour(out))."""

    def __init__(self, out: TextIO, colour: Optional[bool] = None):
        self.out = out
        self.colour = wants_colour(out) if colour is None else colour
        self._console: Any = None  # rich's Console, made on the first coloured line

    def line(self, segments: Line) -> None:
        """Write one line."""
        if not self.colour:
            self.out.write(plain(segments) + "\n")
            return
        from rich.text import Text  # rich loads only when colour is wanted

        if self._console is None:
            from rich.console import Console

            self._console = Console(file=self.out, force_terminal=True, highlight=False)
        self._console.print(Text.assemble(*segments))

    def lines(self, lines: Sequence[Line]) -> None:
        """Write each line."""
        for line in lines:
            self.line(line)


def write_lines(lines: Sequence[Line], out: TextIO, colour: Optional[bool] = None) -> None:
    """Write lines of segments to out (colour as Writer decides)."""
    Writer(out, colour).lines(lines)
