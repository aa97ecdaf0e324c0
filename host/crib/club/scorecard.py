"""The printable scorecards of a night: a page per player (fpdf2, in crib's hardware
extra), the rounds in rows (table, opponent, for, against, game points, spread), the
player's totals and place at the foot, and a blank row for each round not played yet, so
a card printed at the start is filled in by hand.

fpdf2 is not in a player's install: scorecards() then raises ClubError saying how to get
it (the standings, the CSV and the pages work without it)."""

from datetime import datetime, timezone
from typing import Any

from crib.club.night import ClubError, Night

EXTRA = ("crib club scorecards needs fpdf2, which comes with crib's hardware extra: install"
         " it as crib was installed, e.g. `pip install -e '.[hardware]'` in crib's source"
         " folder, or `pipx install --force 'ledcrib[hardware]'`; `crib club csv` needs"
         " nothing more")
FIXED = datetime(2026, 1, 1, tzinfo=timezone.utc)  # the same night gives the same file
COLUMNS = (("Round", 16), ("Table", 16), ("Opponent", 52), ("For", 20), ("Against", 20),
           ("Points", 20), ("Spread", 22))


def scorecards(night: Night, players: list[str] | None = None, compress: bool = True) -> bytes:
    """The PDF of the scorecards of players (default everyone, in standing order)."""
    try:
        from fpdf import FPDF
    except ImportError:
        raise ClubError(EXTRA) from None
    ranked = {r["player"]: r for r in night.standings()}
    names = [night.player(p) for p in players] if players else list(ranked)
    doc = FPDF(unit="mm", format="A4")
    doc.compress = compress
    doc.set_creation_date(FIXED)
    doc.set_auto_page_break(False)
    for name in names:
        doc.add_page()
        _page(doc, night, name, ranked[name])
    return bytes(doc.output())


def _page(doc: Any, night: Night, name: str, total: dict[str, Any]) -> None:
    doc.set_font("Helvetica", "B", 20)
    doc.set_xy(18, 18)
    doc.cell(0, 10, name)
    doc.set_font("Helvetica", "", 11)
    doc.set_xy(18, 29)
    doc.cell(0, 6, "%s  -  season %s  -  %d games to 121, 2 points a win, 3 a skunk"
             % (night.name, night.season, night.games))
    y = 42
    doc.set_font("Helvetica", "B", 11)
    doc.set_fill_color(225)
    x = 18
    for title, width in COLUMNS:
        doc.set_xy(x, y)
        doc.cell(width, 9, title, border=1, align="C", fill=True)
        x += width
    doc.set_font("Helvetica", "", 11)
    for row in night.card(name):
        y += 9
        cells = [str(row["round"]), _text(row["table"]), _text(row["opponent"]),
                 _text(row["for"]), _text(row["against"]),
                 str(row["points"]) if row["result"] else "",
                 "%+d" % row["spread"] if row["result"] in ("won", "lost") else ""]
        if row["result"] == "bye":
            cells[2] = "bye"
        x = 18
        for (_, width), text in zip(COLUMNS, cells):
            doc.set_xy(x, y)
            doc.cell(width, 9, text, border=1, align="L" if width > 40 else "C")
            x += width
    y += 16
    doc.set_font("Helvetica", "B", 12)
    doc.set_xy(18, y)
    doc.cell(0, 7, "Place %d  -  %d game points, %d won, %d lost, spread %+d, skunks %d"
             % (total["rank"], total["points"], total["wins"], total["losses"],
                total["spread"], total["skunks"]))
    doc.set_font("Helvetica", "", 10)
    doc.set_xy(18, y + 9)
    held = ", ".join("%d in round %d" % (h["points"], h["round"])
                     for h in night.store.hands(night.id) if h["player"] == name)
    doc.cell(0, 6, "Special hands (24, 28, 29): %s    Signed: ______________"
             % (held or "______________"))


def _text(value: Any) -> str:
    return "" if value is None else str(value)
