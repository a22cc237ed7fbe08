"""``check_here``, as a page's solution snippet and a notebook's check cell call it: it prints the
report of a function that passes, and raises one that IPython shows without the checker's frames."""

from __future__ import annotations

import pytest

from torchguide.drills import DrillFailed, check_here, get


def test_a_passing_function_prints_the_checkers_report(capsys):
    check_here("shard_iterable_dataset", get("shard_iterable_dataset").reference)
    assert capsys.readouterr().out.startswith("shard_iterable_dataset: ")


def test_an_unwritten_function_raises_the_report_that_a_notebook_shows_as_its_only_lines():
    def worker_items(n_items, worker_info):
        raise NotImplementedError

    with pytest.raises(DrillFailed) as raised:
        check_here("shard_iterable_dataset", worker_items)
    assert isinstance(raised.value, AssertionError)  # a failed check, as a snippet's assert fails
    assert raised.value._render_traceback_() == [
        "FAIL worker_items is not written yet (it raises NotImplementedError)",
        "shard_iterable_dataset: 1 of 1 named cases failed",
    ]


def test_something_that_is_not_a_function_is_told_what_to_write():
    wanted = r"worker_items is a NoneType, not a function: write def worker_items\("
    with pytest.raises(DrillFailed, match=wanted):
        check_here("shard_iterable_dataset", None)
