"""`crib board club` against the firmware's own app with the `club` verb of a board with
Wi-Fi (boardweb.clubreport) and without it (a plain Pico), reached over a socket like any
board: the club night's address set, refused with a sentence (nothing changed), kept."""

import json
import sys
import threading

import pytest
from apprig import Rig
from link.rig import FakePeer
from test_wifi_cli import run  # crib's main, its exit code and what it printed

from crib.layout.source import firmware_dir

ADDRESS = "http://192.168.4.2:8141/api/report?k=club-key"


class Board:
    """The firmware app answering on a socket; kept: the club's file (None: a plain Pico,
    no `club` verb)."""

    def __init__(self, kept=None):
        self.rig = Rig(desk_verbs=False)
        self.lock = threading.Lock()
        self.club = None
        if kept is not None:
            sys.path.insert(0, str(firmware_dir()))  # boardweb: the firmware's, not installed
            try:
                from boardweb.clubreport import ClubReport, register
            finally:
                sys.path.remove(str(firmware_dir()))

            self.club = ClubReport(kept)
            register(self.rig.app, self.club)
        self.peer = FakePeer(self.reply)
        self.url = self.peer.url

    def reply(self, line):
        with self.lock:
            return "".join(x + "\n" for x in self.rig.send(line)).encode()


@pytest.fixture
def board(tmp_path):
    b = Board(str(tmp_path / "club"))
    yield b
    b.peer.close()


def test_club_sets_the_address_and_reports_it(capsys, board, tmp_path):
    code, out, _ = run(capsys, ["board", "--port", board.url, "club"])
    assert code == 0 and out == "club      off\nwaiting   0 reports\n"
    code, out, _ = run(capsys, ["board", "--port", board.url, "--json", "club", ADDRESS])
    assert code == 0 and json.loads(out) == {"url": ADDRESS, "waiting": 0}
    assert board.club.address == ADDRESS
    assert json.loads((tmp_path / "club").read_text())["address"] == ADDRESS  # on flash
    code, out, _ = run(capsys, ["board", "--port", board.url, "club", "off"])
    assert code == 0 and out.startswith("club      off\n") and board.club.address is None


@pytest.mark.parametrize("bad", ["ftp://h/?k=1", "http://h/api/report", "club"])
def test_a_bad_address_is_refused_with_a_sentence_and_nothing_changes(capsys, board, bad):
    run(capsys, ["board", "--port", board.url, "club", ADDRESS])
    code, out, err = run(capsys, ["board", "--port", board.url, "club", bad])
    assert code == 1 and out == ""
    assert "the club's address is the one `crib club serve` prints for the tables" in err
    assert board.club.address == ADDRESS


def test_a_plain_pico_says_it_has_no_club(capsys):
    plain = Board()
    try:
        code, out, err = run(capsys, ["board", "--port", plain.url, "club"])
    finally:
        plain.peer.close()
    assert code == 1 and out == "" and "does not serve its own page" in err
