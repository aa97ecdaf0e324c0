"""The board's live picture for the page: the firmware renderer's own LEDs read over the
link and drawn by crib.picture.snapshot, exactly as `crib board snapshot` draws them (the layout
checked the same way). The picture is drawn again only when the LEDs changed."""

from collections.abc import Callable


def board_svg(store: str | None) -> Callable[[object], str | None]:
    """A function of a board giving its picture as SVG text now, or None for a board
    without LEDs to read (--board none) or one that does not answer. store: the virtual
    board's folder (its layout may have been widened for four lanes)."""
    from crib.errors import CribError
    from crib.layout.source import load_layout
    from crib.picture.model import board_picture, check_layout
    from crib.picture.snapshot import svg
    from crib.sim.store import default_store, store_layout
    from cribcore import CoreError

    last = {"key": None, "svg": None}

    def picture(board):
        link = getattr(board, "link", None)
        if link is None:
            return None
        layout = store_layout(store or default_store()) if board.kind == "sim" else None
        try:
            pixels = link.leds()
            key = (layout, tuple(pixels))
            if key != last["key"]:
                config = load_layout(layout)
                check_layout(config, link.info.get("lanes"), link.info.get("holes"),
                             leds=len(pixels))
                brightness = link.state().settings.get("brightness")
                last["svg"] = svg(board_picture(config, pixels, brightness))
                last["key"] = key
            return last["svg"]
        except (CribError, CoreError, OSError):  # offline or busy: no picture this time
            return None
    return picture
