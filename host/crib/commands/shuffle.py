"""Play Cribbage Shuffle in the terminal, or solve a deal with --solve (`crib docs shuffle`).

Cells are A1..D4: the letter is the row, the digit the column. At the prompt: two cells to
swap them (`a1 c3`), undo, hint, solve, new [SEED], show, help, quit. Each row and column
scores as a hand with the starter; 61 or more wins. With --board sim or auto (or --port)
the total is pegged on the board's first lane as it changes.
"""

from __future__ import annotations

import json
import os
import random
import sys
from argparse import ArgumentParser, Namespace
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from crib.connect import add_table_board_arguments, open_table_board, ports_listed, table_port
from crib.env import Env
from crib.solitaire import shuffle
from crib.solitaire.shuffle import TARGET, Shuffle, cell_name, parse_cell
from crib.ui.cards import card_segment
from crib.ui.lines import Segment, Writer
from cribcore.cards import card_name, card_symbol

if TYPE_CHECKING:
    from crib.solitaire.solve import Solution

HELP = "play the Cribbage Shuffle solitaire, or --solve a deal"

COMMANDS = (
    ("A1 C3", "swap two cells (also: swap a1 c3, a1-c3)"),
    ("undo", "take back the last swap"),
    ("hint", "the single swap that raises the total most"),
    ("solve", "make the solver's swaps (each one undoable)"),
    ("new [SEED]", "a new deal: the next seed, or SEED"),
    ("show", "show the grid again"),
    ("help", "this list"),
    ("quit", "stop (end of input stops too)"),
)


class _ArgumentError(shuffle.ShuffleError):
    """Options that do not go together or a bad time limit."""


def add_arguments(parser: ArgumentParser) -> None:
    """[--seed N] [--solve [--json]] [--time-limit S] [--board auto|sim|none] [--port P]."""
    parser.add_argument("--seed", type=int, help="deal number (default: a random one)")
    parser.add_argument("--solve", action="store_true",
                        help="print the best arrangement the solver finds, and stop")
    parser.add_argument("--json", action="store_true", help="with --solve: print JSON")
    parser.add_argument("--time-limit", type=float, default=1.0, metavar="S",
                        help="seconds the solver may take per deal (default 1)")
    add_table_board_arguments(parser, default="none")
    parser.add_argument("--db", metavar="PATH",
                        help="the history (default crib play's): a board that holds an"
                             " unfinished table game there is not taken over without asking")


def run(args: Namespace, env: Env) -> int:
    """Solve a deal (--solve) or play from stdin, the total pegged on the board chosen (none
    by default: the solitaire stays instant)."""
    if args.json and not args.solve:
        raise _ArgumentError("--json goes with --solve")
    if not args.time_limit >= 0:
        raise _ArgumentError("the time limit is seconds >= 0, got %r" % (args.time_limit,))
    if ports_listed(args, env.stdout):
        return 0
    if args.solve and (args.board != "none" or args.port):
        raise _ArgumentError("--board and --port go with playing, not with --solve")
    seed = args.seed if args.seed is not None else random.randrange(1000000)
    game = Shuffle(seed)
    if args.solve:
        return _print_solution(game, args.time_limit, args.json, env.stdout, env.colour())
    printer = _Printer(env.stdout, env.colour(), env.stderr)
    port = table_port(args, env)
    if args.board == "none" and port is None:
        play(game, env.stdin, printer, args.time_limit)
        return 0
    from crib.board.ids import new_prefix
    from crib.history.files import default_path

    if not board_free(args.db or default_path(env.environ), env.stdin, printer):
        return 0
    board = open_table_board(args.board, port, args.store, printer.note)
    try:
        play(game, env.stdin, printer, args.time_limit,
             shuffle.BoardTotal(board, new_prefix()))
    finally:
        board.close()
    return 0


def board_free(db: str | os.PathLike[str], stdin: TextIO, printer: _Printer) -> bool:
    """Whether the solitaire may take the board: yes when no table game is unfinished,
    else the player is asked (the table game stays resumable either way)."""
    from crib.history.db import History
    from crib.table.session import describe_game

    h = History.open(db)
    try:
        old = h.unfinished()
        if old is None:
            return True
        printer.prompt(f"The board holds {describe_game(h, old)}. Play the solitaire on it"
                       " anyway (`crib play --resume` sets that game up again)? (y/N) ")
    finally:
        h.close()
    if stdin.readline().strip().lower() in ("y", "yes"):
        return True
    printer.note("the board keeps its game")
    return False


def play(game: Shuffle, stdin: TextIO, printer: _Printer, time_limit: float = 1.0,
         on_total: Callable[[int], None] | None = None) -> None:
    """Read commands from stdin until quit or end of input; on_total(total) after each change.

    on_total is the hook for pegging the total on the board (one lane): it is called with
    the total after the deal and after every swap, undo, solve and new deal.
    """
    _show(game, printer)
    if on_total:
        on_total(game.total())
    while True:
        printer.prompt("> ")
        line = stdin.readline()
        if not line:
            printer.line([("", "")])
            return
        words = line.replace(",", " ").lower().split()
        if len(words) == 1 and "-" in words[0]:
            words = words[0].split("-")  # a1-c3
        if words and words[0] in ("quit", "exit", "q"):
            return
        try:
            changed = _command(game, words, printer, time_limit)
        except shuffle.ShuffleError as e:
            printer.error("error: %s (nothing changed)" % e)
            continue
        if changed:
            _show(game, printer)
            if on_total:
                on_total(game.total())


def _command(game: Shuffle, words: list[str], printer: _Printer, time_limit: float) -> bool:
    """Carry out one command; True when the grid changed (and should be shown again)."""
    if not words:
        return False
    verb = words[0]
    if verb in ("help", "?"):
        for name, text in COMMANDS:
            printer.line([("  %-11s" % name, "cyan"), (text, "")])
        return False
    if verb == "show":
        return True
    if verb in ("undo", "u"):
        if game.undo() is None:
            printer.line([("nothing to undo", "yellow")])
            return False
        return True
    if verb in ("hint", "h"):
        hint = game.hint()
        if hint is None:
            printer.line([("hint: no single swap raises the total; try solve", "yellow")])
        else:
            a, b, gain = hint
            printer.line([("hint: swap %s %s for +%d (total %d)"
                           % (cell_name(a), cell_name(b), gain, game.total() + gain), "cyan")])
        return False
    if verb == "solve":
        sol = _solve(game, time_limit)
        for a, b in sol.swaps:
            game.swap(a, b)
        printer.line([("solve: %d in %d swaps: %s" % (sol.score, len(sol.swaps),
                                                     _swap_names(sol.swaps) or "none"), "cyan"),
                      ("  " + _proof(sol), "")])
        return True
    if verb == "new":
        if len(words) > 2 or (len(words) == 2 and not words[1].isdigit()):
            raise shuffle.ShuffleError("new takes a seed (a whole number): %r"
                                       % " ".join(words[1:]))
        game.new(int(words[1]) if len(words) == 2 else None)
        return True
    cells = words[1:] if verb == "swap" else words
    if len(cells) != 2:
        raise shuffle.ShuffleError("unknown command %r (type help)" % " ".join(words))
    a, b = parse_cell(cells[0]), parse_cell(cells[1])  # both parsed before anything moves
    game.swap(a, b)
    return True


def _solve(game: Shuffle, time_limit: float) -> Solution:
    # Imported here: the solver's score tables take a while to build, and the CLI imports
    # every command module to list the verbs.
    from crib.solitaire.solve import solve

    return solve(game.grid, game.starter, time_limit)


def _show(game: Shuffle, printer: _Printer) -> None:
    """The grid with each row's score at its end, the column scores under it, the total."""
    scores = game.line_scores()
    heels = shuffle.heels(game.starter)
    printer.line([("Cribbage Shuffle, deal %s   starter " % game.seed, "cyan")]
                 + _card(game.starter) + [("  (heels +2)" if heels else "", "yellow")])
    for line in _grid_lines(game.grid, scores):
        printer.line(line)
    total = sum(scores) + heels
    parts = "rows %d + columns %d" % (sum(scores[:4]), sum(scores[4:]))
    if heels:
        parts += " + heels %d" % heels
    if total >= TARGET:
        state = ("  %d or more: you win!" % TARGET, "bold green")
    else:
        state = ("  %d to go for %d" % (TARGET - total, TARGET), "")
    printer.line([("total ", "bold"), (str(total), "bold green" if total >= TARGET else "bold"),
                  (" (%s)" % parts, ""), state])


def _grid_lines(grid: Sequence[int], scores: Sequence[int]) -> list[list[Segment]]:
    """Header, 4 rows of cards with the row score, and the column scores (segment lists)."""
    out = [[("     " + "".join(["%5d" % (c + 1) for c in range(4)]) + "    row", "cyan")]]
    for r in range(4):
        line = [("   %s " % shuffle.ROW_NAMES[r], "cyan")]
        for c in range(4):
            card = grid[4 * r + c]
            line += [(" " * (5 - len(card_symbol(card))), "")] + _card(card)
        out.append(line + [("%7d" % scores[r], "bold")])
    out.append([("  col", "cyan"), ("".join(["%5d" % s for s in scores[4:]]), "bold")])
    return out


def _card(c: int) -> list[Segment]:
    return [card_segment(c)]


def _swap_names(swaps: Sequence[tuple[int, int]]) -> str:
    return " ".join(["%s-%s" % (cell_name(a), cell_name(b)) for a, b in swaps])


def _proof(sol: Solution) -> str:
    if sol.optimal:
        return "(proved optimal: the upper bound %d is met)" % sol.bound
    return "(not proved optimal in the time limit: upper bound %d)" % sol.bound


def _print_solution(game: Shuffle, time_limit: float, as_json: bool, out: TextIO,
                    colour: bool | None = None) -> int:
    """`--solve`: the best arrangement, its score, the proof status, the swaps."""
    sol = _solve(game, time_limit)
    lines = shuffle.line_scores(sol.grid, game.starter)
    if as_json:
        out.write(json.dumps({
            "seed": game.seed,
            "starter": card_name(game.starter),
            "dealt": _names(game.dealt),
            "grid": _names(sol.grid),
            "rows": lines[:4],
            "columns": lines[4:],
            "heels": shuffle.heels(game.starter),
            "score": sol.score,
            "bound": sol.bound,
            "optimal": sol.optimal,
            "won": sol.score >= TARGET,
            "swaps": [[cell_name(a), cell_name(b)] for a, b in sol.swaps],
            "seconds": round(sol.seconds, 3),
        }) + "\n")
        return 0
    printer = _Printer(out, colour)
    printer.line([("dealt", "bold")])
    _show(game, printer)
    for a, b in sol.swaps:
        game.swap(a, b)
    printer.line([("best found", "bold")])
    _show(game, printer)
    printer.line([("score %d " % sol.score, "bold"), (_proof(sol), ""),
                  (" in %.2f s" % sol.seconds, "")])
    printer.line([("swaps from the deal (%d): %s" % (len(sol.swaps),
                                                     _swap_names(sol.swaps) or "none"), "")])
    return 0


def _names(grid: Sequence[int]) -> list[list[str]]:
    return [[card_name(c) for c in grid[r:r + 4]] for r in range(0, 16, 4)]


class _Printer(Writer):
    """Lines of (text, style) segments (crib.ui.lines), the prompt, and errors on err."""

    def __init__(self, out: TextIO, colour: bool | None = None,
                 err: TextIO | None = None) -> None:
        super().__init__(out, colour)
        self.err = sys.stderr if err is None else err

    def prompt(self, text: str) -> None:
        """Write text without a newline, flushed (the prompt before reading a command)."""
        self.out.write(text)
        self.out.flush()

    def error(self, text: str) -> None:
        """An error about the last command, on stderr."""
        print(text, file=self.err)

    def note(self, text: str) -> None:
        """A remark (which board is used), dim."""
        self.line([("  " + text, "dim")])
