"""The state files of earlier firmware, read once at boot when no slot of pegboard.store
holds a state (a deploy keeps the game); the store imports this only then, and drops it.

- `<path>.a`, `<path>.b`: board copies framed `crib-rec SEQ LENGTH TEXTSUM HEADSUM`
  (CRC-32s), ending in `recs 0,3,...`: the records `<path>.r0` .. `.r10` (one line each)
  holding the rest of the state;
- `<path>`, `.new`, `.old`: the whole state in one file, framed `crib-state` (Adler-32).
"""

from cribcore.pegs import checksum, crc
from pegboard.statefiles import COPIES, RECORDS


def unframe(data):
    """(seq, text) from an earlier state file, or None if it is corrupt or truncated."""
    try:
        head, sep, body = data.decode().partition("\n")
    except UnicodeError:
        return None
    parts = head.split(" ")
    if not sep or len(parts) != 5:
        return None
    sums = checksum if parts[0] == "crib-state" else crc if parts[0] == "crib-rec" else None
    if sums is None or sums(head[:-9]) != parts[4]:
        return None
    if not (parts[1].isdigit() and parts[2].isdigit()) or int(parts[2]) != len(body):
        return None
    if sums(body) != parts[3]:
        return None
    return int(parts[1]), body


def copies(read, path, problems):
    """[(seq, (name, lines))] of the good earlier copies, newest first; read(name,
    unframe) reads a file (None if absent or bad, which it reports)."""
    records = {}
    for i in range(RECORDS):
        got = read(f"{path}.r{i}", unframe)
        if got is not None:
            records[str(i)] = got
    out = []
    for ext in COPIES:
        got = read(path + ext, unframe)
        if got is None:
            continue
        lines = got[1].split("\n")
        if lines[-1].startswith("recs "):  # its other lines are records
            for ref in lines.pop()[5:].split(","):
                if ref and (ref not in records or records[ref][0] > got[0]):
                    problems.append(f"{path}.r{ref}: record of copy {got[0]} missing")
                    lines = None
                    break
                if ref:
                    lines.append(records[ref][1])
        if lines is not None:
            out.append((got[0], (path + ext, lines)))
    out.sort(key=lambda c: -c[0])
    return out
