"""Club night (`crib club`): the pairings, the standings and the money of a cribbage club's
night of games, kept in the history beside the games (crib.history.club)."""
