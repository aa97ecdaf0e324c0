"""What the terminal shows of a game at the table: prompts, the engine's events
(announcements, the show itemised, a compact text board after each peg) and a score line
that stays in view; colour on a terminal, plain text in a pipe or a test."""


from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from crib.ui.cards import card_segments, show_lines
from crib.ui.lines import Line, Segment, isatty, wants_colour, write_lines
from crib.words import agree
from cribcore.cards import card_symbol
from cribcore.table.questions import Event

BAR = 30  # cells of the compact board: a glance, not a count of holes
LANE_STYLES = ("red", "blue", "green", "yellow")  # the board's lane colours, in lane order


class View:
    """Output of one table session on out (a text stream)."""

    def __init__(self, out: TextIO, colour: bool | None = None) -> None:
        self.out = out
        self.tty = isatty(out)
        self.colour = wants_colour(out) if colour is None else colour

    def _lines(self, lines: Sequence[Line]) -> None:
        write_lines(lines, self.out, self.colour)
        self.out.flush()

    def line(self, text: str, style: str = "") -> None:
        """One line of text."""
        self._lines([[(text, style)]])

    def prompt(self, text: str) -> None:
        """A question, the cursor left after it."""
        self.out.write(f"\x1b[1m{text}\x1b[0m" if self.colour else text)
        self.out.flush()

    def echo(self, answer: str) -> None:
        """The answer a script gave, so the transcript reads like a session."""
        self.out.write(answer + "\n")

    def note(self, text: str) -> None:
        """A remark (dim)."""
        self.line("  " + text, "dim")

    def problem(self, text: str) -> None:
        """Why an answer was refused (the question comes again)."""
        self.line("  ! " + text, "bold red")

    def heading(self, text: str) -> None:
        """A section: a new hand, the play, the show."""
        self.line(text, "bold cyan")

    def say(self, who: str | None, text: str, points: int = 0, style: str = "") -> None:
        """An announcement: who did what, and the points it pegged."""
        pts = f"  +{points}" if points else ""
        self._lines([[(f"  {who}: ", "bold"), (text, style), (pts, "bold green")]])

    def cards(self, cards: Sequence[str]) -> list[Segment]:
        """Segments for cards with suit symbols, hearts and diamonds red."""
        return card_segments(cards)

    def show(self, hand: Sequence[Any], starter: Any, crib: bool, items: Sequence[Any],
             total: int) -> None:
        """The show itemised like `crib score`."""
        self._lines([[("  ", ""), *line] for line in show_lines(hand, starter, crib, items,
                                                                 total)])

    def events(self, events: Iterable[Event]) -> None:
        """Show what the engine reported (cribcore.table.questions.Event)."""
        for ev in events:
            if ev.kind == "say":
                self.say(ev.who, ev.text, ev.points)
            elif ev.kind == "show":
                d = ev.data
                self.show(d["cards"], d["starter"], d["crib"], d["items"], d["total"])
            elif ev.kind == "board":
                d = ev.data
                self.board(d["names"], d["scores"], d["target"], d["fresh"], d["skunk"])
            elif ev.kind in self._TEXT:
                self._TEXT[ev.kind](self, ev.text)

    def status(self, view: dict[str, Any]) -> None:
        """The score line shown with each question: every side's score, whose deal, the
        count of the play (so the scores stay in view while a hand is entered)."""
        if not view.get("game"):
            return
        scores = "  ".join(f"{n} {s}" for n, s in zip(view["sides"], view["scores"]))
        hand = view["hand"]
        dealer = view["names"][view["dealer"]] if view["dealer"] >= 0 else None
        parts = [scores, f"hand {hand['number']}, {agree(dealer, 'deals')}" if dealer
                 else "cut for deal"]
        if hand["starter"]:
            parts.append("starter " + card_symbol(_card(hand["starter"])))
        if hand["turn"] is not None:
            parts.append(f"count {hand['count']}")
        if view["offline"]:
            parts.append("board offline")
        self.line("[" + " | ".join(parts) + "]", "dim")

    def board(self, names: Sequence[str], scores: Sequence[int], target: int,
              fresh: int | None = None, skunk: int | None = None) -> None:
        """The compact board: a bar and the score per side; fresh marks the lane just pegged."""
        width = max(len(n) for n in names)
        hue = max(len(LANE_STYLES[lane % len(LANE_STYLES)]) for lane in range(len(names)))
        lines = []
        for lane, (name, score) in enumerate(zip(names, scores)):
            filled = score * BAR // target if target else 0
            cells = "\u2588" * filled + "\u00b7" * (BAR - filled)
            if skunk and 0 < skunk < target:
                at = skunk * BAR // target
                if at >= filled and at < BAR:
                    cells = cells[:at] + "|" + cells[at + 1:]
            style = LANE_STYLES[lane % len(LANE_STYLES)]
            mark = " <" if lane == fresh else ""
            # The lane's colour said in words too: the bar's colour is gone without colour.
            lines.append([(f"  {name:<{width}} ", "bold " + style), (f"{style:<{hue}} ", style),
                          (cells, style),
                          (f" {score:3d}/{target}{mark}", "bold" if mark else "")])
        self._lines(lines)


    # Events that are one line of text, by kind.
    _TEXT = {"note": note, "problem": problem, "heading": heading, "line": line}

def _card(name: str) -> int:
    from cribcore.cards import parse_card

    return parse_card(name)


