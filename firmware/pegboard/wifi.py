"""A board with Wi-Fi (a Pico 2 W): open its own access point, then serve the table on it.

pegboard.pico calls serve(app, web=...) once the app is built, where this module is on
the flash (`crib deploy` ships it to a board with Wi-Fi alone), with the web server's
entry that main.py found (boardweb.serve, or None). It reads the
join details (pegboard.joining: made once, kept on flash), gives the app the `wifi` verb,
opens the access point (AccessPoint, over MicroPython's network module; tests give it a
fake) and hands the app, the page key and the address to the board's web server, which
steps the app from then on. If the access point does not open, or no server is on the
flash, or the server cannot start or stops, the board says why (`evt warn code=wifi`) and
runs as a plain Pico: USB and the buttons keep working.

The address is fixed: ADDRESS, the access point's own (192.168.4.1 is also the default of
the Pico W family's driver, cyw43, whose DHCP server hands phones 192.168.4.x); open()
sets it when the interface reports another and refuses to go on if it still differs. The
station interface is switched off, so the access point is the board's only network
interface, and the server is given ADDRESS to listen on, not 0.0.0.0: only a phone that
joined the board's network with its WPA2 password reaches the page. None of this has met
a real radio here (docs/board.md, "Play without a computer").
"""

ADDRESS = "192.168.4.1"
NETMASK = "255.255.255.0"
UP_MS = 5000  # the access point must be up within this
POLL_MS = 50


class WifiError(OSError):
    """The access point did not open."""


class AccessPoint:
    """The board's access point over a network module (MicroPython's `network`: WLAN,
    AP_IF, STA_IF) and a sleep_ms (time.sleep_ms)."""

    def __init__(self, network, sleep_ms):
        self.network = network
        self.sleep_ms = sleep_ms
        self.wlan = None

    def open(self, ssid, password):
        """Open the access point named ssid with the WPA2 password; its address (ADDRESS).
        WifiError if it does not come up, or at another address."""
        net = self.network
        net.WLAN(net.STA_IF).active(False)  # no station: the access point is the only way in
        ap = self.wlan = net.WLAN(net.AP_IF)
        ap.active(False)
        # Name and key before activating: set after, a Pico W's access point came up open
        # (micropython/micropython#8858). With a key, cyw43 uses WPA2-AES (its default).
        ap.config(ssid=ssid, key=password)
        ap.active(True)
        waited = 0
        while not ap.active():
            if waited >= UP_MS:
                raise WifiError("the access point did not come up within %d ms" % UP_MS)
            self.sleep_ms(POLL_MS)
            waited += POLL_MS
        if ap.ifconfig()[0] != ADDRESS:
            ap.ifconfig((ADDRESS, NETMASK, ADDRESS, ADDRESS))
        got = ap.ifconfig()[0]
        if got != ADDRESS:
            raise WifiError("the access point is at %s, not %s" % (got, ADDRESS))
        return got


def serve(app, network=None, files=None, urandom=None, sleep_ms=None, web=None):
    """Run the Wi-Fi board: the details, the `wifi` verb, the access point, then the server
    web(app, key, address) (never returns; boardweb.serve, which the board's main.py finds
    and passes: this package knows nothing of boardweb, which imports it). False when the
    access point or the server cannot run, or web is None: the caller then runs the plain
    loop. The other arguments are the real ones when None (tests pass fakes)."""
    from pegboard.joining import Joining, load

    if files is None:
        from pegboard.store import Files

        files = Files()
    if urandom is None:
        from os import urandom
    details, warning = load(files, urandom)
    if warning:
        app.warn("wifi", warning)
    Joining(files, urandom, details, ADDRESS).register(app)
    if web is None:
        app.warn("wifi", "no web server (boardweb.serve) on the flash: play over USB")
        app.renderer.alert(True)  # and its lights say so (docs/board.md)
        return False
    try:
        if network is None:
            import network  # type: ignore[import-not-found]
        if sleep_ms is None:
            from time import sleep_ms
        address = AccessPoint(network, sleep_ms).open(details["ssid"], details["password"])
    except Exception as e:  # noqa: BLE001 - no radio, a driver error: play over USB instead
        app.warn("wifi", "the access point did not open: %r" % (e,))
        app.renderer.alert(True)  # and its lights say so (docs/board.md)
        return False
    try:
        web(app, details["key"], address)
    except Exception as e:  # noqa: BLE001 - it could not listen, or failed: USB it is
        # Not a restart (pegboard.pico's way with faults): a server that fails as it starts
        # would fail again at every restart, and USB (deploy's way in) would never answer.
        # The game is on flash; the next power-up serves it again.
        app.warn("wifi", "the board's web server stopped: %r" % (e,))
        app.renderer.alert(True)  # and its lights say so (docs/board.md)
        return False
    return True
