"""The reading half of pegboard.store: at boot, the newest whole state from the slots (or
from earlier firmware's files, pegboard.oldstate), the older ones, setting one aside.
Used only at boot: the app drops this module afterwards, and its code leaves the heap.
"""

from cribcore.boardtext import crc
from pegboard.statefiles import COPIES, HEAD, KEEP, RECORDS, SLOTS, frame, ref

_HEAD = ord(HEAD)


def names(path):
    """Every file a Store(path) reads or writes: a deploy leaves them alone."""
    return tuple([path + ext for ext in COPIES + (".kept",)]
                 + [f"{path}.r{i}" for i in range(RECORDS)]
                 + [f"{path}.{i}/h" for i in range(SLOTS)])


def unframe(data):
    """(seq, lines) from a slot file's bytes, or None if it is corrupt or truncated."""
    if len(data) < 11 or data[0] != _HEAD or data[9] != 32:  # "H<crc> "
        return None
    body = data[10:]
    if data[1:9] != crc(body).encode():
        return None
    try:
        text = body.decode()
    except UnicodeError:
        return None
    lines = text.split("\n")
    if not lines[0].isdigit():
        return None
    return int(lines[0]), lines[1:]


def read(store, name, unframe=unframe, absent=None):
    """A file's (seq, content), or None: absent (noted in the list `absent`, if given),
    empty (a save the power cut had only created: no damage) or damaged (reported in
    store.problems)."""
    data = store.files.read(name)
    if data is None and absent is not None:
        absent.append(name)
    if not data:
        return None
    got = unframe(data)
    if got is None:
        store.problems.append(f"{name}: corrupt or truncated, ignored")
    return got


def load(store):
    """The text of the newest good state, or None."""
    for i in range(SLOTS):
        name = f"{store.path}.{i}/h"
        got = read(store, name, absent=store._absent)
        if got is None:
            continue
        if got[0] % SLOTS != i:
            store.problems.append(f"{name}: holds save {got[0]}, ignored")
            continue
        store._slots[got[0]] = got[1]
        store.seq = max(store.seq, got[0])
    store._order = sorted(store._slots, reverse=True)
    if not store._order and [1 for ext in COPIES if store.files.read(store.path + ext)]:
        from pegboard import drop, oldstate

        copies = oldstate.copies(lambda name, unframe: read(store, name, unframe),
                                 store.path, store.problems)
        if copies:
            store.seq = max(store.seq, copies[0][0])
        store._order = [c[1] for c in copies]
        del oldstate
        drop("pegboard.oldstate")  # read once: its code leaves the heap
    return older(store)


def older(store):
    """The next good state, older than the last one offered (None when none is left)."""
    while store._order:
        seq = store._order.pop(0)
        got = lines(store, seq) if type(seq) is int else seq[1]
        if got is not None:
            store._newest = seq
            return "\n".join(got)
    store._newest = None
    store._where = {}
    return None


def _digit(c):
    """A byte of statefiles.DIGITS as its value (-1 if it is none)."""
    return c - 48 if 48 <= c <= 57 else c - 87 if 97 <= c <= 122 else -1


def _ref(refs, k):
    """(back, index, next k) of the `@` list's entry at k."""
    c = refs[k]
    if 65 <= c < 75:  # statefiles.FIRST: the first line of a slot
        return c - 65, 1, k + 1
    return _digit(c), _digit(refs[k + 1]) if k + 1 < len(refs) else -1, k + 2


def _held(store, seq, back, index):
    """The line `back` saves before seq at `index` of its slot, or None if it is gone."""
    held = store._slots.get(seq - back)
    if back < 0 or back > KEEP or held is None or not 0 < index < len(held) - 1:
        return None
    return held[index]


def _settings(store, seq):
    """(line, (seq, index)): the second line of the newest state before seq that still has
    it (statefiles.TWICE: the store keeps that line in two slots), or None."""
    for older in sorted(store._slots, reverse=True):
        refs = store._slots[older][-1].encode()
        if older < seq and refs[:1] == b"@" and len(refs) > 1:
            back, index, _ = _ref(refs, 1)
            line = _held(store, older, back, index)
            if line is not None:
                return line, (older - back, index)
    return None


def lines(store, seq):
    """The state saved as seq from its slot and those it names, or None if its slot has no
    line list or its second line is gone with every copy. A line lost with a damaged older
    slot costs only what was in that slot: the second line (the settings) is then the
    state's before (the store keeps it twice), any other (a remembered reply) is left out;
    each loss of the newest state is reported."""
    own = store._slots[seq]
    refs = own[-1].encode()
    name = f"{store.path}.{seq % SLOTS}/h"
    if refs[:1] != b"@":
        store.problems.append(f"{name}: no line list, ignored")
        return None
    out = [own[0]]
    where = {}
    k = 1
    while k < len(refs):
        back, index, k = _ref(refs, k)
        line = _held(store, seq, back, index)
        at = (seq - back, index)
        if line is None:
            lost = f"{name}: line of save {seq - back} missing"
            if len(out) == 1:
                got = _settings(store, seq)
                if got is None:
                    if seq == store.seq:  # the newest must be reported: an older one is a fallback
                        store.problems.append(lost)
                    return None
                line, at = got
                lost += ", the one before used"
            else:
                lost += ", left out"
            if seq == store.seq:
                store.problems.append(lost)
            if line is None:
                continue
        out.append(line)
        where[line] = at
    store._where = where
    return out


def refuse(store, reason):
    """Set the state last offered aside in `<path>.kept`, unless something is kept there
    already: every line of it in one file (a slot's own format), for a person to decide."""
    seq = store._newest
    if seq is None:
        return
    kept = store.path + ".kept"
    if store.files.read(kept) is None:
        if type(seq) is int:
            got = lines(store, seq)
            refs = bytearray(b"@")
            for i in range(1, len(got)):
                ref(refs, 0, i)
            data = frame(seq, got + [refs.decode()])
        else:
            data = [store.files.read(seq[0]).decode()]
        store.files.write(kept, ["# refused: " + reason.replace("\n", " ") + "\n"] + data)
    store._newest = None
