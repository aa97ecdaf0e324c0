"""The slot files of the state on flash, shared by pegboard.store (which writes them) and
pegboard.storeboot (which reads them at boot, and is dropped then): their names, the frame,
and the `@` list of where a slot's lines are.
"""

from cribcore.boardtext import running as crc

SLOTS = 9  # 8 remembered ids each in the slot of its own save, and the slot being written
KEEP = SLOTS - 2  # a slot may name lines in the slots of the KEEP saves before it
# A state's second line (the app's settings) is written again once its copy is TWICE saves
# old: its copy before is then still in the ring, so a damaged slot never takes the only
# one (pegboard.storeboot reads the older copy). Any other line is in one slot: a damaged
# older slot costs only the remembered replies it held, never the game.
TWICE = KEEP // 2
HEAD = "H"
# Where a line is, in a slot's `@` list: its slot (d saves back) and its index there. The
# first line after the board, the usual case, is one letter: "A" + d; any other, two digits
# (bytes: MicroPython would intern every one-character string made by indexing a str).
FIRST = b"ABCDEFGHIJ"
DIGITS = b"0123456789abcdefghijklmnopqrstuvwxyz"


def names(path):
    """The slot files of a Store(path) (`<path>.0/h` ..), and `<path>.kept`, where a state
    the app refused is set aside."""
    return tuple([f"{path}.{i}/h" for i in range(SLOTS)] + [path + ".kept"])


def ref(out, back, index):
    """Append to the bytearray out the `@` list's entry for a line `back` saves back, at
    `index` in that slot."""
    if index == 1:
        out.append(FIRST[back])
    else:
        out.append(DIGITS[back])
        out.append(DIGITS[index])


def frame(seq, lines):
    """The chunks of a slot file (header line, then the lines): its text is their join. A
    line may be a tuple of str, its text in pieces (the App's board line: its head and its
    history, never joined). Nothing is joined: the CRC is taken chunk by chunk (binascii's,
    in C, going on from the last), so a save's only copy of the board line is on flash."""
    head = str(seq)
    out = [None, head]
    c = crc(head, 0)
    for line in lines:
        out.append("\n")
        c = crc("\n", c)
        if type(line) is tuple:
            for part in line:
                out.append(part)
                c = crc(part, c)
        else:
            out.append(line)
            c = crc(line, c)
    out[0] = "%s%08x " % (HEAD, c & 0xFFFFFFFF)  # cribcore.boardtext.crc's spelling
    return out

