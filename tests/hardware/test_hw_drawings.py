"""Every drawing reads cleanly: no text leaves the sheet or sits on a wire, a line or other
text, and every page of a drilling template has crosses to lay on its neighbour's.

The SVGs are laid out by svg_layout (text measured in the renderers' font, not by the
code that drew it); the PDFs are read back with pdfminer.
"""

import pytest
from support import ROOT
from svg_layout import problems
from test_hw_fabrication import LAYOUTS, _pdf_pages

from crib import hardware
from crib.hardware import template_pdf

SVGS = [n for n in hardware.DOCS if n.endswith(".svg")]
BACKDROP = {"face.svg": ("led",)}  # the strip's faint LED squares lie under the numbers
GREEN = (0, 120 / 255, 0)  # the template's alignment crosses


@pytest.mark.parametrize("name", SVGS)
def test_no_text_leaves_the_sheet_or_overlaps_a_wire_or_text(name):
    for layout, make in sorted(LAYOUTS.items()):
        c = make()
        svg = hardware.document(name, c, "x.json")
        assert problems(svg, BACKDROP.get(name, ())) == [], (name, layout)


def test_the_layout_check_finds_what_the_builder_saw():
    """The check itself: text past the edge, on a wire and on other text is caught."""
    head = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">'
    assert problems(head + '<text x="150" y="50" font-size="12">runs past</text></svg>')
    assert problems(head + '<path d="M10 40 H 190" stroke="#000"/>'
                    '<text x="20" y="45" font-size="12">on a wire</text></svg>')
    assert problems(head + '<text x="20" y="45" font-size="12">one</text>'
                    '<text x="30" y="47" font-size="12">two</text></svg>')
    assert not problems(head + '<path d="M10 80 H 190" stroke="#000"/>'
                        '<text x="20" y="45" font-size="12">clear</text></svg>')


def _green_crosses(lines):
    return [ln for ln in lines if isinstance(ln.stroking_color, tuple)
            and ln.stroking_color == pytest.approx(GREEN, abs=0.001)]


@pytest.mark.parametrize("paper", sorted(template_pdf.PAPERS))
def test_every_template_page_has_alignment_crosses(paper):
    data = (ROOT / "hardware" / ("face-template-%s.pdf" % paper)).read_bytes()
    pages = [_green_crosses(lines) for _, _, _, lines in _pdf_pages(data)]
    assert len(pages) > 1
    for arms in pages:
        assert len(arms) >= 4, "a page without two crosses to lay on its neighbour's"
