"""Print a shell completion script for crib (bash, zsh or tcsh), made by shtab from crib's
own options, so it always matches this version. To install it:

  bash:  crib completion bash > ~/.local/share/bash-completion/completions/crib
  zsh:   crib completion zsh > ~/.zfunc/_crib   (with fpath+=~/.zfunc before compinit)
  tcsh:  crib completion tcsh > ~/.crib.tcsh   (and source it from ~/.tcshrc)

or for the shell you are in only: eval "$(crib completion bash)".
"""

import argparse

HELP = "print a shell completion script (bash, zsh, tcsh)"
SHELLS = ("bash", "zsh", "tcsh")


def add_arguments(parser):
    """SHELL."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # keep the lines above
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")


def run(args, env):
    """Write the script for args.shell to stdout."""
    import shtab  # imported here: building the parser stays quick

    env.stdout.write(shtab.complete(args.root_parser, shell=args.shell))
    return 0
