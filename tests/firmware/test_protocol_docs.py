"""docs/protocol.md covers the whole table, and its example transcript is what a board says."""

import re

from apprig import Rig, transcript
from support import ROOT

from cribcore import VERSION
from cribcore.events import EVENTS
from cribcore.protocol import ERRORS, FIELDS, PROTO, command, verbs

DOC = (ROOT / "docs" / "protocol.md").read_text()


def test_doc_is_for_this_version():
    assert DOC.splitlines()[0] == "# The board protocol, version %d" % PROTO


def test_doc_names_every_verb_field_event_and_error():
    for verb in verbs():
        row = command(verb)
        assert ("`%s" % verb) in DOC, verb
        if row[2]:
            assert row[2] in DOC, verb  # the argument spec exactly as help gives it
    for name in [f.split(":")[0] for f in FIELDS.split()]:
        assert re.search(r"`%s`|`p0`\.\.`p3`" % name, DOC) or name in ("p1", "p2"), name
    for row in EVENTS.splitlines():
        assert "`evt %s`" % row.split()[0] in DOC, row
    table = re.findall(r"^\| `([a-z_]+)` \| (.+?) \|$", DOC.split("## Errors")[1], re.M)
    assert [code for code, _ in table] == list(ERRORS)  # each code, in order
    assert all(len(text.split()) >= 2 for _, text in table)  # with what it means


def test_doc_example_is_what_the_board_answers():
    block = DOC.split("```")[1]
    lines = [x.split("  (")[0].rstrip() for x in block.strip().splitlines()
             if x.startswith((">", "<")) and not x.startswith("< evt")]
    transcript(Rig(desk_verbs=False), "\n".join(lines).replace("0.1.0", VERSION))
