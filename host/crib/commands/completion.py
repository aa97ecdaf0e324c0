"""Print a shell completion script for crib (bash, zsh or tcsh), made by shtab from crib's
own options, so it always matches this version.

bash:  crib completion bash > ~/.local/share/bash-completion/completions/crib
zsh:   crib completion zsh > ~/.zfunc/_crib   (with `fpath+=~/.zfunc` before compinit)
Or for the current shell only: eval "$(crib completion bash)".
"""

HELP = "print a shell completion script (bash, zsh, tcsh)"
SHELLS = ("bash", "zsh", "tcsh")


def add_arguments(parser):
    """SHELL."""
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")


def run(args, env):
    """Write the script for args.shell to stdout."""
    import shtab  # imported here: building the parser stays quick

    env.stdout.write(shtab.complete(args.root_parser, shell=args.shell))
    return 0
