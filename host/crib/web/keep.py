"""The joining address of a `crib serve` run, kept while the run has an unfinished game,
so that `crib serve --resume` comes back at the same address with the same key: the
phones reconnect by themselves and keep their seats (a seat's token is derived from the
key). The key is the run's, not a game's: after a kill -9 in the run's second game the
resume still has it. A small JSON file beside the history (readable by its owner only):
{"game": the game when it was written (or null), "key": key, "port": port}; a run that
ends with no unfinished game removes it (forget).
"""

import json
import os
from pathlib import Path
from typing import Any

Db = str | os.PathLike[str]  # the history file's path


def keep_path(db: Db) -> Path:
    """Where the address of the history db's unfinished game is kept."""
    return Path(f"{db}.serve.json")


def load(db: Db) -> dict[str, Any] | None:
    """The kept {"key", "port"} of the last run, or None (none kept, unreadable)."""
    try:
        data = json.loads(keep_path(db).read_text())
    except (OSError, ValueError):
        return None
    ok = isinstance(data, dict) and isinstance(data.get("key"), str) \
        and isinstance(data.get("port"), int)
    return data if ok else None


def save(db: Db, game_id: int | None, key: str, port: int) -> None:
    """Keep the run's address (written whole, then renamed into place)."""
    path = keep_path(db)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump({"game": game_id, "key": key, "port": port}, f)
    os.replace(tmp, path)


def forget(db: Db) -> None:
    """No unfinished game: nothing to keep."""
    try:
        keep_path(db).unlink()
    except FileNotFoundError:
        pass
