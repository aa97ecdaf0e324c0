"""Run plain test modules under MicroPython (or CPython): every test_* function, no pytest.

usage: micropython tests/mp_run.py PATH_DIR[:PATH_DIR...] MODULE [MODULE...]
The first argument is prepended to sys.path (firmware/ or a .mpy build, and tests/core).
Prints one line per failure and a closing 'N passed, N failed'; exit 1 on any failure.
"""

import sys


def main(argv):
    for d in reversed(argv[1].split(":")):
        sys.path.insert(0, d)
    passed = failed = 0
    for name in argv[2:]:
        mod = __import__(name)
        for attr in sorted(dir(mod)):
            fn = getattr(mod, attr)
            if not attr.startswith("test_") or not callable(fn):
                continue
            try:
                fn()
                passed += 1
            except Exception as e:  # report every failure, keep going
                failed += 1
                print("FAIL %s.%s: %s %r" % (name, attr, type(e).__name__, e.args))
                if hasattr(sys, "print_exception"):
                    sys.print_exception(e)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


sys.exit(main(sys.argv))
