"""cribcore.table: a game at the table, driven by question and answer (the engine).

The flow of a match (setup, the cut, the deal, the starter, the play, the show in counting
order, the crib, muggins, totals and ranks-only modes, undo, another game) as generators
of questions, answer parsing and validation, and the values handed to front ends as plain
data (dicts, lists, str, int). No I/O: the flow talks to a Record (append an entry, the
entries that stand, undo one) and a Board (peg, undo, new game, whose turn, the dealer)
through two small interfaces (cribcore.table.record). Runs unchanged on CPython and
MicroPython; the host's adapter (crib.table) gives it the SQLite history and the link.
"""
