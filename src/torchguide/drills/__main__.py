"""`python -m torchguide.drills`: see torchguide.drills.cli."""

import sys

INTERRUPTED = "interrupted (Ctrl-C): the check stopped before its verdict"

if __name__ == "__main__":  # importing the module (pytest collects docstrings) runs nothing
    try:
        from torchguide.drills.cli import main

        sys.exit(main())
    except KeyboardInterrupt:  # the runner was ended on the way out; no traceback of the checker's
        print(INTERRUPTED, file=sys.stderr)
        sys.exit(130)
