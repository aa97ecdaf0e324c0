"""The board app over its serial protocol: transcripts of every verb, ids, errors, settings."""

from apprig import Files, Rig, config, transcript

from cribcore import VERSION
from cribcore.pegs import Board
from cribcore.protocol import DESK, command, decode, verbs
from cribcore.table.gamelines import SERVES


def test_boot_announces_itself():
    rig = Rig()
    assert rig.boot == ["evt boot rev=0 proto=1 fw=%s" % VERSION]


def test_hello_state_peg_undo_transcript():
    transcript(Rig(), """
        > hello
        < ok rev=0 proto=1 fw=%s desk=1 lanes=3 holes=121 target=121 players=3
        > state
        <~ ok rev=0 target=121 players=3 p0=0,0 p1=0,0 p2=0,0 dealer=-1 winner=-1 wins=0,0,0 \
undos=0 pending=0,0,0 mode=play brightness=40 budget_ma=BUDGET pause_ms=1500 idle_ms=600000 ma=
        > peg p=1 n=8 id=42
        < ok rev=1 p1=0,8 winner=-1 id=42
        > peg p=1 n=7 id=43
        < ok rev=2 p1=8,15 winner=-1 id=43
        > undo id=44
        < ok rev=3 p1=0,8 winner=-1 id=44
        > peg p=2 n=5
        < ok rev=4 p2=0,5 winner=-1
        > undo
        < ok rev=5 p2=0,0 winner=-1
        > undo
        < ok rev=6 p1=0,0 winner=-1
        > undo
        < err code=no_undo rev=6 msg="nothing to undo"
    """.replace("%s", VERSION).replace("BUDGET", str(config().budget_ma))
        .replace("\\\n", ""))


def test_repeated_id_is_answered_with_the_first_reply_and_applied_once():
    rig = Rig()
    transcript(rig, """
        > peg p=0 n=12 id=a1
        < ok rev=1 p0=0,12 winner=-1 id=a1
        > peg p=0 n=12 id=a1
        < ok rev=1 p0=0,12 winner=-1 id=a1
        > peg p=0 n=3 id=a2
        < ok rev=2 p0=12,15 winner=-1 id=a2
        > peg p=0 n=12 id=a1
        < ok rev=1 p0=0,12 winner=-1 id=a1
        > peg   n=12 p=0   id=a1
        < ok rev=1 p0=0,12 winner=-1 id=a1
        > peg p=0 n=13 id=a1
        < err code=id_reused rev=2 msg="id 'a1' was used for another command" id=a1
        > undo id=a1
        < err code=id_reused rev=2 msg="id 'a1' was used for another command" id=a1
    """)
    assert rig.app.board.front(0) == 15


def test_only_the_last_ids_are_remembered():
    rig = Rig()
    for i in range(12):
        rig.send("peg p=0 n=1 id=i%d" % i)
    assert rig.ask("peg p=0 n=1 id=i11").args["rev"] == 12  # remembered: not applied again
    assert rig.ask("peg p=0 n=1 id=i4").args["rev"] == 5  # the 8th newest: remembered
    assert rig.ask("peg p=0 n=1 id=i3").args["rev"] == 13  # forgotten: applied


def test_errors_have_stable_codes_and_change_nothing():
    rig = Rig(config(lanes=3))
    rig.send("peg p=0 n=5 id=1")
    before = rig.app.board.dumps(), dict(rig.files.files)
    rows = [
        ("frobnicate", "unknown_verb"),
        ("ok rev=3", "unknown_verb"),
        ("evt peg p=1", "unknown_verb"),
        ("peg p=1", "missing_arg"),
        ("set", "missing_arg"),
        ("peg p=1 n=0", "bad_arg"),
        ("peg p=1 n=3 colour=red", "bad_arg"),
        ("set brightness=101", "bad_arg"),
        ("set budget_ma=300", "bad_arg"),  # below the idle draw of 363 LEDs
        ("set budget_ma=300 brightness=20", "bad_arg"),
        ("help verb=nope", "unknown_verb"),
        ("btn b=lane7 on=1", "bad_arg"),
        ("peg p=3 n=2", "bad_lane"),
        ("set dealer=3", "bad_lane"),
        ("set dealer=3 brightness=90", "bad_lane"),
        ("new players=4", "bad_lane"),
        ("peg p=1 n=2 id=1", "id_reused"),
        ("peg p=1 n=2 \x01", "bad_line"),
        ("peg p=1 n=\"2", "bad_line"),
        ("x" * 200, "too_long"),
    ]
    for line, code in rows:
        got = rig.send(line)
        assert len(got) == 1, (line, got)
        m = decode(got[0])
        assert (m.kind, m.args["code"], m.args["rev"]) == ("err", code, 1), (line, got)
        assert (rig.app.board.dumps(), rig.files.files) == before, line
    assert rig.ask("state").args["brightness"] == 40


def test_game_over_and_undoing_a_win():
    rig = Rig(config(lanes=2))
    transcript(rig, """
        > new target=61 players=2 id=n1
        < ok rev=1 target=61 players=2 wins=0,0 id=n1
        > peg p=1 n=29
        < ok rev=2 p1=0,29 winner=-1
        > peg p=0 n=40
        < ok rev=3 p0=0,40 winner=-1
        > peg p=0 n=29
        < ok rev=4 p0=40,61 winner=0 skunk=0,1
        > peg p=1 n=2
        < err code=game_over rev=4 msg="game over: lane 0 won"
        > state
        <~ ok rev=4 target=61 players=2 p0=40,61 p1=0,29 dealer=-1 winner=0 wins=1,0 skunk=0,1
        > undo
        < ok rev=5 p0=0,40 winner=-1
        > state
        <~ ok rev=5 target=61 players=2 p0=0,40 p1=0,29 dealer=-1 winner=-1 wins=0,0
    """)


def test_new_game_keeps_the_tally_unless_a_new_match():
    rig = Rig(config(lanes=4))
    transcript(rig, """
        > new target=5 players=4
        < ok rev=1 target=5 players=4 wins=0,0,0,0
        > peg p=3 n=9
        < ok rev=2 p3=0,5 winner=3 skunk=0,0,0,0
        > new
        < ok rev=3 target=5 players=4 wins=0,0,0,1
        > new target=121 match=1
        < ok rev=4 target=121 players=4 wins=0,0,0,0
    """)


def test_settings_apply_persist_and_survive_a_restart():
    rig = Rig()
    rig_reply = "ok rev=1 dealer=2 brightness=80 budget_ma=1200 pause_ms=900 idle_ms=0 id=s"
    transcript(rig, """
        > set brightness=80 budget_ma=1200 pause_ms=900 idle_ms=0 dealer=2 id=s
        < %s
    """ % rig_reply)
    assert (rig.app.renderer.brightness, rig.app.renderer.budget_ma) == (80, 1200)
    assert (rig.config.pause_ms, rig.config.idle_ms) == (900, 0)
    again = Rig(files=Files(rig.files.files))
    m = again.ask("state")
    assert (m.args["brightness"], m.args["budget_ma"], m.args["pause_ms"]) == (80, 1200, 900)
    assert (m.args["idle_ms"], m.args["dealer"], m.args["rev"]) == (0, 2, 1)
    assert again.app.renderer.brightness == 80 and again.config.pause_ms == 900
    retry = "set brightness=80 budget_ma=1200 pause_ms=900 idle_ms=0 dealer=2 id=s"
    assert again.send(retry) == [rig_reply]  # the id survived the restart too


def test_help_comes_from_the_table():
    rig = Rig()
    assert rig.ask("help").args["verbs"] == tuple(verbs())
    for verb in verbs():
        m = rig.ask("help verb=" + verb)
        assert m.args["verb"] == verb and m.args["msg"] == command(verb)[3]
    assert rig.ask("help verb=peg").args["args"] == "p=0..3 n=1..1000 [id]"


def test_the_pico_app_answers_every_verb_of_the_protocol_but_the_desks_and_only_those():
    """The verbs the Pico's app answers, from its explicit table, against the protocol's:
    all but those flagged DESK, which desk.py registers on the desktop runner's app; the
    Pico's app carries none of the desk's fields either."""
    from pegboard.app import App

    desk = [v for v in verbs() if command(v)[1] & DESK]
    assert desk == ["btn", "tick"]
    served = [v for v in verbs() if command(v)[1] & SERVES]  # their modules register them
    assert "games" in served
    assert sorted(App.VERBS) == sorted(v for v in verbs()
                                       if v not in desk + served + ["wifi", "home"])
    pico = Rig(desk_verbs=False).app
    assert pico.VERBS is App.VERBS and pico.desk == 0
    for name in ("driven", "pressed", "names", "_q_btn", "_q_tick", "_virtual"):
        assert not hasattr(pico, name), name
    # (pegboard.joining's wifi, homenet's home and gamelines' games, which only a board
    # with Wi-Fi adds, left out)
    assert sorted(Rig().app.VERBS) == sorted(v for v in verbs()
                                             if v not in served + ["wifi", "home"])
    for verb, run in App.VERBS.items():  # each to its own method
        assert run.__name__.endswith("_" + verb), verb


def test_a_board_without_the_game_record_refuses_the_games_verb():
    """`games` is a board's that serves the table (pegboard.gamesverb registers it): a
    plain Pico and the plain desktop runner refuse it, as a verb their app has no method
    for (desk_only: the app's one refusal of such a verb, kept as it was so the Pico's
    heap stays within its cap); a host reads either code as "no record"."""
    import cribcore.table.gamelines  # noqa: F401 - it adds `games` to the protocol's tables

    for rig in (Rig(desk_verbs=False), Rig()):
        m = rig.ask("games")
        assert (m.kind, m.args["code"]) == ("err", "desk_only")


def test_desk_verbs_are_refused_by_the_pico_build():
    rig = Rig(desk_verbs=False)
    for line in ("btn b=lane0 on=1", "tick ms=100"):
        m = rig.ask(line)
        assert (m.kind, m.args["code"]) == ("err", "desk_only")
    assert rig.ask("hello").args["desk"] == 0


def test_desk_button_and_clock_verbs_peg_through_the_buttons():
    rig = Rig(driven=True)
    transcript(rig, """
        > tick ms=0
        < ok rev=0 now=0
        > btn b=lane2 on=1
        < ok rev=0
        > tick ms=100
        < ok rev=0 now=100
        > btn b=lane2 on=0
        < ok rev=0
        > tick ms=50
        < ok rev=0 now=150
        > btn b=lane2 on=1
        < ok rev=0
        > tick ms=50
        < ok rev=0 now=200
        > btn b=lane2 on=0
        < ok rev=0
        > tick ms=50
        < ok rev=0 now=250
        > state
        <~ ok rev=0 target=121 players=3 p0=0,0 p1=0,0 p2=0,0 dealer=-1 winner=-1 wins=0,0,0 \
undos=0 pending=0,0,2 mode=play
        > tick ms=2000
        < evt peg rev=1 p=2 n=2 src=button p2=0,2 winner=-1
        < ok rev=1 now=2250
    """.replace("\\\n", ""))


def test_leds_dump_shows_the_pegs():
    rig = Rig(config(lanes=2, holes=121, brightness=100, budget_ma=100000))
    rig.send("peg p=0 n=10")
    rig.send("peg p=0 n=5")
    rig.step(2000)  # let the jump animation finish
    px = rig.pixels()
    assert px == rig.strip.pixels
    lane0 = rig.config.lane_leds[0]
    front, back = px[lane0[15]], px[lane0[10]]
    assert front[0] > back[0] > 0  # red lane: front bright, back dim
    assert px[lane0[14]] == (0, 0, 0) and px[lane0[13]] == (0, 0, 0)


def test_replies_carry_rev_and_board_matches_its_state_reply():
    rig = Rig()
    for line in ("hello", "state", "leds", "help", "peg p=1 n=3", "undo", "tick ms=10"):
        assert "rev" in rig.ask(line).args, line
    rig.send("peg p=2 n=17")
    m = rig.ask("state")
    b = Board.loads(rig.app.board.dumps())
    assert m.args["p2"] == (b.back(2), b.front(2)) == (0, 17)


def test_a_failing_frame_is_reported_once_and_the_board_keeps_answering():
    rig = Rig()
    draw = rig.app.renderer.draw
    calls = []

    def flaky(board, buttons, now):
        calls.append(now)
        if len(calls) <= 3:
            raise MemoryError("no room for a frame")
        return draw(board, buttons, now)

    rig.app.renderer.draw = flaky
    rig.port.inbox = b"peg p=0 n=4\n"
    rig.step(100)
    got = rig.port.take()
    assert got[0] == "ok rev=1 p0=0,4 winner=-1"
    assert [decode(x).args["code"] for x in got[1:]] == ["internal"]
    assert rig.ask("state").args["p0"] == (0, 4) and len(calls) > 3


def test_commands_are_answered_within_a_step_while_a_jump_animates():
    rig = Rig()
    rig.send("peg p=0 n=25")
    assert rig.app.renderer.animating(rig.now)
    for line in ("state", "hello", "peg p=1 n=3"):
        rig.port.inbox = (line + "\n").encode()
        rig.step()
        got = rig.port.take()
        assert len(got) == 1 and got[0].startswith("ok "), (line, got)
    assert rig.app.renderer.animating(rig.now)


def test_turn_lights_a_lane_and_is_never_saved():
    rig = Rig()
    transcript(rig, """
        > turn p=1
        < ok rev=0 p=1
        > turn p=4
        <~ err code=bad_arg rev=0
        > turn
        <~ err code=missing_arg rev=0
        > new players=2
        <~ ok rev=1
        > turn p=2
        <~ err code=bad_lane rev=1
        > turn p=-1
        < ok rev=1 p=-1
    """)
    assert rig.app.renderer.turn == -1
    rig.ask("turn p=0")
    assert rig.app.renderer.turn == 0
    assert not any("turn" in line for line in rig.app._state_lines())
