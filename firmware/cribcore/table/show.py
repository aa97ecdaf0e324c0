"""The show at the table: each hand in counting order, then the crib, as cards or a total;
itemised and confirmed, or stated and checked (manual counting, muggins); a typed total
checked against cards the game already knows; the discard review after a hand; and muggins
claims. Generators of Asks, like cribcore.table.turns (whose Turns holds a ShowTurns).
"""

from cribcore.cards import InvalidCardError, card_name, card_symbol, parse_card, parse_cards
from cribcore.counting import CRIB, check_total
from cribcore.show import show_breakdown
from cribcore.table.answers import (
    AnswerError,
    UndoRequest,
    is_digits,
    parse_choice,
    whole_number,
    yes_parser,
)
from cribcore.table.cards import free_names, parse_rank, play_text, rank_text
from cribcore.table.entries import describe
from cribcore.table.questions import Ask
from cribcore.table.ranks import CODES, describe_flags, rank_name, score_ranks, suit_choices

# The totals a show can make (no hand of five cards makes 19, 25, 26 or 27).
TOTALS = [n for n in range(30) if n not in (19, 25, 26, 27)]


class ShowTurns:
    """The show's questions, for a Turns (its table, view, options and helpers)."""

    def __init__(self, turns):
        self.turns = turns
        self.t = turns.t
        self.view = turns.view
        self.opts = turns.opts

    def name(self, player):
        """A player's name."""
        return self.t.names[player]

    def _default(self, entry, dealt, lent):
        """The cards the companion already knows for a show entry (offered on Enter)."""
        g = self.t.game
        if entry == CRIB:
            discards = [c for _, dis in dealt.values() for c in dis]
            return discards if len(discards) == 4 else None
        if entry in dealt:
            cards, dis = dealt[entry]
            return [c for c in cards if c not in dis]
        laid = g.play.laid[entry] if g.play else []
        if len(laid) == 4 and not any(lent.get(c) for c in laid):
            return list(laid)
        return None

    def _taken(self, entry, dealt, lent):
        """Cards that cannot be in this entry, seen elsewhere this hand (lent suits aside),
        as a mask (taken[card] 1): no list of them grown, searched a card."""
        g = self.t.game
        taken = bytearray(52)
        if g.starter is not None:
            taken[g.starter] = 1
        for _, cards, _ in g.shown:
            for c in cards or ():
                taken[c] = 1
        if g.play:
            for q in range(self.t.players):
                if q != entry:
                    for c in g.play.laid[q]:
                        if not lent.get(c):
                            taken[c] = 1
        for q, (cards, dis) in dealt.items():
            for c in dis if entry != CRIB else cards:
                if entry != CRIB or c not in dis:
                    taken[c] = 1
            if entry != CRIB and entry != q:
                for c in cards:
                    if c not in dis:
                        taken[c] = 1
        return taken

    def ask_show(self):
        """The next hand (or the crib) in counting order: its cards or a total, then pegged."""
        g = self.t.game
        entry = g.show_next()
        crib = entry == CRIB
        who = g.dealer if crib else entry
        whose = f"{self.name(who)}'s {'crib' if crib else 'hand'}"
        dealt, lent = self.turns.context()
        default = self._default(entry, dealt, lent)
        taken = self._taken(entry, dealt, lent)
        # the play's own list (the play is over: nothing changes it), not a copy
        laid = () if crib or not g.play else g.play.laid[entry]
        room = self._rank_room(entry, crib)
        held = (self, who, laid, lent, room, taken)  # one cell for the parser, not six

        def parse(text):
            self, who, laid, lent, room, taken = held
            if is_digits(text):
                return None, check_total(int(text)), None
            ranks = _parse_ranks(text)
            if ranks is not None:
                return None, None, self._check_ranks(who, ranks, laid, lent, room)
            cards = parse_cards(text)
            if len(cards) != 4:
                raise AnswerError(f"give 4 cards (the starter is added) or a total,"
                                  f" not {text!r}")
            for c in cards:
                if taken[c]:
                    raise AnswerError(f"{card_symbol(c)} is accounted for elsewhere this hand")
            if len(laid) == 4 and sorted(c >> 2 for c in cards) != sorted(c >> 2 for c in laid):
                said = " ".join(play_text(c, lent.get(c)) for c in laid)
                raise AnswerError(f"{self.name(who)} laid {said} in the play")
            return cards, None, None
        shown_default = " ".join(map(card_symbol, default)) if default else None
        hint = ("4 cards (5h 5c jd 4s), 4 ranks (5 5 j 4) or the total; Enter takes the"
                " cards shown")
        by_ranks = bool(self.opts.get("ranks"))
        free = 52
        for c in range(52):  # counted first: the list made at its size (free_names)
            if taken[c]:
                free -= 1
        legal = {"cards": free_names(taken, 52, free), "count": 4,
                 "totals": TOTALS, "known": [card_name(c) for c in default or ()],
                 "ranks": [play_text(c, True) for c in laid] if len(laid) == 4 else None,
                 "room": _room_of(room),
                 # how this table gives a show: "total" in a totals-only game, "ranks"
                 # when a flush and nobs are asked once at the confirmation
                 "prefer": "total" if self.opts.get("totals") else
                 "ranks" if by_ranks else "cards"}
        # Ranks mode: a hand laid in the play by rank is known but for its suits: straight
        # to the confirmation, which asks the flush and nobs (No: give it another way).
        direct = by_ranks and default is None and len(laid) == 4
        while True:
            if direct:
                cards, total, ranks = None, None, [c >> 2 for c in laid]
            else:
                cards, total, ranks = yield Ask("crib" if crib else "show",
                                                f"{whose} (cards or total)", parse,
                                                shown_default, hint=hint, asks=who,
                                                legal=legal)
            try:
                if ranks is not None:
                    counted = yield from self._count_ranks(who, whose, ranks, crib)
                    if counted is None:
                        direct = False
                        continue  # No: the hand asked for
                    pegged, info = counted
                    break
                if cards is None and default:
                    yield from self._check_total(whose, default, total, crib)
                pegged, info = yield from self._count(who, cards, total, crib)
            except UndoRequest:
                if direct:
                    raise  # nothing asked before: the undo takes back the last entry
                continue  # back to the cards of this hand
            break
        info["entry"] = entry
        self.t.record("show", (None, pegged), player=who, info=info, announce=False)
        self.view.say(self.name(who), "crib" if crib else "hand", pegged)
        self.t.show_board(g.side_of(who) if pegged else None)
        if not crib and who in dealt and not self.t.game.over:
            self._review(who, dealt[who])

    def _rank_room(self, entry, crib):
        """How many more cards of each rank this entry can hold: four, less the starter,
        the cards laid by the others (by the crib's owners: all of them) and the hands
        shown (all by rank: their suits may be lent)."""
        g = self.t.game
        seen = bytearray(52)  # a mask of the cards seen: each counted once
        if g.starter is not None:
            seen[g.starter] = 1
        for q in range(self.t.players):
            if g.play and (crib or q != entry):
                for c in g.play.laid[q]:
                    seen[c] = 1
        for _, cards, _ in g.shown:
            for c in cards or ():
                seen[c] = 1
        room = [4] * 13
        for c in range(52):
            if seen[c]:
                room[c >> 2] -= 1
        return room

    def _check_ranks(self, who, ranks, laid, lent, room):
        """The four ranks of a show, checked against the play and the cards seen."""
        if len(ranks) != 4:
            raise AnswerError(f"give 4 ranks (the starter is added), not {len(ranks)}")
        for r in set(ranks):
            if ranks.count(r) > room[r]:
                raise AnswerError(f"there are not {ranks.count(r)} more"
                                  f" {rank_text(r)}s this hand")
        if len(laid) == 4 and sorted(ranks) != sorted(c >> 2 for c in laid):
            said = " ".join(play_text(c, lent.get(c)) for c in laid)
            raise AnswerError(f"{self.name(who)} laid {said} in the play")
        return ranks

    def _count_ranks(self, who, whose, ranks, crib):
        """A show known by ranks: the flush and nobs asked (in the confirmation, or on
        their own when the count is stated or not confirmed), then counted as _count does.
        None when the confirmation says No (the hand is asked for again)."""
        g = self.t.game
        choices = suit_choices(ranks, g.starter, crib)
        scored = {key: score_ranks(ranks, g.starter, crib, *key) for key in choices}
        names = [rank_name(r << 2) for r in ranks]
        items, base = scored[choices[0]]
        manual = self.opts.get("manual") or self.opts.get("muggins")
        codes = [CODES[key] for key in choices]
        by_code = dict(zip(codes, choices))

        def parse(text):
            low = " ".join(text.lower().replace("+", " ").replace(",", " ").split())
            if low in ("", "y", "yes") and choices[0] == (0, False):
                return choices[0]
            if low in ("n", "no"):
                return None
            if low in by_code:
                return by_code[low]
            raise AnswerError(f"answer {', '.join(codes)} or n, not {text!r}")

        def label(key):
            more = describe_flags(*key)
            return f"Peg {scored[key][1]}" + (f": {more}" if more else "")
        if self.opts.get("confirm", True) and not manual:
            self.view.show(names, g.starter, crib, items, base, self.name(who))
            key = yield Ask("confirm", f"Peg {base} ({'/'.join(codes)}/n)", parse, codes[0],
                            hint="y pegs it; flush, flush5, nobs add what the suits make;"
                                 " n gives the hand again",
                            legal={"choices": codes + ["n"], "default": True,
                                   "labels": _labels(by_code, label)})
            if key is None:
                return None
        elif len(choices) > 1:
            key = yield Ask("suits", f"{whose}: a flush or nobs ({'/'.join(codes)})", parse,
                            codes[0], asks=who, hint="y: neither",
                            legal={"choices": codes, "default": True,
                                   "labels": {c: _capital(describe_flags(*k)) or "Neither"
                                              for c, k in by_code.items()}})
            if key is None:
                return None
        else:
            key = choices[0]
        items, actual = scored[key]
        info = {"cards": None, "ranks": [rank_text(r) for r in ranks], "flush": key[0],
                "nobs": key[1], "actual": actual, "stated": None, "missed": 0}
        if not manual:
            if key != choices[0] or not self.opts.get("confirm", True):
                self.view.show(names, g.starter, crib, items, actual,  # with its flush, nobs
                               self.name(who))
            return actual, info
        pegged = yield from self._stated(who, names, crib, items, actual, info)
        return pegged, info

    def _check_total(self, whose, cards, total, crib):
        """A typed total that the cards the game knows do not make is confirmed first."""
        g = self.t.game
        items = show_breakdown(cards, g.starter, crib)
        worth = sum(it.points for it in items)
        if worth == total:
            return
        shown = " ".join(map(card_symbol, cards))
        self.view.show(cards, g.starter, crib, items, worth)
        if not (yield from self.turns.confirm(f"{whose} {shown} is worth {worth}, not"
                                              f" {total}. Peg {total}", False)):
            raise UndoRequest()

    def _count(self, who, cards, total, crib):
        """(points to peg, info) after the count: announced, or checked (manual, muggins)."""
        g = self.t.game
        manual = self.opts.get("manual") or self.opts.get("muggins")
        info = {"cards": None if cards is None else [card_name(c) for c in cards],
                "actual": None, "stated": None, "missed": 0}
        if cards is None:
            info["stated"] = total
            return total, info
        items = show_breakdown(cards, g.starter, crib)
        actual = sum(it.points for it in items)
        info["actual"] = actual
        if not manual:
            self.view.show(cards, g.starter, crib, items, actual)
            # the confirmation's Ask yielded here (no generator of Turns.confirm's made)
            if self.opts.get("confirm", True) and not (yield confirm_ask(f"Peg {actual}")):
                raise UndoRequest()
            return actual, info
        return (yield from self._stated(who, cards, crib, items, actual, info)), info

    def _stated(self, who, cards, crib, items, actual, info):
        """The count a player states (manual counting, muggins), checked: what to peg."""
        g = self.t.game
        stated = yield Ask("count", f"{self.name(who)}'s count", _parse_count, asks=who,
                           hint="the count the player states", legal={"totals": TOTALS})
        info["stated"] = stated
        if stated == actual:
            self.view.say(self.name(who), f"{stated}: right")
            return actual
        self.view.show(cards, g.starter, crib, items, actual)
        if stated > actual or not self.opts.get("muggins"):
            self.view.say(self.name(who), f"counted {stated}, the count is {actual}")
            return actual
        info["missed"] = actual - stated
        self.view.say(self.name(who), f"counted {stated}: {actual - stated} missed")
        return stated

    def _review(self, who, deal):
        """The discard advisor's line on a player's discard (--review), when the table
        has an advisor (Table.review: the host's; none on a board)."""
        cards, discard = deal
        g = self.t.game
        line = self.t.review(cards, discard, g.side_of(who) == g.side_of(g.dealer))
        if line:
            self.view.note(f"{self.name(who)}: {line}")

    # -- muggins ----------------------------------------------------------------------------

    def open_muggins(self):
        """The show entry whose missed points nobody has claimed or passed yet, or None."""
        if not self.opts.get("muggins") or self.t.game.over:
            return None
        # kept as the entries come (cribcore.table.standing): the record is not read
        s = self.t.standing()
        last = s.last_show
        if last is None or not last.info.get("missed") or s.show_done:
            return None
        return last

    def ask_muggins(self, show):
        """An opponent may claim the points a player missed in their count."""
        g = self.t.game
        mine = g.side_of(show.player)
        others = [s for s in range(len(g.sides)) if s != mine]
        names = [self.t.side_names[s] for s in others]
        n = show.info["missed"]
        text = f"Muggins: {self.name(show.player)} missed {n}"
        if len(others) == 1:
            claim = yield from self.turns.confirm(f"{text}. {names[0]} claims them", False)
            side = others[0] if claim else None
        else:
            pick = parse_choice(names, "who claims")
            side = yield Ask("muggins", f"{text}. Who claims them (Enter: nobody)",
                             lambda s: None if not s else others[pick(s)], default="",
                             legal={"choices": names, "none": True})
        if side is None:
            self.t.note("note", {"for_seq": show.seq, "muggins": "passed"})
            return
        self.t.record("muggins", (side, n, "muggins"), player=None,
                      info={"for_seq": show.seq}, announce=False)
        self.view.say(self.t.side_names[side], f"muggins on {describe(self.t, show)}", n)
        self.t.show_board(side)


def confirm_ask(prompt, default=True, undo=True, kind="confirm"):
    """The Ask of a yes/no question; Enter gives default. (Here, not in
    cribcore.table.turns, which imports this module: the show yields it as it is.)"""
    marker = "Y/n" if default else "y/N"
    return Ask(kind, f"{prompt} ({marker})", yes_parser(default), hint="y or n",
               undo=undo, legal={"choices": ["y", "n"], "default": default})


def _room_of(room):
    """{rank as players say it: how many more this hand can hold}, ace up: a dict of its
    13 made at its size (a comprehension grows it, copying its table, as it goes)."""
    return {"A": room[0], "2": room[1], "3": room[2], "4": room[3], "5": room[4],
            "6": room[5], "7": room[6], "8": room[7], "9": room[8], "10": room[9],
            "J": room[10], "Q": room[11], "K": room[12]}


def _parse_ranks(text):
    """The ranks of an answer of ranks alone ('5 5 j 10'), or None if it names a card."""
    words = text.replace(",", " ").split()
    out = []
    for w in words:
        try:
            parse_card(w)
            return None
        except InvalidCardError:
            pass
        try:
            out.append(parse_rank(w))
        except InvalidCardError:
            return None
    return out or None


def _parse_count(text):
    try:
        n = whole_number(text)
    except ValueError:
        raise AnswerError(f"a count is a number 0-29, not {text!r}") from None
    return check_total(n)


def _labels(by_code, label):
    """The confirmation's button labels: each code's, and No."""
    out = {c: label(k) for c, k in by_code.items()}
    out["n"] = "No"
    return out


def _capital(text):
    """text with its first letter in capitals (MicroPython's str has no capitalize)."""
    return text[:1].upper() + text[1:]
