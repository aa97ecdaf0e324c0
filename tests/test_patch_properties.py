"""Properties of cribcore.table.patch: any state to any next one, the patch applied to the
old state gives the new one (what the page's took() does with a stream's patch)."""

from hypothesis import given
from hypothesis import strategies as st

from cribcore.table.patch import patch, patched

values = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3) | \
    st.lists(st.integers(0, 3), max_size=3) | st.dictionaries(st.sampled_from("xyz"),
                                                              st.integers(0, 3), max_size=2)
fields = st.dictionaries(st.sampled_from(["question", "view", "over", "undone", "lanes"]),
                         values, max_size=5)


def _log(first, n):
    return [{"seq": s, "text": "e%d" % s} for s in range(first, first + n)]


@st.composite
def steps(draw):
    """(old, new): new the old's next state: fields changed, added or not; its log the
    old one's tail and new events (or, now and then, another log altogether)."""
    start, n = draw(st.integers(1, 50)), draw(st.integers(0, 8))
    old = dict(draw(fields), run="r", version=draw(st.integers(1, 99)), log=_log(start, n))
    new = dict(old)
    new.update(draw(fields))
    new["version"] = old["version"] + 1
    added = None  # events new since old (None: another log)
    if draw(st.integers(0, 5)) == 0:
        new["log"] = _log(draw(st.integers(1, 80)), draw(st.integers(0, 8)))
    else:
        drop, added = draw(st.integers(0, n)), draw(st.integers(0, 5))
        new["log"] = old["log"][drop:] + _log(start + n, added)
    return old, new, added


@given(steps())
def test_a_patch_applied_to_the_state_before_is_the_state(step):
    old, new, added = step
    p = patch(old, new)
    assert p is not None and p["base"] == old["version"] and p["version"] == new["version"]
    assert patched(old, p) == new
    assert set(p["set"]) == {k for k in new if k not in ("run", "version", "log")
                             and (k not in old or old[k] != new[k])}
    if added is not None:  # the old log's tail kept: only the new events are sent
        assert len(p["log"]) == added


@given(steps(), st.sampled_from(["run", "field"]))
def test_another_run_or_a_field_gone_is_no_patch(step, how):
    old, new, _ = step
    if how == "run":
        new["run"] = "s"
    else:
        old["gone"] = 1
    assert patch(old, new) is None
    p = patch(dict(old, run=new["run"]), new) if how == "run" else None
    assert p is None or patched(old, p) is None  # a patch for another run applies to none
