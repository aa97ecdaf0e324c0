"""Properties of the protocol codec: round trips, canonical lines, any chunking, any input."""

from hypothesis import given
from hypothesis import strategies as st

from cribcore.protocol import (
    MAX_LINE,
    LineReader,
    ProtocolError,
    _scan,
    _tokens,
    command,
    decode,
    encode,
    err,
    ok,
    verbs,
)

printable = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=80)
ids = st.text(st.sampled_from("abcXYZ019_-"), min_size=1, max_size=16)


@st.composite
def commands(draw):
    """A valid command: a verb and arguments inside its ranges."""
    verb = draw(st.sampled_from(verbs()))
    _, flags, spec, _ = command(verb)
    args = {}
    for tok in spec.split():
        name, _, rng = tok.strip("[]").partition("=")
        if tok.startswith("[") and not draw(st.booleans()):
            continue
        if rng:
            low, _, high = rng.partition("..")
            args[name] = draw(st.integers(int(low), int(high)))
        else:
            args[name] = draw(st.sampled_from(["lane0", "undo", "peg", "x.y-1"]))
    if verb == "set" and not args:
        args["brightness"] = draw(st.integers(1, 100))
    if flags & 1 and draw(st.booleans()):
        args["id"] = draw(ids)
    return verb, args


@given(commands())
def test_every_valid_command_round_trips_and_is_canonical(cmd):
    verb, args = cmd
    line = encode(verb, **args)
    assert len(line) <= MAX_LINE
    m = decode(line)
    assert (m.kind, m.verb, m.args) == ("cmd", verb, args)
    assert encode(verb, **m.args) == line
    assert decode("  " + line.replace(" ", "   ") + " ").args == args


@given(printable, st.integers(0, 1 << 30), ids)
def test_any_text_survives_a_reply_and_an_error(text, rev, ident):
    assert decode(ok(rev=rev, msg=text, id=ident)).args == {"rev": rev, "msg": text,
                                                             "id": ident}
    m = decode(err("bad_arg", text, rev=rev))
    assert (m.kind, m.args["code"], m.args["msg"]) == ("err", "bad_arg", text)


@given(printable)
def test_decode_raises_only_protocol_errors(line):
    try:
        decode(line)
    except ProtocolError as e:
        assert e.code in ("bad_line", "too_long", "unknown_verb", "bad_arg", "missing_arg")


@given(st.lists(printable.filter(lambda t: t.strip()), max_size=8), st.data())
def test_line_reader_gives_the_same_lines_however_the_bytes_are_cut(lines, data):
    stream = "".join(t + data.draw(st.sampled_from(["\n", "\r\n", "\r"])) for t in lines)
    raw = stream.encode()
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=10)))
    reader = LineReader(MAX_LINE)
    got = []
    last = 0
    for cut in cuts + [len(raw)]:
        got += reader.feed(raw[last:cut])
        last = cut
    want = [t if len(t) <= MAX_LINE else "too_long" for t in lines]
    assert [g if type(g) is str else g.code for g in got] == want


@given(st.binary(max_size=600))
def test_line_reader_takes_any_bytes(raw):
    reader = LineReader(MAX_LINE)
    for item in reader.feed(raw) + reader.feed(b"\n"):
        if type(item) is str:
            assert item.strip() and len(item) <= MAX_LINE
            assert all(" " <= c <= "~" for c in item)
        else:
            assert item.code in ("bad_line", "too_long")
    assert len(reader._buf) == 0


def _tokens_or_error(fn, line):
    try:
        return fn(line)
    except ProtocolError as e:
        return e.code


key_value_ish = st.lists(st.one_of(
    st.sampled_from(["peg", "evt", "ok", "", " ", "p=1", "n=", "=3", "id=a-b", "x=y=z",
                     "toolongkeyname_x17=1", "A=1", "b=on", "msg=x"]),
    printable.filter(lambda t: '"' not in t)), max_size=8).map(" ".join)


@given(key_value_ish)
def test_the_split_reading_of_a_line_without_quotes_is_the_scanning_one(line):
    # _tokens splits a quote-free line in C; _scan reads any line a character at a time.
    assert _tokens_or_error(_tokens, line) == _tokens_or_error(_scan, line)


class _Starved(LineReader):
    """A LineReader that runs out of memory whenever `fail` says, at any of its steps."""

    def __init__(self, fail):
        LineReader.__init__(self, MAX_LINE)
        self.fail = fail

    def _end(self, out):
        if self.fail():
            raise MemoryError("no memory to end a line")
        LineReader._end(self, out)


@given(st.binary(max_size=300), st.lists(st.integers(0, 300), max_size=6),
       st.lists(st.booleans(), max_size=40))
def test_a_line_reader_that_runs_out_of_memory_loses_nothing(raw, cuts, fails):
    """A feed that raises holds its bytes and the lines it completed: feed(b"") goes on,
    and the lines are those of a reader that never ran out (35.11: a line read while the
    heap was short was lost without a reply)."""
    import cribcore.protocol as protocol

    schedule = iter(fails)
    reader = _Starved(lambda: next(schedule, False))
    eol = protocol._eol

    def starved_eol(data, i):
        if next(schedule, False):
            raise MemoryError("no memory to cut a piece")
        return eol(data, i)

    got, raised = [], 0
    protocol._eol = starved_eol
    try:
        last = 0
        for cut in sorted(c for c in cuts if c <= len(raw)) + [len(raw)]:
            chunk = raw[last:cut]
            last = cut
            while True:
                try:
                    got += reader.feed(chunk)
                    break
                except MemoryError:
                    raised += 1
                    assert reader.pending
                    chunk = b""
            assert not reader.pending
    finally:
        protocol._eol = eol
    want = LineReader(MAX_LINE).feed(raw)
    assert [g if type(g) is str else g.code for g in got] == [
        w if type(w) is str else w.code for w in want]
    assert raised <= len(fails)
