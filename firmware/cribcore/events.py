"""The board's own lines (`evt NAME field...`), as docs/protocol.md describes them: a table
for the host and the docs' checks. The board sends them with cribcore.protocol.event()
and needs no table of them, so this one is not in its heap (cribcore.protocol is).
"""

# The board's own lines (buttons, boot, problems), one event a line: name, then fields.
EVENTS = """boot rev proto fw warn
peg rev p n src p0..p3 winner
undo rev p src p0..p3 winner
new rev src target players wins
win rev p skunk
warn code msg"""
