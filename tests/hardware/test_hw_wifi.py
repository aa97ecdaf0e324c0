"""The hardware documents offer the Pico 2 W: its radio's pins stay clear of every layout's,
its current is in the power budget, and the guide says how to play without a computer."""

import pytest

from crib import hardware
from crib.hardware import circuit, parts
from crib.hardware import power as hw_power
from crib.hardware import power_doc as hw_power_doc
from crib.hardware.errors import HardwareError
from pegboard.config import default_dict, from_dict


def test_the_radios_pins_are_not_on_the_header_and_the_shipped_layout_avoids_them():
    config, _ = hardware.load_layout()
    used = [config.pins["leds"], config.pins["undo"], config.pins.get("confirm")]
    used += [lane.button for lane in config.lanes]
    assert not set(used) & set(circuit.RADIO_GPIOS)
    for gpio in circuit.RADIO_GPIOS:
        assert gpio not in circuit.PICO_PIN
        with pytest.raises(HardwareError):
            circuit.header_pin(gpio)  # so no document can wire one


def test_the_radio_is_in_the_power_budget_and_the_supply_grows_with_it():
    config, _ = hardware.load_layout()
    p = hw_power.power_budget(config)
    w = p["wifi"]
    assert w["need_ma"] == p["plan"]["need_ma"] + hw_power.RADIO_MA
    assert w["supply_a"] * 1000 * 0.8 >= w["need_ma"]
    # The shipped board fills a USB 2.0 port already: with the radio it needs more.
    assert p["usb_ok"] and not w["usb_ok"]
    text = hw_power_doc.power_markdown(config, "x")
    assert "### A Pico 2 W" in text and "%d mA in all" % w["need_ma"] in text
    assert "not from a computer's USB port" in text


def test_a_small_budget_with_the_radio_still_fits_usb():
    d = default_dict()
    d["holes"], d["leds"] = 31, 93  # a short board: 93 LEDs idle at 93 mA
    d["budget_ma"] = 200
    d["lanes"] = [dict(ln, segments=[[-1, 1, 1], [i * 31, 31, 1]])
                  for i, ln in enumerate(d["lanes"])]
    w = hw_power.power_budget(from_dict(d))["wifi"]
    assert w["usb_ok"] and w["need_ma"] == 200 + hw_power.PICO_MA + hw_power.RADIO_MA


def test_the_guide_bom_and_pin_map_offer_the_pico_2_w():
    config, source = hardware.load_layout()
    guide = hardware.document("README.md", config, source)
    section = guide.split("## Play without a computer")[1].split("\n## ")[0]
    for words in ("Pico 2 W", "GP23", "crib hardware card", "crib board wifi",
                  "192.168.4.1", "not yet been tried on a real Pico 2\nW", "RPI_PICO2_W",
                  "power cut"):
        assert words in section, words
    u1 = parts.bom_rows(config)[0]
    assert u1[0] == "U1" and "Pico 2 W" in u1[3]
    assert "GP23, GP24, GP25, GP29" in parts.pins_markdown(config, source)
