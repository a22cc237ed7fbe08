"""``python -m docexec.sandbox``: exits 1, naming them, unless every restriction is in force here."""

import sys

from docexec.sandbox.restrictions import ALL, unenforced

if unenforced():
    sys.exit(f"not in force on this machine: {'; '.join(unenforced())}")
print(f"in force: {'; '.join(ALL)}")
