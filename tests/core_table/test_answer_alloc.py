"""What an answer makes, kept small (s8-core): the record's line checked from its two pieces
(no third text of them joined), the events named in their own list, a board event's names
the table's own list, the play's question the same whichever way it is made. Plain
asserts: these run on CPython and under MicroPython (tests/test_micropython.py)."""

import json

from tablegame import Lcg, choose, engine_for

from cribcore.boardtext import crc, running
from cribcore.table import engine as engine_module
from cribcore.table.gamelines import ascii_json, line, parse
from cribcore.table.questions import Event, Events

DATA = (
    [3, "lay", 1, None, 2, "fifteen", "table", (17,),
     {"card": "5h", "lent": False, "text": "5\u2665"}, None],
    {"names": ["Ann", "Zo\u00eb"], "target": 61},  # a name past ASCII: escaped
    [1, "go", 0, None, 0, None, "table", (), {}, 1],
    7,
)


def test_a_line_is_the_joined_text_checked_as_before():
    for game, seq, kind, data in ((1, 25, "e", DATA[0]), (12, 1, "h", DATA[1]),
                                  (3, 40, "e", DATA[2]), (99999, 7, "u", DATA[3])):
        body = "%d %d %s %s" % (game, seq, kind, ascii_json(data))
        text = line(game, seq, kind, data)
        assert text == "%s %s\n" % (crc(body), body)
        got = parse(text)
        assert got[:3] == (game, seq, kind)
        assert got[3] == json.loads(ascii_json(data))  # a tuple reads back as a list
        assert parse(text[:20] + ("x" if text[20] != "x" else "y") + text[21:]) is None


def test_the_crc_of_texts_read_one_after_the_other_is_the_crc_of_them_joined():
    for first, second in (("", ""), ("a", ""), ("", "b"), ("1 2 e ", "[1,2]"),
                          ("12 7 h ", '{"names":["Ann","Bob"]}'), ("x" * 300, "y" * 5)):
        assert "%08x" % (running(second, running(first)) & 0xFFFFFFFF) == crc(first + second)
        assert running(first.encode()) == running(first)  # bytes or text alike


def test_the_events_are_named_in_the_list_taken():
    engine = engine_for(2, "cards", target=61)
    engine.start()
    rng = Lcg(4)
    while engine._ask.asks is None:  # a question that asks a player: the names read
        q = engine.question(known=False)
        engine.answer(q.id, choose(q.to_dict(), rng, "cards"))
    ask = engine._ask
    taken = [Event("say", "Ann", "5h", 0, None), Event("show", None, "hand", 4, {"x": 1}),
             Event("note", None, "n", 0, None)]
    engine._events.items = taken
    out = engine._take(ask)
    assert out is taken  # named in place: no other list an answer (fails before)
    name = engine.session.table.names[ask.asks]
    assert [(ev.kind, ev.who) for ev in out] == [("say", "Ann"), ("show", name),
                                                 ("note", None)]
    assert out[1].data == {"x": 1} and out[1].points == 4


def test_the_crc_of_a_question_is_made_once_an_ask():
    engine = engine_for(2, "cards", target=61)
    engine.start()
    made = []
    real = engine_module._crc_sig

    def counted(*sig):
        made.append(sig)
        return real(*sig)
    engine_module._crc_sig = counted
    try:
        ask = engine._ask
        first = engine._crc_of(ask)
        assert engine._crc_of(ask) == first and len(made) == 1
        q = engine.question(known=False)
        engine.answer(q.id, choose(q.to_dict(), Lcg(3), "cards"))
        assert engine._ask is not ask
        assert engine._crc_of(engine._ask) == real(*engine._ask.signature()[:4])
        assert engine._crc_of(ask) == first  # an older ask made again, as it was
    finally:
        engine_module._crc_sig = real


def test_a_board_event_holds_the_tables_names_and_its_own_scores():
    events = Events()
    names, scores = ["Ann", "Bob"], [5, 9]
    events.board(names, scores, 61, 0)
    events.board(("Cy", "Di"), (1, 2), 61)
    first, second = events.take()
    assert first.data["names"] is names  # the table's own list (fails before: a copy)
    assert first.data["scores"] == [5, 9] and first.data["scores"] is not scores
    assert second.data["names"] == ["Cy", "Di"] and type(second.data["names"]) is list
    assert second.data["scores"] == [1, 2] and type(second.data["scores"]) is list


def _play_game(players, mode, options, seed):
    engine = engine_for(players, mode, target=61, options=options)
    engine.start()
    rng = Lcg(seed)
    asked = []
    for _ in range(400):
        q = engine.question(known=False)
        if q is None:
            break
        d = q.to_dict()
        asked.append((d["kind"], d["asks"], d["prompt"], d["default"], d["legal"]))
        engine.answer(q.id, _choose(d, rng, mode))
    return engine, asked


def _choose(d, rng, mode):
    kind, legal = d["kind"], d["legal"]
    if kind == "another":
        return "n"
    if kind in ("dealt", "discard"):  # the review's: a hand's cards, then its discard
        cards = list(legal["cards"])
        out = []
        while len(out) < legal["count"]:
            out.append(cards.pop(rng.below(len(cards))))
        return " ".join(out)
    return choose(d, rng, mode)


def test_a_known_hand_that_cannot_play_says_go_for_its_player():
    # with the dealt cards reviewed, the board knows each hand: when none of a hand's
    # cards fits, its go is said for it (no question), and its last card is the default
    engine, asked = _play_game(2, "cards", {"review": True}, 7)
    plays = [a for a in asked if a[0] == "play"]
    assert plays and any(a[3] is not None for a in plays)  # a last card offered on Enter
    gos = [e for e in engine.session.table.rec.entries() if e.kind == "go"]
    assert any(e.info.get("auto") for e in gos)  # said for a hand that had no card to lay
    for _kind, _asks, prompt, _default, legal in plays:
        assert prompt.endswith("(count %d)" % legal["count"])
        assert legal["cards"] or legal["go"]  # never a play question with nothing to say


def test_a_shows_room_is_each_rank_as_players_say_it():
    from cribcore.table.cards import rank_text
    from cribcore.table.show import _room_of

    room = [4, 3, 2, 1, 0, 4, 3, 2, 1, 0, 4, 4, 1]
    got = _room_of(room)
    assert got == {rank_text(r): room[r] for r in range(13)} and len(got) == 13


def test_the_plays_words_are_read_in_each_spelling():
    # the words are tuples made once (s8-core): each spelling still reads as it did
    for words, what in ((("go", "g", "GO", " G "), "go"),
                        (("points", "pts", "typed", "Points"), "points")):
        for word in words:
            engine = engine_for(2, "cards", target=61)
            engine.start()
            rng = Lcg(9)
            while engine._ask is not None and engine._ask.kind != "play":
                q = engine.question(known=False)
                engine.answer(q.id, choose(q.to_dict(), rng, "cards"))
            ask = engine._ask
            if what == "go" and not ask.legal["go"]:
                try:
                    ask.parse(word.strip())
                except Exception as e:  # AnswerError: a card still fits
                    assert "can still play" in str(e)
                else:
                    raise AssertionError("go taken while a card fits: %r" % word)
            else:
                assert ask.parse(word.strip())[0] == what


def test_the_literals_spelled_for_speed_are_the_constants():
    # the view's phases and the play's words are spelled as literal tuples (a tuple of
    # names is built at every call): they must stay the constants they stand for
    from cribcore.game import PLAY, SHOW
    from cribcore.table.cards import GO
    from cribcore.table.turns import TYPED

    assert (PLAY, SHOW) == ("play", "show") and GO == "go" and TYPED == "points"


def test_a_card_is_read_in_either_case_without_copies():
    # s9: parse_card reads a character at a time (no upper-case copy, no slice): every
    # card's name and symbol in each case reads as the card; what is not a card is refused
    from cribcore.cards import CARD_NAMES, CARD_SYMBOLS, InvalidCardError, parse_card

    for c in range(52):
        name = CARD_NAMES[c]
        for text in (name, name.lower(), name[0].lower() + name[1], " %s " % name,
                     CARD_SYMBOLS[c]):
            assert parse_card(text) == c, text
        if name[0] == "T":
            assert parse_card("10" + name[1]) == c and parse_card("10" + name[1].lower()) == c
    for bad in ("", "5", "5x", "xh", "1h", "100h", "10", "5hh", "t", "11h", "1 0h", 5):
        try:
            parse_card(bad)
        except InvalidCardError:
            continue
        raise AssertionError("taken as a card: %r" % (bad,))


def test_the_show_order_is_read_without_a_list():
    # s9: show_next computes the entry from the dealer and the count so far
    from cribcore.counting import CRIB, show_order
    from cribcore.deal import SHOW
    from cribcore.game import Game

    for players in (2, 3, 4):
        for dealer in range(players):
            g = Game(players, 121, dealer=dealer)
            g.phase = SHOW
            order = show_order(players, dealer)
            for k in range(players + 1):
                g.shown = [None] * k
                assert g.show_next() == order[k]
            assert order[-1] == CRIB


def test_a_card_that_pegs_nothing_returns_the_shared_step():
    from cribcore.game import NOTHING, Game
    from cribcore.play import Play

    g = Game(2, 121, dealer=0)  # the game as a table plays it: cards named, not dealt
    g.turn_starter(4 * 4)  # a five: nothing for the dealer
    assert g.lay(2 * 4) is NOTHING  # a three: count 3, nothing pegged (fails before)
    step = g.lay(9 * 4 + 1)  # a ten: 13 in all, nothing
    assert step is NOTHING and step.pegs == () and not step.over
    assert g.lay(1 * 4 + 2).points == 2  # a two: fifteen
    p = Play(2, 0)
    assert p.lay(2 * 4) == [] and type(p.lay(3 * 4)) is list  # the public lists as before


def test_free_names_are_the_cards_not_taken_in_a_list_of_their_size():
    from cribcore.cards import CARD_NAMES
    from cribcore.table.cards import free_names

    taken = bytearray(52)
    for c in (0, 5, 17, 30, 51):
        taken[c] = 1
    for top in (0, 4, 20, 52):
        want = [CARD_NAMES[c] for c in range(top) if not taken[c]]
        assert free_names(taken, top, len(want)) == want


def test_one_generator_serves_a_hands_play():
    # s9: ask_play asks again while the play goes on: one generator a hand's play (and
    # one more after a switch to typed points), not one made a card laid
    from cribcore.table.turns import Turns

    engine = engine_for(2, "cards", target=61)
    engine.start()
    made = []
    real = Turns.ask_play

    def counted(self):
        made.append(self.t.game.hand_no)
        return real(self)
    Turns.ask_play = counted
    try:
        rng = Lcg(5)
        plays = 0
        for _ in range(60):
            q = engine.asked()
            if q is None or q["kind"] == "another":
                break
            plays += q["kind"] == "play"
            engine.answer(q["id"], choose(q, rng, "cards"))
    finally:
        Turns.ask_play = real
    assert plays >= 8 and len(made) * 4 <= plays, (plays, made)  # fails before: one a card
    assert len(made) == len(set(made))  # one a hand
