"""The board's live picture for the page: the firmware renderer's own LEDs read over the
link, in their own colours, drawn at phone size by crib.picture.phone (the lanes in play,
rows of 30 holes, the pegs marked; the layout checked as `crib board snapshot` checks it).
The picture is drawn again only when the LEDs changed."""

from typing import Any


class BoardPicture:
    """A function of a board giving its picture as SVG text now, or None for a board
    without LEDs to read (--board none) or one that does not answer. store: the virtual
    board's folder (its layout may have been widened for four lanes). Once a picture is
    drawn, `lanes` says each lane's name and colour ("#rrggbb") and `holes` the holes a
    lane has: the page draws the board from them and the pegs, and colours each side's
    row as its lane."""

    def __init__(self, store: str | None) -> None:
        self.store = store
        self.lanes: list[dict[str, str]] | None = None
        self.holes: int | None = None
        self._key: Any = None
        self._svg: str | None = None

    def __call__(self, board: Any) -> str | None:
        from crib.errors import CribError
        from crib.layout.source import load_layout
        from crib.picture.model import board_picture, check_layout
        from crib.picture.phone import svg
        from crib.picture.snapshot import hex_colour
        from crib.sim.store import default_store, store_layout
        from cribcore import CoreError

        link = getattr(board, "link", None)
        if link is None:
            return None
        layout = store_layout(self.store or default_store()) if board.kind == "sim" else None
        try:
            pixels = link.leds()
            key = (layout, tuple(pixels))
            if key != self._key:
                config = load_layout(layout)
                check_layout(config, link.info.get("lanes"), link.info.get("holes"),
                             leds=len(pixels))
                state = link.state()
                pic = board_picture(config, pixels, state.settings.get("brightness"))
                # At phone size: the lanes in play, rows of 30, the pegs marked
                # (crib.picture.phone); `crib board snapshot` keeps the board's true shape.
                self._svg = svg(pic, config.holes, state.lanes or len(config.lanes),
                                [tuple(p) for p in state.pegs])
                self._key = key
                self.lanes = [{"name": ln.name, "colour": hex_colour(ln.colour)}
                              for ln in config.lanes]
                self.holes = config.holes
            return self._svg
        except (CribError, CoreError, OSError):  # offline or busy: no picture this time
            return None


def board_svg(store: str | None) -> BoardPicture:
    """The board's picture as the page gets it (BoardPicture)."""
    return BoardPicture(store)
