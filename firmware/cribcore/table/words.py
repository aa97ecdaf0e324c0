"""Words that depend on who: "Alice deals" but "You deal" (a practice game calls the
player "You"), for every front end's sentences with a player's name as their subject."""

_IRREGULAR = {"is": "are", "was": "were", "has": "have"}


def agree(name, verb):
    """name and verb (said of one person: "deals", "lays away") agreeing: "You deal"."""
    if name.strip().lower() != "you":
        return "%s %s" % (name, verb)
    first, _, rest = verb.partition(" ")
    if first in _IRREGULAR:
        first = _IRREGULAR[first]
    elif first.endswith("oes"):
        first = first[:-2]  # goes: go
    elif first.endswith("s"):
        first = first[:-1]
    return ("%s %s %s" % (name, first, rest)).rstrip()
