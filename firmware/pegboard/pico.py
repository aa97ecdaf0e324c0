"""The Pico's drivers and loop: build the real drivers from config.json and run the board
app for ever (main.py calls main()).

Nothing stops the loop: App.step catches every fault of a step and reports it. A fault
outside a step (the App cannot even be built, say for want of memory) restarts the app
RESTART_MS later, reported as `evt warn code=internal` by the new one, rather than
dropping to the REPL. Only the REPL hand-over (KeyboardInterrupt from UsbSerial, on CR,
Ctrl-C, CR: docs/firmware.md, "The USB serial") ends main.py. No hardware watchdog: the
RP2040's cannot be stopped once started, and this USB serial is also the REPL that
`crib deploy` and a person use; a watchdog would reset the board under them
(docs/firmware.md, "Faults").

The saved game is on the LEDs before most of the app is even imported (first_frame):
importing the protocol, the buttons, the app and the USB port takes the emulated Pico
about 200 ms, and a player looks at the board, not at the serial port.
"""

import gc
import time

from pegboard import drop
from pegboard.ws2812 import WS2812

RESTART_MS = 1000  # a fault that keeps recurring restarts at most once a second
STATE = "/state"  # the Store's path: the game on flash


def _reader(pin):
    # Buttons pull the pin to ground: pressed reads 0.
    return lambda: not pin.value()


def _button(number):
    from machine import Pin  # here, not at import: nothing in pegboard touches hardware then

    return _reader(Pin(number, Pin.IN, Pin.PULL_UP))


def drivers():
    """(config, problem, strip) from config.json: built once, kept across restarts (a
    new WS2812 would claim another DMA channel every time)."""
    from pegboard.layout import boot_layout

    config, problem = boot_layout()
    del boot_layout
    drop("pegboard.layout")  # the layout is read: its code leaves the heap
    return config, problem, WS2812(config.pins["leds"], config.leds)


def buttons(config):
    """The button readers, {name: () -> pressed}: after the first frame, which needs none."""
    readers = {"undo": _button(config.pins["undo"])}
    if config.pins.get("confirm") is not None:
        readers["confirm"] = _button(config.pins["confirm"])
    for i, lane in enumerate(config.lanes):
        readers["lane%d" % i] = _button(lane.button)
    return readers


def first_frame(config, strip):
    """Load the saved game and draw it, with only the store, the board and the renderer
    imported; (store, saved, renderer) for the app to carry on with."""
    from pegboard.render import Renderer
    from pegboard.restore import load
    from pegboard.store import Store

    store = Store(STATE)
    saved = load(store, config)
    del load
    drop("pegboard.restore")  # the saved state is read: its code leaves the heap
    renderer = Renderer(config, strip)
    renderer.brightness = saved[1]["brightness"]  # the app applies every setting
    renderer.budget_ma = saved[1]["budget_ma"]
    renderer.draw(saved[0], None, time.ticks_ms())
    return store, saved, renderer


def free():
    """The heap free after a collection (`state`'s free=: what the running app leaves)."""
    gc.collect()
    return gc.mem_free()


def sample(sampler, period):
    """A timer that samples the buttons every period ms, whatever the loop is doing (a
    flash save blocks it for 75-90 ms). Hard (an interrupt: a long C call cannot delay it)
    where this MicroPython offers it; Sampler.tick allocates nothing, as that needs."""
    from machine import Timer

    ticks_ms = time.ticks_ms

    def tick(_timer):
        sampler.tick(ticks_ms())

    try:
        timer = Timer(period=period, callback=tick, hard=True)
    except (TypeError, ValueError):  # no hard timer callbacks here: scheduled ones
        timer = Timer(period=period, callback=tick)
    sampler.timed = True
    return timer


def run(config, problem, strip, readers, port, faults, first=None, running=None,
        serve=None):
    """Build the app on the drivers (and, at boot, on what first_frame loaded and drew),
    call running() if given, and step it as fast as the loop goes; with serve (a board
    with Wi-Fi: pegboard.wifi.serve), serve(app) steps it instead, unless it returns
    False (no access point or server: then this loop does)."""
    import micropython

    from pegboard.app import App

    if first is None:
        from pegboard.store import Store

        app = App(config, strip, readers, Store(STATE), port)
    else:
        store, saved, renderer = first
        app = App(config, strip, readers, store, port, saved=saved, renderer=renderer)
    if problem:
        app.bad_config(problem)
    app.free = free
    for fault in faults:
        app.warn("internal", "restarted after " + fault)
    del faults[:]
    from pegboard.sampler import SAMPLE_MS

    timer = sample(app.buttons.sampler, SAMPLE_MS)
    if running is not None:
        running()
    # Ctrl-C becomes a plain byte while the app runs: a stray one must not stop it. The
    # port hands over to the REPL on CR, Ctrl-C, CR (mpremote's way in) instead.
    micropython.kbd_intr(-1)
    try:
        if serve is None or not serve(app):
            while True:
                app.step(time.ticks_ms())
    finally:
        micropython.kbd_intr(3)
        timer.deinit()


def wifi(web=None):
    """serve(app) for a board with Wi-Fi (pegboard.wifi.serve, with the web server's entry
    web() finds: main.py's), else None. `crib deploy` ships pegboard.wifi to such a board
    alone, and only a Wi-Fi board's MicroPython has the network module: on a plain Pico
    this is one failed lookup in the code pack, after the first frame."""
    try:
        from pegboard.wifi import serve  # first: on a plain Pico, the pack answers at once
    except ImportError:
        return None
    try:
        import network  # type: ignore[import-not-found]  # noqa: F401 - Wi-Fi boards only
    except ImportError:
        return None
    return lambda app: serve(app, web=web() if web else None)


def main(running=None, serve=None, web=None):
    """Run the app; restart it after any fault; return only for the REPL hand-over.
    running(): called once the app is built (main.py: fastboot.done); serve: see run();
    web(): the board's web server's entry or None (main.py's: see wifi())."""
    faults: list = []
    made = parts = None  # the drivers; with the port
    while True:
        first = None
        try:
            if parts is None:
                made = made or drivers()
                first = first_frame(made[0], made[2])  # a fault here: again, from here
                from pegboard.usbserial import UsbSerial

                parts = made + (buttons(made[0]), UsbSerial())
                serve = serve or wifi(web)
            run(*parts, faults, first, running, serve)  # running: again after a restart
        except KeyboardInterrupt:
            return
        except Exception as e:  # noqa: BLE001 - anything else: start again
            faults = faults[-3:] + [repr(e)]
            if made:  # a new renderer's first frame sets only its lit LEDs (pegboard.frame)
                strip = made[2]
                for i in range(len(strip)):
                    strip[i] = (0, 0, 0)
            gc.collect()
            time.sleep_ms(RESTART_MS)

