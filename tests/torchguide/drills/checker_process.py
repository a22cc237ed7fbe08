"""The drills' checker for the tests, in a process of its own that has never imported pytest: a
drill's stub and solution are snippets, and pytest's process (and a runner forked from it) never
runs a snippet's code (see docexec's pytest plugin). Each check forks its runner from here, confined
as ``python -m torchguide.drills check`` confines it; torch is imported once for all of them.

Reads one request a line on stdin, ``{"drill": ID, "path": FILE, "limits": {...}}``, and answers
each with the report as one JSON line on stdout. What the checked functions print goes to stderr.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys

from torchguide.drills import framework, get


def main() -> None:
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # the runners' output, shown by the checker, goes to stderr; stdout is the answers'
    for line in sys.stdin:
        request = json.loads(line)
        report = framework.check_file(get(request["drill"]), request["path"], **request["limits"])
        answers.write(json.dumps(dataclasses.asdict(report)) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
