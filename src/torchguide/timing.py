"""Synchronized micro-benchmarks built on ``torch.utils.benchmark``.

``measure`` times a zero-argument callable and returns the median seconds per
call; ``speedup`` turns two such medians into a ratio. Snippets print only
rounded ratios, never raw times, because absolute times depend on the machine.

Synchronization: CUDA kernels run asynchronously, so a naive
``time.perf_counter()`` around a GPU op measures only the launch.
``torch.utils.benchmark.Timer`` avoids this: its default clock,
``torch.utils.benchmark.utils.timer.timer``, calls
``torch.accelerator.synchronize()`` before every reading whenever an
accelerator is available (whether or not the timed tensors live on it). Each
timed block therefore ends only when the queued kernels have finished.
``measure`` keeps that default clock, so it needs no extra synchronization.
The Timer also warms up once and runs the statement in blocks so that the cost
of reading the clock is amortized.
"""

from __future__ import annotations

from collections.abc import Callable

from torch.utils.benchmark import Timer


def measure(
    fn: Callable[[], object],
    *,
    min_run_time: float = 0.2,
    num_threads: int = 1,
) -> float:
    """Median wall time of one call of ``fn()``, in seconds.

    Args:
        fn: A callable taking no arguments; its result is discarded.
        min_run_time: Minimum total seconds spent timing (more gives a steadier
            median). Passed to ``Timer.blocked_autorange``.
        num_threads: Size of the PyTorch CPU thread pool while timing. The
            default of 1 (the Timer's own default) makes CPU comparisons less
            noisy; it does not affect GPU kernels.

    Returns:
        The median of the measured per-call times, in seconds.

    Raises:
        ValueError: If ``min_run_time`` is not positive or ``num_threads`` is
            smaller than 1.

    Examples:
      ```python
      import torch
      from torchguide.timing import measure

      x = torch.ones(1000)
      seconds = measure(lambda: x + 1, min_run_time=0.01)
      assert 0 < seconds < 0.1
      ```
    """
    if min_run_time <= 0:
        raise ValueError(f"min_run_time must be positive, got {min_run_time}")
    if num_threads < 1:
        raise ValueError(f"num_threads must be >= 1, got {num_threads}")
    timer = Timer(stmt="fn()", globals={"fn": fn}, num_threads=num_threads)
    return timer.blocked_autorange(min_run_time=min_run_time).median


def speedup(baseline: float, candidate: float) -> float:
    """How many times faster ``candidate`` is than ``baseline``.

    Args:
        baseline: Seconds per call of the reference version.
        candidate: Seconds per call of the version being compared.

    Returns:
        ``baseline / candidate``: above 1 when the candidate is faster, below 1
        when it is slower.

    Raises:
        ValueError: If either time is not positive.

    Examples:
      ```python
      from torchguide.timing import speedup

      assert speedup(2.0, 0.5) == 4.0
      assert speedup(1.0, 2.0) == 0.5
      ```
    """
    if baseline <= 0 or candidate <= 0:
        raise ValueError(
            f"times must be positive, got {baseline} and {candidate}"
        )
    return baseline / candidate
