"""boardweb.conn.Guarded keeps the routes with no <argument> in a dict, not as microdot
URLPatterns (each a compiled regular expression and a dict per segment: about 200 bytes
of the chip's live heap a route), and finds a request's route by one lookup: the same
route, 405 or 404 for every path and method as microdot's own url_map finds, and the same
Allow for OPTIONS."""

import sys

import pytest
from support import FIRMWARE

for where in (str(FIRMWARE), str(FIRMWARE.parent / "tests" / "core_table")):
    if where not in sys.path:
        sys.path.append(where)

from boardweb import conn  # noqa: E402
from microdot import Microdot  # noqa: E402
from test_quick_requests import server  # noqa: E402

METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PROPFIND")


class Req:
    def __init__(self, method, path):
        self.method = method
        self.path = path
        self.url_args = None


def name(found):
    f = found[0]
    return f if isinstance(f, int) else getattr(f, "__name__", type(f).__name__)


@pytest.fixture
def both(monkeypatch):
    exact = server()
    monkeypatch.setattr(conn.Guarded, "route", Microdot.route)
    plain = server()  # every route a URLPattern in url_map, as microdot keeps them
    return exact.app, plain.app


def test_the_board_routes_its_fixed_paths_by_lookup(both):
    exact, plain = both
    assert "/events" in exact.exact and "/api/answer" in exact.exact
    assert [p.url_pattern for _, p, _, _, _ in exact.url_map] == ["/static/<name>"]
    assert not plain.exact and len(plain.url_map) == len(exact.url_map) + sum(
        len(routes) for routes in exact.exact.values())


def test_every_path_and_method_finds_what_microdots_url_map_finds(both):
    exact, plain = both
    paths = sorted(exact.exact) + ["/static/app.js", "/static/", "/nowhere", "/api/x",
                                   "/events/", "/state?x=1", ""]
    for path in paths:
        for method in METHODS:
            a, b = Req(method, path), Req(method, path)
            got, want = exact.find_route(a), plain.find_route(b)
            if method == "OPTIONS":  # the options handler, its Allow header as microdot's
                assert exact.default_options_handler(a) == \
                    plain.default_options_handler(b), path
                continue
            assert name(got) == name(want), (method, path, got, want)
            assert got[1:] == want[1:]
            if not isinstance(got[0], int):
                assert a.url_args == b.url_args, (method, path)
