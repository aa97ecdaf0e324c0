"""What changed from one state (cribcore.table.room's) to the next: the patch each screen
that has the one before is sent, instead of the whole state (6-8 KB late in a game, most
of it the log; a patch is its new events and the fields that changed, about 1 KB).

    p = patch(old, new)        # a dict, or None when only the whole state will do
    new == patched(old, p)     # what the page does with it (host/crib/web/static/app.js)

A patch: {"run", "version", "base" (the version it applies to), "set" (each top-level field
whose value changed, whole), "drop" (how many of the log's oldest events to drop), "log"
(the events to append: all of them if the old log is not the new one's head)}. A field
gone from the state, or another run: None (the screen is sent the whole state).
Plain data on CPython and MicroPython; the fields are compared by value (==), each
unchanged one costs a comparison, not its JSON.
"""

FIXED = ("run", "version", "log")  # the fields a patch carries in its own way


def patch(old, new):
    """The patch from old to new (module docstring), or None."""
    if not old or old.get("run") != new.get("run") or new.get("version") is None:
        return None
    for key in old:
        if key not in new:
            return None
    changed = {}
    for key in new:
        if key not in FIXED and (key not in old or old[key] != new[key]):
            changed[key] = new[key]
    before, after = old.get("log") or [], new.get("log") or []
    last = before[-1]["seq"] if before else None
    at = len(after)
    while at > 0 and (last is None or after[at - 1]["seq"] > last):
        at -= 1
    drop = len(before) - at
    if drop < 0 or not _same_tail(before, drop, after, at):
        drop, at = len(before), 0  # not its tail: the whole log again
    return {"run": new["run"], "version": new["version"], "base": old["version"],
            "set": changed, "drop": drop, "log": after[at:]}


def _same_tail(before, drop, after, at):
    """Whether before[drop:] == after[:at] (the same count of events). A room's logs are
    windows on one run of events, sharing their dicts: when the two ends are the same
    objects, so is all between (no slice copied: two lists of up to 30 an answer on the
    chip); else they are compared by value."""
    if at == 0:
        return True
    if before[drop] is after[0] and before[-1] is after[at - 1]:
        return True
    return before[drop:] == after[:at]


def patched(state, p):
    """The state p makes of state, or None if p is not for it (another run or version)."""
    if state.get("run") != p["run"] or state.get("version") != p["base"]:
        return None
    out = dict(state)
    out.update(p["set"])
    out["version"] = p["version"]
    out["log"] = list(state.get("log") or [])[p["drop"]:] + p["log"]
    return out
