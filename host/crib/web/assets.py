"""The phone page's files as a server sends them: the page's shell, its script and its
style, each gzipped once (at build time, for a board; at start, for `crib serve`), with
its content type. A board serves them as stored, with Content-Encoding: gzip: it never
compresses anything itself.

    for path, (data, kind) in gzipped().items():   # "/", "/static/app.js", ...
    write(folder, join_url)            # index.html.gz, app.js.gz, app.css.gz, qr.svg
"""

import gzip
import io
from pathlib import Path

HERE = Path(__file__).resolve().parent
STATIC = ("app.js", "app.css")
TYPES = {"html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
         "css": "text/css; charset=utf-8"}


def page_html() -> str:
    """The page's shell: the same for everyone (what is secret is fetched with the key)."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                             autoescape=True)
    return env.get_template("index.html").render()


def plain() -> dict[str, tuple[bytes, str]]:
    """Each path the page fetches -> (its bytes, its content type)."""
    out = {"/": (page_html().encode(), TYPES["html"])}
    for name in STATIC:
        out["/static/" + name] = ((HERE / "static" / name).read_bytes(),
                                  TYPES[name.rsplit(".", 1)[1]])
    return out


def squeeze(data: bytes) -> bytes:
    """data gzipped at the best level, with no name and no time in the header (the same
    bytes every build)."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def gzipped() -> dict[str, tuple[bytes, str]]:
    """Each path the page fetches -> (its gzipped bytes, its content type)."""
    return {path: (squeeze(data), kind) for path, (data, kind) in plain().items()}


def file_name(path: str) -> str:
    """The stored file of a page's path: "/" -> index.html.gz, "/static/app.js" ->
    app.js.gz."""
    return ("index.html" if path == "/" else path.rsplit("/", 1)[1]) + ".gz"


def qr_svg(url: str) -> str:
    """The joining address as a QR code (SVG text)."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False,
                                    svgns=True, title="join this game")
    return out.getvalue().decode()


def write(folder: str | Path, join_url: str | None = None) -> int:
    """Write each gzipped file into folder (made if missing), and with join_url its QR
    code as qr.svg; the gzipped files' total size."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    total = 0
    for path, (data, _kind) in gzipped().items():
        (folder / file_name(path)).write_bytes(data)
        total += len(data)
    if join_url is not None:
        (folder / "qr.svg").write_text(qr_svg(join_url))
    return total
