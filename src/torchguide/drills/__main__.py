"""`python -m torchguide.drills`: see torchguide.drills.cli."""

import sys

from torchguide.drills.cli import main

if __name__ == "__main__":  # importing the module (pytest collects docstrings) runs nothing
    sys.exit(main())
