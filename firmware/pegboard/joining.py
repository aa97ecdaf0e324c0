"""The join details of a board with Wi-Fi: its network's name (ssid), WPA2 password and
page key, made once per board and kept on flash, and the `wifi` verb that reports and
changes them.

Made from os.urandom at the first boot: the name `Cribbage-XXXX`, a password of 12
characters people can type from a card (TYPABLE: lower-case letters and digits without
0 o 1 l i, in groups of four, about 59 bits) and a page key of 22 URL-safe characters
(132 bits, the shape of `crib serve`'s). Kept in one small file (FILE) written the store's
way (pegboard.store.Files: LittleFS commits a file's new content whole when it is
closed), so a power cut during a change leaves the old details or the new, never
neither. Read back at every boot; a file that is missing or fails its checks is replaced
by new details, with a warning (a card printed for the old ones no longer works).

Only a board with Wi-Fi carries this module and its verb: extend_protocol() adds the verb
and its fields to the protocol's tables (cribcore.protocol) when the board starts its
Wi-Fi, and the host's crib.board.wifi does the same. `crib deploy` leaves the module off a
plain Pico, whose tables and heap stay as they were: it answers `wifi` with
`err code=unknown_verb`. Docs: docs/board.md, docs/protocol.md.
"""

from cribcore import protocol
from cribcore.protocol import ProtocolError

FILE = "/wifi"  # on the board's flash, beside the state; `crib deploy` never touches it
HEAD = "crib-wifi 1"  # the file's first line
TYPABLE = "23456789abcdefghjkmnpqrstuvwxyz"  # unambiguous when printed: no 0 o 1 l i
_URLSAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
KEY_CHARS = 22  # 6 bits each
NAME_PREFIX = "Cribbage-"
# The `wifi` verb's row and fields, in cribcore.protocol's formats (COMMANDS, FIELDS).
ROW = ("wifi", 0, "[ssid] [password] [newkey=1..1]",
       "Wi-Fi board: its join details; or set them")
FIELDS = "ssid:t password:t key:w address:w newkey:i "


def extend_protocol():
    """Add the `wifi` verb and its fields to the protocol's tables, once."""
    protocol.register(ROW, FIELDS)


def _draw(urandom, alphabet, n):
    """n characters of alphabet, each uniform: a random byte past the last whole multiple
    of the alphabet's length is drawn again."""
    size = len(alphabet)
    top = 256 - 256 % size
    out = ""
    while len(out) < n:
        for b in urandom(n):
            if b < top and len(out) < n:
                out += alphabet[b % size]
    return out


def make(urandom):
    """New join details {ssid, password, key} from urandom(n) -> n random bytes."""
    word = _draw(urandom, TYPABLE, 12)
    return {"ssid": NAME_PREFIX + _draw(urandom, TYPABLE, 4).upper(),
            "password": word[:4] + "-" + word[4:8] + "-" + word[8:],
            "key": _draw(urandom, _URLSAFE, KEY_CHARS)}


def _printable(text):
    for c in text:
        if not " " <= c <= "~":
            return False
    return True


def check_ssid(ssid):
    """None if ssid can name the network (1..32 printable ASCII characters), else why not."""
    if type(ssid) is not str or not 1 <= len(ssid) <= 32 or not _printable(ssid):
        return "a Wi-Fi name is 1 to 32 printable ASCII characters"
    return None


def check_password(password):
    """None if password is a WPA2 passphrase (8..63 printable ASCII), else why not."""
    if type(password) is not str or not 8 <= len(password) <= 63 or not _printable(password):
        return "a WPA2 password is 8 to 63 printable ASCII characters"
    return None


def check_key(key):
    """None if key can be the page key (URL-safe, 16..32 characters), else why not."""
    if type(key) is not str or not 16 <= len(key) <= 32 or key.strip(_URLSAFE):
        return "a page key is 16 to 32 of A-Z a-z 0-9 - _"
    return None


def problem(details):
    """None if details are a good {ssid, password, key}, else what is wrong."""
    return (check_ssid(details.get("ssid")) or check_password(details.get("password"))
            or check_key(details.get("key")))


def text(details):
    """The file's content: HEAD, then the name, the password and the key, a line each."""
    return "%s\n%s\n%s\n%s\n" % (HEAD, details["ssid"], details["password"], details["key"])


def parse(data):
    """The details in a file's bytes, or None if they are not a good details file."""
    try:
        lines = data.decode().split("\n")
    except (UnicodeError, AttributeError):
        return None
    if len(lines) != 5 or lines[0] != HEAD or lines[4]:
        return None
    details = {"ssid": lines[1], "password": lines[2], "key": lines[3]}
    return None if problem(details) else details


def load(files, urandom, path=FILE):
    """(details, warning): the details kept in path; made (and written) when there are none
    (no file, or the empty one a power cut leaves of its first write) or the file is
    damaged, when warning says so (None otherwise). A failed write is
    reported in warning too: the new details serve until the next boot."""
    data = files.read(path)
    details = parse(data) if data else None  # empty: a cut as the file was first made
    if details is not None:
        return details, None
    details = make(urandom)
    warning = None
    if data:
        warning = "the Wi-Fi details on flash were damaged: new ones were made (print a new card)"
    try:
        files.write(path, [text(details)])
    except OSError as e:
        warning = "could not keep the new Wi-Fi details on flash: %r" % (e,)
    return details, warning


class Joining:
    """The `wifi` verb over a board's details: `wifi` reports them (and where the page is
    now: the radio's address, and the board's name once pegboard.wifi gives them),
    `wifi ssid=..`,
    `password=..` or `newkey=1` change them (checked first, written to flash before the
    reply: the access point and the server use them from the board's next start)."""

    def __init__(self, files, urandom, details, address, path=FILE):
        self.files = files
        self.urandom = urandom
        self.details = details
        self.address = address
        self.path = path
        self.radio = None  # the board's radio (pegboard.radio), once it is made
        self.name = None  # the board's name (pegboard.homenet), once the `home` verb is

    def register(self, app):
        """Give app the `wifi` verb (the plain Pico's app has none)."""
        extend_protocol()
        app.joining = self
        app.VERBS = dict(app.VERBS)
        app.VERBS["wifi"] = _wifi

    def change(self, args):
        """Apply a `wifi` command's arguments; ProtocolError(bad_arg) for bad ones, OSError
        if the flash write fails; either way nothing changed."""
        new = dict(self.details)
        for name in ("ssid", "password"):
            if name in args:
                new[name] = args[name]
        if args.get("newkey") == 1:
            new["key"] = make(self.urandom)["key"]
        why = problem(new)
        if why:
            raise ProtocolError(why, "bad_arg")
        if new != self.details:
            self.files.write(self.path, [text(new)])
            self.details = new

    def where(self):
        """Where the page is now: the radio's address (the home network's DHCP address,
        or the own network's); "-" while it has none (joining); without a radio, the
        address given (the own network's)."""
        if self.radio is None:
            return self.address
        return self.radio.address or "-"

    def reply(self):
        d = self.details
        out = {"ssid": d["ssid"], "password": d["password"], "key": d["key"],
               "address": self.where()}
        if self.name:
            out["name"] = self.name
        return out


def _wifi(app, args):
    app.joining.change(args)
    return app.joining.reply()
