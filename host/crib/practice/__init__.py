"""A game against the computer: the computer's levels (levels), what a practice game is made
of (game: seats, what they see, the dealing), the flow `crib practice` plays through the
table engine, the companion dealing the cards (turns), and the engine of a practice game
with the computer's answers, for `crib practice`, the tests and the bench (computer)."""
