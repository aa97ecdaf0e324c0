"""An OS lock on an open file, taken without waiting: what keeps one virtual board per
store (crib.sim) and one writer per history (crib.history.lock). The OS lets go of it when
its process ends however it ends, so a lock file left behind is never mistaken for a live
one. flock on POSIX, msvcrt on Windows (imported where they exist)."""

import os
import sys


def try_lock(fd: int) -> bool:
    """Take an exclusive lock on the open file fd without waiting; False if another open
    file holds it."""
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def unlock(fd: int) -> None:
    """Drop a lock try_lock took on fd and close it."""
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
    os.close(fd)  # closing drops a flock
