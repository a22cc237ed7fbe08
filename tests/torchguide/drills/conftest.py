"""Runs the drill contract (drill_contract.py) over the drills a test module names in ``DRILLS``."""

from __future__ import annotations

from drill_files import wrong_solutions


def pytest_generate_tests(metafunc):
    drills = getattr(metafunc.module, "DRILLS", None)
    if drills is None:
        return
    ids = [drill.id for drill in drills]
    if "wrong_solution" in metafunc.fixturenames:
        pairs = [(drill_id, path) for drill_id in ids for path in wrong_solutions(drill_id)]
        metafunc.parametrize(("drill_id", "wrong_solution"), pairs, ids=[f"{d}/{p.stem}" for d, p in pairs])
    elif "drill_id" in metafunc.fixturenames:
        metafunc.parametrize("drill_id", ids)
