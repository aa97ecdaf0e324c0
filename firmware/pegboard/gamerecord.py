"""The game record on flash, on a board that serves the table itself (a Pico 2 W): the
engine's Record (cribcore.table.record: append, entries, undo) kept in a folder of
LittleFS files, append-only, power-cut safe and bounded; the unfinished game replayed at
boot; the `games` verb that reads the finished ones over USB. A plain Pico's build does
not carry this module (crib.deploy.build.OPTIONAL); the board's main registers the verb
(register), as desk.py registers the desktop's.

The lines are cribcore.table.gamelines' (each with its CRC). In the folder:

    id    the record's name: 8 random hex digits made once, written in each game's header
          (with the game's number, what makes its id stable for `crib history import`)
    g<N>  game N's lines, appended in batches (LittleFS commits an append whole when the
          file is closed; appending copies the file's last, partial block, so it is done
          once a batch, not once a line)
    t     the tail: the lines of the game in play not yet in its g<N> file, rewritten whole
          at each line (a small file, kept inside its folder's metadata log: about one page
          program a line). When the next line would not fit, or the game closes or the
          next begins, the tail's lines are appended to g<N> and the tail starts again.

A power cut at any flash command leaves each file as before the write or after it (an
append or a rewrite is committed when its file is closed), so every line acknowledged is
in the tail or in g<N>, or both: a copy is skipped when read (its SEQ), a torn line (a
write cut short) is dropped. The record keeps at most `budget` bytes of games: the oldest
games are dropped first when a new one begins or the tail is appended; the game in play
and the newest are never dropped (its number is the next one's).

What is in memory: the entries that stand of the game in play (the engine's Table reads
them at every question, as the core's MemoryRecord keeps them) and the tail (under TAIL
bytes). The log is never read whole: a game is replayed a line at a time.
"""

from cribcore.rules import SKUNKS
from cribcore.table.gamelines import CLOSE, ENTRY, HEADER, UNDO, Replay, entry_data, line
from cribcore.table.session import CUT, Session, Setup, result
from cribcore.table.table import Table
from cribcore.table.turns import Turns
from pegboard.store import Files as StateFiles

TAIL = 448  # the tail's size: under LittleFS's inline limit (512 bytes a file on the Pico)
BUDGET = 160 * 1024  # the games kept (bytes of g<N> files): about 8 games of 121 points


class Files(StateFiles):
    """The real filesystem (LittleFS on the board): the state's read and mkdir, and what a
    log needs besides; tests pass a fake with these methods."""

    def lines(self, name):
        """The file's lines one at a time (bytes, newline included), none if it is absent."""
        try:
            f = open(name, "rb")
        except OSError:
            return
        with f:
            while True:
                raw = f.readline()
                if not raw:
                    return
                yield raw

    def line_at(self, name, offset):
        """(the line at byte offset, the offset after it); (b"", offset) at the end."""
        with open(name, "rb") as f:
            f.seek(offset)
            raw = f.readline()
        return raw, offset + len(raw)

    def write(self, name, data):
        """Create or replace a file (committed whole when closed)."""
        with open(name, "wb") as f:
            f.write(data)

    def append(self, name, data):
        """Add to the end of a file (made if absent; committed whole when closed)."""
        with open(name, "ab") as f:
            f.write(data)

    def last(self, name):
        """The file's last byte (b"" when it is empty or absent)."""
        try:
            with open(name, "rb") as f:
                f.seek(0, 2)
                if not f.tell():
                    return b""
                f.seek(-1, 2)
                return f.read(1)
        except OSError:
            return b""

    def size(self, name):
        import os

        try:
            return os.stat(name)[6]
        except OSError:
            return 0

    def names(self, folder):
        import os

        try:
            return os.listdir(folder)
        except OSError:
            return []

    def remove(self, name):
        import os

        os.remove(name)



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
        self.game = 0  # the game of the tail (0: the tail is empty)
        self.sealed = 0  # the last seq of self.game in its g<N> file
        self.problems = []  # damage found (a sentence each)

    def _name(self, game):
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
                self.sizes[int(name[1:])] = f.size(self._name(int(name[1:])))
        self._read_tail()
        return self

    def _read_tail(self):
        """The tail's lines as they are (a damaged one too: the replay judges it), the game
        of its first good line (none good: the newest game's, whose lines a tail holds)."""
        from cribcore.table.gamelines import parse

        self.tail, self.game = [], 0
        for raw in self.files.lines(self.path + "/t"):
            got = parse(raw)
            if got is not None and not self.game:
                self.game = got[0]
            try:
                self.tail.append(raw.decode())
            except UnicodeError:
                self.tail.append("?" * len(raw))  # damaged: it fails its check
        if self.tail and not self.game:
            self.game = max(list(self.sizes) + [1])

    def playing(self):
        """The game in play (its lines in the tail), or 0."""
        return self.game if self.tail else 0

    def games(self):
        """The games on flash that are not in play, oldest first (finished, or set aside)."""
        return sorted([g for g in self.sizes if g != self.playing()])

    def replay(self, game):
        """A game's Replay (cribcore.table.gamelines), read a line at a time."""
        r = Replay(game)
        for raw in self.files.lines(self._name(game)):
            r.add(raw)
        if game == self.game:
            self.sealed = r.seq if r.damage is None else 0
            for text in self.tail:
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
            self._seal([text])
            self._write_tail([])
        elif sum([len(t) for t in self.tail]) + len(text) > TAIL:
            self._seal([])
            self._write_tail([text])
        else:
            self._write_tail(self.tail + [text])

    def _write_tail(self, lines):
        """Rewrite the tail (never emptied while a game is in play, but when it closes: the
        tail's lines say which game is in play)."""
        self.files.write(self.path + "/t", "".join(lines).encode())
        self.tail = lines

    def _seal(self, more):
        """Append the tail's lines not yet in its game's file (and more) to that file."""
        from cribcore.table.gamelines import parse

        game = self.game
        name = self._name(game)
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
            self.files.remove(self._name(old[0]))
            del self.sizes[old[0]]

    # -- the `games` verb ----------------------------------------------------------------------

    def answer(self, args):
        """The reply fields of `games` (docs/protocol.md): without g, the games not in play;
        with g (and at, a byte offset), the line there (none: the game's end; the next
        line is at `at` + its length + 1)."""
        from cribcore.protocol import ProtocolError

        if "g" not in args:  # (no games: the field left out, an empty list has no spelling)
            return {"games": tuple(self.games()) or None}
        game, at = args["g"], args.get("at", 0)
        if game not in self.sizes or game == self.playing():
            raise ProtocolError("no finished game %d on this board" % game, "bad_arg")
        raw, _ = self.files.line_at(self._name(game), at)
        if not raw:
            return {"g": game, "at": at}
        body = raw[:-1] if raw[-1:] == b"\n" else raw
        if body.strip(bytes(range(32, 127))):  # damaged: not protocol text, but as long
            body = b"?" * len(body)  # (the next line's offset), and it fails its check
        return {"g": game, "at": at, "line": body.decode()}


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


def _random_token():
    import os

    return "".join(["%02x" % b for b in os.urandom(4)])


def register(app, log):
    """Give an App the `games` verb over a GameLog (a board with the record)."""
    app.VERBS = dict(app.VERBS)
    app.VERBS["games"] = lambda app_, args: log.answer(args)


class RecordSession(Session):
    """The core's session (cribcore.table.session) with each game in the GameLog: a new game
    begins with its header line, a finished one is closed (reopened if "Another game" is
    undone), and start() goes on with the game in play when there is one (the board's
    `--resume`: after a power cut the engine replays it and asks what it asked)."""

    def __init__(self, log, board, view, options, turns=None, games=0):
        Session.__init__(self, board, view, options, turns or Turns, games)
        self.log = log

    def start(self, setup, resume):
        rec = self.log.unfinished()
        if rec is None:
            return (yield from Session.start(self, setup, resume))
        h = rec.replay.header
        self.setup = Setup(h["names"], h["partnerships"], h["target"],
                           CUT if h["dealer"] is None else h["dealer"])
        table = Table(rec, self.board, self.view, h["names"], h["target"], h["partnerships"],
                      h["dealer"], h["options"], rec.game)
        self.view.heading("Game %d resumed: %s to %d" % (rec.game, " v ".join(table.side_names),
                                                          table.target))
        self.results = self._match_before(rec.game, h, table)
        table.mark_dealer()
        return table

    def _match_before(self, game, header, table):
        """The results of the match's games before `game` (Session.results), read back
        from their close lines: a power cut keeps the match's tally. Back from the game
        before it to the one that began the match (its header says so)."""
        out = []
        while not header.get("match") and game > 1:
            game -= 1
            if game not in self.log.sizes:
                break  # dropped for the budget: the tally from what is kept
            r = self.log.replay(game)
            header = r.header or {}
            if r.result is None or r.result["winner"] not in table.side_names:
                break  # set aside unfinished, or another match's players
            level = SKUNKS.index(r.result["skunk"])
            out.insert(0, (game, table.side_names.index(r.result["winner"]),
                           table.game_points[level]))
        return out

    def new_game(self, last, dealer, first):
        dealer = None if dealer == CUT else dealer
        s = self.setup
        rec = self.log.new_game({"names": list(s.names), "partnerships": bool(s.partnerships),
                                 "target": s.target, "dealer": dealer,
                                 "options": self.options, "match": bool(first)})
        table = Table(rec, self.board, self.view, s.names, s.target, s.partnerships, dealer,
                      self.options, rec.game)
        return self.open_game(table, rec.game, first)

    def finish(self, table):
        points = Session.finish(self, table)
        table.rec.close(result(table))
        return points

    def unfinish(self, table):
        Session.unfinish(self, table)
        table.rec.reopen()
