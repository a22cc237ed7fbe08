"""The drills of generation and of a language model's loss keep the drill contract; their references
are what torch computes, and a correct solution written another way passes."""

import textwrap

import torch
import torch.nn.functional as F
from drill_contract import (  # noqa: F401 (collected here, parametrized by DRILLS)
    test_a_wrong_solution_fails_with_its_message,
    test_each_drill_has_two_wrong_solutions,
    test_the_reference_solution_on_the_page_passes,
    test_the_stub_fails_as_not_written_yet,
)
from drill_files import check_file

from torchguide.drills import generation, get

DRILLS = generation.DRILLS


def _checked(tmp_path, drill_id, source):
    answer = tmp_path / f"{drill_id}.py"
    answer.write_text(textwrap.dedent(source))
    return check_file(drill_id, answer)


def test_every_drill_draws_its_named_cases_under_at_least_three_seeds():
    for drill in DRILLS:
        seeds = {case.where.split("seed ")[1].split(",")[0].rstrip(")") for case in drill.named_cases()}
        assert len(seeds) >= 3, drill.id


def test_decoding_with_the_reference_step_is_full_causal_attention():
    q, k, v = (torch.randn(2, 3, 6, 4, dtype=torch.float64) for _ in range(3))
    decoded = generation._token_by_token(generation._decode_step)(q, k, v, 2)
    full = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    torch.testing.assert_close(torch.cat(decoded["outputs"], dim=-2), full[..., 2:, :])
    torch.testing.assert_close(decoded["cache_k"], k)


def test_the_sampling_reference_keeps_the_nucleus_and_samples_only_from_it():
    logits = torch.tensor([[3.0, 2.0, 1.0, 0.0, -1.0]])
    probabilities = generation._sampling_distribution(logits, 1.0, 0, 0.9)
    assert (probabilities[0] > 0).tolist() == [True, True, True, False, False]
    torch.testing.assert_close(probabilities.sum(-1), torch.ones(1))
    draws = torch.multinomial(probabilities, 200, replacement=True)
    assert set(draws.flatten().tolist()) <= {0, 1, 2}
    # top_k over the vocabulary and top_p of 1 leave the tempered softmax.
    torch.testing.assert_close(
        generation._sampling_distribution(logits, 0.5, 9, 1.0), (logits / 0.5).softmax(-1)
    )


def test_a_cumulative_sum_kept_below_top_p_shifted_by_one_passes(tmp_path):
    """Hugging Face's own form: sort ascending and drop the tail whose mass is at most 1 - top_p."""
    report = _checked(
        tmp_path,
        "top_k_top_p_sampling",
        """
        import torch

        def sampling_distribution(logits, temperature, top_k, top_p):
            scores = logits / temperature
            if top_k > 0:
                top_k = min(top_k, scores.size(-1))
                removed = scores < torch.topk(scores, top_k)[0][..., -1, None]
                scores = scores.masked_fill(removed, -float("inf"))
            if top_p < 1.0:
                sorted_logits, sorted_indices = torch.sort(scores, descending=False)
                cumulative = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
                sorted_removed = cumulative <= (1 - top_p)
                sorted_removed[..., -1:] = 0
                removed = sorted_removed.scatter(1, sorted_indices, sorted_removed)
                scores = scores.masked_fill(removed, -float("inf"))
            return scores.softmax(dim=-1)
        """,
    )
    assert report.ok, report.text()


def test_cross_entropy_through_probability_targets_passes(tmp_path):
    report = _checked(
        tmp_path,
        "cross_entropy_with_smoothing",
        """
        import torch

        def cross_entropy(logits, targets, weight, ignore_index, label_smoothing):
            n, c = logits.shape
            keep = targets != ignore_index
            target = torch.zeros(n, c, dtype=logits.dtype)
            target[keep, targets[keep]] = 1.0
            target = target * (1 - label_smoothing) + label_smoothing / c
            w = torch.ones(c, dtype=logits.dtype) if weight is None else weight
            per_row = -(target * w * logits.log_softmax(-1)).sum(-1)
            denominator = (w[targets.clamp(0, c - 1)] * keep).sum()
            return (per_row * keep).sum() / denominator
        """,
    )
    assert report.ok, report.text()


def test_every_shortcut_through_torchs_own_loss_is_seen():
    from torchguide.drills._containment import _watching

    logits, targets = torch.randn(3, 4), torch.tensor([0, 3, 1])
    for number, call in enumerate(
        [
            lambda: torch.nn.CrossEntropyLoss(label_smoothing=0.1)(logits, targets),
            lambda: F.nll_loss(logits.log_softmax(-1), targets),
        ]
    ):
        used: list[str] = []
        with torch.no_grad(), _watching(get("cross_entropy_with_smoothing").forbidden, used):
            call()
        assert used, f"shortcut {number} went unseen"
