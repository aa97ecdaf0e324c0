"""The engine's Record of one game (cribcore.table.record's interface: append, entries,
undo) on the game record's flash (pegboard.gamelog): each change a line written before it
is taken."""

from cribcore.table.gamelines import CLOSE, ENTRY, UNDO, entry_data


class FlashRecord:
    """The engine's Record of one game, on flash (cribcore.table.record's interface): each
    append and undo is a line written before it is taken."""

    def __init__(self, log, game, standing, seq, replay=None):
        self.log = log
        self.game = game
        self._standing = standing
        self.seq = seq
        self.replay = replay  # what the boot read (resume), None for a new game
        self.closed = replay.closed_at if replay is not None else 0
        self.prefix = log.token[:3]  # the record's name in each board operation's id

    def position(self):
        return self.seq

    def append(self, entry):
        """Write the entry's line, then take it (its id and seq are its line's); the entry."""
        seq = self.seq + 1
        self.log.add(self.game, seq, ENTRY, entry_data(entry))
        self.seq = entry.id = entry.seq = seq
        self._standing.append(entry)
        return entry

    def entries(self):
        """The entries that stand, in order (the one list kept: read it, never change it)."""
        return self._standing

    def undo(self, entry):
        """Take an entry back (an undo line)."""
        self.log.add(self.game, self.seq + 1, UNDO, entry.seq)
        self.seq += 1
        self._standing = [e for e in self._standing if e.id != entry.id]

    def close(self, result):
        """The game is over (result: its plain data): a close line."""
        self.log.add(self.game, self.seq + 1, CLOSE, result)
        self.seq += 1
        self.closed = self.seq

    def reopen(self):
        """The close taken back (an undo at "Another game"): the game is in play again."""
        self.log.add(self.game, self.seq + 1, UNDO, self.closed)
        self.seq += 1
