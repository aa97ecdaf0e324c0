"""The board's Wi-Fi, one module behind one interface (the way WLED runs its LED strips):
the home network when one is set, the board's own network (its access point) as the
fallback, and no Wi-Fi when the radio will not come up.

    radio = Radio(network, own=(ssid, password), home=(ssid, password) or None,
                  name="cribbage-7qx2")
    radio.start(now_ms)     # joining the home network, or the own network at once
    radio.step(now_ms)      # a little of the work; never blocks (the server's loop calls it)
    radio.state             # JOINING, HOME, OWN or NONE
    radio.address           # where the page is now (None with no Wi-Fi)
    radio.rev               # grows at each change of state or address
    radio.listeners         # each called with the radio at every change
    radio.use(home)         # a new home network (or None): tried at once on the own network

The states:
- JOINING: the station interface is joining the home network. It is HOME once it has an
  address; OWN if the network refuses it (a wrong password, no such network: the driver
  says so) or JOIN_MS passes first.
- HOME: on the home network (its DHCP address; `name.local` by mDNS: network.hostname()
  is set before the station starts, and lwIP's responder, which MicroPython's rp2 port
  starts with every interface, answers that name). The access point is off: phones keep
  their internet. Losing the network (the router restarts) is JOINING again: the game
  goes on, only the page's address is away until the network is back, or until the own
  network opens JOIN_MS later.
- OWN: the board's access point at ADDRESS (the fallback, or the only network when none is
  set). With a home network set, it is tried again every RETRY_MS (JOIN_MS at most each
  time) while the access point stays up; when it answers the board is HOME and the access
  point goes off.
- NONE: the radio failed (no radio, a driver error): the board plays as a plain Pico.

network is MicroPython's module (WLAN, STA_IF, AP_IF, STAT_*, hostname) or a test's fake.
None of this has met a real radio here: docs/boardweb.md says what only one shows.
"""

JOINING = "joining"
HOME = "home"
OWN = "own"
NONE = "none"

# What the lights show for each state (pegboard.render.alert's patterns, red: (phases of
# 150 ms lit in a 1600 ms cycle, holes); docs/board.md, "What the lights mean"): joining a
# quick blink on hole 1, the home network one short flash on hole 1, the own network a
# double flash on hole 1, no Wi-Fi the alert (three blinks on holes 1-3).
LIGHTS = {JOINING: ((0, 2, 4, 6, 8, 10), 1), HOME: ((0,), 1), OWN: ((0, 2), 1), NONE: True}

ADDRESS = "192.168.4.1"
NETMASK = "255.255.255.0"
JOIN_MS = 20000  # the home network must give an address within this
RETRY_MS = 60000  # on the own network, the home network is tried again this often
# The driver's refusals (network.STAT_*, cyw43's values): no use waiting for JOIN_MS.
REFUSED = ("STAT_WRONG_PASSWORD", "STAT_NO_AP_FOUND", "STAT_CONNECT_FAIL")


class WifiError(OSError):
    """The access point did not open."""


def _elapsed(now, then):
    try:
        from time import ticks_diff
    except ImportError:
        return now - then
    return ticks_diff(now, then)


class Radio:
    """The board's networks (module docstring)."""

    def __init__(self, network, own, home=None, name=None):
        self.net = network
        self.own = own
        self.home = home
        self.name = name
        self.state = JOINING
        self.address = None
        self.why = None  # why the board is not on the home network (a sentence), or None
        self.rev = 0
        self._since = 0  # when this attempt (or the wait for the next) began
        self._trying = False  # on OWN: an attempt at the home network is under way
        self._soon = False  # on OWN: try the home network at the next step (use())
        self._sta = self._ap = None
        self.listeners = []  # each called with the radio at every change (the lights, the server)

    def _set(self, state, address, why=None, told=False):
        changed = (state, address) != (self.state, self.address)
        self.state, self.address, self.why = state, address, why
        if changed or told:
            self.rev += 1
            for listener in self.listeners:
                listener(self)

    def start(self, now):
        """Begin: the home network when one is set, else the own network."""
        net = self.net
        try:
            if self.name and hasattr(net, "hostname"):
                net.hostname(self.name)  # before an interface starts: mDNS takes it then
            self._sta = net.WLAN(net.STA_IF)
            self._ap = net.WLAN(net.AP_IF)
            if self.home:
                self._ap.active(False)
                self._join(now)
                self._set(JOINING, None, told=True)
            else:
                self._sta.active(False)
                self._open(now, None)
        except Exception as e:  # noqa: BLE001 - no radio, a driver error
            self._set(NONE, None, "the radio did not start: %r" % (e,))

    def use(self, home):
        """A new home network (ssid, password), or None (pegboard.homenet keeps it for the
        next start). On the own network an attempt under way is dropped and the new one
        tried at the next step (the access point stays up meanwhile). Joining or on a home
        network the board stays where it is until its next start: the phones on the page
        would lose it at once."""
        if self.state != OWN:
            return
        if self._trying:
            self._sta.disconnect()
            self._trying = False
        self.home = home
        self._soon = home is not None

    def _join(self, now):
        sta = self._sta
        sta.active(True)
        if self.home[1]:
            sta.connect(self.home[0], self.home[1])
        else:  # an open network: no key at all (cyw43 then joins without security)
            sta.connect(self.home[0])
        self._since = now

    def _refused(self):
        """Why the driver refused the home network (a sentence), or None."""
        status = self._sta.status()
        for name in REFUSED:
            if getattr(self.net, name, None) == status:
                return "the home network refused the board (%s)" % name[5:].lower()
        return None

    def _up(self):
        sta = self._sta
        return sta.isconnected() and sta.ifconfig()[0] not in ("0.0.0.0", None)

    def _open(self, now, why):
        """The own network: its access point at ADDRESS (WifiError when it will not)."""
        ap = self._ap
        if not ap.active():
            # Name and key before activating: set after, a Pico W's access point came up
            # open (micropython/micropython#8858). With a key, cyw43 uses WPA2-AES.
            ap.config(ssid=self.own[0], key=self.own[1])
            ap.active(True)
        if ap.ifconfig()[0] != ADDRESS:
            ap.ifconfig((ADDRESS, NETMASK, ADDRESS, ADDRESS))
        got = ap.ifconfig()[0]
        if got != ADDRESS:
            raise WifiError("the access point is at %s, not %s" % (got, ADDRESS))
        self._since = now
        self._trying = False
        self._set(OWN, ADDRESS, why)

    def _fall_back(self, now, why):
        try:
            self._sta.disconnect()
            self._open(now, why)
        except Exception as e:  # noqa: BLE001 - the radio failed
            self._set(NONE, None, "the access point did not open: %r" % (e,))

    def step(self, now):
        """A little of the work (module docstring); never raises."""
        state = self.state
        if state == NONE:
            return
        try:
            if state == JOINING:
                if self._up():
                    return self._home()
                why = self._refused()
                if why or _elapsed(now, self._since) >= JOIN_MS:
                    self._fall_back(now, why or "the home network did not answer within %d s"
                                    % (JOIN_MS // 1000))
            elif state == HOME:
                address = self._sta.ifconfig()[0]
                if not self._sta.isconnected():  # lost: join again (the game goes on)
                    self._join(now)
                    self._set(JOINING, None)
                elif address != self.address:
                    self._set(HOME, address)
            elif self.home:  # OWN, with a home network to go back to
                if not self._trying:
                    if self._soon or _elapsed(now, self._since) >= RETRY_MS:
                        self._join(now)
                        self._trying, self._soon = True, False
                elif self._up():
                    self._home()
                elif self._refused() or _elapsed(now, self._since) >= JOIN_MS:
                    self._sta.disconnect()
                    self._since = now
                    self._trying = False
        except Exception as e:  # noqa: BLE001 - the radio failed under us
            self._set(NONE, None, "the radio failed: %r" % (e,))

    def _home(self):
        self._ap.active(False)  # phones go back to the home network (and their internet)
        self._trying = False
        self._set(HOME, self._sta.ifconfig()[0])

    def hosts(self, port=80):
        """The Host headers the page answers to now: the address and the name.local."""
        out = []
        names = [self.address] if self.address else []
        if self.name:
            names.append(self.name + ".local")
        for n in names:
            out.append(n)
            out.append("%s:%d" % (n, port))
        return out
