"""A board with Wi-Fi (a Pico 2 W): its networks (pegboard.radio), then the table served.

pegboard.pico calls serve(app, web=...) once the app is built, where this module is on
the flash (`crib deploy` ships it to a board with Wi-Fi alone), with the web server's
entry that main.py found (boardweb.serve, or None). It reads the join details of the
board's own network (pegboard.joining: made once, kept on flash) and its name and home
network (pegboard.homenet), gives the app the `wifi` and `home` verbs, starts the radio
(pegboard.radio.Radio over MicroPython's network module; tests give it a fake: the home
network when one is set, else the board's own at ADDRESS) and hands the app, the page key
and the address (None while joining) to the board's web server, which steps the app and
the radio from then on (app.radio) and follows its address. The lights show the radio's
state (LIGHTS). If the radio does not start, or no server is on the flash, or the server
cannot start or stops, the board says why (`evt warn code=wifi`) and runs as a plain
Pico: USB and the buttons keep working.

On the own network the address is fixed: ADDRESS (192.168.4.1, also the default of the
Pico W family's driver, cyw43, whose DHCP server hands phones 192.168.4.x). On the home
network it is the router's choice, and the board's name (`cribbage-xxxx.local`) finds it.
None of this has met a real radio here (docs/boardweb.md, "What only a real radio shows").
"""

from pegboard.radio import ADDRESS, LIGHTS, NONE, Radio


def serve(app, network=None, files=None, urandom=None, now_ms=None, web=None,
          unique_id=None):
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
    from pegboard.homenet import Home

    if unique_id is None:
        from machine import unique_id  # type: ignore[import-not-found]
    home = Home(files, unique_id())
    if home.warning:
        app.warn("wifi", home.warning)
    home.register(app)
    if web is None:
        app.warn("wifi", "no web server (boardweb.serve) on the flash: play over USB")
        app.renderer.alert(True)  # and its lights say so (docs/board.md)
        return False
    if network is None:
        try:
            import network  # type: ignore[import-not-found]
        except ImportError as e:
            network = e
    radio = Radio(network, (details["ssid"], details["password"]), home.network, home.name)
    home.radio = app.joining.radio = radio  # both verbs report where the page is now
    app.joining.name = home.name
    radio.listeners.append(lambda r: app.renderer.alert(LIGHTS[r.state]))
    if now_ms is None:
        from time import ticks_ms as now_ms
    radio.start(now_ms())
    if radio.state == NONE:
        app.warn("wifi", "the access point did not open: %s" % radio.why)
        return False
    app.radio = radio  # the server steps it (boardweb.server) and follows its address
    try:
        web(app, details["key"], radio.address)
    except Exception as e:  # noqa: BLE001 - it could not listen, or failed: USB it is
        # Not a restart (pegboard.pico's way with faults): a server that fails as it starts
        # would fail again at every restart, and USB (deploy's way in) would never answer.
        # The game is on flash; the next power-up serves it again.
        app.warn("wifi", "the board's web server stopped: %r" % (e,))
        app.renderer.alert(True)  # and its lights say so (docs/board.md)
        return False
    return True
