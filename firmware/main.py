"""Pico boot: build the real drivers from config.json and run the board app for ever."""

import time

from machine import Pin

from pegboard.app import App, layout
from pegboard.stdio import StdioPort
from pegboard.store import Store
from pegboard.ws2812 import WS2812


def _reader(pin):
    # Buttons pull the pin to ground: pressed reads 0.
    return lambda: not pin.value()


def _button(number):
    return _reader(Pin(number, Pin.IN, Pin.PULL_UP))


def main():
    """Wire the drivers to the app; step it as fast as the loop goes."""
    try:
        with open("config.json") as f:
            text = f.read()
    except OSError:
        text = None
    config, problem = layout(text)
    readers = {"undo": _button(config.pins["undo"])}
    if config.pins.get("confirm") is not None:
        readers["confirm"] = _button(config.pins["confirm"])
    for i, lane in enumerate(config.lanes):
        readers["lane%d" % i] = _button(lane.button)
    strip = WS2812(config.pins["leds"], config.leds)
    app = App(config, strip, readers, Store("/state"), StdioPort())
    if problem:
        app.bad_config(problem)
    while True:
        app.step(time.ticks_ms())


main()
