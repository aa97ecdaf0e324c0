# Types of cribcore.table.room for the host's mypy (the module stays MicroPython's).
from typing import Any

from cribcore.table.engine import TableEngine
from cribcore.table.questions import Event

LOG_KEEP: int
KINDS: tuple[str, ...]
OVER: str

def numbered(seq: int, ev: Event) -> dict[str, Any]: ...

class Outcome:
    events: list[dict[str, Any]]
    raw: list[Event]
    question: dict[str, Any] | None
    view: dict[str, Any]
    version: int
    changed: bool
    def __init__(self, events: list[dict[str, Any]], raw: list[Event],
                 question: dict[str, Any] | None, view: dict[str, Any], version: int,
                 changed: bool) -> None: ...

class Room:
    engine: TableEngine
    run: str
    version: int
    seq: int
    question: dict[str, Any] | None
    view: dict[str, Any]
    state: dict[str, Any]
    def __init__(self, engine: TableEngine, run: str = ...,
                 extra: dict[str, Any] | None = ...) -> None: ...
    def start(self) -> Outcome: ...
    def act(self, kind: str, body: dict[str, Any], seat: int | str | None = ...) -> Outcome: ...
    def poll(self) -> Outcome | None: ...
    def problem(self, text: str) -> None: ...
    def show(self, extra: dict[str, Any]) -> None: ...
    def names(self) -> list[str]: ...
    def text(self) -> str: ...
    def since(self, seq: int) -> list[Event]: ...
    def log(self) -> list[dict[str, Any]]: ...
