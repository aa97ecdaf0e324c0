"""Entries of the game record: their sources and flags, how one is described in a few
words, and the summary of a hand's points by where they came from."""

from cribcore.counting import CRIB

TABLE, BOARD, RECONCILE = "table", "board", "reconcile"  # where an entry came from
PEGGED_ON_BOARD = "pegged on board"
# Entries the flow makes by itself after another: undo takes them back with it.
AUTO = "auto"
# A note after which the board's undo history no longer mirrors the record.
BARRIER = "barrier"


class StateChanged(Exception):
    """The board changed the game while a question was open: ask again from the state."""


def describe(table, e):
    """An entry in a few words, for undo and board messages."""
    names = table.names
    who = names[e.player] if e.player is not None and e.player < len(names) else None
    if e.kind == "lay":
        text = f"{who} laid {e.info.get('text', '?')}"
    elif e.kind == "go":
        text = f"{who} said go"
    elif e.kind == "show":
        whose = "crib" if e.info.get("entry") == CRIB else "hand"
        text = f"{who}'s {whose}"
    elif e.kind == "starter":
        text = f"the starter {e.info.get('text', '')}".rstrip()
    elif e.kind == "peg" and e.side is not None:
        text = f"{table.side_names[e.side]} {e.reason}"
    elif e.kind == "dealt":
        text = f"{who}'s deal"
    else:
        text = e.kind.replace("_", " ")
    return f"{text} ({e.points})" if e.points else text


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
