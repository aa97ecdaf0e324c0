"""The table's answers live in the shared core (cribcore.table.answers): re-exported here
for the host's modules and front ends."""

from cribcore.table.answers import (
    AnswerError,
    UndoRequest,
    parse_choice,
    parse_int,
    parse_yes,
    whole_number,
    yes_parser,
)

__all__ = ["AnswerError", "UndoRequest", "parse_choice", "parse_int", "parse_yes",
           "whole_number", "yes_parser"]
