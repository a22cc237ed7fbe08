"""Tests for torchguide.timing."""

import json
import re
import time
from pathlib import Path

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


def test_kernel_names_lists_the_operators_a_cpu_call_runs() -> None:
    from torchguide.timing import kernel_names

    a = torch.ones(32, 32)
    names = kernel_names(lambda: (a @ a).relu(), device="cpu")
    assert {"aten::mm", "aten::relu"} <= set(names)
    assert names == sorted(set(names))


def test_kernel_names_refuses_an_unknown_device() -> None:
    from torchguide.timing import kernel_names

    with pytest.raises(ValueError, match="'cuda' or 'cpu'"):
        kernel_names(lambda: None, device="mps")


@pytest.mark.parametrize(
    ("capability", "generation", "tensor_core_kernel"),
    [
        ((7, 0), "Volta", "volta_h884gemm_128x128_ldg8_nn"),
        ((7, 5), "Turing", "turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_nn"),
        ((8, 6), "Ampere or Ada", "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_nn"),
        ((9, 0), "Hopper", "nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NNN"),
        ((9, 0), "Hopper", "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64"),
        ((12, 0), "Blackwell", "sm100_xmma_gemm_f16f16_f16f32"),
    ],
)
def test_tensor_core_kernels_match_each_generation(capability, generation, tensor_core_kernel) -> None:
    import re

    from torchguide.timing import tensor_core_kernels

    named, pattern = tensor_core_kernels(capability)
    assert named == generation
    assert re.search(pattern, tensor_core_kernel)
    assert not re.search(pattern, "volta_sgemm_128x64_nn")  # a float32 SIMT kernel


def test_tensor_core_kernels_refuse_a_gpu_without_them() -> None:
    from torchguide.timing import tensor_core_kernels

    with pytest.raises(ValueError, match="start with Volta"):
        tensor_core_kernels((6, 1))


RECORDINGS = Path(__file__).resolve().parents[2] / "recordings"


def _recorded_kernels() -> list[tuple[str, str]]:
    """(dtype, kernel name) for each matmul kernel the H200 recordings name: the kernel-names table
    ("float16, n=4096: ..." then "    kernel ... NAME") and the dtypes answer ("float16 kernel: NAME")."""
    found = []
    for snippet in ("week-2/day-9/timing-flops-and-tensor-cores/tensor_core_kernel_names",
                    "week-1/day-1/creating-and-dtypes/fp16_matmul_speedup"):
        recording = json.loads((RECORDINGS / f"{snippet}.json").read_text(encoding="utf-8"))
        text = "".join(chunk for cell in recording["result"]["cells"] for _, chunk in cell["streams"])
        assert "H200" in text, f"{snippet}: recorded on another GPU; the capability below is Hopper's"
        dtype = None
        for line in text.splitlines():
            if heading := re.match(r"(float32 \+ TF32|float32|float16|bfloat16), n=\d+:", line):
                dtype = heading[1]
            elif kernel := re.match(r"\s+kernel (?:matches|\s{7}) (.+)", line):
                found.append((dtype, kernel[1]))
            elif kernel := re.match(r"(float32|float16) kernel: (\S+)", line):
                found.append((kernel[1], kernel[2]))
    return found


def test_tensor_core_kernels_match_the_recorded_16_bit_and_tf32_kernels_and_no_ffma_one() -> None:
    from torchguide.timing import tensor_core_kernels

    _, pattern = tensor_core_kernels((9, 0))
    recorded = _recorded_kernels()
    assert {dtype for dtype, _ in recorded} == {"float32", "float16", "bfloat16", "float32 + TF32"}
    for dtype, name in recorded:
        # plain float32 runs on the CUDA cores (its name says ffma, though it starts with sm80_)
        assert bool(re.search(pattern, name)) == (dtype != "float32"), f"{dtype}: {name}"
    assert any("sm80_" in name and "ffma" in name for _, name in recorded)
