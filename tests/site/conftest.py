"""`make quick` leaves out the tests that build the whole site (`-m "not site_build"`): each test
that uses the built site, and those marked so because they build one themselves."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "site_build: builds the whole site (minutes); `make quick` skips it")


@pytest.hookimpl(tryfirst=True)  # before pytest's -m deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "built_site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.site_build)
