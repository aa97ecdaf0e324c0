"""A show known by ranks lives in the shared core (cribcore.table.ranks): re-exported here."""

from cribcore.table.ranks import (
    CODES,
    describe_flags,
    flags_of,
    rank_name,
    score_ranks,
    stand_in,
    suit_choices,
)

__all__ = ["CODES", "describe_flags", "flags_of", "rank_name", "score_ranks", "stand_in",
           "suit_choices"]
