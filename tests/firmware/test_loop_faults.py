"""The loop-fault tests of loopfaults.py, under CPython and under the unix MicroPython,
where the heap is really exhausted (locked) while the app handles what it read."""

from loopfaults import (  # noqa: F401 - pytest collects them from here
    test_a_reply_that_cannot_be_written_does_not_stop_the_loop,
    test_bytes_lost_in_reading_drop_only_their_line,
    test_no_memory_mid_line_loses_no_line,
    test_no_memory_while_reading_a_line_loses_nothing,
)
from support import FIRMWARE, MP_RUN, TESTS, run_micropython


def test_the_loop_survives_real_memory_errors_under_micropython():
    # The faults come from locking the heap, not from its size: room enough for the
    # source (compiled in RAM) and the test rig, so no other MemoryError muddles them.
    proc = run_micropython([MP_RUN, "%s:%s" % (FIRMWARE, TESTS / "firmware"), "loopfaults"],
                           heap="256K")
    assert proc.returncode == 0 and " 0 failed" in proc.stdout, proc.stdout + proc.stderr
