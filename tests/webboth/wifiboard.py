"""A Pico 2 W as the tests run it under MicroPython's unix port: the firmware App on fake
drivers with its USB port on stdin/stdout, pegboard.wifi bringing it up over a fake radio
(the access point at its fixed address), then boardweb.serve's server, on a loopback port
instead of the radio's address. Everything the board keeps (its state, its join details,
its game record, the page's files) is under ROOT, as on its flash.

    MICROPYPATH=firmware:MICRODOT micropython wifiboard.py ROOT PORT [DNS_PORT]
"""

import sys

import desk
from boardweb import board

from pegboard import radio, wifi
from pegboard.stdio import StdioPort
from pegboard.store import Files

ROOT, PORT = sys.argv[1], int(sys.argv[2])
DNS_PORT = int(sys.argv[3]) if len(sys.argv) > 3 else None  # the own network's responder


class Rooted(Files):
    """The board's flash paths, under ROOT."""

    def read(self, name):
        return Files.read(self, ROOT + name)

    def write(self, name, chunks):
        return Files.write(self, ROOT + name, chunks)

    def mkdir(self, name):
        return Files.mkdir(self, ROOT + name)


class Wlan:
    """The radio's interface, as a driver that works answers (no home network answers
    here: the board opens its own, and stays on it)."""

    def __init__(self):
        self.on = False

    def status(self):
        return 0

    def isconnected(self):
        return False

    def connect(self, ssid, password=None):
        pass  # a home network set from the page is tried: it never answers here

    def disconnect(self):
        pass

    def active(self, on=None):
        if on is None:
            return self.on
        self.on = on

    def config(self, **kw):
        pass

    def ifconfig(self, values=None):
        return (wifi.ADDRESS, radio.NETMASK, wifi.ADDRESS, wifi.ADDRESS)


class Network:
    STA_IF, AP_IF = 0, 1

    def WLAN(self, kind):
        return Wlan()


def web(app, key, address):
    assert address == wifi.ADDRESS, address
    board.serve(app, key, "127.0.0.1", PORT, ROOT + board.PAGE, ROOT + board.RECORD,
                "127.0.0.1", DNS_PORT)


app = desk.build({"store": ROOT + "/state", "config": None, "driven": False}, StdioPort())
wifi.serve(app, Network(), Rooted(), None, None, web, lambda: b"\x01\x02\x03\x04")
