"""Tests for torchguide.timing."""

import time

import pytest
import torch

from torchguide.timing import measure, speedup


def test_measure_returns_median_seconds_per_call() -> None:
    seconds = measure(lambda: time.sleep(0.002), min_run_time=0.05)
    assert 0.002 <= seconds < 0.05


def test_measure_ranks_slow_above_fast() -> None:
    def slow() -> None:
        time.sleep(0.003)

    def fast() -> None:
        pass

    ratio = speedup(measure(slow, min_run_time=0.05), measure(fast))
    assert ratio > 10


def test_measure_calls_the_function() -> None:
    calls = []
    measure(lambda: calls.append(1), min_run_time=0.01)
    assert len(calls) > 1


def test_measure_synchronizes_when_an_accelerator_exists(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    syncs = []
    monkeypatch.setattr(torch.accelerator, "is_available", lambda: True)
    monkeypatch.setattr(
        torch.accelerator, "synchronize", lambda *a: syncs.append(1)
    )
    measure(lambda: None, min_run_time=0.01)
    assert len(syncs) >= 2  # one clock reading before and after each block


def test_measure_restores_thread_count() -> None:
    before = torch.get_num_threads()
    measure(lambda: None, min_run_time=0.01, num_threads=1)
    assert torch.get_num_threads() == before


@pytest.mark.parametrize("kwargs", [{"min_run_time": 0}, {"num_threads": 0}])
def test_measure_rejects_bad_arguments(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        measure(lambda: None, **kwargs)


def test_speedup_is_baseline_over_candidate() -> None:
    assert speedup(3.0, 1.5) == 2.0
    assert speedup(1.0, 4.0) == 0.25


@pytest.mark.parametrize("times", [(0.0, 1.0), (1.0, -1.0)])
def test_speedup_rejects_non_positive_times(times: tuple) -> None:
    with pytest.raises(ValueError):
        speedup(*times)
