"""The game record on flash, on a board that serves the table itself (a Pico 2 W): a folder
of LittleFS files, append-only, power-cut safe and bounded, holding each game's lines; the
unfinished game replayed at boot. The engine's Record of one game on it is
pegboard.flashrecord; the session keeping a match's games there, pegboard.recordsession;
the files' calls, pegboard.logfiles; the `games` verb, pegboard.gamesverb. A plain Pico's
build carries none of them (crib.deploy.build.OPTIONAL).

The lines are cribcore.table.gamelines' (each with its CRC). In the folder:

    id     the record's name: 8 random hex digits made once, written in each game's header
           (with the game's number, what makes its id stable for `crib history import`)
    g<N>   game N's lines, appended in batches (LittleFS commits an append whole when the
           file is closed; appending copies the file's last, partial block and erases
           one, so it is done once a batch, after a reply, not once a line)
    s<K>/t a segment: the newest lines of the game in play not yet in its g<N> file, each
           line appended as it is written (a small file, under TAIL bytes and LINES lines,
           kept inline in its folder's metadata log: LittleFS rewrites it there in C, one
           or two page programs a line). Each segment is a folder of its own, made
           (mkdir: one sector erase) with its empty file after a reply, ahead of its
           first line: its metadata log starts empty, so its few commits never fill the
           4K block, and a line written before a reply never waits for a compaction
           (a sector erase, and LittleFS's copy of the folder's live entries: the
           19-55 ms spikes measured on the emulated chip when the tail was a file in
           this folder, beside every game's file). When a segment is full, the next
           line starts the next one; settle() (the board's server calls it after each
           reply) appends the full segments' lines to g<N> once SEAL of them wait (one
           append: LittleFS copies the file's last block, a sector erase), removes them
           (the file, then its folder) and makes the next segment's folder. add()
           does it first when it must (no folder made ahead: a failed settle(); more
           than SEAL full segments; the next game begins). The close line is a
           segment's line too: settle() seals a closed game whole into g<N> after
           the winning answer's reply.
    s<K>/a what keep() keeps (the board's answers that wrote no line yet), in the newest
           segment's folder while its block has room (PAGES), else in the next one's:
           never a commit of this folder, whose block the games' files fill
    t, u   the tail files of earlier firmware: read as the oldest segments, and sealed
           into g<N> like them (a board updated mid-game goes on with its game)

A power cut at any flash command leaves each file as before the write or after it (an
append is committed when its file is closed, a folder made or removed whole), so every
line acknowledged is in g<N> or a segment (read in that order), or in two: a copy is
skipped when read (its SEQ), a torn line (a write cut short) is dropped; a segment found
at boot is never written again (its last line may be torn): the next line starts a new
one. The record keeps at most `budget` bytes of games: the oldest games are dropped first
when a new one begins or a segment is sealed; the game in play and the newest are never
dropped (its number is the next one's).

What is in memory: the segments' lines (under (SEAL + 1) x TAIL bytes, as written), with
each segment's size and each line's SEQ as numbers: a line written costs its own bytes,
nothing joined, parsed or summed again. No entry of the game in play is kept: the
engine's Table keeps what its answers read as the entries come (the current hand's and a
few folds), and what needs them all (an undo, a restart) reads them back with entries()
(pegboard.flashrecord). The log is never read whole: a game is replayed a line at a time.
"""

from cribcore.table.gamelines import CLOSE, ENTRY, HEADER, UNDO, Replay, entry_data, line
from pegboard.flashrecord import FlashRecord
from pegboard.logfiles import Files

TAIL = 448  # a segment's bytes: under LittleFS's inline limit (512 bytes a file on the Pico)
LINES = 5  # a segment's lines: its folder's commits stay within one 4K block (256-byte pages)
PAGES = 14  # a segment folder's commits, in 256-byte pages, before the next folder is used:
# its 4K metadata block holds 16, so a commit there never waits for a compaction (an erase)
KEPT = "/a"  # in a segment's folder: what keep() keeps (boardweb.resume: the answers taken
# that wrote no line yet); in the record's folder, an earlier firmware's
# Full segments sealed at once (one append to g<N>: LittleFS copies its last block, an
# erase). 2 took the record's erases from 0.60 to 0.46 an answer, but RAM then holds a
# third segment's lines: the heap's peak on the emulated chip rose 1.4 KB (docs/image.md).
SEAL = 1
BUDGET = 160 * 1024  # the games kept (bytes of g<N> files): about 8 games of 121 points


class Segment:
    """A segment's file (path; folder None: an earlier firmware's tail file), its lines
    (bytes, as written) and their SEQs (0: a line that fails its check), its bytes; `own`: made by
    this run (lines may be appended to it)."""

    def __init__(self, path, folder, own, pages=0):
        self.path = path
        self.folder = folder
        self.own = own
        self.lines = []
        self.seqs = []
        self.size = 0
        self.pages = pages  # its folder's commits so far, in pages (_pages)
        self.kept = not own  # keep()'s file may be in its folder (one found at boot: may)


def _pages(n):
    """The 256-byte pages a commit of an inline file of n bytes takes in its folder's
    metadata block (the file's whole data, its tags and the commit's CRC)."""
    return (n + 24 + 255) // 256


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
        self.segs = []  # the segments not yet sealed, oldest first (all of game self.game)
        self.stale = []  # segments sealed, or empty folders: removed by settle()
        self.ready = 0  # the number of the segment whose folder is made, empty (0: none)
        self.ready_pages = 0  # that folder's commits so far, in pages
        self.ready_kept = False  # keep() wrote its file in that folder
        self.ends = 0  # the game whose file is known to end with a whole line (or empty)
        self.closed = False  # the segments end with the game's close line: settle() seals all
        self.folders = []  # the segments' folder numbers found by open() (keep()'s files)
        self.old_kept = False  # an earlier firmware's kept file in the record's folder
        self.over = False  # a game begun: settle() drops the oldest games past the budget
        self.opened = 0  # the last segment number found by open()
        self.number = 0  # the last segment number used or made
        self.game = 0  # the game of the segments (0: none yet)
        self.sealed = 0  # the last seq of self.game in its g<N> file
        self.problems = []  # damage found (a sentence each)

    def path_of(self, game):
        """The file of game N's lines."""
        return "%s/g%d" % (self.path, game)

    def open(self):
        """Read the folder: the record's name (made if new), the games and their sizes, the
        segments. Returns self."""
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
        numbers = []
        for name in f.names(self.path):
            if name[:1] == "g" and name[1:].isdigit():
                self.sizes[int(name[1:])] = f.size(self.path_of(int(name[1:])))
            elif name[:1] == "s" and name[1:].isdigit():
                numbers.append(int(name[1:]))
            elif name == KEPT[1:]:
                self.old_kept = True
        self.folders = sorted(numbers)
        self._read_segments(self.folders)
        self.opened = self.number
        return self

    def _read_segments(self, numbers):
        """The segments' lines as they are (a damaged one too: the replay judges it; a torn
        last one left out), the game of their first good line (none good: the newest
        game's). A segment is never written again after a restart. An empty folder
        or with none (made ahead, or a cut between a segment's file removed and its
        folder) is removed by the next settle(), which makes the next one: a folder found
        at boot is never written again (what it holds besides lines, keep()'s file, may
        have filled its metadata block)."""
        from cribcore.table.gamelines import parse

        self.segs, self.stale, self.game, self.ready = [], [], 0, 0
        self.closed = False
        found = [Segment(self.path + "/t", None, False), Segment(self.path + "/u", None, False)]
        for n in numbers:
            found.append(Segment(self._seg_file(n), self._seg_folder(n), False))
            self.number = n
        for seg in found:
            written = False
            for raw in self.files.lines(seg.path):
                written = True
                if raw[-1:] != b"\n":
                    break  # a torn last line: a write the power cut stopped
                got = parse(raw)
                if got is not None:
                    if not self.game:
                        self.game = got[0]
                    self.closed = got[2] == CLOSE
                seg.lines.append(raw)  # as on flash (a damaged line fails its check)
                seg.seqs.append(0 if got is None else got[1])
            if seg.lines:
                self.segs.append(seg)
            elif written or seg.folder is not None:
                self.stale.append(seg)  # only a torn line, or none: never written again
        if self.segs and not self.game:
            self.game = max(list(self.sizes) + [1])

    def _seg_folder(self, n):
        return "%s/s%d" % (self.path, n)

    def _seg_file(self, n, folder=None):
        return (folder or self._seg_folder(n)) + "/t"

    def playing(self):
        """The game in play (its lines in the segments, not closed), or 0."""
        return self.game if self.segs and not self.closed else 0

    def games(self):
        """The games on flash that are not in play, oldest first (finished, or set aside),
        with all their lines in their file: a game just closed is listed once settle()
        sealed it (the `games` verb reads the file)."""
        held = self.game if self.segs else 0
        return sorted([g for g in self.sizes if g != held])

    def replay(self, game):
        """A game's Replay (cribcore.table.gamelines), read a line at a time."""
        r = self._read(game, True)
        if r.damage is not None:
            self.problems.append(r.damage)
        return r

    def entries(self, game):
        """The standing entries of the game in play, read back from flash (its file, then
        the segments): what pegboard.flashrecord's entries() gives. OSError if a line is
        damaged (what was written since the boot read it must read back whole)."""
        r = self._read(game, False)
        if r.damage is not None:
            raise OSError("the game record: " + r.damage)
        return r.entries

    def _read(self, game, boot):
        r = Replay(game)
        for raw in self.files.lines(self.path_of(game)):
            r.add(raw)
        if game == self.game:
            if boot:
                self.sealed = r.seq if r.damage is None else 0
            for seg in self.segs:
                for text in seg.lines:
                    r.add(text)
        return r.end()

    def unfinished(self):
        """The game in play as a FlashRecord ready to go on (its Replay in `.replay`), or
        None when no game is in play (or its header is lost). A game damaged on flash goes
        on as the next game from the entries before the damage (same seqs, an empty undo
        line in each gap: an entry may name another by its seq), and stays as it is."""
        if not self.playing():
            return None
        r = self.replay(self.game)
        if r.result is not None or r.header is None:
            return None
        standing, r.entries = r.entries, None  # the record's until its first append
        if r.damage is None:
            return FlashRecord(self, self.game, r.seq, r, standing)
        rec = self.new_game(r.header)
        at = 0
        for seq in range(2, r.seq + 1):
            if at < len(standing) and standing[at].seq == seq:
                self.add(rec.game, seq, ENTRY, entry_data(standing[at]))
                at += 1
            else:
                self.add(rec.game, seq, UNDO, 0)
        rec._read, rec.seq, rec.replay = standing, r.seq, r
        return rec

    def new_game(self, header):
        """Begin a game (header: a dict, the setup: names, target, ...): its FlashRecord.
        Whatever the segments hold goes to its game's file first; old games may be
        dropped."""
        self._seal(self.segs[:])  # none after settle(): it seals a closed game whole
        self._clear()  # the segments hold one game's lines: the new game's only, now
        game = max(list(self.sizes) + [self.game, 0]) + 1
        self.over = True  # the oldest games past the budget dropped by settle()
        header = dict(header)
        header["rec"] = self.token
        self.game, self.sealed = game, 0
        self._put(line(game, 1, HEADER, header), 1)
        return FlashRecord(self, game, 1)

    def add(self, game, seq, kind, data):
        """Write one line of the game in play (flash first: OSError, and nothing changed)."""
        self._put(line(game, seq, kind, data), seq)
        # A close line ends the game in play: settle() (after the reply) seals the game
        # whole into its file, where the `games` verb reads it (until then from here).
        self.closed = kind == CLOSE

    def _put(self, text, seq):
        """The line appended to the newest segment, or to a new one when it is full (or
        not this run's)."""
        seg = self.segs[-1] if self.segs else None
        if seg is None or not seg.own or seg.size + len(text) > TAIL or \
                len(seg.lines) >= LINES or seg.pages + _pages(seg.size + len(text)) > PAGES:
            if len(self.segs) > SEAL:
                self.settle()  # no more than SEAL full segments wait for settle()
            if not self.ready:
                self._prepare()  # no folder made ahead (a restart, or a failed settle)
            folder = self._seg_folder(self.ready)
            seg = Segment(self._seg_file(0, folder), folder, True, self.ready_pages)
            seg.kept = self.ready_kept
            self.files.append(seg.path, text)
            self.ready = 0
            self.segs.append(seg)
        else:
            self.files.append(seg.path, text)
        seg.lines.append(text)  # the text written (ASCII): sealed as it is, never copied
        seg.seqs.append(seq)
        seg.size += len(text)
        seg.pages += _pages(seg.size)

    def keep(self, data):
        """Keep data (bytes: boardweb.resume's answers that wrote no line yet) for kept()
        after a restart: a small file in the newest segment's folder while its metadata
        block has room, else in the folder made ahead for the next: a commit of its own
        folder, never one of the record's folder (whose block the games' files and the
        screens' log fill: a rewrite there waited for its compaction, 30-46 ms on the
        emulated chip). The newest folder's file is the one kept() reads."""
        seg = self.segs[-1] if self.segs else None
        need = _pages(len(data))
        if seg is not None and seg.own and seg.pages + need <= PAGES:
            seg.kept = True  # before the write: a failed one may have made the file
            self.files.write(seg.folder + KEPT, data)
            seg.pages += need
            return
        if not self.ready:
            self._prepare()  # no folder made ahead (a restart, or a failed settle)
        self.ready_kept = True
        self.files.write(self._seg_folder(self.ready) + KEPT, data)
        self.ready_pages += need

    def kept(self):
        """What keep() kept last (bytes), b"" for nothing: the file of the newest folder
        that has one (an earlier firmware's in the record's folder last)."""
        made = list(range(self.number, self.opened, -1))  # the folders made since open()
        for n in made + self.folders[::-1]:
            raw = self.files.read(self._seg_folder(n) + KEPT)
            if raw:
                return raw
        if self.old_kept:
            return self.files.read(self.path + KEPT) or b""
        return b""

    def settle(self):
        """What add() left for later (the server's: after the reply): the full segments'
        lines appended to their game's file once SEAL of them wait (all of a closed
        game's, or of a run before: a segment found at boot is never written again), the
        sealed segments removed (each file, then its folder), and the next segment's
        folder made."""
        keep = 1 if self.segs and self.segs[-1].own and not self.closed else 0
        if len(self.segs) - keep >= (SEAL if keep else 1):
            self._seal(self.segs[:len(self.segs) - keep])
        self._clear()
        if self.over:
            self._drop(self.game)
            self.over = False
        if self.old_kept:  # an earlier firmware's: read at boot, kept anew since
            try:
                self.files.remove(self.path + KEPT)
            except OSError:
                pass
            self.old_kept = False
        if not self.ready:
            self._prepare()

    def _clear(self):
        while self.stale:
            self._remove(self.stale[0])
            self.stale.pop(0)

    def _prepare(self):
        """The next segment's folder made, and its file, empty: its first line is then one
        commit (an append), not two (the file made, then written)."""
        n = self.number + 1
        folder = self._seg_folder(n)
        try:
            self.files.mkdir(folder)
        except OSError:
            if self.files.size(self._seg_file(n, folder)):
                raise  # there, with lines: not a folder to begin a segment in
        self.number = n
        self.files.write(self._seg_file(n, folder), b"")
        self.ready = n
        self.ready_pages = 2  # the folder's first commit, and its empty file's
        self.ready_kept = False

    def _seal(self, segs):
        """Append the lines of the segments segs (a list of its own, not self.segs) not yet
        in their game's file to that file, then remove the segments (a closed game's last:
        it is not in play any more)."""
        game = self.game
        name = self.path_of(game)
        out = []
        size = 0
        last = self.sealed
        for seg in segs:
            seqs = seg.seqs
            for i in range(len(seqs)):
                if seqs[i] > last:
                    out.append(seg.lines[i])
                    size += len(seg.lines[i])
                    last = seqs[i]
        if out:
            # Read the file's last byte only when this run has not appended to it: every
            # line sealed ends with its newline (a torn one is never in a segment's lines)
            if self.ends != game and self.files.last(name) not in (b"", b"\n"):
                out.insert(0, b"\n")  # a torn line ends here: the next line stays whole
                size += 1
            self.ends = 0  # an append cut short may leave a torn line
            self.files.append(name, out)  # the lines one after the other: never joined
            self.ends = game
            self.sizes[game] = self.sizes.get(game, 0) + size
            self.sealed = last
        for seg in segs:  # (a copy) removed by settle(): their lines are in the file now
            self.segs.remove(seg)
            self.stale.append(seg)
        if not self.segs:
            self.closed = False
        if out:
            self._drop(game)

    def _remove(self, seg):
        """A sealed segment's files (keep()'s first, if it may be there: a file of a folder
        removed is older than the newest kept), then its folder (a cut between: an empty
        folder, removed again at the next boot)."""
        if seg.folder is not None and seg.kept:
            self._gone(seg.folder + KEPT)
        self._gone(seg.path)
        if seg.folder is not None:
            self.files.rmdir(seg.folder)

    def _gone(self, path):
        try:
            self.files.remove(path)
        except OSError:
            pass  # absent: a folder made ahead, or removed before a cut

    def _drop(self, keep):
        """Drop the oldest games while the kept ones pass the budget (never game `keep`,
        the game in play or beginning, nor the newest before it)."""
        sizes = self.sizes
        total = 0
        for g in sizes:  # no view or list made: the usual case ends here
            total += sizes[g]
        if total <= self.budget:
            return
        newest = max([g for g in self.sizes if g != keep] + [0])
        while sum(self.sizes.values()) > self.budget:
            old = [g for g in sorted(self.sizes) if g != keep and g != newest]
            if not old:
                return
            self.files.remove(self.path_of(old[0]))
            del self.sizes[old[0]]


def _random_token():
    import os

    return "".join(["%02x" % b for b in os.urandom(4)])
