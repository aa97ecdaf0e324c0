"""The joining address kept with an unfinished game, so that `crib serve --resume` comes
back at the same address with the same key: the phones reconnect by themselves and keep
their seats (a seat's token is derived from the key). A small JSON file beside the history
(readable by its owner only): {"game": id, "key": key, "port": port}.
"""

import json
import os
from pathlib import Path
from typing import Any

Db = str | os.PathLike[str]  # the history file's path


def keep_path(db: Db) -> Path:
    """Where the address of the history db's unfinished game is kept."""
    return Path(f"{db}.serve.json")


def load(db: Db, game_id: int | None) -> dict[str, Any] | None:
    """The kept {"key", "port"} of game_id, or None (none kept, another game, unreadable)."""
    try:
        data = json.loads(keep_path(db).read_text())
    except (OSError, ValueError):
        return None
    ok = isinstance(data, dict) and data.get("game") == game_id and game_id is not None \
        and isinstance(data.get("key"), str) and isinstance(data.get("port"), int)
    return data if ok else None


def save(db: Db, game_id: int, key: str, port: int) -> None:
    """Keep the address of game_id (written whole, then renamed into place)."""
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
