# Types of cribcore.table.record for the host's mypy (the module stays MicroPython's).
from typing import Any, NamedTuple

PRESSES: tuple[str, ...]
BUTTON: str

class BoardEvent(NamedTuple):
    kind: str
    lane: int
    n: int
    rev: int | None

def button_event(verb: str, args: dict[str, Any]) -> BoardEvent | None: ...

class Entry:
    id: Any
    seq: Any
    hand: int
    kind: str
    player: int | None
    side: int | None
    points: int
    reason: str | None
    source: str
    args: tuple[Any, ...]
    info: dict[str, Any]
    answered_by: int | None
    def __init__(self, hand: int, kind: str, player: int | None = ..., side: int | None = ...,
                 points: int = ..., reason: str | None = ..., source: str = ...,
                 args: Any = ..., info: dict[str, Any] | None = ...,
                 answered_by: int | None = ...) -> None: ...

class MemoryRecord:
    def __init__(self) -> None: ...
    def append(self, entry: Entry) -> Entry: ...
    def entries(self) -> list[Entry]: ...
    def undo(self, entry: Entry) -> None: ...
    def position(self) -> int: ...

class NoBoard:
    kind: str
    capacity: int
    def peg(self, lane: int, n: int, op_id: str) -> None: ...
    def undo(self, op_id: str) -> None: ...
    def new_game(self, target: int, lanes: int, op_id: str, match: bool = ...) -> None: ...
    def set_dealer(self, lane: int) -> None: ...
    def set_turn(self, lane: int) -> None: ...
    def state(self) -> None: ...
    def events(self) -> list[BoardEvent]: ...
