"""The board's live picture for the page: the firmware renderer's own LEDs read over the
link and drawn by crib.snapshot, exactly as `crib board snapshot` draws them."""

from collections.abc import Callable


def board_svg(store: str | None) -> Callable[[object], str | None]:
    """A function of a board giving its picture as SVG text now, or None for a board
    without LEDs to read (--board none). store: the virtual board's folder (its layout may
    have been widened for four lanes)."""
    from crib.errors import CribError
    from crib.picture import load_layout
    from crib.sim import default_store, store_layout
    from crib.snapshot import svg, take
    from cribcore.errors import CoreError

    def picture(board):
        link = getattr(board, "link", None)
        if link is None:
            return None
        layout = None
        if board.kind == "sim":
            layout = store_layout(store or default_store())
        try:
            return svg(take(link, load_layout(layout)))
        except (CribError, CoreError, OSError):  # offline or busy: no picture this time
            return None
    return picture
