"""The game record on flash, on a board that serves the table itself (a Pico 2 W): a folder
of LittleFS files, append-only, power-cut safe and bounded, holding each game's lines; the
unfinished game replayed at boot. The engine's Record of one game on it is
pegboard.flashrecord; the session keeping a match's games there, pegboard.recordsession;
the files' calls, pegboard.logfiles; the `games` verb, pegboard.gamesverb. A plain Pico's
build carries none of them (crib.deploy.build.OPTIONAL).

The lines are cribcore.table.gamelines' (each with its CRC). In the folder:

    id    the record's name: 8 random hex digits made once, written in each game's header
          (with the game's number, what makes its id stable for `crib history import`)
    g<N>  game N's lines, appended in batches (LittleFS commits an append whole when the
          file is closed; appending copies the file's last, partial block, so it is done
          once a batch, not once a line)
    t     the tail: the lines of the game in play not yet in its g<N> file, rewritten whole
          at each line (a small file, kept inside its folder's metadata log: about one page
          program a line). When the game closes or the next begins, the tail's lines are
          appended to g<N> and the tail starts again.
    u     the lines after a full tail (the next line would not fit), rewritten whole as
          the tail is, until settle() appends the tail to g<N> and renames u over t: the
          board's server calls it after the reply, so the append (LittleFS copies the
          file's last block, and erases one: tens of ms) never delays one; add() does it
          first when u is full, the game closes or the next begins.

A power cut at any flash command leaves each file as before the write or after it (an
append or a rewrite is committed when its file is closed, a rename is atomic), so every
line acknowledged is in g<N>, the tail or u (read in that order), or in two: a copy is
skipped when read (its SEQ), a torn line (a write cut short) is dropped. The record
keeps at most `budget` bytes of games: the oldest games are dropped first when a new one
begins or the tail is appended; the game in play and the newest are never dropped (its
number is the next one's).

What is in memory: the entries that stand of the game in play (the engine's Table reads
them at every question, as the core's MemoryRecord keeps them) and the tail (under TAIL
bytes). The log is never read whole: a game is replayed a line at a time.
"""

from cribcore.table.gamelines import CLOSE, ENTRY, HEADER, UNDO, Replay, entry_data, line
from pegboard.flashrecord import FlashRecord
from pegboard.logfiles import Files

TAIL = 448  # the tail's size: under LittleFS's inline limit (512 bytes a file on the Pico)
BUDGET = 160 * 1024  # the games kept (bytes of g<N> files): about 8 games of 121 points


class GameLog:
    """The folder of games (module docstring): `open()` reads what is there (not the games
    themselves), `unfinished()` replays the game in play, `new_game(header)` begins one."""

    def __init__(self, path, files=None, budget=BUDGET, token=None):
        self.path = path
        self.files = files or Files()
        self.budget = budget
        self._token = token  # tests: a fixed name instead of random digits
        self.token = None
        self.sizes = {}  # game -> bytes of its g<N> file
        self.tail = []  # the tail's lines (text, newline included), all of game self.game
        self.over = []  # u's lines: after a full tail, until settle()
        self.game = 0  # the game of the tail (0: the tail is empty)
        self.sealed = 0  # the last seq of self.game in its g<N> file
        self.problems = []  # damage found (a sentence each)

    def path_of(self, game):
        """The file of game N's lines."""
        return "%s/g%d" % (self.path, game)

    def open(self):
        """Read the folder: the record's name (made if new), the games and their sizes, the
        tail. Returns self."""
        f = self.files
        try:
            f.mkdir(self.path)
        except OSError:
            pass  # there already (or the first write will say why not)
        token = f.read(self.path + "/id")
        if not token or len(token) != 8:
            token = self._token or _random_token()
            f.write(self.path + "/id", token.encode())  # a cut here: made again, no game yet
        self.token = token if type(token) is str else token.decode()
        for name in f.names(self.path):
            if name[:1] == "g" and name[1:].isdigit():
                self.sizes[int(name[1:])] = f.size(self.path_of(int(name[1:])))
        self._read_tail()
        return self

    def _read_tail(self):
        """The tail's lines as they are (a damaged one too: the replay judges it), the game
        of its first good line (none good: the newest game's, whose lines a tail holds)."""
        from cribcore.table.gamelines import parse

        self.tail, self.over, self.game = [], [], 0
        for name, lines in (("/t", self.tail), ("/u", self.over)):
            for raw in self.files.lines(self.path + name):
                got = parse(raw)
                if got is not None and not self.game:
                    self.game = got[0]
                try:
                    lines.append(raw.decode())
                except UnicodeError:
                    lines.append("?" * len(raw))  # damaged: it fails its check
        if (self.tail or self.over) and not self.game:
            self.game = max(list(self.sizes) + [1])

    def playing(self):
        """The game in play (its lines in the tail), or 0."""
        return self.game if self.tail or self.over else 0

    def games(self):
        """The games on flash that are not in play, oldest first (finished, or set aside)."""
        return sorted([g for g in self.sizes if g != self.playing()])

    def replay(self, game):
        """A game's Replay (cribcore.table.gamelines), read a line at a time."""
        r = Replay(game)
        for raw in self.files.lines(self.path_of(game)):
            r.add(raw)
        if game == self.game:
            self.sealed = r.seq if r.damage is None else 0
            for text in self.tail + self.over:
                r.add(text)
        r.end()
        if r.damage is not None:
            self.problems.append(r.damage)
        return r

    def unfinished(self):
        """The game in play as a FlashRecord ready to go on (its Replay in `.replay`), or
        None when no game is in play (or its header is lost). A game damaged on flash goes
        on as the next game from the entries before the damage (same seqs, an empty undo
        line in each gap: an entry may name another by its seq), and stays as it is."""
        if not self.game:
            return None
        r = self.replay(self.game)
        if r.result is not None or r.header is None:
            return None
        if r.damage is None:
            return FlashRecord(self, self.game, r.entries, r.seq, r)
        rec = self.new_game(r.header)
        standing = r.entries
        at = 0
        for seq in range(2, r.seq + 1):
            if at < len(standing) and standing[at].seq == seq:
                self.add(rec.game, seq, ENTRY, entry_data(standing[at]))
                at += 1
            else:
                self.add(rec.game, seq, UNDO, 0)
        rec._standing, rec.seq, rec.replay = standing, r.seq, r
        return rec

    def new_game(self, header):
        """Begin a game (header: a dict, the setup: names, target, ...): its FlashRecord.
        Whatever the tail holds goes to its game's file first; old games may be dropped."""
        self.settle()
        self._seal([])
        game = max(list(self.sizes) + [self.game, 0]) + 1
        self._drop(game)
        header = dict(header)
        header["rec"] = self.token
        self._write_tail([line(game, 1, HEADER, header)])
        self.game, self.sealed = game, 0
        return FlashRecord(self, game, [], 1)

    def add(self, game, seq, kind, data):
        """Write one line of the game in play (flash first: OSError, and nothing changed)."""
        text = line(game, seq, kind, data)
        if kind == CLOSE:  # the game's every line into its file (the verb reads it there)
            self.settle()
            self._seal([text])
            self._write_tail([])
            return
        if self.over and _size(self.over) + len(text) > TAIL:
            self.settle()  # u is full too: the tail goes to its file now
        if self.over:
            self._write_over(self.over + [text])
        elif _size(self.tail) + len(text) > TAIL:
            self._write_over([text])  # the tail is full: appended by settle()
        else:
            self._write_tail(self.tail + [text])

    def settle(self):
        """What add() left for later (the server's: after the reply): a full tail's lines
        appended to its game's file, and u renamed over it (the tail again); nothing if
        no line is in u."""
        if not self.over:
            return
        self._seal([])
        self.files.rename(self.path + "/u", self.path + "/t")
        self.tail, self.over = self.over, []

    def _write_over(self, lines):
        self.files.write(self.path + "/u", "".join(lines).encode())
        self.over = lines

    def _write_tail(self, lines):
        """Rewrite the tail (never emptied while a game is in play, but when it closes: the
        tail's lines say which game is in play)."""
        self.files.write(self.path + "/t", "".join(lines).encode())
        self.tail = lines

    def _seal(self, more):
        """Append the tail's lines not yet in its game's file (and more) to that file."""
        from cribcore.table.gamelines import parse

        game = self.game
        name = self.path_of(game)
        out = []
        last = self.sealed
        for text in self.tail + more:
            got = parse(text)
            if got is not None and got[1] > self.sealed:
                out.append(text)
                last = got[1]
        if out:
            if self.files.last(name) not in (b"", b"\n"):
                out.insert(0, "\n")  # a torn line ends here: the next line stays whole
            data = "".join(out).encode()
            self.files.append(name, data)
            self.sizes[game] = self.sizes.get(game, 0) + len(data)
            self.sealed = last
            self._drop(game)

    def _drop(self, keep):
        """Drop the oldest games while the kept ones pass the budget (never game `keep`,
        the game in play or beginning, nor the newest before it)."""
        newest = max([g for g in self.sizes if g != keep] + [0])
        while sum(self.sizes.values()) > self.budget:
            old = [g for g in sorted(self.sizes) if g != keep and g != newest]
            if not old:
                return
            self.files.remove(self.path_of(old[0]))
            del self.sizes[old[0]]


def _size(lines):
    return sum([len(t) for t in lines])


def _random_token():
    import os

    return "".join(["%02x" % b for b in os.urandom(4)])
