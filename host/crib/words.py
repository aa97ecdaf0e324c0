"""Words that depend on who or how many: "Alice deals" but "You deal", "1 game", "2 games".

A practice game calls the player "You" (crib practice --name changes it), so every sentence
with a player's name as its subject goes through `agree`.
"""


_IRREGULAR = {"is": "are", "was": "were", "has": "have"}


def agree(name: str, verb: str) -> str:
    """name and verb (said of one person: "deals", "lays away") agreeing: "You deal"."""
    if name.strip().lower() != "you":
        return f"{name} {verb}"
    first, _, rest = verb.partition(" ")
    if first in _IRREGULAR:
        first = _IRREGULAR[first]
    elif first.endswith("oes"):
        first = first[:-2]  # goes: go
    elif first.endswith("s"):
        first = first[:-1]
    return f"{name} {first} {rest}".rstrip()


def count(n: int, noun: str) -> str:
    """n with noun, plural but for one: "1 match", "2 matches", "0 skunks"."""
    if n == 1:
        return f"{n} {noun}"
    plural = noun + "es" if noun.endswith(("s", "sh", "ch", "x")) else noun + "s"
    return f"{n} {plural}"
