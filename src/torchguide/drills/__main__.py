"""`python -m torchguide.drills`: see torchguide.drills.cli."""

import sys

from torchguide.drills.cli import main

sys.exit(main())
