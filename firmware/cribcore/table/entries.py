"""Entries of the game record: their sources and flags, the fixed table that replays each
kind on a cribcore Game, how one is described in a few words, and the summary of a hand's
points by where they came from."""

from cribcore.counting import CRIB
from cribcore.game import Game

TABLE, BOARD, RECONCILE = "table", "board", "reconcile"  # where an entry came from
PEGGED_ON_BOARD = "pegged on board"
# Entries the flow makes by itself after another: undo takes them back with it.
AUTO = "auto"
# A note after which the board's undo history no longer mirrors the record.
BARRIER = "barrier"


def _cut(game, cuts):
    game.cut_for_deal(cuts)  # the dealer it names is game.dealer


def _deal(game, rng, deck):
    game.deal(rng, deck)  # practice: the cards dealt (the hands are game.hands)


# The fixed replay table: an entry's kind names the one game action that replays it (the
# record never stores Python names, so renaming a method cannot break a saved game). Each
# returns the core's Step (points pegged), or None. Kinds not here (dealt, note) are the
# table's own: nothing to replay.
REPLAY = {
    "cut": _cut,
    "deal": _deal,
    "discard": Game.discard,
    "starter": Game.turn_starter,
    "lay": Game.lay,
    "go": Game.go,
    "end_play": Game.end_play,
    "show": Game.show,
    "peg": Game.peg,
    "muggins": Game.peg,
}


def replay(game, kind, args):
    """Apply the action an entry of this kind records; its Step (or None)."""
    action = REPLAY.get(kind)
    return action(game, *args) if action else None


class StateChanged(Exception):
    """The board changed the game while a question was open: ask again from the state."""


def describe(table, e):
    """An entry in a few words, for undo and board messages."""
    names = table.names
    who = names[e.player] if e.player is not None and e.player < len(names) else None
    if e.kind == "lay":
        text = "%s laid %s" % (who, e.info.get("text", "?"))
    elif e.kind == "go":
        text = "%s said go" % who
    elif e.kind == "show":
        text = "%s's %s" % (who, "crib" if e.info.get("entry") == CRIB else "hand")
    elif e.kind == "starter":
        text = ("the starter " + e.info.get("text", "")).rstrip()
    elif e.kind == "peg" and e.side is not None:
        text = "%s %s" % (table.side_names[e.side], e.reason)
    elif e.kind == "dealt":
        text = "%s's deal" % who
    else:
        text = e.kind.replace("_", " ")
    return "%s (%d)" % (text, e.points) if e.points else text


def summary(entries, players):
    """Points of one hand by where they came from, per player (for history and stats)."""
    out = {"heels": 0, "play": [0] * players, "hand": [None] * players, "crib": None,
           "other": 0}
    for e in entries:
        scorer = e.info.get("scorer", e.player)
        if e.kind == "starter":
            out["heels"] = e.points
        elif e.kind in ("lay", "go") or (e.kind == "peg" and e.info.get("typed")):
            if e.points and scorer is not None:
                out["play"][scorer] += e.points
        elif e.kind == "show":
            if e.info.get("entry") == CRIB:
                out["crib"] = e.points
            else:
                out["hand"][e.player] = e.points
        else:
            out["other"] += e.points
    return out
