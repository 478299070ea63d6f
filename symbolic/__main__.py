"""``python -m symbolic`` and the ``symbolic`` command: the command line.

:func:`main` imports the command line itself, so that a Ctrl-C during the imports (a
second or more on a busy machine) ends with the status and message of any other
interruption (130, "symbolic: interrupted"), not a traceback.
"""
import os
import sys


def main() -> None:
    try:
        from .cli import console
    except KeyboardInterrupt:
        print("symbolic: interrupted", file=sys.stderr)
        sys.stderr.flush()
        os._exit(130)
    console()


if __name__ == "__main__":
    main()
