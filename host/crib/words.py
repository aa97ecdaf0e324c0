"""Words that depend on who or how many: "Alice deals" but "You deal", "1 game", "2 games".

A practice game calls the player "You" (crib practice --name changes it), so every sentence
with a player's name as its subject goes through `agree`.
"""


from cribcore.table.words import agree

__all__ = ["agree", "count"]


def count(n: int, noun: str) -> str:
    """n with noun, plural but for one: "1 match", "2 matches", "0 skunks"."""
    if n == 1:
        return f"{n} {noun}"
    plural = noun + "es" if noun.endswith(("s", "sh", "ch", "x")) else noun + "s"
    return f"{n} {plural}"
