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
