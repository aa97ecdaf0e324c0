"""A board with Wi-Fi reports its game to the club night by itself when it ends
(boardweb.clubreport): the board's own server (MicroPython's unix port, its heap capped,
`boardweb.unix --club URL`) and the club's (`crib club serve`'s app, Starlette on a
thread), both real servers on loopback. A game is played to the end through the board's
server with the club down: the report waits on the board's flash (through a power cut)
and arrives once the club is up, in its standings; a report the club
refuses is shown on the board's page with the club's sentence, and not sent again."""

import os
import socket
import subprocess

import httpx2 as httpx
from both import KEY, NAMES, Table, client, polled, state

from crib.club.night import Club
from crib.history.db import History
from crib.layout.source import firmware_dir
from crib.web.clubapp import create_club_app
from crib.web.server import Background
from crib.web.unixboard import UnixBoard, free_port, microdot_dir, micropython

CLUB_KEY = "club-key-0123456789"
RETRY_MS = 200  # the board's first wait before sending again (its default: 2 s)


def night(tmp_path, players):
    """A club night of these players, one game each, round 1 paired: its history file."""
    db = str(tmp_path / "club.sqlite3")
    h = History.open(db)
    try:
        Club(h).new("Friday", players, 1)
    finally:
        h.close()
    return db


def address(port):
    """The tables' address `crib club serve` prints, for a club on this port."""
    return "http://127.0.0.1:%d/api/report?k=%s" % (port, CLUB_KEY)


def club_socket(port):
    """A listening socket on this loopback port, for the club's server."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(16)
    return sock


def play_to_the_end(c):
    """A whole game to 121 through the board's server, as the players answer it; the
    reference game (its scores) and the state at its end."""
    table = Table(c, 121)
    s = table.until(lambda q: q is None or q["kind"] == "another")
    g = table.players.g
    assert g.over and s["view"]["scores"] == list(g.scores)
    return g, s


def standings(club_url):
    """The club's standings now (GET /api/state, as its pages read them)."""
    r = httpx.get(club_url + "/api/state", headers={"X-Crib-Key": CLUB_KEY}, timeout=20)
    assert r.status_code == 200, r.text
    return {row["player"]: row for row in r.json()["standings"]}


def the_result(g):
    winner, loser = NAMES[g.winner], NAMES[1 - g.winner]
    return winner, loser, g.scores[1 - g.winner]


def test_a_game_on_the_board_reaches_the_clubs_standings_once_the_club_is_up(tmp_path):
    # The club down (its laptop asleep) when the game ends, the board's power cut while
    # it waits: the report is kept on flash, and arrives when the club is up.
    db = night(tmp_path, NAMES)
    port = free_port()  # the club's, not listening yet: the board's posts are refused
    store = str(tmp_path / "board")
    os.mkdir(store)
    board = UnixBoard(KEY, names=NAMES, club=address(port), club_retry=RETRY_MS, store=store)
    with board, client(board) as c:
        assert state(c)["club"]["address"] == "127.0.0.1:%d" % port  # on the page
        g, _ = play_to_the_end(c)
        said = "%s beat %s 121-%d" % the_result(g)
        s = polled(lambda: state(c), lambda s: (s["club"]["trying"] or "").startswith(
            "the club did not answer (2 "), "a second try with the club down")
        assert s["club"]["waiting"] == [said] and s["club"]["sent"] == 0
        board.restart()  # a power cut: the report is on the board's flash
        s = polled(lambda: state(c), lambda s: "club" in s and s["club"]["waiting"] == [said],
                   "the report kept through the power cut")
        with Background(create_club_app(db, CLUB_KEY, "d"), club_socket(port)) as club_url:
            winner, loser, score = the_result(g)
            rows = polled(lambda: standings(club_url), lambda s: s[winner]["wins"] == 1,
                          "the report at the club once it is up")
            assert (rows[loser]["wins"], rows[loser]["losses"], rows[winner]["spread"]) \
                == (0, 1, 121 - score)
            s = polled(lambda: state(c), lambda s: s["club"]["sent"] == 1,
                       "the report taken, on the board's page")
            assert s["club"]["waiting"] == [] and s["club"]["trying"] is None
    h = History.open(db)
    try:
        (r,) = Club(h).night().results()  # once, though it was tried again and again
    finally:
        h.close()
    assert (r["round"], r["table_no"], r["winner"], r["loser"], r["loser_score"],
            r["source"]) == (1, 1, winner, loser, score, "table")


def test_a_report_the_club_refuses_is_shown_with_its_sentence(tmp_path):
    db = night(tmp_path, ["Ann", "Ben"])  # Alice and Bob do not play tonight
    store = str(tmp_path / "board")
    os.mkdir(store)
    with Background(create_club_app(db, CLUB_KEY, "d")) as club_url:
        port = int(club_url.rsplit(":", 1)[1])
        board = UnixBoard(KEY, names=NAMES, club=address(port), club_retry=RETRY_MS,
                          store=store)
        with board, client(board) as c:
            g, _ = play_to_the_end(c)
            s = polled(lambda: state(c), lambda s: s["club"]["refused"],
                       "the club's refusal on the board's page")
            ((said, why),) = s["club"]["refused"]
            assert said == "%s beat %s 121-%d" % the_result(g)
            assert "no player" in why and "Ann, Ben" in why  # the club's own sentence
            assert s["club"]["waiting"] == [] and s["club"]["trying"] is None
            board.restart()  # not sent again at the next start: still refused, once
            s = polled(lambda: state(c), lambda s: "club" in s, "the board's page again")
            assert s["club"]["refused"] == [[said, why]] and s["club"]["waiting"] == []
    h = History.open(db)
    try:
        assert Club(h).night().results() == []
    finally:
        h.close()


def test_a_bad_club_address_is_refused_with_a_sentence(tmp_path):
    for bad in ("ftp://x/?k=1", "http://127.0.0.1:8141/api/report", "club",
                "http://127.0.0.1:99999/?k=1"):
        env = dict(os.environ, MICROPYPATH=os.pathsep.join(
            [".frozen", str(firmware_dir()), microdot_dir()]))
        out = subprocess.run([micropython(), "-m", "boardweb.unix", "--port", "1", "--key",
                              KEY, "--files", str(tmp_path), "--club", bad], env=env,
                             capture_output=True, text=True, timeout=60, check=False)
        assert out.returncode == 2 and "the club's address is the one `crib club serve`" \
            " prints for the tables" in out.stderr, (bad, out.stderr)
        assert "serving" not in out.stdout


def verb_lines(kept, *lines):
    """The board's replies to these `club` lines from USB (tests/webboth/club_verb.py
    under MicroPython), its reports kept in the file kept."""
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([".frozen", str(firmware_dir())]))
    out = subprocess.run([micropython(), "-X", "heapsize=256K",
                          os.path.join(here, "club_verb.py"), kept, *lines], env=env,
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout.splitlines()


def test_the_club_verb_sets_the_address_over_usb_and_keeps_it(tmp_path):
    kept = str(tmp_path / "club")
    good = address(8141)
    replies = verb_lines(kept, "club", "club url=ftp://x/?k=1", "club url=" + good, "club")
    assert replies[0] == "ok rev=0 url=off waiting=0"
    assert replies[1].startswith("err code=bad_arg") and "crib club serve" in replies[1]
    assert replies[2] == replies[3] == "ok rev=0 url=%s waiting=0" % good
    assert verb_lines(kept, "club") == ["ok rev=0 url=%s waiting=0" % good]  # at the next start
    # a bad address changes nothing, the kept one stays
    assert verb_lines(kept, "club url=http://h/api/report", "club")[1] == \
        "ok rev=0 url=%s waiting=0" % good
    assert verb_lines(kept, "club url=off", "club") == ["ok rev=0 url=off waiting=0"] * 2


def test_an_address_the_flash_cannot_keep_is_refused_and_nothing_changes(tmp_path):
    kept = str(tmp_path / "no-such-folder" / "club")  # every write fails, as a full flash
    replies = verb_lines(kept, "club url=" + address(8141), "club")
    assert replies[0].startswith("err code=store_failed")
    assert replies[1] == "ok rev=0 url=off waiting=0"
