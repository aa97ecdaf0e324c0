"""Talk to the board: its status, peg points, undo, start a game, change settings, watch
its events, or save a picture of it as lit now.

LANE is a lane number from 1 or a lane's name (red, blue, ...). The board is a Pico found
by USB id (--port auto, the default), a port or URL given with --port, or the virtual
board with --board sim. Human output by default, --json for scripts.
"""

import argparse
import json
from argparse import ArgumentParser, Namespace

from crib.board.ports import list_ports
from crib.connect import add_board_arguments, list_ports_text, open_board, wants_port_list
from crib.env import Env
from crib.errors import CribError

HELP = "the board: status, peg, undo, new, set, watch, snapshot, wifi, club"
SET_HELP = "dealer=LANE|none, brightness=1..100, budget_ma, pause_ms, idle_ms"


class UsageError(CribError):
    """A bad lane, setting or value on the command line."""


def add_arguments(parser: ArgumentParser) -> None:
    """ACTION [ARGS] and the board options."""
    add_board_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    common = argparse.ArgumentParser(add_help=False)  # the options after ACTION too
    add_board_arguments(common, nested=True)
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print JSON for scripts")

    def action(name, help):
        return sub.add_parser(name, help=help, parents=[common])

    action("status", "the board now: pegs, game, tally, settings")
    p = action("peg", "peg N points for LANE")
    p.add_argument("lane", metavar="LANE")
    p.add_argument("points", metavar="N", type=int)
    action("undo", "undo the last jump")
    p = action("new", "start a new game")
    p.add_argument("--target", type=int, choices=(61, 121), default=None)
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None)
    p.add_argument("--match", action="store_true", help="also clear the games-won tally")
    p = action("set", "change settings: " + SET_HELP)
    p.add_argument("pairs", nargs="+", metavar="KEY=V")
    p = action("watch", "print the board's events as they come")
    p.add_argument("--count", type=int, default=None, help="stop after this many events")
    p.add_argument("--seconds", type=float, default=None, help="stop after this long")
    p = action("snapshot", "save a picture of the board as lit now")
    p.add_argument("file", metavar="FILE.svg|FILE.png")
    p = action("wifi", "a board with Wi-Fi: its network, password and page (and their QR "
                       "codes' text); change them")
    p.add_argument("--name", help="a new network name (1 to 32 printable ASCII characters)")
    p.add_argument("--password", help="a new WPA2 password (8 to 63 printable ASCII); "
                   "with --join, the home network's (asked when not given)")
    p.add_argument("--new-key", action="store_true",
                   help="a new page key: the old page address stops working")
    p.add_argument("--join", metavar="SSID", help="the home network the board joins at its "
                   "next start (its own network stays the fallback)")
    p.add_argument("--forget", action="store_true", help="forget the home network")
    p = action("club", "a board with Wi-Fi: the club night it reports its games to")
    p.add_argument("url", nargs="?", metavar="URL|off",
                   help="the address `crib club serve` prints for the tables (off: none)")


def run(args: Namespace, env: Env):
    """Do the action; 0 on success (errors raise CribError)."""
    if wants_port_list(args):
        env.print(json.dumps(list_ports()) if args.json else list_ports_text())
        return 0
    action = args.action or "status"
    # The layout, drawing and picture modules are imported when the board is used, not
    # when the CLI imports every command module to build its parser.
    from crib.layout.source import load_layout
    from crib.picture.model import check_layout
    from crib.sim.store import default_store, store_layout

    layout = args.config
    if layout is None and args.board == "sim":
        # A store crib widened for four lanes keeps its own layout (crib.sim.store.write_layout).
        layout = store_layout(args.store or default_store(env.environ))
    config = load_layout(layout)
    with open_board(args, environ=env.environ) as link:
        check_layout(config, link.info.get("lanes"), link.info.get("holes"))
        return _ACTIONS[action](link, config, args, env)


def parse_lane(text, config, players: int = 4):
    """A lane index from 1-based text or a lane name; UsageError if there is no such lane."""
    names = [ln.name.lower() for ln in config.lanes]
    if text.isdigit() and 1 <= int(text) <= min(players, len(names)):
        return int(text) - 1
    if text.lower() in names[:players]:
        return names.index(text.lower())
    raise UsageError("no lane %r: give 1..%d or a name (%s)"
                     % (text, min(players, len(names)), ", ".join(names[:players])))


def parse_settings(pairs, config, players):
    """{key: int} from KEY=V texts; dealer takes a lane (or none). The board's protocol
    table decides which keys and values are allowed (when the command is encoded)."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError("expected KEY=V (%s), got %r" % (SET_HELP, pair))
        if key == "dealer":
            out[key] = -1 if value.lower() in ("none", "-") else parse_lane(value, config,
                                                                              players)
        else:
            try:
                out[key] = int(value)
            except ValueError:
                raise UsageError("%s must be a whole number, got %r" % (key, value)) from None
    return out


def _lane_text(config, state, lane) -> str:
    back, front = state.pegs[lane]
    return "%s %d (back %d)" % (config.lanes[lane].name, front, back)


def _print_state(link, config, args: Namespace, env: Env, headline=None) -> int:
    state = link.state()
    if args.json:
        env.print(json.dumps({"port": link.name, "board": link.info, "state": state.to_dict()}))
        return 0
    if headline:
        env.print(headline)
        if state.winner >= 0:
            env.print("%s wins" % config.lanes[state.winner].name)
        return 0
    from crib.picture.model import board_picture
    from crib.sim.screen import draw

    pic = board_picture(config, link.leds(), state.settings.get("brightness"))
    tty = env.colour()
    env.print("%s  fw %s  protocol %s  rev %d" % (link.name, link.info.get("fw"),
                                             link.info.get("proto"), state.rev))
    for line in draw(pic, state, colour=tty, footer=False):
        env.print(line)
    env.print("settings: " + "  ".join("%s=%s" % kv for kv in sorted(state.settings.items())))
    return 0


def _status(link, config, args: Namespace, env: Env):
    return _print_state(link, config, args, env)


def _peg(link, config, args: Namespace, env: Env):
    lane = parse_lane(args.lane, config, link.known.players)
    state = link.peg(lane, args.points)
    return _print_state(link, config, args, env, "%s +%d: %s" % (
        config.lanes[lane].name, args.points, _lane_text(config, state, lane)))


def _undo(link, config, args: Namespace, env: Env):
    before = link.known
    state = link.undo()
    moved = [i for i in range(state.players) if state.pegs[i] != before.pegs[i]]
    text = ", ".join(_lane_text(config, state, i) for i in moved) or "nothing moved"
    return _print_state(link, config, args, env, "undone: " + text)


def _new(link, config, args: Namespace, env: Env):
    state = link.new(args.target, args.players, args.match)
    return _print_state(link, config, args, env, "new game to %d, %d players" % (state.target,
                                                                          state.players))


def _set(link, config, args: Namespace, env: Env):
    settings = parse_settings(args.pairs, config, link.known.players)
    link.set(**settings)
    return _print_state(link, config, args, env, "set " + " ".join(args.pairs))


def _watch(link, config, args: Namespace, env: Env) -> int:
    seen = 0
    tty = env.colour()
    if not args.json:
        env.print("watching %s (Ctrl-C stops)" % link.name, flush=True)
    try:
        for ev in link.events(timeout=args.seconds):
            env.print(event_json(ev) if args.json else event_text(ev, config, tty), flush=True)
            seen += 1
            if args.count is not None and seen >= args.count:
                break
    except KeyboardInterrupt:
        pass
    return 0


def event_json(ev):
    """One event as a JSON line."""
    d = {"event": ev.name, "from_board": ev.from_board}
    for k, v in ev.args.items():
        if k == "differences":
            v = [x.to_dict() for x in v]
        elif k == "state":
            v = v.to_dict()
        elif isinstance(v, tuple):
            v = list(v)
        d[k] = v
    return json.dumps(d)


def event_text(ev, config, colour: bool = False):
    """One event as a line for people."""
    a = ev.args
    names = [ln.name for ln in config.lanes]

    def lane(i):
        return names[i] if 0 <= i < len(names) else "lane %d" % (i + 1)

    if ev.name == "peg":
        pair = a.get("p%d" % a["p"], (0, 0))
        return "peg   %s +%d (%s): %d (back %d)  rev %d" % (lane(a["p"]), a["n"], a.get("src"),
                                                            pair[1], pair[0], a.get("rev", 0))
    if ev.name == "undo":
        pair = a.get("p%d" % a["p"], (0, 0))
        return "undo  %s back to %d  rev %d" % (lane(a["p"]), pair[1], a.get("rev", 0))
    if ev.name == "win":
        return "win   %s  skunks %s" % (lane(a["p"]), ",".join(map(str, a.get("skunk", ()))))
    if ev.name == "new":
        return "new   game to %d, %d players" % (a.get("target", 0), a.get("players", 0))
    if ev.name == "drift":
        return "drift the board differs from what was expected: " + "; ".join(
            str(d) for d in a["differences"])
    if ev.name in ("lost", "back"):
        return "%-5s %s" % (ev.name, a.get("port"))
    return "%-5s %s" % (ev.name, " ".join("%s=%s" % kv for kv in a.items()))


def _snapshot(link, config, args: Namespace, env: Env) -> int:
    from crib.picture.snapshot import save, take

    pic = take(link, config)
    state = link.known
    caption = " \u00b7 ".join(_lane_text(config, state, i) for i in range(state.players))
    size = save(pic, args.file, caption)
    if args.json:
        env.print(json.dumps({"file": args.file, "bytes": size}))
    else:
        env.print("wrote %s (%d bytes)" % (args.file, size))
    return 0


def _wifi(link, config, args: Namespace, env: Env) -> int:
    from crib.board.wifi import NoWifi, details, home
    from crib.hardware.card import Details

    if args.join is not None or args.forget:
        if args.join is not None and args.forget:
            raise UsageError("--join and --forget: one or the other")
        if args.name is not None or args.new_key:
            raise UsageError("--join and --forget change the home network only: set --name "
                             "or --new-key in a command of their own")
        password = args.password
        if args.join is not None and password is None:
            password = _ask_password(env, args.join)
        joined = home(link, args.join, password, args.forget)
        if args.json:
            env.print(json.dumps(dict(joined, changed=True)))
            return 0
        _print_home(env, joined)
        env.print(_home_changed(joined, args.forget))
        return 0
    changed = args.name is not None or args.password is not None or args.new_key
    got_details = details(link, args.name, args.password, args.new_key)
    now = got_details.pop("address")  # where the page is now (the home network's address)
    d = Details(**got_details)  # the own network's address: the card's, the fallback
    got: dict | None
    try:
        got = home(link)
    except NoWifi:  # firmware before the home network: its own network only
        got = None
    if args.json:
        env.print(json.dumps(dict(d.to_dict(), address=now, changed=changed, home=got)))
        return 0
    env.print("network   %s\npassword  %s\npage      %s" % (d.ssid, d.password, d.page_url()))
    if now and d.name:  # by name and by the address the board has now
        env.print("address   http://%s/?k=%s" % (now, d.key))
    env.print("join QR   %s\npage QR   %s" % (d.join_payload(), d.page_url()))
    if got is not None:
        _print_home(env, got)
    if changed:
        env.print("changed: the board uses them from its next start (unplug it and plug it "
                  "in again); print a new card: crib hardware card --out DIR")
    return 0


def _home_changed(joined: dict, forget: bool) -> str:
    """What a change of the home network does next (as pegboard.homenet's `when`: on its
    own network the board tries a new home network at once; joined to one, it stays there
    until its next start, or the phones on the page would lose it)."""
    if forget:
        return ("changed: the home network is forgotten; the board keeps to its own network"
                + ("" if joined.get("net") in ("own", "none") else
                   " from its next start (unplug it and plug it in again)"))
    if joined.get("net") == "own":
        return ("changed: the board is trying it now (its own network stays up meanwhile,"
                " and comes back if the home network does not answer)")
    return ("changed: the board joins it from its next start (unplug it and plug it in"
            " again); its own network opens when the home network does not answer")


def _ask_password(env: Env, ssid: str) -> str:
    """The home network's password, asked at the terminal (not echoed)."""
    if not env.interactive():
        raise UsageError("give the password of %r with --password (no terminal to ask it at)"
                        % ssid)
    import getpass

    return getpass.getpass("password of %s: " % ssid)


def _print_home(env: Env, got: dict) -> None:
    where = {"home": "on the home network", "own": "on its own network",
             "joining": "joining the home network", "none": "no Wi-Fi"}.get(got["net"],
                                                                           got["net"])
    env.print("name      %s.local" % got["name"])
    env.print("home      %s" % ("%s (password set)" % got["ssid"] if got["set"] else
                                "none set (crib board wifi --join SSID)"))
    env.print("now       %s%s" % (where, ", at %s" % got["address"] if got["address"] else ""))


def _club(link, config, args: Namespace, env: Env) -> int:
    from crib.board.clubverb import club

    got = club(link, args.url)
    if args.json:
        env.print(json.dumps(got))
        return 0
    env.print("club      %s\nwaiting   %d report%s" % (got["url"], got["waiting"],
                                                    "" if got["waiting"] == 1 else "s"))
    return 0


_ACTIONS = {"status": _status, "peg": _peg, "undo": _undo, "new": _new, "set": _set,
            "watch": _watch, "snapshot": _snapshot, "wifi": _wifi, "club": _club}
