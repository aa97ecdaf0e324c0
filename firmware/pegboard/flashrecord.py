"""The engine's Record of one game (cribcore.table.record's interface: append, entries,
undo) on the game record's flash (pegboard.gamelog): each change a line written before it
is taken.

It keeps no entry in the heap as the game goes on: what the answers read of the entries
is kept by the Table as they come (cribcore.table.standing: the current hand's and a few
folds), and `entries()` reads the standing ones back from flash (GameLog.entries, the
same fold a boot makes) for what needs them all: a rebuild (an undo, a restart) and the
rare scans. What it reads is never kept: the entries read are the caller's, and leave
the heap with its loop. Kept, they stayed live after an undo (a game's hundred entries
and more, read among the read's own garbage), and the free heap was left in pieces too
small for a phone's state: late in a game to 121 every phone's event stream then ended
at once (bench/chip.py --undos; docs/image.md, s9 lead). So a game's heap stays flat
from its first question to its end, an undo's too (docs/image.md, s8-record)."""

from cribcore.table.gamelines import CLOSE, ENTRY, UNDO, entry_data


class FlashRecord:
    """The engine's Record of one game, on flash (cribcore.table.record's interface): each
    append and undo is a line written before it is taken (module docstring)."""

    def __init__(self, log, game, seq, replay=None, entries=None):
        self.log = log
        self.game = game
        self.seq = seq
        self.replay = replay  # what the boot read (resume), None for a new game
        self.closed = replay.closed_at if replay is not None else 0
        self.prefix = log.token[:3]  # the record's name in each board operation's id
        self._read = entries  # the standing entries the boot read, for the Table's first
        # rebuild only: None once it has them

    def position(self):
        return self.seq

    def append(self, entry):
        """Write the entry's line, then take it (its id and seq are its line's); the entry."""
        seq = self.seq + 1
        self.log.add(self.game, seq, ENTRY, entry_data(entry))
        self.seq = entry.id = entry.seq = seq
        self._read = None  # on flash now: the heap holds none of the game's entries
        return entry

    def entries(self):
        """The entries that stand, in order, read back from flash: a list of the
        caller's, kept by nobody else (the boot's, the first time)."""
        read, self._read = self._read, None
        return self.log.entries(self.game) if read is None else read

    def held(self):
        """How many entries the record holds in the heap now (the tests': none while the
        game goes on, whatever its length)."""
        return 0 if self._read is None else len(self._read)

    def undo(self, entry):
        """Take an entry back (an undo line)."""
        self.log.add(self.game, self.seq + 1, UNDO, entry.seq)
        self.seq += 1
        self._read = None  # what the boot read no longer stands

    def close(self, result):
        """The game is over (result: its plain data): a close line."""
        self.log.add(self.game, self.seq + 1, CLOSE, result)
        self.seq += 1
        self.closed = self.seq

    def reopen(self):
        """The close taken back (an undo at "Another game"): the game is in play again."""
        self.log.add(self.game, self.seq + 1, UNDO, self.closed)
        self.seq += 1
