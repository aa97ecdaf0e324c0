"""The short mixed run of issue 35 (tests/webboth/mixedrun.py; bench/board_probes.py runs
the long one): the board's own server (heap capped, a store folder) takes a game's answers
beside 4 screens while every probe of the issue runs, each waited for (a round of each
before the answers, and one after each stretch of answers), killed (SIGKILL) and started
again on its store between two stretches: every answer taken, no crash, the caps held."""

from mixedrun import HOG, short


def test_every_answer_is_taken_beside_the_probes_and_a_restart():
    f = short(answers=6)
    print("the short mixed run:", f)
    assert f["short"] == [], f  # every probe did its rounds: the board never stalled
    assert f["said"] == [] and f["failed"] == 0, f
    assert f["taken"] == 12 and f["restarts"] == 1, f
    assert f["alive"] and f["tracebacks"] == 0, f
    # the caps held: HOG unread streams held at once never made more streams than its
    # cap (boardweb.conn.MAX_STREAMS, as /test/heap says), and a burst of silent
    # connections never closed a request the board had begun to read (its grace)
    assert f["held"] <= f["caps"][1] < HOG and f["streams"] <= f["caps"][1], f
    assert f["half_read"] == [], f
    for probe in ("undos", "redos", "%d unread streams held" % HOG,
                  "requests half sent through a burst"):
        assert f["probes"].get(probe, 0) >= 2, (probe, f["probes"])
