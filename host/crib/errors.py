"""The companion's error tree: everything the CLI reports as `crib: error: ...` (no traceback).

Every error a command can meet derives from one of HANDLED: CribError (the host's own) or
cribcore's CoreError (a bad card, total, layout or protocol line, shared with the firmware).
Each package defines its errors beside the code that raises them (LinkError in
crib.board.link, BuildError in crib.deploy.build, ...), always as subclasses of these.

tests/test_errors.py checks that every exception class the host defines is in the tree
(or is one of the few control-flow signals that never leave their module).
"""

from cribcore import CoreError


class CribError(Exception):
    """A failure the user can act on: no board found, a timeout, a bad argument."""


# What crib.cli turns into `crib: error: ...` and exit code 1.
HANDLED = (CribError, CoreError)
