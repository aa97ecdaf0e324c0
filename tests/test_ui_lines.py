"""crib.ui.lines, the one terminal writer: colour on a terminal, plain text elsewhere and
wherever NO_COLOR is set; `crib score` and `crib shuffle` write through it."""

import io
import sys

import pytest

from crib.cli import main
from crib.ui.lines import Writer, wants_colour, write_lines

LINE = [("total    ", "bold"), ("12", "bold green")]


class Tty(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self):
        return True


def test_colour_on_a_terminal_only():
    assert wants_colour(Tty(), {}) and not wants_colour(io.StringIO(), {})
    out = Tty()
    write_lines([LINE], out, colour=True)
    assert "\x1b[" in out.getvalue() and "total" in out.getvalue()


@pytest.mark.parametrize("value", ["1", "yes", "0"])
def test_no_color_set_to_anything_is_plain(value):
    assert not wants_colour(Tty(), {"NO_COLOR": value})


def test_an_empty_no_color_does_not_count():
    assert wants_colour(Tty(), {"NO_COLOR": ""})


def test_plain_text_has_the_segments_in_order():
    out = io.StringIO()
    Writer(out).lines([LINE, [("x", "red")]])
    assert out.getvalue() == "total    12\nx\n"


@pytest.mark.parametrize("argv", [["score", "5h", "5c", "5d", "jh", "5s"],
                                  ["shuffle", "--seed", "3", "--solve", "--time-limit", "0.2"]])
def test_commands_honour_no_color_on_a_terminal(argv, monkeypatch):
    out = Tty()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(argv) == 0
    assert "\x1b[" not in out.getvalue() and out.getvalue().strip()
    monkeypatch.delenv("NO_COLOR")
    out.seek(0)
    out.truncate()
    assert main(argv) == 0
    assert "\x1b[" in out.getvalue()
