"""An older board's saved game moved into today's format by `crib deploy`: the firmware
reads only its own slots (pegboard.store), so the deploy reads the files of earlier
firmware over the REPL, converts the newest good game here and writes it as a slot file
before the new firmware boots. The earlier files are left where they are.

The earlier formats (each lived a day or two):
- `<path>.a`, `<path>.b`: board copies framed `crib-rec SEQ LENGTH TEXTSUM HEADSUM`
  (CRC-32s), ending in `recs 0,3,...`: the records `<path>.r0` .. `.r10` (one line each)
  holding the rest of the state;
- `<path>`, `.new`, `.old`: the whole state in one file, framed `crib-state` (Adler-32);
- in both, the board line in text v1: the history as numbers (each jump lane + 4 * where
  the lane's back peg stood before it) and an Adler-32; today's v2 spells each jump as how
  far undoing it moves the back peg, in base 32 (cribcore.boardtext).
"""

from __future__ import annotations

from cribcore.boardtext import FORMAT, checksum, crc, entry
from cribcore.pegs import Board, PegError
from pegboard.restore import restore
from pegboard.slots import SLOTS
from pegboard.storeboot import whole

COPIES = (".a", ".b", "", ".new", ".old")  # state copies of earlier firmware
RECORDS = 11  # `<path>.r0` .. `.r10`


def names(path: str) -> tuple[str, ...]:
    """Every file of earlier firmware's state: a deploy never writes over them."""
    return tuple([path + ext for ext in COPIES] + ["%s.r%d" % (path, i) for i in range(RECORDS)])


def unframe(data: bytes) -> tuple[int, str] | None:
    """(seq, text) from an earlier state file, or None if it is corrupt or truncated."""
    try:
        head, sep, body = data.decode().partition("\n")
    except UnicodeError:
        return None
    parts = head.split(" ")
    if not sep or len(parts) != 5:
        return None
    sums = {"crib-state": checksum, "crib-rec": crc}.get(parts[0])
    if sums is None or sums(head[:-9]) != parts[4]:
        return None
    if not (parts[1].isdigit() and parts[2].isdigit()) or int(parts[2]) != len(body):
        return None
    if sums(body) != parts[3]:
        return None
    return int(parts[1]), body


def copies(files: dict[str, bytes], path: str,
           problems: list[str]) -> list[tuple[int, str, list[str]]]:
    """[(seq, name, lines)] of the good earlier copies in files ({name: bytes}), newest
    first; a damaged file or a missing record is noted in problems."""
    def read(name: str) -> tuple[int, str] | None:
        data = files.get(name)
        got = unframe(data) if data else None
        if data and got is None:
            problems.append("%s: corrupt or truncated, ignored" % name)
        return got

    records: dict[str, tuple[int, str]] = {}
    for i in range(RECORDS):
        got = read("%s.r%d" % (path, i))
        if got is not None:
            records[str(i)] = got
    out: list[tuple[int, str, list[str]]] = []
    for ext in COPIES:
        got = read(path + ext)
        if got is None:
            continue
        lines = got[1].split("\n")
        whole = True
        if lines[-1].startswith("recs "):  # its other lines are records
            for ref in lines.pop()[5:].split(","):
                if ref and (ref not in records or records[ref][0] > got[0]):
                    problems.append("%s.r%s: record of copy %d missing" % (path, ref, got[0]))
                    whole = False
                    break
                if ref:
                    lines.append(records[ref][1])
        if whole:
            out.append((got[0], path + ext, lines))
    out.sort(key=lambda c: -c[0])
    return out


def encode_hist(back: list[int], hist: list[int]) -> str:
    """v2's history of the jumps `hist` (each lane + 4 * where the lane's back peg stood
    before it, oldest first, as v1 spells them) to back pegs `back`."""
    back = list(back)
    out = []
    for rec in reversed(hist):
        lane, old = rec & 3, rec >> 2
        if not 0 <= lane < len(back) or not 0 <= old <= back[lane]:
            raise ValueError("history entry %d" % rec)
        out.append(entry(lane, old, back[lane]))
        back[lane] = old
    return "".join(reversed(out))


def board_v2(text: str) -> str:
    """A board text of today's format from a v1 (or v2) one; ValueError if it is bad."""
    body, _, check = text.partition("*")
    fields = body.split("/")
    if fields[0] == "v1":
        if check != checksum(body) or len(fields) != 10:
            raise ValueError("bad v1 board text %r" % text[:60])
        try:
            back = [int(v) for v in fields[7][1:].split(",")] if fields[7][1:] else []
            hist = [int(v) for v in fields[9][1:].split(",")] if fields[9][1:] else []
        except ValueError:
            raise ValueError("bad v1 board text %r" % text[:60]) from None
        body = "/".join([FORMAT] + fields[1:9] + ["h" + encode_hist(back, hist)])
        text = body + "*" + crc(body)
    try:
        return Board.loads(text).dumps()  # every consistency check, and canonical
    except PegError as e:
        raise ValueError(str(e)) from None


def convert(files: dict[str, bytes], path: str, lanes: int,
            problems: list[str]) -> tuple[str, list[str], int, str] | None:
    """(slot name, its chunks, seq, name moved) of the newest earlier state in files that
    today's firmware on `lanes` lanes can use, or None; what was skipped and why is noted
    in problems."""
    for seq, name, lines in copies(files, path, problems):
        try:
            if not lines[0].startswith("board "):
                raise ValueError("no board line")
            lines = ["board " + board_v2(lines[0][6:])] + lines[1:]
            restore(lines, lanes)  # what the firmware checks at boot
        except (ValueError, IndexError) as e:
            problems.append("%s: not moved: %s" % (name, e))
            continue
        return "%s.%d/h" % (path, seq % SLOTS), whole(seq, lines), seq, name
    return None
