"""Option groups several verbs share (the board's options are crib.connect's)."""

from crib.history.db import default_path


def add_history_and_colour(parser):
    """--db and --colour/--no-colour, shared by the commands that keep games in the history."""
    parser.add_argument("--db", metavar="PATH",
                        help=f"the history file (default {default_path()})")
    parser.add_argument("--colour", "--color", dest="colour", action="store_true",
                        default=None, help="colour even when not on a terminal")
    parser.add_argument("--no-colour", "--no-color", dest="colour", action="store_false",
                        help="no colour")
