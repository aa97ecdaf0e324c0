"""The table engine's own pegs, dealer and turn made on the App after its reply
(boardweb.appboard's flush), with little garbage: in order on one copy of the board, one
save for them all, none of a USB line's bookkeeping. Imported by the board's server only:
an App on USB alone (the desk, a board without Wi-Fi) never loads it.

    done = apply(app, [("peg", (lane, n)), ("set", (dealer,)), ("turn", (lane,))])
"""

from cribcore.boardtext import FORMAT
from cribcore.pegs import PegError

# Board.dumps(check=False) is Board._body(FORMAT, history): its `ints` joins a list of str
# per field, 1.7 KB of garbage a line on the unix port; one format of the same fields,
# 0.2 KB. By the lanes in play (the wins: every lane the board keeps, MAX_LANES).
_LANES = ("%d,%d", "%d,%d,%d", "%d,%d,%d,%d")
HEADS = tuple(["%s/t%d/n%d/d%d/r%d/w%d,%d,%d,%d/f" + lanes + "/b" + lanes + "/u%d/h"
               for lanes in _LANES])

# A Board's fields that are values (shared by a copy as they are), and its lists.
VALUES = ("players", "target", "undo_depth", "dealer", "winner", "rev", "_htext", "_undos")
LISTS = ("wins", "_front", "_back")


def apply(app, calls):
    """Make calls (a list of (verb, fields): ("peg", (lane, n)), ("set", (dealer,)),
    ("turn", (lane,))) on the App in order, on one copy of its board, saved once for them
    all before they are the App's. No id is remembered and no reply made: they have no line
    to answer again (the game's record is their truth, and boardweb.resume.resync makes the
    App's pegs the record's after a cut). A call the board refuses is skipped and the rest
    made: False then. A save that fails takes them all back, as the App's _change does
    (the state on flash is the one before), and raises. The copy is made in the board the
    App had before the last apply (same()): no new board an answer."""
    was = app.board  # settings and ids are not apply's: as they are
    b = getattr(app, "spare", None)
    if b is None:
        b = was.copy()
    else:
        same(b, was)
    app.spare = None
    done = True
    for verb, fields in calls:
        try:
            if verb == "peg":
                b.peg(fields[0], fields[1])
            elif verb == "set":
                b.set_dealer(fields[0])
            elif fields[0] < b.players:  # the turn: shown, never saved (the App's _q_turn)
                app.renderer.turn = fields[0]
            else:
                done = False
        except PegError:
            done = False
    if b.rev == was.rev:
        return done  # nothing to save: the turn alone, or every call refused
    app.board = b
    app._saving = False
    try:
        app._save(("board ", head(b), b._htext))
    except Exception:
        app._abort((was, app.settings, app.ids))
        raise
    app.spare = was  # no longer the App's: the next apply's copy, made in place
    app.renderer.wake(app.now)
    return done


def head(b):
    """The board's text up to its history (what Board.dumps(check=False) has before it)."""
    p, w, f, k = b.players, b.wins, b._front, b._back
    if len(w) != 4 or not 2 <= p <= 4:
        return b._body(FORMAT, "")  # not a board of this firmware's shape: as it spells it
    if p == 2:
        return HEADS[0] % (FORMAT, b.target, p, b.dealer, b.rev, w[0], w[1], w[2], w[3],
                           f[0], f[1], k[0], k[1], b.undo_depth)
    if p == 3:
        return HEADS[1] % (FORMAT, b.target, p, b.dealer, b.rev, w[0], w[1], w[2], w[3],
                           f[0], f[1], f[2], k[0], k[1], k[2], b.undo_depth)
    return HEADS[2] % (FORMAT, b.target, p, b.dealer, b.rev, w[0], w[1], w[2], w[3],
                       f[0], f[1], f[2], f[3], k[0], k[1], k[2], k[3], b.undo_depth)


def same(copy, b):
    """Make the Board copy what Board.copy() would make of b, in place: its lists keep
    their own memory (nothing allocated when they are as long as b's)."""
    for name in VALUES:
        setattr(copy, name, getattr(b, name))
    for name in LISTS:
        mine, theirs = getattr(copy, name), getattr(b, name)
        if len(mine) != len(theirs):
            setattr(copy, name, theirs[:])
            continue
        for i in range(len(theirs)):
            mine[i] = theirs[i]
