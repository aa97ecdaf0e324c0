"""Show crib's guides: how to play at the table, on phones, a club night, against the
computer, the solitaire, the discard advisor, the board and its link, the virtual board,
the protocol and the build guide. They come with crib: `crib docs` lists them, `crib docs
NAME` prints one (formatted at a terminal), `crib docs NAME --path` says where its file
is."""

from argparse import ArgumentParser, Namespace
from pathlib import Path

from crib.env import Env
from crib.errors import CribError

HELP = "show a guide: crib docs lists them, crib docs table shows one"
# The guides a wheel carries (pyproject.toml's package data for crib.docs), in docs/.
GUIDES = ("table", "web", "boardweb", "club", "practice", "advisor", "shuffle", "board",
          "sim", "link", "protocol")
HARDWARE = "hardware"  # the build guide: made from the layout by `crib hardware guide`
PACKAGED = Path(__file__).resolve().parent.parent / "docs"  # crib/docs in a wheel
SOURCE = Path(__file__).resolve().parents[3] / "docs"  # docs/ in a source checkout


def add_arguments(parser: ArgumentParser) -> None:
    """[NAME] [--path]."""
    parser.add_argument("name", nargs="?", metavar="NAME",
                        help="the guide: %s" % ", ".join(GUIDES + (HARDWARE,)))
    parser.add_argument("--path", action="store_true",
                        help="print where the guide's file is instead (to open it in a "
                             "Markdown viewer, with its pictures)")


def docs_dir() -> Path:
    """The folder of the guides: the copy a wheel installs in crib/docs, else docs/ of the
    source checkout."""
    return PACKAGED if (PACKAGED / "table.md").is_file() else SOURCE


def guide_path(name: str) -> Path:
    """The file of a guide (CribError for a name that is none)."""
    if name not in GUIDES:
        raise CribError("no guide %r: the guides are %s"
                        % (name, ", ".join(GUIDES + (HARDWARE,))))
    return docs_dir() / (name + ".md")


def run(args: Namespace, env: Env) -> int:
    """List the guides, or print one; return 0."""
    if args.name is None:
        env.print("crib's guides (crib docs NAME shows one):")
        for name in GUIDES:
            title = guide_path(name).read_text(encoding="utf-8").split("\n", 1)[0]
            env.print("  %-9s %s" % (name, title.lstrip("# ")))
        env.print("  %-9s %s" % (HARDWARE, "Building the board (`crib hardware guide`; "
                                          "`crib hardware all --out DIR` writes its files)"))
        return 0
    if args.name == HARDWARE:
        if args.path:
            raise CribError("the build guide is made from the layout: `crib hardware guide "
                            "--out DIR` writes it (README.md) with its files")
        text = _hardware_guide()
    else:
        path = guide_path(args.name)
        if args.path:
            env.print(path)
            return 0
        text = path.read_text(encoding="utf-8")
    if env.colour():
        from rich.console import Console
        from rich.markdown import Markdown

        Console(file=env.stdout, force_terminal=True).print(Markdown(text))
    else:
        env.print(text, end="" if text.endswith("\n") else "\n")
    return 0


def _hardware_guide() -> str:
    from crib import hardware
    from crib.hardware.panel import DEFAULT_PANEL
    from crib.layout import face

    config, source = hardware.load_layout(None)
    text = hardware.document("README.md", config, source, face.DEFAULT_SPEC, DEFAULT_PANEL)
    assert isinstance(text, str)  # the guide is Markdown (only the PDFs are bytes)
    return text
