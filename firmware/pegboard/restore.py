"""The saved state read back at boot: board, settings and remembered ids from the store's
lines. Used once, at boot: the app drops this module (and cribcore.boardread, which
Board.loads imports) afterwards, so their code leaves the heap.
"""

from cribcore.pegs import Board
from cribcore.settings import NAMES, RANGES


class Saved:
    """What boot found: board, settings and ids to start from, and (code, msg) warnings."""

    def __init__(self, config):
        self.warnings = []
        self.fresh(config)

    def fresh(self, config):
        """A new game on this layout (its board made by load() once no saved one is
        found), its settings from config.json."""
        self.board = None
        self.settings = dict([(k, getattr(config, k)) for k in NAMES])
        self.ids = []


def load(store, config):
    """The newest saved state this layout can use, as a Saved. A state it cannot use is
    set aside by the store (a person decides; never overwritten) and the older one tried;
    each refusal and each damaged copy the store met is a `bad_state` warning."""
    saved = Saved(config)
    text = store.load()
    while text is not None:
        try:
            saved.board, settings, saved.ids = restore(text, len(config.lanes))
            saved.settings.update(settings)
            break
        except (ValueError, IndexError) as e:
            saved.warnings.append(("bad_state", f"saved state refused: {e}"))
            saved.fresh(config)
            try:
                store.refuse(str(e))
            except OSError:
                pass
            text = store.older()
    for problem in store.problems:
        saved.warnings.append(("bad_state", problem))
    if saved.board is None:  # a new game
        c = config
        saved.board = Board(len(c.lanes), 121 if c.holes >= 121 else c.holes, c.undo_depth)
    return saved


def restore(lines, lanes):
    """(board, settings, ids) from the state's lines (or its text) for a board of `lanes`
    lanes; ValueError if they are bad or do not fit."""
    if type(lines) is str:
        lines = lines.split("\n")
    if len(lines) < 2 or not lines[0].startswith("board "):
        raise ValueError(f"not a state text: {lines[0][:40]!r}")
    board = Board.loads(lines[0][6:])
    if board.players > lanes:
        raise ValueError(f"{board.players} players on {lanes} lanes")
    ids = lines[2:]
    for line in ids:  # only their shape, `id IDENT KEY ok ...` (found, not split: the boot)
        key = line.find(" ", 3)
        reply = line.find(" ", key + 1) if key > 3 else -1
        if not line.startswith("id ") or reply < 0 or line[reply + 1:reply + 4] != "ok ":
            raise ValueError(f"bad id line {line!r}")
    return board, settings(lines[1]), ids


def settings(line):
    """The settings of a saved `set k=v ...` line (ValueError if it is not one), read
    without the protocol's decoder, which cost the Pico about 30 ms at boot."""
    words = line.split(" ")
    if words[0] != "set":
        raise ValueError(f"bad settings line {line!r}")
    out = {}
    for word in words[1:]:
        key, _, value = word.partition("=")
        for name, low, high in RANGES:
            if name == key and low <= int(value) <= high:
                out[key] = int(value)
                break
        else:
            raise ValueError(f"bad setting {word!r}")
    return out
