"""The board's `club` verb (boardweb.clubreport.register) under MicroPython, as a line from
USB reaches it: the desk's App on fake drivers, a ClubReport kept in the file argv[1];
each further argument is a line, its reply printed on a line of its own.

    micropython club_verb.py FILE "club" "club url=http://..."
"""

import sys

import desk
from boardweb.clubreport import ClubReport, register


class Port:
    """The App's serial port: what it writes is kept."""

    def __init__(self):
        self.out = []

    def read(self):
        return b""

    def write(self, data):
        self.out.append(data)


port = Port()
app = desk.build({"store": None, "config": None, "driven": False}, port)
club = ClubReport(sys.argv[1])
register(app, club)
for line in sys.argv[2:]:
    del port.out[:]
    app._line(line)
    replies = [x for x in b"".join(port.out).decode().split("\n") if x[:3] in ("ok ", "err")]
    print(replies[-1] if replies else "no reply")
