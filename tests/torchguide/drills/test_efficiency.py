"""The drills of efficient fine-tuning and inference keep the drill contract; a correct solution
written another way passes, and the flash-attention drill's watch on tensor sizes fails the whole
score matrix however it is made."""

import textwrap

import torch
from drill_contract import (  # noqa: F401 (collected here, parametrized by DRILLS)
    test_a_wrong_solution_fails_with_its_message,
    test_each_drill_has_two_wrong_solutions,
    test_the_reference_solution_on_the_page_passes,
    test_the_stub_fails_as_not_written_yet,
)
from drill_files import check_file

from torchguide.drills import efficiency, get

DRILLS = efficiency.DRILLS


def _checked(tmp_path, drill_id, source):
    answer = tmp_path / f"{drill_id}.py"
    answer.write_text(textwrap.dedent(source))
    return check_file(drill_id, answer)


def test_every_drill_draws_its_named_cases_under_at_least_three_seeds():
    for drill in DRILLS:
        seeds = {case.where.split("seed ")[1].split(",")[0].rstrip(")") for case in drill.named_cases()}
        assert len(seeds) >= 3, drill.id


def test_the_stated_tolerances_are_printed_with_the_verdict():
    for drill in DRILLS:
        assert "tol" in drill.tolerance or "exact" in drill.tolerance, drill.id


def test_a_lora_layer_through_a_merged_copy_of_the_weight_passes(tmp_path):
    """Merging into a new tensor leaves the frozen weight as it was: that is allowed."""
    report = _checked(
        tmp_path,
        "lora_linear",
        """
        def lora_linear(x, weight, bias, lora_a, lora_b, alpha):
            merged = weight + (alpha / lora_a.shape[0]) * (lora_b @ lora_a)
            y = x @ merged.T
            return y if bias is None else y + bias
        """,
    )
    assert report.ok, report.text()


def test_quantizing_by_multiplying_with_the_inverse_step_passes(tmp_path):
    report = _checked(
        tmp_path,
        "int8_per_channel",
        """
        import torch

        def quantize(w, axis):
            moved = w.movedim(axis, 0)
            amax = moved.reshape(moved.shape[0], -1).abs().amax(dim=1)
            scale = torch.where(amax > 0, amax / 127, torch.ones_like(amax))
            shape = [-1] + [1] * (w.dim() - 1)
            q = torch.round(moved / scale.view(shape)).clamp(-127, 127)
            return q.to(torch.int8).movedim(0, axis), scale
        """,
    )
    assert report.ok, report.text()


def test_the_largest_tensor_watch_passes_the_fused_kernel_and_fails_the_math_path():
    """torch's fused kernel passes the watch the drill holds the reader to; its math path does not."""
    q, k, v = torch.randn(3, 1, 2, 64, 4).unbind(0)
    mode = efficiency._LargestTensor()
    with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.FLASH_ATTENTION), mode:
        torch.nn.functional.scaled_dot_product_attention(q, k, v)
    assert mode.largest <= efficiency._flash_budget(q, k, v, block=1) < 2 * 64 * 64
    mode = efficiency._LargestTensor()
    with mode:
        (q @ k.transpose(-2, -1)).softmax(-1) @ v
    assert mode.largest == 2 * 64 * 64


def test_every_drill_is_in_the_registry():
    assert all(get(drill.id) is drill for drill in DRILLS)
