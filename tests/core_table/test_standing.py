"""cribcore.table.standing: what the questions and the view read of the standing entries,
kept up to date as entries are added, is at every step what a fresh pass over all the
entries gives: through whole games with undo, redo (the redo gives the undone answers
again) and the board's buttons (a peg, an undo of its last jump), and after a restart
from the record. Plain asserts (these run under MicroPython too); the same runs over
drawn seeds: tests/table/test_standing_properties.py. And the game record's lines
(cribcore.table.gamelines.ascii_json) escape what MicroPython's json leaves as it is."""

from tablegame import Lcg, choose, engine_for

from cribcore.cards import parse_card
from cribcore.table.answers import AnswerError
from cribcore.table.record import BoardEvent
from cribcore.table.standing import Standing
from cribcore.table.table import Table


def fresh(entries, sides, hand):
    """The backs, the hand's entries and its (dealt, lent), each from every entry."""
    backs, totals = [0] * sides, [0] * sides
    for e in entries:
        if e.points > 0 and e.side is not None:
            backs[e.side] = totals[e.side]
            totals[e.side] += e.points
    mine = [e for e in entries if e.hand == hand]
    dealt, lent = {}, {}
    for e in mine:
        if e.kind == "dealt" and e.info.get("cards"):
            dealt[e.player] = ([parse_card(c) for c in e.info["cards"]],
                               [parse_card(c) for c in e.info["discard"]])
        elif e.kind == "lay":
            lent[parse_card(e.info["card"])] = e.info["lent"]
    return backs, mine, (dealt, lent)


def check(table):
    """The table's Standing against a fresh pass, for every hand of the game so far."""
    g = table.game
    sides = len(g.sides)
    s = table.standing()
    for hand in range(g.hand_no + 2):
        backs, mine, context = fresh(table.entries, sides, hand)
        assert s.backs == backs
        assert table.hand_entries(hand) == mine
        assert s.context(hand) == context
        assert s.typed_play(hand) == any(e.kind == "note" and e.info.get("typed_play")
                                         for e in mine)
    # the last show, and whether an entry after it settled its muggins (Shows.open_muggins)
    shows = [e for e in table.entries if e.kind == "show"]
    last = shows[-1] if shows else None
    assert s.last_show is last
    assert s.show_done == (last is not None and any(
        e.info.get("for_seq") == last.seq for e in table.entries))
    # a Standing made now from a copy of the entries (another list: folded from the first)
    again = Standing(sides)
    again.update(list(table.entries))
    assert again.backs == s.backs
    assert again.hand_entries(g.hand_no) == s.hand_entries(g.hand_no)


def run(players, mode, seed, undo_every, board_every, target=31, limit=400, options=None):
    rng = Lcg(seed)
    engine = engine_for(players, mode, target, dict(options or {}, review=rng.below(2) == 0))
    engine.start()
    games = steps = 0
    while steps < limit:
        q = engine.question()
        if q is None:
            break
        steps += 1
        table = engine.session.table
        if table is not None and table.game is not None:
            check(table)
        d = q.to_dict()
        if d["kind"] == "another":
            games += 1
            engine.answer(q.id, "y" if games < 2 else "n")
            continue
        if table is not None and not table.game.over and board_every and \
                rng.below(board_every) == 0 and table.game.phase != "cut":
            lane = rng.below(len(table.game.sides))
            ev = BoardEvent("peg", lane, 1 + rng.below(3), None) if rng.below(2) else \
                BoardEvent("undo", lane, 0, None)
            engine.board_event(ev)
            continue
        if undo_every and q.undo and rng.below(undo_every) == 0:
            engine.undo(q.id)
            undone = engine.undone()
            if undone is not None and undone["redo"] and rng.below(2) == 0:
                try:
                    engine.redo(engine.question().id)
                except AnswerError:
                    pass  # an answer put back that no longer fits (a board peg between)
            continue
        engine.answer(q.id, answer(d, rng, mode))
    return engine, steps


def answer(q, rng, mode):
    """tablegame.choose's answer, and the dealt cards and discard of the review."""
    if q["kind"] in ("dealt", "discard"):
        cards, out = q["legal"]["cards"], []
        while len(out) < q["legal"]["count"]:
            c = cards[rng.below(len(cards))]
            if c not in out:
                out.append(c)
        return " ".join(out)
    return choose(q, rng, mode)


def test_what_is_kept_equals_a_fresh_pass_at_every_step():
    for players, mode, seed, undo_every, board_every in (
            (2, "cards", 305031, 8, 6), (2, "ranks", 11, 3, 0), (3, "cards", 5, 0, 6),
            (4, "totals", 9, 8, 6), (2, "cards", 21, 3, 6)):
        _, steps = run(players, mode, seed, undo_every, board_every, limit=150)
        assert steps > 10


def test_the_last_show_and_its_muggins_are_kept_as_a_fresh_pass_finds_them():
    """Counts stated at the show, muggins on: shows with missed points, claimed or passed,
    through undos and the board's buttons (Shows.open_muggins reads the fold)."""
    claimed = 0
    for players, seed in ((2, 4), (3, 8)):
        engine = None  # the game before let go first: two at once were past the 416K cap
        engine, steps = run(players, "cards", seed, 5, 7, target=61, limit=300,
                            options={"muggins": True})
        assert steps > 50
        for e in engine.session.table.entries:
            if e.info.get("for_seq") is not None:
                claimed += 1
    assert claimed  # the muggins question was asked and answered


def test_a_restart_from_the_record_reads_the_same():
    engine, _ = run(2, "cards", 7, 5, 0, target=121, limit=120)
    table = engine.session.table
    before = table.standing()
    hand = table.game.hand_no
    again = Table(table.rec, table.board, table.view, table.names, table.target)
    assert again.entries is table.entries  # the record's one list: the same entries
    after = again.standing()
    assert after is not before
    assert after.backs == before.backs
    assert after.hand_entries(hand) == before.hand_entries(hand)
    assert after.context(hand) == before.context(hand)
    assert len(table.entries) > 20


def test_an_undo_makes_it_again_from_the_new_list():
    s = Standing(2)
    engine, _ = run(2, "cards", 3, 0, 0, target=121, limit=60)
    table = engine.session.table
    entries = table.entries
    s.update(entries)
    with_points = [e for e in entries if e.points > 0]
    assert with_points, "no points yet: the check would be empty"
    last = with_points[-1]
    fewer = [e for e in entries if e is not last]  # what an undo leaves: another list
    s.update(fewer)
    backs, mine, _ = fresh(fewer, 2, table.game.hand_no)
    assert s.backs == backs
    assert s.hand_entries(table.game.hand_no) == mine


def test_entries_out_of_hand_order_are_scanned():
    class E:
        points, side, kind, info, player = 0, None, "note", {}, None

        def __init__(self, hand):
            self.hand = hand
    entries = [E(0), E(1), E(0)]
    s = Standing(2)
    s.update(entries)
    assert s.hand_entries(0) == [entries[0], entries[2]]
    assert s.hand_entries(1) == [entries[1]]
    assert s.hand_entries(2) == []


def test_a_line_spells_every_character_past_ascii_as_json_escapes_it():
    import json

    from cribcore.table.gamelines import ascii_json, escape_all

    for data in ([3, "lay", 1, None, 0, None, "table", [22],
                  {"card": "6H", "lent": False, "text": "6\u2665"}, None],
                 ["\u2663\u2666\u2665\u2660 \u2665\u2665"], ["Zo\u00eb", "5\u2660"],
                 ["\u00e9\u2665x\U0001F600", "\u2661"], ["plain"]):
        text = ascii_json(data)
        assert len(text.encode()) == len(text), text
        if "\\ud83d" not in text:  # MicroPython's json reads no surrogate pair
            assert json.loads(text) == data
        # the suits' symbols replaced at once: the same text as the loop of every
        # character gives
        assert text == escape_all(json.dumps(data, separators=(",", ":"))), text
