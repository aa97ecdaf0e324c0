"""crib.web.assets: the page's files gzipped once, as a board stores and serves them."""

import gzip

from crib.web import assets


def test_every_file_the_page_fetches_is_gzipped_with_its_type(tmp_path):
    plain, squeezed = assets.plain(), assets.gzipped()
    assert set(squeezed) == {"/", "/static/app.js", "/static/app.css"} == set(plain)
    for path, (data, kind) in squeezed.items():
        assert gzip.decompress(data) == plain[path][0] and kind == plain[path][1]
        assert len(data) < len(plain[path][0]) / 2, path
    assert squeezed["/"][1].startswith("text/html")
    assert squeezed["/static/app.js"][1].startswith("text/javascript")
    assert assets.gzipped() == squeezed  # the same bytes every build (no time stamp)
    total = assets.write(tmp_path / "web")
    assert sorted(p.name for p in (tmp_path / "web").iterdir()) == \
        ["app.css.gz", "app.js.gz", "index.html.gz"]
    assert total == sum(len(d) for d, _ in squeezed.values()) < 16_000
    assert (tmp_path / "web" / "app.js.gz").read_bytes() == squeezed["/static/app.js"][0]


def test_the_room_keeps_at_least_the_events_the_page_draws():
    # the page draws the log's last N events (app.js drawLog); the room keeps LOG_KEEP
    # (fewer than N would hide events a screen shows, more is heap on the chip)
    import re

    from cribcore.table.room import LOG_KEEP

    app = assets.plain()["/static/app.js"][0].decode()
    drawn = re.findall(r"log\.slice\(-(\d+)\)", app)
    assert drawn and LOG_KEEP >= max(int(n) for n in drawn)
