"""The parts of the engine's view (cribcore.table.engine, TableEngine.view) made again
only when they read otherwise than in the view before: the scores and pegs, the names of
each player's cards laid, the pile, the hands shown. Each `kept_*` hands back the view
before's own list when it reads the same, else a new one, each list of its exact size
filled in place (no comprehension or zip: on MicroPython each makes a function, a closure
or tuples of its own an answer). A view's lists are shared with the views after it while
they read the same: read them, never change them.
"""

from cribcore.cards import CARD_NAMES
from cribcore.table.ranks import rank_name


def kept_pegs(last, backs, scores):
    """(the scores, [[back, front] of each side]): last's (a pair of them) when it reads
    the same, else new lists."""
    if last is not None and _same_pegs(last[1], backs, scores):
        return last
    return _new_pegs(backs, scores)


def _new_pegs(backs, scores):
    """(the scores, [[back, front] of each side]) as new lists (no zip, no comprehension:
    each makes objects of its own on MicroPython)."""
    n = min(len(backs), len(scores))
    out = [None] * n
    for i in range(n):
        out[i] = [backs[i], scores[i]]
    return list(scores), out


def _same_pegs(pegs, backs, scores):
    """Whether pegs (a view's) are [[back, front]...] of backs and scores, and its scores
    list (pegs' fronts) all of scores."""
    n = min(len(backs), len(scores))
    if len(pegs) != n or len(scores) != n:
        return False
    for i in range(n):
        if pegs[i][0] != backs[i] or pegs[i][1] != scores[i]:
            return False
    return True


def _name(card, lent):
    return rank_name(card) if lent and lent.get(card) else CARD_NAMES[card]


def _names(cards, lent):
    """The names of cards the game holds (CARD_NAMES: each is a card); one whose suit was
    lent (lent[card] true) by its rank alone. A list of its exact size, filled in place."""
    out = [None] * len(cards)
    for i in range(len(cards)):
        out[i] = _name(cards[i], lent)
    return out


def _same_names(old, cards, lent):
    if old is None or len(old) != len(cards):
        return False
    for i in range(len(cards)):
        if old[i] != _name(cards[i], lent):
            return False
    return True


def kept_names(old, cards, lent):
    """old if it names cards as _names would, else their names in a new list."""
    return old if _same_names(old, cards, lent) else _names(cards, lent)


def kept_laid(old, laid, lent):
    """The names of each player's cards laid (laid None: lent is how many players, none
    laid yet): old if it reads the same, else a new list (each player's list kept when
    it reads the same)."""
    if laid is None:
        n = lent
        if old is not None and len(old) == n:
            for i in range(n):
                if old[i]:
                    break
            else:
                return old
        out = [None] * n
        for i in range(n):
            out[i] = []
        return out
    n = len(laid)
    if old is not None and len(old) == n:
        for i in range(n):
            if not _same_names(old[i], laid[i], lent):
                break
        else:
            return old
    out = [None] * n
    for i in range(n):
        out[i] = kept_names(old[i] if old is not None and i < len(old) else None,
                             laid[i], lent)
    return out


def kept_shown(old, shown):
    """The hands counted so far this hand ({"entry", "cards", "points"} each): old if it
    reads the same, else a new list."""
    n = len(shown)
    if old is not None and len(old) == n:
        for i in range(n):
            entry, cards, points = shown[i]
            o = old[i]
            if o["entry"] != entry or o["points"] != points \
                    or not _same_names(o["cards"], cards or (), None):
                break
        else:
            return old
    out = [None] * n
    for i in range(n):
        entry, cards, points = shown[i]
        out[i] = {"entry": entry, "cards": _names(cards or (), None), "points": points}
    return out
