"""The drills of a transformer's blocks keep the drill contract; a correct solution written another
way than the page's passes, so the tolerances and checks ask for what the task says."""

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

from torchguide.drills import get, transformer_blocks

DRILLS = transformer_blocks.DRILLS


def _checked(tmp_path, drill_id, source):
    answer = tmp_path / f"{drill_id}.py"
    answer.write_text(textwrap.dedent(source))
    return check_file(drill_id, answer)


def test_every_case_is_drawn_under_at_least_three_seeds():
    for drill in DRILLS:
        seeds = {
            case.where.split("seed ")[1].split(",")[0].rstrip(")")
            for case in drill.named_cases()
            if "seed " in case.where
        }
        if drill.id != "padding_causal_mask":  # draws nothing: its cases are lengths
            assert len(seeds) >= 3, drill.id


def test_a_float32_rotary_embedding_as_models_compute_it_passes(tmp_path):
    """Frequencies and angles in float32, as Hugging Face's Llama computes them: within the stated
    tolerance at the positions the checker draws."""
    report = _checked(
        tmp_path,
        "rotary_embedding",
        """
        import torch

        def rotary_embedding(x, positions, base):
            dim = x.shape[-1]
            inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
            freqs = positions[:, None].float() * inv_freq
            emb = torch.cat([freqs, freqs], dim=-1)
            cos, sin = emb.cos().to(x.dtype), emb.sin().to(x.dtype)
            half = dim // 2
            rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
            return x * cos + rotated * sin
        """,
    )
    assert report.ok, report.text()


def test_attention_through_einsum_and_a_where_mask_passes(tmp_path):
    report = _checked(
        tmp_path,
        "grouped_query_attention",
        """
        import torch

        def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal):
            b, n, _ = x.shape
            group = num_heads // num_kv_heads
            q = torch.einsum("bld,fd->blf", x, w_q).unflatten(-1, (num_kv_heads, group, -1))
            k = torch.einsum("bld,fd->blf", x, w_k).unflatten(-1, (num_kv_heads, -1))
            v = torch.einsum("bld,fd->blf", x, w_v).unflatten(-1, (num_kv_heads, -1))
            scores = torch.einsum("blkge,bske->bkgls", q, k) * q.shape[-1] ** -0.5
            if causal:
                keep = torch.arange(n)[None, :] <= torch.arange(n)[:, None]
                scores = torch.where(keep, scores, float("-inf"))
            out = torch.einsum("bkgls,bske->blkge", scores.softmax(-1), v)
            return out.reshape(b, n, -1) @ w_o.T
        """,
    )
    assert report.ok, report.text()


def test_the_references_agree_with_torchs_modules():
    """The rotary reference has the property the checker holds the reader to, and the SwiGLU and
    attention references are what the modules compute."""
    x = torch.randn(2, 3, 5, 8, dtype=torch.float64)
    positions = torch.arange(5)
    rotated = transformer_blocks._rotary_embedding(x, positions, 10000.0)
    shifted = transformer_blocks._rotary_embedding(x, positions + 11, 10000.0)
    torch.testing.assert_close(rotated @ rotated.mT, shifted @ shifted.mT)
    torch.testing.assert_close(rotated.norm(dim=-1), x.norm(dim=-1))  # a rotation

    mha = torch.nn.MultiheadAttention(8, 2, bias=False, batch_first=True)
    tokens = torch.randn(2, 4, 8)
    w_q, w_k, w_v = mha.in_proj_weight.chunk(3)
    expected, _ = mha(tokens, tokens, tokens, need_weights=False)
    got = transformer_blocks._grouped_query_attention(tokens, w_q, w_k, w_v, mha.out_proj.weight, 2, 2, False)
    torch.testing.assert_close(got, expected)

    norm = torch.nn.RMSNorm(8, eps=1e-6)
    torch.testing.assert_close(transformer_blocks._rms_norm(tokens, norm.weight, 1e-6), norm(tokens))


def test_the_combined_mask_gives_each_sequence_its_own_attention():
    lengths = torch.tensor([3, 1, 4])
    mask = transformer_blocks._padding_causal_mask(lengths, 4, False)
    q, k, v = (torch.randn(3, 2, 4, 5) for _ in range(3))
    padded = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    for b, n in enumerate(lengths.tolist()):
        alone = F.scaled_dot_product_attention(q[b, :, :n], k[b, :, :n], v[b, :, :n], is_causal=True)
        torch.testing.assert_close(padded[b, :, :n], alone)


def test_every_shortcut_through_torchs_own_function_is_seen():
    from torchguide.drills._containment import _watching

    x = torch.randn(2, 3, 4)
    attention = torch.nn.MultiheadAttention(4, 2, batch_first=True)
    shortcuts = {
        "grouped_query_attention": [
            lambda: attention(x, x, x, need_weights=False),
            lambda: torch.nn.functional.scaled_dot_product_attention(x, x, x),
        ],
        "rms_norm_by_hand": [lambda: torch.nn.RMSNorm(4)(x), lambda: F.layer_norm(x, (4,))],
    }
    for drill_id, calls in shortcuts.items():
        for number, call in enumerate(calls):
            used: list[str] = []
            with torch.no_grad(), _watching(get(drill_id).forbidden, used):
                call()
            assert used, f"{drill_id}: shortcut {number} went unseen"
