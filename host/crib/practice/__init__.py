"""A game against the computer: the computer's levels (levels), a whole game between two
seats for simulations and benches (game), and the flow `crib practice` plays through the
table engine, the companion dealing the cards (turns)."""
