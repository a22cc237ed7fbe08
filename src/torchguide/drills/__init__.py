"""Drills: small "implement it" tasks tied to a question, each with a checker that explains what is
wrong. ``python -m torchguide.drills list`` lists them; ``check NAME FILE`` checks a reader's file.
"""

from __future__ import annotations

from torchguide.drills.framework import Drill


def all_drills() -> dict[str, Drill]:
    """Every drill by id, in the order of the curriculum."""
    from torchguide.drills import data_loading, week_1, week_2

    drills = [*week_1.DRILLS, *week_2.DRILLS, *data_loading.DRILLS]
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


def check_here(name: str, function) -> None:
    """Checks ``function`` against drill ``name`` and prints the result; raises if it fails.

    A solution snippet ends with this line, so the page shows the checker's real output.
    """
    import inspect

    from torchguide.drills.framework import check

    try:
        source = inspect.getsourcefile(function)
    except TypeError:
        source = None
    report = check(get(name), function, source)
    print(report.text())
    assert report.ok, report.summary()
