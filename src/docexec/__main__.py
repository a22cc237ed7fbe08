"""``python -m docexec``: the command line (`docexec.hosts.cli`), for an interpreter that runs the
engine from a source tree without installing it (a GPU machine's own torch, see the contributing guide)."""

import sys

from docexec.hosts.cli import main

sys.exit(main())
