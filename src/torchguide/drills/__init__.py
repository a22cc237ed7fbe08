"""Drills: small "implement it" tasks tied to a question, each with a checker that explains what is
wrong. ``python -m torchguide.drills list`` lists them; ``check NAME FILE`` checks a reader's file.
"""

from __future__ import annotations

from torchguide.drills.framework import Drill


def all_drills() -> dict[str, Drill]:
    """Every drill by id, in the order of the curriculum."""
    from torchguide.drills import data_loading, debugging, week_1

    drills = [*week_1.DRILLS, *data_loading.DRILLS, *debugging.DRILLS]
    found: dict[str, Drill] = {}
    for drill in drills:
        if drill.id in found:
            raise ValueError(f"two drills are named {drill.id}")
        found[drill.id] = drill
    return found


def get(name: str) -> Drill:
    """The drill with this id; a KeyError lists the ids there are."""
    drills = all_drills()
    if name not in drills:
        raise KeyError(f"no drill named {name!r}; there are: {', '.join(drills)}")
    return drills[name]


class DrillFailed(AssertionError):  # noqa: N818  read as "raise DrillFailed(...)"
    """A function failed its drill's checker; the message is the checker's report.

    In a notebook it is shown as that report alone: IPython prints what ``_render_traceback_``
    returns in place of a traceback, which would only show the checker's own lines.
    """

    def _render_traceback_(self) -> list[str]:
        return str(self).splitlines()


def check_here(name: str, function) -> None:
    """Checks ``function`` against drill ``name`` and prints the result; raises if it fails.

    A solution snippet ends with this line, so the page shows the checker's real output; a page
    notebook's check cell runs it on the function the reader wrote in the cell above.
    """
    import inspect

    from torchguide.drills.framework import check

    drill = get(name)
    if not callable(function):
        raise DrillFailed(
            f"FAIL {drill.function} is a {type(function).__name__}, not a function: "
            f"write def {drill.function}{inspect.signature(drill.reference)}: ..."
        )
    try:
        source = inspect.getsourcefile(function)
    except (TypeError, OSError):  # a class written in a notebook's cell has no source file
        source = None
    report = check(drill, function, source)
    if not report.ok:
        raise DrillFailed(report.text())
    print(report.text())
