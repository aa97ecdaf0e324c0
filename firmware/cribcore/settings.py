"""The board's settings: what `set` changes and config.json holds, with their one range.

The protocol's `set` row and the layout's checks are both built from RANGES, so a layout
can never hold a setting its own saves would refuse. (A tiny module: config.py reads it at
boot without compiling the whole protocol.)
"""

RANGES = (
    ("brightness", 1, 100),
    ("budget_ma", 1, 100000),  # and above the strip's idle draw: light.budget_problem
    ("pause_ms", 200, 60000),
    ("idle_ms", 0, 86400000),
)
NAMES = tuple([r[0] for r in RANGES])
