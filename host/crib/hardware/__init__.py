"""Hardware documents from the layout config: the builder's files of hardware/.

Everything is computed from a pegboard Config (the same file the firmware reads), the
firmware's own LED current model and limiter and the face geometry (crib.layout.face), so
`crib hardware all --out hardware` regenerates hardware/ and a test keeps the checked-in
copies equal to it. One description of the circuit (circuit) feeds the pin map and BOM
(parts), the wiring sheet (wiring_svg), the schematic (schematic) and the guide (guide);
one panel (panel) feeds the fabrication files (laser_svg, dxf, template_pdf); the figures
live in power. This module loads the layout and puts the documents together.
"""

from pathlib import Path

from crib.hardware import face_svg, parts, power_doc, section_svg, stripboard, wiring_svg
from crib.hardware.errors import HardwareError
from crib.hardware.panel import DEFAULT_PANEL, PanelSpec
from crib.layout import face
from crib.layout.face import FaceSpec
from crib.layout.source import shipped_layout
from pegboard.config import Config, default_dict, from_dict, load_config

DOCS = ("README.md", "power.md", "BOM.csv", "BOM.md", "pins.md", "schematic.svg",
        "wiring.svg", "stripboard.svg", "face.svg", "face-cut.svg", "face.dxf",
        "face-template-a4.pdf", "face-template-letter.pdf", "section.svg", "box-cut.svg",
        "box.dxf", "box-template-a4.pdf", "box-template-letter.pdf", "diffuser-cut.svg",
        "diffuser.dxf", "box-views.svg", "box-views.png", "hand-box.md", "hand-cutlist.csv",
        "hand-sheet.svg", "hand-box-views.svg", "hand-box-views.png", "face-cut-preview.png",
        "box-cut-preview.png", "diffuser-cut-preview.png")


def load_layout(path: str | Path | None = None) -> tuple[Config, str]:
    """(Config, its name for the documents): path's layout, else firmware/config.json."""
    if path is None:
        shipped = shipped_layout()
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


def document(name: str, config: Config, source: str, spec: FaceSpec = face.DEFAULT_SPEC,
             ps: PanelSpec = DEFAULT_PANEL) -> str | bytes:
    """One document of DOCS: its text, or bytes for the PDFs and PNGs."""
    # The makers that need schemdraw, ezdxf or fpdf2 are imported when asked for.
    if name == "README.md":
        from crib.hardware.guide import guide_markdown
        return guide_markdown(config, source, spec, ps)
    if name == "schematic.svg":
        from crib.hardware.schematic import schematic_svg
        return schematic_svg(config, spec)
    if name == "face-cut.svg":
        from crib.hardware.laser_svg import laser_svg
        return laser_svg(config, spec, ps)
    if name == "face.dxf":
        from crib.hardware.dxf import dxf_text
        return dxf_text(config, spec, ps)
    if name.endswith("-preview.png"):
        from crib.hardware.preview import preview_png
        return preview_png(str(document(name.replace("-preview.png", ".svg"), config, source,
                                        spec, ps)))
    if name.endswith(("views.svg", "views.png")):
        from crib.hardware.views import views
        return views(config, "hand" if name.startswith("hand") else "laser", name[-3:], spec,
                     ps)
    if name.startswith("hand"):
        from crib.hardware import hand_doc
        if name == "hand-box.md":
            return hand_doc.cutlist_markdown(config, source, spec, ps)
        return (hand_doc.cutlist_csv if name.endswith(".csv") else hand_doc.sheet_svg)(
            config, spec, ps)
    if name.startswith("diffuser"):
        from crib.hardware import box_files
        return (box_files.diffuser_svg if name.endswith(".svg") else box_files.diffuser_dxf)(
            config, spec, ps)
    if name.startswith("box"):
        from crib.hardware import box_files
        if name.startswith("box-template-"):
            return box_files.box_pdf(config, name[len("box-template-"):-len(".pdf")], spec, ps)
        return (box_files.box_svg if name.endswith(".svg") else box_files.box_dxf)(
            config, spec, ps)
    if name.startswith("face-template-"):
        from crib.hardware.template_pdf import template_pdf
        return template_pdf(config, name[len("face-template-"):-len(".pdf")], spec, ps)
    makers = {
        "power.md": lambda: power_doc.power_markdown(config, source),
        "BOM.csv": lambda: parts.bom_csv(config, spec, ps),
        "BOM.md": lambda: parts.bom_markdown(config, source, spec, ps),
        "pins.md": lambda: parts.pins_markdown(config, source),
        "wiring.svg": lambda: wiring_svg.wiring_svg(config, spec),
        "face.svg": lambda: face_svg.face_svg(config, spec),
        "section.svg": lambda: section_svg.section_svg(config, spec, ps),
        "stripboard.svg": lambda: stripboard.stripboard_svg(config, spec),
    }
    return makers[name]()


def documents(config: Config, source: str, spec: FaceSpec = face.DEFAULT_SPEC,
              ps: PanelSpec = DEFAULT_PANEL) -> dict[str, str | bytes]:
    """{file name: text (bytes for the PDFs)} of every hardware document."""
    return {name: document(name, config, source, spec, ps) for name in DOCS}
