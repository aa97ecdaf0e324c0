"""Both page servers as real servers on free loopback ports, one test suite for both:
`crib serve`'s (Starlette under uvicorn, on a thread of the test process, a history on
disk and a board in memory) and the board's own (firmware/boardweb: microdot under
MicroPython's unix port with its heap capped, the firmware App as its board, a process of
its own). Each starts once per test module and worker (a module's tests share its game),
set up the same: Alice and Bob to 121 (a module's TARGET if it has one), Alice deals,
confirmations asked, the game options `crib serve`'s own (the show by ranks)."""

import contextlib
import os
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web"))

from webtools import KEY, NAMES, make_hub  # noqa: E402

KINDS = ("crib", "board")


def serve_options():
    """The game options `crib serve` plays with when given none."""
    import argparse

    from crib.commands import serve
    from crib.commands._options import table_options

    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    return table_options(parser.parse_args([]), ranks=True)


class Server:
    """A server under test: its url, kind, and (the board's) process."""

    def __init__(self, kind, url, board=None):
        self.kind = kind
        self.url = url
        self.board = board


@contextlib.contextmanager
def started(kind, target=121):
    """A server of this kind, running until the block ends (Server)."""
    if kind == "crib":
        from crib.web.app import create_app
        from crib.web.server import Background

        with tempfile.TemporaryDirectory() as d:
            hub = make_hub(os.path.join(d, "history.sqlite3"), target=target,
                           options=serve_options())
            app = create_app(hub, KEY, "http://127.0.0.1/?k=" + KEY)
            with Background(app) as url:
                yield Server("crib", url)
    else:
        from crib.web.unixboard import UnixBoard

        board = UnixBoard(KEY, names=NAMES, target=target, dealer=0)
        with board as url:
            yield Server("board", url, board)
            said = board.output()
            assert board.alive(), said  # it never fell over (a MemoryError say)
            assert "Traceback" not in said, said


@pytest.fixture(scope="module", params=KINDS)
def server(request):
    """Each server in turn, started once for the module (Server)."""
    with started(request.param, getattr(request.module, "TARGET", 121)) as s:
        yield s


@pytest.fixture(scope="module")
def servers(request):
    """Both servers at once, started once for the module: {kind: Server}."""
    target = getattr(request.module, "TARGET", 121)
    with started("crib", target) as crib, started("board", target) as board:
        yield {"crib": crib, "board": board}
