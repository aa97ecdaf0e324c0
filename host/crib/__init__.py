"""crib: the companion program for the LED cribbage board."""
