"""Card entry for the play lives in the shared core (cribcore.table.cards): re-exported
here for the host's modules (crib peg, practice)."""

from cribcore.table.cards import (
    GO,
    RankTakenError,
    lend_suit,
    parse_play_card,
    parse_rank,
    play_text,
    rank_text,
)

__all__ = ["GO", "RankTakenError", "lend_suit", "parse_play_card", "parse_rank",
           "play_text", "rank_text"]
