"""Which serial ports may hold a board: USB ports of a Raspberry Pi Pico (vendor 0x2E8A)."""

from crib.errors import CribError

PICO_VID = 0x2E8A  # Raspberry Pi's USB vendor id: every RP2040 running MicroPython shows it


class NoBoardFound(CribError):
    """`--port auto` found no Pico answering the board's handshake."""


def list_ports(comports=None):
    """Every serial port the OS lists, as dicts (device, description, vid, pid, serial, pico)."""
    if comports is None:
        from serial.tools.list_ports import comports
    out = []
    for p in comports():
        out.append({"device": p.device, "description": p.description or "",
                    "vid": p.vid, "pid": p.pid, "serial": p.serial_number,
                    "pico": p.vid == PICO_VID})
    out.sort(key=lambda d: (not d["pico"], d["device"]))
    return out


def pico_ports(comports=None, serial=None):
    """Devices of the Picos attached (the one with USB serial number `serial` if given)."""
    return [p["device"] for p in list_ports(comports)
            if p["pico"] and (serial is None or p["serial"] == serial)]


def format_port(p):
    """One line for `--port list`."""
    ids = "%04X:%04X" % (p["vid"], p["pid"]) if p["vid"] is not None else "-"
    mark = "pico" if p["pico"] else "    "
    extra = " serial=%s" % p["serial"] if p["serial"] else ""
    return "%s  %-9s  %-20s %s%s" % (mark, ids, p["device"], p["description"], extra)


def open_auto(link_class, comports=None, **kw):
    """A connected link to the first Pico (by USB vendor id) that completes the handshake;
    NoBoardFound (or VersionMismatch, for a board with other firmware) if none does."""
    from crib.board.link import LinkError, VersionMismatch, open_url

    kw.pop("store", None)
    kw.pop("config", None)
    tried = []
    mismatch = None
    ports = list_ports(comports)
    for p in ports:
        if not p["pico"]:
            continue
        device = p["device"]
        link = link_class(lambda d=device: open_url(d), name=device, **kw)
        try:
            link.connect()
        except VersionMismatch as e:
            mismatch = e
            tried.append("%s: %s" % (device, e))
            continue
        except LinkError as e:
            tried.append("%s: %s" % (device, e))
            continue
        if p["serial"]:
            # After an unplug the same Pico may come back under another device name.
            link.opener = lambda s=p["serial"], d=device: _reopen_pico(s, d, comports)
        return link
    if mismatch is not None:
        raise mismatch
    if not tried:
        raise NoBoardFound("no Pico found (USB id 2E8A); plug the board in, give --port "
                           "PATH|URL, or try the virtual board with --board sim")
    raise NoBoardFound("no Pico answered as a board: " + "; ".join(tried))


def _reopen_pico(serial_no, device, comports=None):
    from crib.board.link import open_url

    found = pico_ports(comports, serial=serial_no)
    return open_url(found[0] if found else device)
