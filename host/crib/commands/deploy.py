"""Compile the firmware with mpy-cross and put it on the Pico with mpremote: every file
checked by sha256 on the device, then a soft reset and a `hello` handshake. The saved game
(the state file) is never touched. `--config FILE` pushes a new layout only."""

HELP = "put the firmware (or a new layout) on the Pico, keeping the game in progress"


def add_arguments(parser):
    """--port, --dry-run, --config, --image, --drive."""
    parser.add_argument("--port", default="auto",
                        help="serial port or pyserial URL (default: the one attached Pico)")
    parser.add_argument("--dry-run", action="store_true",
                        help="list what the deploy would do; touch nothing")
    parser.add_argument("--config", metavar="FILE",
                        help="push this layout (checked first) instead of the firmware")
    parser.add_argument("--image", action="store_true",
                        help="install our MicroPython image first (the code frozen in "
                             "flash) through the board's BOOTSEL drive, then the firmware")
    parser.add_argument("--drive", metavar="PATH",
                        help="where the board's BOOTSEL drive (RPI-RP2 or RP2350) is "
                             "mounted (default: looked for)")


def run(args, env):
    """Deploy as the arguments say; return the exit code."""
    from crib.deploy import device as deploy  # mpremote and the build: only when deploying

    return deploy.deploy(args.port, args.config, args.dry_run, out=env.print,
                         image=args.image, drive=args.drive)
