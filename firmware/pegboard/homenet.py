"""A board with Wi-Fi's home network and name: kept on flash the store's way (FILE: LittleFS
commits a file's new content whole when it is closed), and the `home` verb that reports
them (the password never: only whether one is set) and changes them.

    home = Home(files, unique_id)     # reads FILE; makes the name on the first boot
    home.name                         # "cribbage-7qx2": name.local on the home network
    home.network                      # (ssid, password) or None
    home.register(app, radio)         # the `home` verb (radio: its state and address)

The name is made once per board from its unique id (machine.unique_id(): the flash chip's
serial), in the typable letters of pegboard.joining, and kept in FILE with the network.
The verb: `home` reports {name, ssid, set, net, address}; `home ssid=.. password=..` sets
the network (the name checked as joining's, the password as check_home_password: nothing
changes on a bad one), `home forget=1` drops it. The board's page changes it the same way
(boardweb.homeroute). A change is written before the reply, then given to the radio
(Radio.use): on its own network the board tries the new home network at once (its own
network stays up meanwhile); joining or on a home network, it joins the new one from its
next start. Docs: docs/protocol.md, docs/boardweb.md.
"""

from cribcore import protocol
from cribcore.protocol import ProtocolError
from pegboard.joining import TYPABLE, check_password, check_ssid, extend_protocol

FILE = "/home"  # beside /wifi; `crib deploy` never touches it
HEAD = "crib-home 1"
NAME_PREFIX = "cribbage-"
ROW = ("home", 0, "[ssid] [password] [forget=1..1]",
       "Wi-Fi board: its name and home network (the password never shown); or set them")
FIELDS = "forget:i name:w set:i net:w "


def extend_home():
    """Add the `home` verb and its fields to the protocol's tables, once (after `wifi`'s,
    whose ssid and password it shares)."""
    extend_protocol()
    protocol.register(ROW, FIELDS)


def check_home_password(password):
    """None if password can be the home network's: empty (an open network) or a WPA2
    passphrase (8..63 printable ASCII); else why not."""
    if password == "":
        return None
    if check_password(password):
        return "a home network's password is empty (an open network) or 8 to 63 printable" \
            " ASCII characters"
    return None


def make_name(unique_id):
    """The board's name from its unique id (bytes): NAME_PREFIX and four typable letters."""
    n = 0
    for b in unique_id:
        n = (n * 31 + b) % 1000003
    out = ""
    for _ in range(4):
        out += TYPABLE[n % len(TYPABLE)]
        n //= len(TYPABLE)
    return NAME_PREFIX + out


def parse(data):
    """(name, network or None) from a file's bytes, or None if it is not a good one."""
    try:
        lines = data.decode().split("\n")
    except (UnicodeError, AttributeError):
        return None
    if len(lines) not in (3, 5) or lines[0] != HEAD or lines[-1]:
        return None
    name = lines[1]
    tail = name[len(NAME_PREFIX):]
    if not name.startswith(NAME_PREFIX) or not 1 <= len(tail) <= 8 or tail.strip(TYPABLE):
        return None
    if len(lines) == 3:
        return name, None
    network = (lines[2], lines[3])
    if check_ssid(network[0]) or check_home_password(network[1]):
        return None
    return name, network


def text(name, network):
    if network is None:
        return "%s\n%s\n" % (HEAD, name)
    return "%s\n%s\n%s\n%s\n" % (HEAD, name, network[0], network[1])


class Home:
    """The home network and the name (module docstring)."""

    def __init__(self, files, unique_id, path=FILE):
        self.files = files
        self.path = path
        self.warning = None
        data = files.read(path)
        kept = parse(data) if data else None
        if kept is None:
            kept = (make_name(unique_id), None)
            if data:
                self.warning = "the home network on flash was damaged: set it again"
            try:
                files.write(path, [text(kept[0], None)])
            except OSError as e:
                self.warning = "could not keep the board's name on flash: %r" % (e,)
        self.name, self.network = kept
        self.radio = None

    def register(self, app, radio=None):
        """Give app the `home` verb."""
        extend_home()
        self.radio = radio
        app.home = self
        app.VERBS = dict(app.VERBS)
        app.VERBS["home"] = _home

    def change(self, args):
        """Apply a `home` command's arguments; ProtocolError(bad_arg) for bad ones, OSError
        if the flash write fails; either way nothing changed."""
        if args.get("forget") == 1:
            if "ssid" in args or "password" in args:
                raise ProtocolError("forget=1 takes no ssid or password", "bad_arg")
            new = None
        elif "ssid" in args or "password" in args:
            if "ssid" not in args:
                raise ProtocolError("a home network needs its ssid", "bad_arg")
            ssid, password = args["ssid"], args.get("password")
            if password is None:
                raise ProtocolError("a home network needs its password (empty for an open"
                                    " network)", "bad_arg")
            why = check_ssid(ssid) or check_home_password(password)
            if why:
                raise ProtocolError(why, "bad_arg")
            new = (ssid, password)
        else:
            return
        if new != self.network:
            self.files.write(self.path, [text(self.name, new)])
            self.network = new
            if self.radio is not None:
                self.radio.use(new)

    def when(self):
        """When the board joins its home network: "now" (on its own network, it tries it at
        once) or "at its next start"."""
        radio = self.radio
        if radio is not None and radio.state == "own" and self.network is not None:
            return "now"
        return "at its next start"

    def reply(self):
        radio = self.radio
        out = {"name": self.name, "set": 0 if self.network is None else 1,
               "net": radio.state if radio else "none",
               "address": (radio.address if radio else None) or "-"}
        if self.network is not None:
            out["ssid"] = self.network[0]
        return out


def _home(app, args):
    app.home.change(args)
    return app.home.reply()
