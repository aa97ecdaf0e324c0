"""The power budget of a layout: current cases, supply, wire gauge and power injection.

Computed from the firmware's own LED current model and limiter (pegboard.light,
pegboard.render); the assumptions are the constants below.
"""

from typing import Any

from crib.hardware.errors import HardwareError
from crib.layout import face
from cribcore.pegs import Board
from pegboard import light
from pegboard.render import Renderer

# A pegboard.config.Config: its settings (budget_ma, brightness, ...) are attributes set from
# the layout file's keys, which mypy cannot see.
Config = Any

VOLTS = 5
PICO_MA = 50  # the Pico draws about 25 mA busy (datasheet); the rest covers the 74AHCT125
# A Pico 2 W's radio (Infineon CYW43439) serving its access point: an allowance at the 5 V
# input, averaged, not measured on this board. Measured elsewhere: a Pico W running a
# program without Wi-Fi drew 31 mA at 5 V (elektronik-kompendium.de, "Raspberry Pi Pico W:
# Messung des Stromverbrauchs"); Wi-Fi in use added 73 mA at 5 V to a Pico with a Wi-Fi
# coprocessor (M. J. Oldfield, "Pico power", mjoldfield.com, 2021). 100 mA covers that with
# room; transmit peaks are short, and C1 and the supply's headroom take them.
RADIO_MA = 100
HEADROOM = (5, 4)  # run a supply at no more than 80% of its rating: need * 5 / 4
SUPPLY_A = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60)  # common 5 V supplies
USB_MA = 500  # what a USB 2.0 port promises
DROP_MV = 250  # allowed sag along the strip, and again in the feed wires: LEDs see >= 4.5 V
STRIP_MOHM_M = 150  # one rail of a 12 mm, 1 oz copper strip, per metre (measure yours)
FEED_M = 1.0  # cable length from the supply to the farthest feed point
TAP_M = 0.3  # a tap from the 5 V bus to a strip piece, or a jumper between pieces
MIN_POWER_AWG = 22  # thinner wire is too fragile for power, whatever the current
# Stranded copper hook-up wire: gauge, milliohm per metre, a conservative current in mA.
C1_UF = 1000  # the bulk capacitor across the strip's first feed
BANK_MAH, BANK_WH = 10000, 37  # a 10,000 mAh power bank: 10 Ah at the cells' 3.7 V
BANK_EFFICIENCY = 0.85  # boost to 5 V and cable losses
AWG = ((24, 84.2, 2000), (22, 53.0, 3000), (20, 33.3, 5000), (18, 21.0, 7000),
       (16, 13.2, 10000), (14, 8.3, 15000), (12, 5.2, 20000), (10, 3.3, 30000))


class _Strip:
    """A pixel buffer for the firmware's renderer."""

    def __init__(self, n: int) -> None:
        self.px = [(0, 0, 0)] * n

    def __len__(self) -> int:
        return len(self.px)

    def __setitem__(self, i: int, rgb: tuple[int, int, int]) -> None:
        self.px[i] = rgb

    def write(self) -> None:
        pass


def typical_ma(config: Config) -> int:
    """The firmware renderer's estimate for a game in progress at the configured light.

    Every lane has both pegs out, the hole marks show, the limiter is on: what the board
    draws most of the time.
    """
    board = Board(len(config.lanes), config.holes, config.undo_depth)
    for lane in range(board.players):
        for n in (max(1, config.holes // 5 + 3 * lane), max(1, config.holes // 12)):
            if board.winner < 0:
                board.peg(lane, n)
    renderer = Renderer(config, _Strip(config.leds))
    renderer.draw(board, None, 0)
    renderer.draw(board, None, 60000)  # long after the jump animations
    return renderer.last_ma


def idle_board_ma(config: Config) -> int:
    """The renderer's estimate for a fresh board waiting for play (the marks, no pegs)."""
    board = Board(len(config.lanes), config.holes, config.undo_depth)
    renderer = Renderer(config, _Strip(config.leds))
    renderer.draw(board, None, 0)
    return renderer.last_ma


def hold_up_ms(config: Config, volts: float = 1.0) -> float:
    """How long C1 alone feeds the dark strip before its voltage falls by volts (ms):
    t = C x dV / I, with I the dark strip's draw."""
    return C1_UF * volts / light.sum_ma(0, config.leds, config.led_ma)


def bank_hours(ma: float) -> float:
    """Hours a 10,000 mAh power bank runs a board drawing ma at 5 V (with the Pico)."""
    return BANK_WH * BANK_EFFICIENCY / (VOLTS * ma / 1000)


def worst_ma(config: Config) -> int:
    """Every LED full white, nothing limiting: the strip's absolute worst case."""
    return light.sum_ma(light.FULL * config.leds, config.leds, config.led_ma)


def limited_ma(config: Config, budget_ma: int | None = None) -> int:
    """The most the limiter ever lets the strip draw: the budget (or the worst case if less).

    The limiter scales each frame until its estimate fits budget_ma, idle draw included.
    """
    budget = config.budget_ma if budget_ma is None else budget_ma
    return min(budget, worst_ma(config))


def all_white_limited(config: Config, budget_ma: int | None = None) -> tuple[int, int]:
    """(scale 0..256, mA) of the all-white frame after the limiter: how dim it gets."""
    n = config.leds
    budget = config.budget_ma if budget_ma is None else budget_ma
    scale = light.limit_scale(light.FULL * n, n, config.led_ma, budget)
    # The renderer scales each channel as (value * scale) >> 8.
    return scale, light.sum_ma(3 * n * ((255 * scale) >> 8), n, config.led_ma)


def supply_a(need_ma: int) -> int:
    """The smallest common 5 V supply (A) that carries need_ma with the headroom."""
    want = need_ma * HEADROOM[0]
    for amps in SUPPLY_A:
        if amps * 1000 * HEADROOM[1] >= want:
            return amps
    return -(-want // (HEADROOM[1] * 10000)) * 10


def wire_awg(ma: int, metres: float, power: bool = True) -> int:
    """The thinnest gauge carrying ma with at most DROP_MV lost over metres (both ways)."""
    for awg, mohm, max_ma in AWG:
        if power and awg > MIN_POWER_AWG:
            continue
        if ma <= max_ma and ma * mohm * 2 * metres <= DROP_MV * 1000:
            return awg
    raise HardwareError("%d mA over %.1f m needs thicker wire than %d AWG: use several "
                        "feeds" % (ma, metres, AWG[-1][0]))


def wire_ma(runs: int, awg: int) -> int:
    """The current parallel runs of a gauge carry (the AWG table's conservative rating)."""
    return runs * [m for g, _, m in AWG if g == awg][0]


def wire_runs(ma: int, metres: float) -> tuple[int, int]:
    """(runs, gauge): parallel runs of one gauge carrying ma, one run whenever one will do."""
    runs = 1
    while True:
        try:
            return runs, wire_awg(-(-ma // runs), metres)
        except HardwareError:
            runs += 1


def gauge_text(runs: int, awg: int) -> str:
    """ "22 AWG", or "2 x 10 AWG" for parallel runs."""
    return "%d AWG" % awg if runs == 1 else "%d x %d AWG" % (runs, awg)


def leds_per_feed(config: Config, supply_ma: int, pitch_mm: float) -> int:
    """How many LEDs one feed point can power with at most DROP_MV of sag along the strip.

    Fed at one end, a strip of n LEDs drawing I in total sags I * R / 2 on each rail, so
    I * r * n * pitch over both; I is all n LEDs at full white, or the supply's whole
    rating if that is less.
    """
    full = light.sum_ma(light.FULL, 1, config.led_ma)
    n = 1
    while n < config.leds:
        m = n + 1
        if min(m * full, supply_ma) * STRIP_MOHM_M * m * pitch_mm / 1000 > DROP_MV * 1000:
            break
        n = m
    return n


def power_plan(config: Config, budget_ma: int | None = None,
               pitch_mm: float = face.DEFAULT_SPEC.led_pitch) -> dict[str, Any]:
    """Supply, wires and feed points for a strip budget (default: the config's)."""
    budget = config.budget_ma if budget_ma is None else budget_ma
    strip = limited_ma(config, budget)
    need = strip + PICO_MA
    amps = supply_a(need)
    every = leds_per_feed(config, amps * 1000, pitch_mm)
    full = light.sum_ma(light.FULL, 1, config.led_ma)
    feed = wire_runs(amps * 1000, FEED_M)
    tap = wire_runs(min(every * full, amps * 1000), TAP_M)
    return {
        "budget_ma": budget, "strip_ma": strip, "need_ma": need, "supply_a": amps,
        "feed_wire": gauge_text(*feed), "feed_awg": feed[1], "feed_runs": feed[0],
        "leds_per_feed": every, "feeds": list(range(0, config.leds, every)),
        "tap_wire": gauge_text(*tap), "tap_awg": tap[1],
    }


def power_budget(config: Config) -> dict[str, Any]:
    """Every power figure of a layout, as a dict of ints (mA, mW, A, AWG)."""
    model = config.led_ma
    n = config.leds
    worst = worst_ma(config)
    plan = power_plan(config)
    scale, white = all_white_limited(config)
    uncapped = power_plan(config, worst)
    budgets = sorted(set(b for b in (config.budget_ma, 1000, 2000, 5000, 10000, worst)
                         if n * model["idle"] < b <= worst))
    return {
        "leds": n, "lanes": len(config.lanes), "brightness": config.brightness,
        "model": dict(model), "led_full_ma": light.sum_ma(light.FULL, 1, model),
        "worst_ma": worst, "worst_mw": worst * VOLTS,
        "idle_ma": light.sum_ma(0, n, model),
        "typical_ma": typical_ma(config), "waiting_ma": idle_board_ma(config),
        "hold_up_ms": hold_up_ms(config),
        "limited_ma": plan["strip_ma"], "limited_mw": plan["strip_ma"] * VOLTS,
        "white_scale": scale, "white_limited_ma": white,
        "pico_ma": PICO_MA, "plan": plan, "uncapped": uncapped,
        "options": [power_plan(config, b) for b in budgets],
        "usb_ok": plan["need_ma"] <= USB_MA,
        "wifi": wifi_plan(plan["need_ma"]),
    }


def wifi_plan(need_ma: int) -> dict[str, Any]:
    """A board with a Pico 2 W: the radio's allowance on top of need_ma, the supply it
    takes, and whether a USB 2.0 port still carries it."""
    need = need_ma + RADIO_MA
    return {"radio_ma": RADIO_MA, "need_ma": need, "supply_a": supply_a(need),
            "usb_ok": need <= USB_MA}
