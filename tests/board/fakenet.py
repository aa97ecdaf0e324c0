"""A fake of MicroPython's `network` module (rp2's cyw43 names and values) for
pegboard.radio: a home network that may be there or not, know the board's password or not,
take join_ms to give an address; the access point as cyw43's. Plain Python: runs under
pytest and under MicroPython (tests/mp_run.py)."""

STAT_IDLE, STAT_CONNECTING, STAT_GOT_IP = 0, 1, 3
STAT_CONNECT_FAIL, STAT_NO_AP_FOUND, STAT_WRONG_PASSWORD = -1, -2, -3


class FakeWlan:
    def __init__(self, net, kind):
        self.net, self.kind = net, kind
        self.on = False
        self.address = net.address if kind == "ap" else "0.0.0.0"
        self.joining = None  # (ssid, password, since) while connecting

    def active(self, on=None):
        if on is None:
            return self.on
        self.net.calls.append((self.kind, "active", bool(on)))
        if self.net.broken:
            raise OSError("no radio")
        self.on = bool(on)
        if not on:
            self.joining = None

    def config(self, **kw):
        self.net.calls.append((self.kind, "config", kw))

    def connect(self, ssid, password=None):
        self.net.calls.append((self.kind, "connect", ssid))
        self.joining = (ssid, password, self.net.now)

    def disconnect(self):
        self.net.calls.append((self.kind, "disconnect"))
        self.joining = None

    def status(self):
        net = self.net
        if self.joining is None:
            return STAT_IDLE
        ssid, password, since = self.joining
        if ssid != net.home_ssid or not net.home_up:
            return STAT_NO_AP_FOUND if net.says_no_ap else STAT_CONNECTING
        if password != net.home_password:
            return STAT_WRONG_PASSWORD
        if net.now - since < net.join_ms:
            return STAT_CONNECTING
        return STAT_GOT_IP

    def isconnected(self):
        return self.kind == "sta" and self.status() == STAT_GOT_IP

    def ifconfig(self, values=None):
        if values is None:
            if self.kind == "sta":
                return ((self.net.home_address if self.isconnected() else "0.0.0.0"),
                        "255.255.255.0", "192.168.1.1", "192.168.1.1")
            return (self.address, "255.255.255.0", self.address, self.address)
        self.net.calls.append((self.kind, "ifconfig", values))
        if self.net.settable:
            self.address = values[0]


class FakeNetwork:
    """The module: WLAN(STA_IF / AP_IF) (one object each, as cyw43's), hostname(), STAT_*.
    now: the test's clock (ms), which the station's joining follows."""

    STA_IF, AP_IF = 0, 1

    def __init__(self, home_ssid="Kitchen", home_password="home-password", home_up=True,
                 join_ms=3000, address="192.168.4.1", settable=True):
        self.home_ssid, self.home_password, self.home_up = home_ssid, home_password, home_up
        self.join_ms = join_ms
        self.home_address = "192.168.1.57"
        self.address, self.settable = address, settable
        self.says_no_ap = False  # the driver reports a missing network (else it keeps trying)
        self.broken = False
        self.calls = []
        self.now = 0
        self.name = None
        self.wlans = {}

    def WLAN(self, kind):
        key = "ap" if kind == self.AP_IF else "sta"
        if key not in self.wlans:
            self.wlans[key] = FakeWlan(self, key)
        return self.wlans[key]

    def hostname(self, name=None):
        if name is None:
            return self.name
        self.calls.append(("hostname", name))
        self.name = name


for _name in ("STAT_IDLE", "STAT_CONNECTING", "STAT_GOT_IP", "STAT_CONNECT_FAIL",
              "STAT_NO_AP_FOUND", "STAT_WRONG_PASSWORD"):
    setattr(FakeNetwork, _name, globals()[_name])
