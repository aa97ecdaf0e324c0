"""Hardware documents from the layout (firmware/config.json or --config FILE): the power
budget, the bill of materials, the pin map, the wiring diagram and the board face, the
files of hardware/. Without --out a document goes to stdout; `all` writes them all."""

import json
from pathlib import Path

from crib.errors import CribError

HELP = "power budget, parts list, pin map, wiring and face drawings from the layout"
WHAT = ("power", "bom", "pins", "face", "wiring", "all")
FILES = {"power": ("power.md",), "bom": ("BOM.csv", "BOM.md"), "pins": ("pins.md",),
         "face": ("face.svg",), "wiring": ("wiring.svg",)}
SHOWN = {"power": "power.md", "bom": "BOM.md", "pins": "pins.md", "face": "face.svg",
         "wiring": "wiring.svg"}


def add_arguments(parser):
    """what, --config, --out, --json."""
    parser.add_argument("what", choices=WHAT, help="which document")
    parser.add_argument("--config", metavar="FILE",
                        help="the layout (default: firmware/config.json)")
    parser.add_argument("--out", metavar="DIR", help="write the files into DIR")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")


def _json(config, what):
    """The figures behind a document, as plain data."""
    from crib import face
    from crib.hardware import parts as hw_parts
    from crib.hardware import power as hw_power

    if what == "power":
        return hw_power.power_budget(config)
    if what == "bom":
        return [dict(zip(("ref", "qty", "part", "notes"), row))
                for row in hw_parts.bom_rows(config)]
    if what == "pins":
        return [dict(zip(("gpio", "pin", "function", "wire_to"), row))
                for row in hw_parts.pin_rows(config)]
    if what == "face":
        w, h = face.board_size(config)
        return {"width_mm": w, "height_mm": h,
                "holes": {str(k): v for k, v in face.hole_positions(config).items()}}
    if what == "wiring":
        return {"pieces": face.strip_pieces(config), "power": hw_power.power_plan(config),
                "buttons": hw_parts.buttons(config)}
    return {k: _json(config, k) for k in WHAT[:-1]}


def run(args):
    """Print or write the chosen documents; return the exit code."""
    # The document makers (svg, xml) are imported here, not when the CLI imports every
    # command module to build its parser.
    from crib import hardware

    config, source = hardware.load_layout(args.config)
    if args.json:
        print(json.dumps(_json(config, args.what), indent=2, sort_keys=True))
        return 0
    docs = hardware.documents(config, source)
    if args.out is None:
        if args.what == "all":
            raise CribError("`crib hardware all` writes %d files: give --out DIR"
                            % len(hardware.DOCS))
        print(docs[SHOWN[args.what]], end="")
        return 0
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name in FILES.get(args.what, hardware.DOCS):  # all: every document
            (out / name).write_text(docs[name])
            print("wrote %s" % (out / name))
    except OSError as e:
        raise CribError("cannot write into %s: %s" % (out, e)) from None
    return 0
