"""The taps a player makes on the page for an answer: the buttons (CSS selectors) in the
order they are tapped. The browser tests tap them; bench/table.py counts them.

The page's picker (crib/web/static/app.js): a rank, then a suit when more than one suit of
that rank can still be answered; the play takes a rank alone; totals and points are one
button each (a show's total after its Total tab, open already in a totals-only game);
yes/no and other choices are one button each (a show by ranks: a rank a tap for the crib,
and its flush or nobs one of the confirmation's buttons).
"""

CARD_KINDS = ("cut", "dealt", "discard", "starter", "show", "crib")


def taps(q, text: str) -> list[str]:
    """The selectors tapped to give answer text to question q (a dict of the state)."""
    kind, legal = q["kind"], q.get("legal") or {}
    text = text.strip()
    if kind == "play":
        if text.lower() == "go":
            return ["[data-choice='go']"]
        if not text:
            return ["[data-choice='default']"]
        return [f"[data-rank='{'T' if text == '10' else text[0].upper()}']"]
    if kind in ("play_points", "count"):
        return [f"[data-value='{int(text)}']"]
    if kind in CARD_KINDS:
        if not text:
            return ["[data-choice='default']"]
        if kind == "discard":  # the dealt cards are buttons of their own
            return [f"[data-card='{c}']" for c in text.upper().split()]
        if legal.get("prefer") == "ranks":  # a show by ranks: a rank a tap
            return [f"[data-rank='{'T' if r == '10' else r.upper()}']" for r in text.split()]
        if text.isdigit():  # the Total tab is open first in a totals-only game
            tab = [] if legal.get("prefer") == "total" else ["[data-choice='total']"]
            return tab + [f"[data-value='{int(text)}']"]
        out = []
        left = set(legal.get("cards") or ())
        for card in text.upper().split():
            left.discard(card)
            rank = card[0]
            out.append(f"[data-rank='{rank}']")
            if any(c[0] == rank for c in left):  # another suit is possible: ask which
                out.append(f"[data-suit='{card[1]}']")
        return out
    if legal.get("choices"):
        return [f"[data-choice='{text.lower()}']"]
    raise AssertionError(f"no taps for {kind!r}: {text!r}")
