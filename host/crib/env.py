"""The world a command runs in: its streams, its environment variables and the data folder.

crib.cli makes one Env (the process's own streams and os.environ) and passes it to the verb:
`run(args, env)`. Commands write through it and read the environment from it, never from
sys.stdout or os.environ directly, so a test, a script or another front end gives its own.
"""

import os
import sys
from pathlib import Path
from typing import Any, Mapping, Optional, TextIO


def isatty(stream: TextIO) -> bool:
    """True if stream is a terminal (False for streams that cannot tell)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def wants_colour(stream: TextIO, environ: Optional[Mapping[str, str]] = None) -> bool:
    """Colour for stream: on a terminal, unless NO_COLOR is set to anything but ""
    (no-color.org)."""
    environ = os.environ if environ is None else environ
    return isatty(stream) and not environ.get("NO_COLOR")


APP = "crib"  # the folder name in the platform's data folder


def legacy_data_dir() -> Path:
    """Where crib kept its data before it asked platformdirs: ~/.local/share/crib on every OS
    (the same folder as platformdirs' on Linux)."""
    return Path(os.path.expanduser("~")) / ".local" / "share" / APP


def data_dir(environ: Optional[Mapping[str, str]] = None) -> Path:
    """Where crib keeps its data (the history, the virtual board's store).

    $XDG_DATA_HOME/crib when that is set (on every OS, as before), else the platform's user
    data folder from platformdirs: ~/.local/share/crib on Linux, ~/Library/Application
    Support/crib on macOS, %LOCALAPPDATA%\\crib on Windows. Data an older crib kept in
    ~/.local/share/crib stays in use where that differs (macOS, Windows): crib falls back to
    the old folder while the new one does not exist, and moves nothing."""
    environ = os.environ if environ is None else environ
    xdg = environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / APP
    import platformdirs  # imported here: building the parser stays quick

    new = platformdirs.user_data_path(APP, appauthor=False)
    old = legacy_data_dir()
    if not new.exists() and old.is_dir():
        return old
    return new


class Env:
    """Streams (default: the process's, as they are when the Env is made) and environment."""

    def __init__(self, stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None,
                 stderr: Optional[TextIO] = None,
                 environ: Optional[Mapping[str, str]] = None):
        self.stdin = sys.stdin if stdin is None else stdin
        self.stdout = sys.stdout if stdout is None else stdout
        self.stderr = sys.stderr if stderr is None else stderr
        self.environ = os.environ if environ is None else environ

    def print(self, *args: Any, **kw: Any) -> None:
        """print() to stdout (or to file=...)."""
        kw.setdefault("file", self.stdout)
        print(*args, **kw)

    def error(self, text: str) -> None:
        """A line on stderr."""
        print(text, file=self.stderr)

    def getenv(self, name: str, default: Optional[str] = None) -> Optional[str]:
        """An environment variable."""
        return self.environ.get(name, default)

    def colour(self, stream: Optional[TextIO] = None) -> bool:
        """Whether to write colour on stream (default stdout)."""
        return wants_colour(self.stdout if stream is None else stream, self.environ)

    def interactive(self) -> bool:
        """stdin and stdout are both terminals."""
        return isatty(self.stdin) and isatty(self.stdout)

    @property
    def data_dir(self) -> Path:
        """crib's data folder (data_dir)."""
        return data_dir(self.environ)
