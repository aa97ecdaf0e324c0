"""Words that depend on who or how many: "Alice deals" but "You deal", "1 game", "2 games".

A practice game calls the player "You" (crib practice --name changes it), so every sentence
with a player's name as its subject goes through `agree`.
"""


from cribcore.table.words import agree

__all__ = ["agree", "count", "when"]


def count(n: int, noun: str) -> str:
    """n with noun, plural but for one: "1 match", "2 matches", "0 skunks"."""
    if n == 1:
        return f"{n} {noun}"
    plural = noun + "es" if noun.endswith(("s", "sh", "ch", "x")) else noun + "s"
    return f"{n} {plural}"


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def when(stamp: str, now=None) -> str:
    """An ISO time stamp (as the history writes it) in plain words, in local time (now's
    zone): "today 04:37", "yesterday 21:10", "Tue 3 Nov 18:02", "Mon 3 Nov 2025 18:02"
    (another year). now: an aware datetime (default: now, here)."""
    from datetime import datetime, timedelta

    now = now or datetime.now().astimezone()
    t = datetime.fromisoformat(stamp)
    t = t.astimezone(now.tzinfo) if t.tzinfo else t
    clock = f"{t.hour:02d}:{t.minute:02d}"
    if t.date() == now.date():
        return f"today {clock}"
    if t.date() == now.date() - timedelta(days=1):
        return f"yesterday {clock}"
    year = "" if t.year == now.year else f" {t.year}"
    return f"{_DAYS[t.weekday()]} {t.day} {_MONTHS[t.month - 1]}{year} {clock}"
