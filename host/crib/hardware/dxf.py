"""face.dxf: the panel for a CNC router or laser, 1:1 in millimetres, made with ezdxf.

Layer CUT holds each piece's outline and every hole at its real diameter; layer ENGRAVE
the rings, skunk lines and text. The sheet is the same as face-cut.svg's, with y turned
upwards as DXF has it.
"""

import io

from crib.hardware.laser_svg import sheet
from crib.hardware.panel import DEFAULT_PANEL, Panel, PanelSpec, piece_of
from crib.layout import face
from crib.layout.face import FaceSpec
from pegboard.config import Config


def dxf_text(config: Config, spec: FaceSpec = face.DEFAULT_SPEC,
             ps: PanelSpec = DEFAULT_PANEL) -> str:
    """face.dxf text (DXF R2010, units mm)."""
    return cut_dxf(*sheet(config, spec, ps))


def cut_dxf(p: Panel, pieces: list, offsets: list) -> str:
    """A DXF of a panel laid out as cut_svg lays it: layers CUT and ENGRAVE, mm, y up."""
    import ezdxf

    # Fixed dates, GUIDs and ezdxf stamps, so the same layout always makes the same file
    # (the checked-in copy is compared with a fresh one).
    was = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    try:
        return _dxf(p, pieces, offsets)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = was


def _dxf(p, pieces, offsets):
    import ezdxf
    from ezdxf.enums import TextEntityAlignment

    top = max(y1 - y0 for y0, y1 in pieces)
    doc = ezdxf.new("R2010", setup=False)
    doc.units = ezdxf.units.MM
    doc.header["$MEASUREMENT"] = 1
    doc.layers.add("CUT", color=1)
    doc.layers.add("ENGRAVE", color=5)
    msp = doc.modelspace()

    def at(x, y):
        dx, dy = offsets[piece_of(pieces, y)]
        return (round(x + dx, 4), round(top - (y + dy), 4))

    for poly in p.outlines:
        msp.add_lwpolyline([at(*pt) for pt in poly], close=True, dxfattribs={"layer": "CUT"})
    for i, (y0, y1) in enumerate(pieces if not p.outlines else ()):
        x0 = offsets[i][0]
        msp.add_lwpolyline([(x0, top), (x0 + p.width, top), (x0 + p.width, top - (y1 - y0)),
                            (x0, top - (y1 - y0))], close=True, dxfattribs={"layer": "CUT"})
    for h in p.holes:
        msp.add_circle(at(h.x, h.y), h.d / 2, dxfattribs={"layer": "CUT"})
    for h in p.rings:
        msp.add_circle(at(h.x, h.y), h.d / 2, dxfattribs={"layer": "ENGRAVE"})
    for ln in p.lines:
        msp.add_line(at(ln.x1, ln.y1), at(ln.x2, ln.y2), dxfattribs={"layer": "ENGRAVE"})
    align = {"start": TextEntityAlignment.LEFT, "middle": TextEntityAlignment.CENTER,
             "end": TextEntityAlignment.RIGHT}
    for t in p.texts:
        msp.add_text(t.text, height=0.7 * t.size, dxfattribs={"layer": "ENGRAVE"}
                     ).set_placement(at(t.x, t.y), align=align[t.anchor])
    # ezdxf adds a CLASS per entity type in use from a set, in hash order: registered here
    # in sorted order first, the CLASSES section comes out the same in every process.
    for dxftype in sorted(doc.entitydb.dxf_types_in_use()):
        doc.classes.add_class(dxftype)
    buf = io.StringIO()
    doc.write(buf)
    return buf.getvalue()
