"""Which serial ports may hold a board: USB ports of a Raspberry Pi Pico (vendor 0x2E8A)."""

from collections.abc import Callable, Iterable
from typing import Any

from crib.errors import CribError

PICO_VID = 0x2E8A  # Raspberry Pi's USB vendor id: every RP2040 running MicroPython shows it


class NoBoardFound(CribError):
    """`--port auto` found no Pico answering the board's handshake."""


def list_ports(comports: Callable[[], Iterable[Any]] | None = None) -> list[dict[str, Any]]:
    """Every serial port the OS lists, as dicts (device, description, vid, pid, serial, pico)."""
    if comports is None:
        from serial.tools.list_ports import comports as found
        comports = found
    out = []
    for p in comports():
        out.append({"device": p.device, "description": p.description or "",
                    "vid": p.vid, "pid": p.pid, "serial": p.serial_number,
                    "pico": p.vid == PICO_VID})
    out.sort(key=lambda d: (not d["pico"], d["device"]))
    return out


def pico_ports(comports: Callable[[], Iterable[Any]] | None = None,
               serial: str | None = None) -> list[str]:
    """Devices of the Picos attached (the one with USB serial number `serial` if given)."""
    return [p["device"] for p in list_ports(comports)
            if p["pico"] and (serial is None or p["serial"] == serial)]


def format_port(p: dict[str, Any]) -> str:
    """One line for `--port list`."""
    ids = "%04X:%04X" % (p["vid"], p["pid"]) if p["vid"] is not None else "-"
    mark = "pico" if p["pico"] else "    "
    extra = " serial=%s" % p["serial"] if p["serial"] else ""
    return "%s  %-9s  %-20s %s%s" % (mark, ids, p["device"], p["description"], extra)


