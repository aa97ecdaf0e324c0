"""One module per `crib` verb. Each defines HELP, add_arguments(parser) and run(args) -> int.

The CLI finds them by listing this package, so a new verb is a new file here.
"""
