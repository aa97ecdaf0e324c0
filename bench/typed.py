"""The share of the host's functions mypy checks, by package.

    python bench/typed.py [--top 10]

mypy checks the body of a function only when the function has an annotation (an argument's
or the return's); an unannotated function is taken as returning Any and its body is skipped
(tests/test_typecheck_host.py runs mypy without --check-untyped-defs). This counts every
def and async def in host/crib (methods and nested functions too) and prints, per package,
how many carry an annotation.
"""

import argparse
import ast
import sys
from pathlib import Path

HOST = Path(__file__).resolve().parent.parent / "host" / "crib"


def annotated(fn):
    """True when mypy would check fn's body: any argument (self and cls too) or the return
    carries an annotation."""
    a = fn.args
    args = a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]
    return fn.returns is not None or any(x.annotation is not None for x in args)


def count(path):
    """(annotated, all) functions in one file."""
    tree = ast.parse(path.read_text(), str(path))
    fns = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return sum(1 for f in fns if annotated(f)), len(fns)


def package_of(path):
    rel = path.relative_to(HOST)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=0,
                    help="also list the N files with the most unannotated functions")
    args = ap.parse_args(argv)
    by_pkg, by_file = {}, []
    for path in sorted(HOST.rglob("*.py")):
        typed, total = count(path)
        t, n = by_pkg.get(package_of(path), (0, 0))
        by_pkg[package_of(path)] = (t + typed, n + total)
        by_file.append((total - typed, str(path.relative_to(HOST.parent))))
    print("%-12s %9s %9s %7s" % ("package", "annotated", "functions", "share"))
    for pkg in sorted(by_pkg):
        t, n = by_pkg[pkg]
        if n:
            print("%-12s %9d %9d %6.1f%%" % (pkg, t, n, 100.0 * t / n))
    t = sum(v[0] for v in by_pkg.values())
    n = sum(v[1] for v in by_pkg.values())
    print("%-12s %9d %9d %6.1f%%" % ("host", t, n, 100.0 * t / n))
    for left, name in sorted(by_file, reverse=True)[:args.top]:
        print("  %4d unannotated  %s" % (left, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
