"""The `games` verb (docs/protocol.md): the finished games of the game record
(pegboard.gamelog) read over USB, a line at a time (`crib history import`). The board's
main registers it (register), as desk.py registers the desktop's verbs."""


def register(app, log):
    """Give an App the `games` verb over a GameLog (a board with the record)."""
    app.VERBS = dict(app.VERBS)
    app.VERBS["games"] = lambda app_, args: answer(log, args)


def answer(log, args):
    """The reply fields of `games` (docs/protocol.md): without g, the games not in play;
    with g (and at, a byte offset), the line there (none: the game's end; the next
    line is at `at` + its length + 1)."""
    from cribcore.protocol import ProtocolError

    if "g" not in args:  # (no games: the field left out, an empty list has no spelling)
        return {"games": tuple(log.games()) or None}
    game, at = args["g"], args.get("at", 0)
    if game not in log.games():
        raise ProtocolError("no finished game %d on this board" % game, "bad_arg")
    raw, _ = log.files.line_at(log.path_of(game), at)
    if not raw:
        return {"g": game, "at": at}
    body = raw[:-1] if raw[-1:] == b"\n" else raw
    if body.strip(bytes(range(32, 127))):  # damaged: not protocol text, but as long
        body = b"?" * len(body)  # (the next line's offset), and it fails its check
    return {"g": game, "at": at, "line": body.decode()}
