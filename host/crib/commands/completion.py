"""Print a shell completion script for crib (bash, zsh or tcsh), made by shtab from crib's
own options, so it always matches this version. To install it:

%s

or for the shell you are in only: eval "$(crib completion bash)".
"""

import argparse
from argparse import ArgumentParser, Namespace

from crib.env import Env

HELP = "print a shell completion script (bash, zsh, tcsh)"
SHELLS = ("bash", "zsh", "tcsh")
# Where each shell finds the script: said by --help and at the top of the script itself.
INSTALL = {
    "bash": "crib completion bash > ~/.local/share/bash-completion/completions/crib",
    "zsh": "crib completion zsh > ~/.zfunc/_crib   (with fpath+=~/.zfunc before compinit)",
    "tcsh": "crib completion tcsh > ~/.crib.tcsh   (and source it from ~/.tcshrc)",
}
if __doc__:  # (python -OO drops docstrings)
    __doc__ = __doc__ % "\n".join("  %-5s  %s" % (shell + ":", INSTALL[shell])
                                for shell in SHELLS)


def add_arguments(parser: ArgumentParser) -> None:
    """SHELL."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # keep the lines above
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")


def run(args: Namespace, env: Env) -> int:
    """Write the script for args.shell to stdout."""
    import shtab  # imported here: building the parser stays quick

    env.stdout.write(with_install(shtab.complete(args.root_parser, shell=args.shell),
                                  args.shell))
    return 0


def with_install(script: str, shell: str) -> str:
    """The script with shtab's usage comment (which names other folders than ours) replaced
    by INSTALL's line for shell."""
    lines = script.split("\n")
    if "# Usage:" in lines:
        start = end = lines.index("# Usage:")
        while end < len(lines) and lines[end].startswith("#") and lines[end].strip() != "#":
            end += 1
    else:  # after the first line: zsh's #compdef stays first
        start = end = 1
    return "\n".join(lines[:start] + ["# Install: " + INSTALL[shell]] + lines[end:])
