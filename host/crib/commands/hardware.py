"""Hardware documents from the layout (firmware/config.json or --config FILE): the guide,
the power budget, the bill of materials, the pin map, the schematic and wiring sheet, the
face drawing and its fabrication files (laser SVG, DXF, drilling templates), the box's
(for a laser, or with --tools hand a cut list for a saw and a drill) and their views: the
files of hardware/. Without --out a text document goes to stdout; `all` writes them all.
The schematic and the fabrication files need the hardware extra: pip install '.[hardware]'.
`card` is a board with Wi-Fi's join card (a PDF and a PNG): its details from the board
on --port, or given with --ssid, --password and --key."""

import json
from argparse import ArgumentParser, Namespace
from pathlib import Path

from crib.env import Env
from crib.errors import CribError

HELP = "guide, parts, pins, schematic, wiring, face and fabrication files from the layout"
WHAT = ("guide", "power", "bom", "pins", "schematic", "wiring", "stripboard", "face", "cut",
        "box", "card", "all")
FILES = {"guide": ("README.md",), "power": ("power.md",), "bom": ("BOM.csv", "BOM.md"),
         "pins": ("pins.md",), "schematic": ("schematic.svg",), "wiring": ("wiring.svg",),
         "stripboard": ("stripboard.svg",),
         "face": ("face.svg",),
         "cut": ("face-cut.svg", "face.dxf", "face-template-a4.pdf",
                 "face-template-letter.pdf", "face-cut-preview.png"),
         "box": ("box-cut.svg", "box.dxf", "box-template-a4.pdf", "box-template-letter.pdf",
                 "diffuser-cut.svg", "diffuser.dxf", "section.svg", "box-views.svg",
                 "box-views.png", "box-cut-preview.png", "diffuser-cut-preview.png"),
         "card": ("card.pdf", "card.png")}  # made by _card, from a board's Wi-Fi details
CARD = FILES["card"]
HAND = ("hand-box.md", "hand-cutlist.csv", "hand-sheet.svg", "hand-box-views.svg",
        "hand-box-views.png")  # `box --tools hand`
SHOWN = {"guide": "README.md", "power": "power.md", "bom": "BOM.md", "pins": "pins.md",
         "schematic": "schematic.svg", "wiring": "wiring.svg",
         "stripboard": "stripboard.svg", "face": "face.svg", "cut": "face-cut.svg",
         "box": "box-cut.svg"}


def add_arguments(parser: ArgumentParser) -> None:
    """what, --config, --out, --json."""
    parser.add_argument("what", choices=WHAT, help="which document")
    parser.add_argument("--config", metavar="FILE",
                        help="the layout (default: firmware/config.json)")
    parser.add_argument("--out", metavar="DIR", help="write the files into DIR")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument("--bed", metavar="MM", type=float, default=None,
                        help="longest piece the cutter takes; a longer face is split "
                             "(default 400)")
    parser.add_argument("--tools", choices=("laser", "hand"), default=None,
                        help="box: for a laser or CNC cutter (default), or for hand tools "
                             "(a saw and a drill: cut list, cutting plan, assembly)")
    card = parser.add_argument_group("card (a board with Wi-Fi's join card)")
    card.add_argument("--port", metavar="auto|PATH|URL",
                      help="read the details from the board here (default: $CRIB_PORT, else "
                           "a Pico found by its USB id)")
    card.add_argument("--ssid", metavar="NAME", help="the board's network name, instead")
    card.add_argument("--password", help="its WPA2 password")
    card.add_argument("--key", help="its page key")
    card.add_argument("--address", help="its page's address (default 192.168.4.1)")


def _json(config, what, ps):
    """The figures behind a document, as plain data."""
    from crib.hardware import circuit, panel
    from crib.hardware import parts as hw_parts
    from crib.hardware import power as hw_power
    from crib.layout import face

    if what == "power":
        return hw_power.power_budget(config)
    if what == "bom":
        return [dict(zip(hw_parts.BOM_COLUMNS, row)) for row in hw_parts.bom_table(config)]
    if what == "pins":
        return [dict(zip(("pin", "name", "function", "wires_to"), row))
                for row in hw_parts.pin_rows(config)]
    if what == "face":
        w, h = face.board_size(config)
        return {"width_mm": w, "height_mm": h,
                "holes": {str(k): v for k, v in face.hole_positions(config).items()}}
    if what == "wiring":
        return {"pieces": face.strip_pieces(config), "power": hw_power.power_plan(config),
                "buttons": circuit.buttons(config),
                "wires": [vars(w) for w in circuit.wires(config)]}
    if what == "cut":
        p = panel.panel(config, face.DEFAULT_SPEC, ps)
        return {"width_mm": p.width, "height_mm": p.height,
                "pieces": panel.split(p, ps), "holes": [vars(h) for h in p.holes]}
    if what == "stripboard":
        from crib.hardware import stripboard

        b = stripboard.board(config)
        return {"cols": b.cols, "rows": b.rows, "leads": b.leads, "cuts": sorted(b.cuts),
                "links": b.links, "pads": b.pads}
    if what == "box":
        from crib.hardware import box

        return {"stack": box.stack(), "wire_holes": box.wire_holes(config),
                "boards": [{"name": b.name, "width_mm": b.width, "height_mm": b.height,
                            "holes": len(b.holes)} for b in box.parts(config, ps=ps)]}
    if what in ("guide", "schematic"):
        return {"wires": [vars(w) for w in circuit.wires(config)]}
    return {k: _json(config, k, ps) for k in WHAT if k not in ("card", "all")}


# What the `hardware` extra installs (pip install 'ledcrib[hardware]'), by import name.
EXTRA = ("schemdraw", "ezdxf", "fpdf", "PIL")


def run(args: Namespace, env: Env):
    """Print or write the chosen documents; return the exit code. Without the hardware
    extra, the documents that need it say how to get it (and nothing is written)."""
    try:
        return _run(args, env)
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in EXTRA:
            raise
        raise CribError(
            "`crib hardware %s` needs crib's hardware extra (no module named %r): install it"
            " as crib was installed, e.g. `pip install -e '.[hardware]'` in crib's source"
            " folder, or `pipx install --force '.[hardware]'`" % (args.what, e.name)) from None


def _card(args: Namespace, env: Env) -> int:
    """`crib hardware card`: the join card of a board with Wi-Fi, into --out."""
    from crib.hardware import card

    given = (args.ssid, args.password, args.key)
    if any(v is not None for v in given):
        if None in given:
            raise CribError("give --ssid, --password and --key together, or none of them "
                            "(the details are then read from the board)")
        d = card.Details(args.ssid, args.password, args.key, args.address or card.ADDRESS)
    else:
        from crib.board.ports import NoBoardFound
        from crib.board.wifi import details
        from crib.connect import open_link

        try:
            link = open_link(args.port or env.environ.get("CRIB_PORT") or "auto")
        except NoBoardFound as e:  # its hints are this command's own options
            raise CribError("%s: plug the board in by USB, give --port PATH|URL, or give"
                            " --ssid, --password and --key (as `crib board wifi` prints"
                            " them)" % str(e).split(";")[0]) from None
        from crib.board.wifi import NoWifi, home

        with link:
            got = details(link)
            # The card is for the board's own network (its fallback): its fixed address,
            # not the home network's address the board may be at now.
            got["address"] = card.ADDRESS
            try:
                at = home(link)
                got.update(name=at["name"], home=at["ssid"])
            except NoWifi:  # firmware before the home network: the address only
                pass
            d = card.Details(**got)
    if args.json:
        env.print(json.dumps(d.to_dict(), indent=2, sort_keys=True))
        return 0
    if args.out is None:
        raise CribError("`crib hardware card` writes %s: give --out DIR" % " and ".join(CARD))
    files = {CARD[0]: card.pdf(d), CARD[1]: card.png(d)}  # both made before either is written
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, body in files.items():
            (out / name).write_bytes(body)
            env.print("wrote %s" % (out / name))
    except OSError as e:
        raise CribError("cannot write into %s: %s" % (out, e)) from None
    return 0


def _run(args: Namespace, env: Env) -> int:
    # The document makers (svg, xml, schemdraw, ezdxf, fpdf2) are imported here, not when
    # the CLI imports every command module to build its parser.
    from dataclasses import replace

    if args.what == "card":
        return _card(args, env)
    from crib import hardware
    from crib.hardware.panel import DEFAULT_PANEL
    from crib.layout import face

    ps = DEFAULT_PANEL
    if args.bed is not None:
        if not 50 <= args.bed <= 5000:
            raise CribError("--bed must be 50..5000 mm, got %g" % args.bed)
        ps = replace(ps, bed_mm=args.bed)
    if args.tools is not None and args.what != "box":
        raise CribError("--tools is for `crib hardware box`, not %s" % args.what)
    hand = args.tools == "hand"
    config, source = hardware.load_layout(args.config)
    if args.json and hand:
        from crib.hardware import hand_doc

        env.print(json.dumps([dict(zip(hand_doc.COLUMNS, r)) for r in hand_doc.rows(
            config, face.DEFAULT_SPEC, ps)], indent=2, sort_keys=True))
        return 0
    if args.json:
        env.print(json.dumps(_json(config, args.what, ps), indent=2, sort_keys=True))
        return 0
    names = HAND if hand else FILES.get(args.what, hardware.DOCS)  # all: every document
    if args.out is None:
        if args.what == "all":
            raise CribError("`crib hardware all` writes %d files: give --out DIR"
                            % len(hardware.DOCS))
        shown = HAND[0] if hand else SHOWN[args.what]
        body = hardware.document(shown, config, source, face.DEFAULT_SPEC, ps)
        env.print(body, end="")
        return 0
    docs = {name: hardware.document(name, config, source, face.DEFAULT_SPEC, ps)
            for name in names}  # all made before any is written: an error changes nothing
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, body in docs.items():
            if isinstance(body, bytes):
                (out / name).write_bytes(body)
            else:
                (out / name).write_text(body)
            env.print("wrote %s" % (out / name))
    except OSError as e:
        raise CribError("cannot write into %s: %s" % (out, e)) from None
    return 0
