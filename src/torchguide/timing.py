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

import re
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


def kernel_names(fn: Callable[[], object], device: str = "cuda") -> list[str]:
    """The names of what one call of ``fn()`` runs on ``device``, as ``torch.profiler`` records it.

    On ``"cuda"`` these are the GPU kernels (which cuBLAS or cuDNN kernel a matmul or a
    convolution picked: the evidence of Tensor Cores or of a layout change), memory copies and
    sets left out; on ``"cpu"``, the operators. ``fn`` runs once before it is profiled:
    libraries pick their kernels on the first call, and the device is synchronized before and
    after.

    Args:
        fn: A callable taking no arguments; its result is discarded.
        device: ``"cuda"`` or ``"cpu"``.

    Returns:
        The distinct names, sorted.

    Raises:
        ValueError: If ``device`` is neither ``"cuda"`` nor ``"cpu"``.

    Examples:
      ```python
      import torch
      from torchguide.timing import kernel_names

      a = torch.ones(64, 64)
      assert "aten::mm" in kernel_names(lambda: a @ a, device="cpu")
      ```
    """
    import torch
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile

    kinds = {"cuda": (DeviceType.CUDA, ProfilerActivity.CUDA), "cpu": (DeviceType.CPU, None)}
    if device not in kinds:
        raise ValueError(f"device must be 'cuda' or 'cpu', got {device!r}")
    kind, gpu_activity = kinds[device]
    activities = [ProfilerActivity.CPU, *([gpu_activity] if gpu_activity else [])]
    synchronize = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    fn()  # warm-up: the kernel is chosen (and a cuBLAS workspace allocated) on the first call
    synchronize()
    with profile(activities=activities, acc_events=True) as prof:
        fn()
        synchronize()
    names = {event.name for event in prof.events() if event.device_type == kind}
    return sorted(name for name in names if not _MEMORY_ACTIVITY.match(name))


_MEMORY_ACTIVITY = re.compile(r"Mem(cpy|set) \(")  # "Memset (Device)", "Memcpy HtoD (...)": no kernels

# The names of Tensor Core GEMM kernels, by GPU generation (compute capability): the instruction
# shape (884 Volta, 1688 Turing, 16816 Ampere) or the architecture prefix. A newer GPU also runs
# older generations' Tensor Core kernels (cuBLAS picks sm80_ kernels on a Hopper for some shapes),
# so each pattern includes those of the generations before it. A prefix names the architecture a
# kernel was built for, not the unit it uses: cuBLAS's plain float32 kernels are named
# sm80_xmma_gemm_..._ffma_... too, and `ffma` (the CUDA cores' fused multiply-add) rules them out.
_NOT_FFMA = r"^(?!.*ffma)(?=.*(?:{}))"
_AMPERE = r"16816|1688|sm8\d_"
_TENSOR_CORE_KERNELS = {
    capability: (generation, _NOT_FFMA.format(names))
    for capability, (generation, names) in {
        (7, 0): ("Volta", r"884"),
        (7, 5): ("Turing", r"1688"),
        (7, None): ("Volta or Turing", r"884|1688"),  # 7.2: Jetson Xavier
        (8, None): ("Ampere or Ada", _AMPERE),
        (9, None): ("Hopper", r"sm90_|nvjet|" + _AMPERE),
        (10, None): ("Blackwell", r"sm1\d\d_|sm90_|nvjet|" + _AMPERE),
    }.items()
}


def tensor_core_kernels(capability: tuple[int, int]) -> tuple[str, str]:
    """The generation of a GPU of compute ``capability`` and a regular expression that matches the
    names of its Tensor Core GEMM kernels (see `kernel_names`).

    Args:
        capability: ``torch.cuda.get_device_capability()``, e.g. ``(9, 0)``.

    Returns:
        ``(generation, pattern)``, e.g. ``("Hopper", "^(?!.*ffma)(?=.*(?:sm90_|nvjet|...))")``: a
        name that says ``ffma`` (the CUDA cores' multiply-add) is no Tensor Core kernel, whatever
        its prefix.

    Raises:
        ValueError: For a GPU older than Volta (7.0), which has no Tensor Cores.

    Examples:
      ```python
      import re
      from torchguide.timing import tensor_core_kernels

      generation, pattern = tensor_core_kernels((8, 0))
      assert generation == "Ampere or Ada"
      assert re.search(pattern, "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_nn")
      assert not re.search(pattern, "volta_sgemm_128x64_nn")
      assert not re.search(pattern, "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_ffma_aligna4")
      ```
    """
    major, minor = capability
    if major < 7:
        raise ValueError(f"sm_{major}{minor}: Tensor Cores start with Volta (7.0)")
    return _TENSOR_CORE_KERNELS.get((major, minor)) or _TENSOR_CORE_KERNELS[min(major, 10), None]
