"""The saved state read back at boot: board, settings and remembered ids from the store's
lines. Used once, at boot: store.loaded() drops the store's reading half, load() cribcore.boardread
(which Board.loads imports) when it is done, and its caller drops this module, so their
code leaves the heap before the app's is imported.
"""

from cribcore.pegs import Board
from cribcore.settings import NAMES, RANGES
from pegboard import drop


def load(store, config):
    """(board, settings, ids, warnings): the newest saved state this layout can use, and
    (code, msg) warnings; a plain tuple, so nothing made here keeps this module's code on
    the heap once its caller drops it. A state this layout cannot use is set aside by the
    store (a person decides; never overwritten) and the older one tried; each refusal and
    each damaged copy the store met is a `bad_state` warning. A new game on this layout,
    its settings from config.json, when no saved state is usable."""
    warnings = []
    board = ids = None
    settings = dict([(k, getattr(config, k)) for k in NAMES])
    lines = store.load(lines=True)
    while lines is not None:
        try:
            board, saved, ids = restore(lines, len(config.lanes))
            settings.update(saved)
            break
        except (ValueError, IndexError) as e:
            warnings.append(("bad_state", f"saved state refused: {e}"))
            try:
                store.refuse(str(e))
            except OSError:
                pass
            lines = store.older(lines=True)
    store.loaded()
    for problem in store.problems:
        warnings.append(("bad_state", problem))
    if board is None:  # a new game
        c = config
        board = Board(len(c.lanes), 121 if c.holes >= 121 else c.holes, c.undo_depth)
        ids = []
    drop("cribcore.boardread")
    return board, settings, ids, warnings


def restore(lines, lanes):
    """(board, settings, ids) from the state's lines (or its text) for a board of `lanes`
    lanes; ValueError if they are bad or do not fit."""
    if type(lines) is str:
        lines = lines.split("\n")
    if len(lines) < 2 or not lines[0].startswith("board "):
        raise ValueError(f"not a state text: {lines[0][:40]!r}")
    board = Board.loads(lines[0][6:], framed=True)  # the store's slot checked the bytes
    if board.players > lanes:
        raise ValueError(f"{board.players} players on {lanes} lanes")
    ids = lines[2:]
    # Only their shape, `id IDENT KEY ok ...`, found in place: every str made at the boot
    # costs the Pico a search of the interned names (pegboard.storeboot).
    for line in ids:
        key = line.find(" ", 3)
        reply = line.find(" ", key + 1) if key > 3 else -1
        if not line.startswith("id ") or reply < 0 or not line.startswith("ok ", reply + 1):
            raise ValueError(f"bad id line {line!r}")
    return board, settings(lines[1]), ids


def settings(line):
    """The settings of a saved `set k=v ...` line (ValueError if it is not one), read
    without the protocol's decoder, which cost the Pico about 30 ms at boot; in bytes,
    which need no search of the interned names (pegboard.storeboot): 1.5 ms less."""
    words = line.encode().split(b" ")
    if words[0] != b"set":
        raise ValueError(f"bad settings line {line!r}")
    out = {}
    for word in words[1:]:
        key, _, value = word.partition(b"=")
        for name, low, high in RANGES:
            if name.encode() == key and low <= int(value) <= high:
                out[name] = int(value)
                break
        else:
            raise ValueError(f"bad setting {word.decode()!r}")
    return out
