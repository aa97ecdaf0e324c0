"""One game, one writer: a lock on a history held while a companion has it open to write.

The lock is an OS lock (crib.filelock) on a file beside the history
(`history.sqlite3.lock`), which also says who holds it (process id and command). The OS
lets go of it when its process ends however it ends, so a lock file left by a killed
companion is recognised as stale and taken over; a live one refuses the second writer
with a sentence naming the first.
"""

import os
import sys
from pathlib import Path

from crib.errors import CribError
from crib.filelock import try_lock, unlock


class HistoryLocked(CribError):
    """Another companion has the history open to write."""


def _who() -> str:
    verb = next((a for a in sys.argv[1:] if not a.startswith("-")), "")
    return ("crib " + verb).strip()


class WriterLock:
    """The lock of the history at path (acquire() or HistoryLocked; release())."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.history = Path(path)
        self.path = Path(str(path) + ".lock")
        self._fd: int | None = None

    def acquire(self) -> "WriterLock":
        """Take the lock, or raise HistoryLocked naming who holds it."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise HistoryLocked(f"cannot lock the history {str(self.history)!r}:"
                                f" {e.strerror} ({str(self.path)!r})") from None
        if not try_lock(fd):
            holder = os.read(fd, 200).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            raise HistoryLocked(
                f"the history {str(self.history)!r} is in use by another companion"
                f" ({holder}): one game has one writer. Stop that one first, or give"
                f" --db another history file")
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"pid {os.getpid()}, {_who()}".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        """Let go of the lock (the file stays: removing it could race a new writer)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            unlock(fd)
