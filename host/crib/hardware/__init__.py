"""Hardware documents from the layout config: power budget, parts, pins, wiring, face.

Everything is computed from a pegboard Config (the same file the firmware reads), the
firmware's own LED current model and limiter and the face geometry (crib.face), so
`crib hardware all --out hardware` regenerates hardware/ and a test keeps the checked-in
copies equal to it. The figures live in hw_power, the parts and pins in hw_parts, the
drawings in hw_face_svg and hw_wiring_svg; this module loads the layout and puts the
documents together.
"""

from pathlib import Path

from crib import build, face
from crib.hardware import face_svg, parts, power_doc, wiring_svg
from crib.hardware.errors import HardwareError
from pegboard.config import default_dict, from_dict, load_config

DOCS = ("power.md", "BOM.csv", "BOM.md", "pins.md", "wiring.svg", "face.svg")

def load_layout(path=None):
    """(Config, its name for the documents): path's layout, else firmware/config.json."""
    if path is None:
        shipped = build.FIRMWARE / "config.json"
        if not shipped.exists():  # an installed crib without the source tree
            return from_dict(default_dict()), "the built-in layout"
        path, source = shipped, "firmware/config.json"
    else:
        source = str(path)
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise HardwareError("cannot read %s: %s" % (path, e)) from None
    return load_config(text), source


def documents(config, source, spec=face.DEFAULT_SPEC):
    """{file name: text} of every hardware document."""
    return {
        "power.md": power_doc.power_markdown(config, source),
        "BOM.csv": parts.bom_csv(config, spec),
        "BOM.md": parts.bom_markdown(config, source, spec),
        "pins.md": parts.pins_markdown(config, source),
        "wiring.svg": wiring_svg.wiring_svg(config, spec),
        "face.svg": face_svg.face_svg(config, spec),
    }
