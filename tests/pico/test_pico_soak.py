"""A 1,000-command soak on the emulated Pico: every command answered once, and the heap
after it no smaller than before. The heap is sampled inside the running app by a soft
timer (gc.collect, then gc.mem_free) set up at the REPL before main.py is started."""

import ast

import pytest

from cribcore.protocol import decode

pytestmark = pytest.mark.pico

COMMANDS = 1000
BURST = 20
SAMPLE = ("import gc, machine\r"
          "H = []\r"
          "T = machine.Timer(period=250, callback=lambda t: (gc.collect(), "
          "H.append(gc.mem_free())))\r")
# Mostly cheap queries, refusals and garbage (the loop runs four lines a step), with a
# saved change every 25 commands and a `leds` every 250: the emulator is slow.
REFUSED = {2: "unknown_verb", 5: "bad_lane", 7: "bad_line", 9: "too_long"}


def mix(i):
    """The i-th command of the soak."""
    if i % 50 == 0:
        return "peg p=%d n=1 id=s%d" % (i % 3, i)
    if i % 50 == 25:
        return "undo"
    if i % 250 == 99:
        return "leds"
    return ["hello", "state" if i % 30 == 1 else "hello", "frobnicate x=1", "help verb=set",
            "hello", "peg p=3 n=1", "set brightness=%d" % (10 + i % 50), "\x7fgarbage",
            "hello", "x" * 140][i % 10]


def expected(i):
    """(kind, code) of the reply to the i-th command."""
    if i % 25 == 0 or i % 250 == 99:
        return "ok", None
    return ("err", REFUSED[i % 10]) if i % 10 in REFUSED else ("ok", None)


def test_a_thousand_commands_leave_the_heap_as_it_was(pico):
    pico.send(b"\r\x03\r")  # stop main.py (CR Ctrl-C CR: the hand-over to the REPL)
    pico.wait(lambda: pico.raw.endswith(b">>> "), what="the REPL")
    pico.send(SAMPLE)
    start = len(pico.lines)
    pico.send(b"import main\r")
    pico.wait_line(lambda s: s.startswith("evt boot"), start, what="the app restarted")
    pico.sleep(600)  # a few samples of the heap before the soak
    first = len(pico.lines)
    for i in range(0, COMMANDS, BURST):
        lines = [mix(k) for k in range(i, i + BURST)]
        start = len(pico.lines)
        pico.send("".join(line + "\n" for line in lines))
        pico.wait(lambda s=start: sum(1 for ln in pico.lines[s:]
                                      if ln.text.startswith(("ok", "err"))) >= BURST,
                  what="the replies to commands %d..%d" % (i, i + BURST - 1))
    replies = [ln.text for ln in pico.lines[first:] if ln.text.startswith(("ok", "err"))]
    assert len(replies) == COMMANDS  # one reply each, nothing lost, nothing doubled
    for i, text in enumerate(replies):
        msg = decode(text)
        assert (msg.kind, msg.args.get("code")) == expected(i), (i, text)
    assert decode(pico.ask("hello")).kind == "ok"
    pico.sleep(600)
    pico.send(b"\r\x03\r")
    pico.wait(lambda: pico.raw.endswith(b">>> "), what="the REPL after the soak")
    start = len(pico.raw)
    pico.send(b"print('HEAP', H)\r")
    pico.wait(lambda: b"]\r\n>>> " in pico.raw[start:], what="the heap samples")
    text = bytes(pico.raw[start:]).decode()
    samples = ast.literal_eval(text[text.rindex("HEAP [") + 5:text.rindex("]") + 1])
    assert len(samples) >= 8, samples
    before, after = samples[1], samples[-1]
    # No leak: the live heap ends as it began, give or take the bounded tables the soak
    # fills (the last 8 ids' replies); a leak of one small object a command is 16K.
    assert after >= before - 4096, samples
    assert min(samples) > 100_000, samples  # and plenty to spare throughout
