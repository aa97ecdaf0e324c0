"""A tiny SVG writer for the hardware drawings."""

from xml.sax.saxutils import escape


def hex_colour(rgb) -> str:
    """An (r, g, b) colour as "#rrggbb"."""
    return "#%02x%02x%02x" % tuple(rgb)


def number(v):
    """A number as SVG text: at most two decimals, no trailing zeros."""
    return ("%.2f" % v).rstrip("0").rstrip(".")


class Svg:
    """A tiny SVG writer: elements in order, numbers rounded, text escaped."""

    def __init__(self, width, height, unit: str = "") -> None:
        self.head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%s%s" height="%s%s" '
                     'viewBox="0 0 %s %s">' % (number(width), unit, number(height), unit,
                                               number(width), number(height)))
        self.body: list[str] = []

    @staticmethod
    def _open(tag, attrs):
        parts = [tag]
        for k, v in attrs.items():
            v = number(v) if isinstance(v, float) else str(v)
            parts.append('%s="%s"' % (k.rstrip("_").replace("_", "-"),
                                      escape(v, {'"': "&quot;"})))
        return "<" + " ".join(parts)

    def add(self, tag, text=None, **attrs) -> None:
        """One element; text (escaped) inside it if given."""
        if text is None:
            self.body.append(self._open(tag, attrs) + "/>")
        else:
            self.body.append("%s>%s</%s>" % (self._open(tag, attrs), escape(str(text)), tag))

    def begin(self, **attrs) -> None:
        """Open a group: the elements added until end() belong to it."""
        self.body.append(self._open("g", attrs) + ">")

    def end(self) -> None:
        """Close the group begin() opened."""
        self.body.append("</g>")

    def text(self):
        """The whole document."""
        return "\n".join([self.head] + self.body + ["</svg>", ""])
