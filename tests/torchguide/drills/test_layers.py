"""The drills of a model's building blocks keep the drill contract; a correct solution written
another way than the page's passes, so the tolerances and checks ask for what the task says."""

import textwrap

import torch
from drill_contract import (  # noqa: F401 (collected here, parametrized by DRILLS)
    test_a_wrong_solution_fails_with_its_message,
    test_each_drill_has_two_wrong_solutions,
    test_the_reference_solution_on_the_page_passes,
    test_the_stub_fails_as_not_written_yet,
)
from drill_files import check_file

from torchguide.drills import layers

DRILLS = layers.DRILLS


def _checked(tmp_path, drill_id, source):
    answer = tmp_path / "answer.py"
    answer.write_text(textwrap.dedent(source))
    return check_file(drill_id, answer)


def test_cross_entropy_that_adds_the_maximum_back_passes(tmp_path):
    """m + log(sum exp(x - m)) - x_t is as stable as the page's shifted form; at a float32 logit of
    1000 it rounds by the logit's spacing, 6e-5, which the stated tolerance allows."""
    report = _checked(
        tmp_path,
        "stable_cross_entropy",
        """
        import torch

        def cross_entropy(logits, targets):
            m = logits.amax(dim=1)
            log_sum_exp = m + torch.log(torch.exp(logits - m[:, None]).sum(dim=1))
            return (log_sum_exp - logits[torch.arange(len(targets)), targets]).mean()
        """,
    )
    assert report.ok, report.text()


def test_swish_that_saves_the_sigmoid_and_skips_unneeded_gradients_passes(tmp_path):
    report = _checked(
        tmp_path,
        "swish_autograd_function",
        """
        import torch

        class Swish(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, beta):
                s = torch.sigmoid(beta * x)
                ctx.save_for_backward(x, beta, s)
                return x * s

            @staticmethod
            def backward(ctx, grad_output):
                x, beta, s = ctx.saved_tensors
                slope = s * (1 - s)
                grad_x = grad_output * (s + beta * x * slope) if ctx.needs_input_grad[0] else None
                grad_beta = (grad_output * x * x * slope).sum() if ctx.needs_input_grad[1] else None
                return grad_x, grad_beta

        def swish(x, beta):
            return Swish.apply(x, beta) * 1.0  # the Function inside a larger expression still counts
        """,
    )
    assert report.ok, report.text()


def test_attention_with_a_where_mask_and_layer_norm_from_var_mean_pass(tmp_path):
    attention = _checked(
        tmp_path,
        "causal_attention",
        """
        import torch

        def attention(q, k, v, causal):
            scores = q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5
            if causal:
                rows = torch.arange(q.shape[-2])[:, None]
                columns = torch.arange(k.shape[-2])[None, :]
                scores = torch.where(columns <= rows, scores, float("-inf"))
            weights = torch.exp(scores - scores.amax(-1, keepdim=True))
            return (weights / weights.sum(-1, keepdim=True)) @ v
        """,
    )
    assert attention.ok, attention.text()
    norm = _checked(
        tmp_path,
        "layer_norm_by_hand",
        """
        import torch

        def layer_norm(x, normalized_shape, weight, bias, eps):
            dims = [-(i + 1) for i in range(len(normalized_shape))]
            var, mean = torch.var_mean(x, dim=dims, correction=0, keepdim=True)
            y = (x - mean) * torch.rsqrt(var + eps)
            return torch.addcmul(bias if bias is not None else torch.zeros_like(y), y,
                                 weight if weight is not None else torch.ones_like(y))
        """,
    )
    assert norm.ok, norm.text()


def test_a_function_is_found_inside_the_expression_that_returns_its_output():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return 2 * x

        @staticmethod
        def backward(ctx, grad_output):
            return 2 * grad_output

    x = torch.ones(3, requires_grad=True)
    assert isinstance(layers._function_node(Double.apply(x) + 1), torch.autograd.function.BackwardCFunction)
    assert layers._function_node(2 * x + 1) is None
    assert layers._function_node(torch.ones(3)) is None


def test_every_shortcut_through_torchs_own_function_is_seen():
    """What each task forbids, reached by another name or module than the wrong solutions use."""
    import torch.nn.functional as F

    from torchguide.drills import get
    from torchguide.drills._containment import _watching

    x, targets = torch.randn(3, 4), torch.tensor([0, 3, 1])
    q = torch.randn(2, 3, 4)
    attention = torch.nn.MultiheadAttention(4, 1, batch_first=True)
    shortcuts = {
        "stable_cross_entropy": [
            lambda: F.softmin(-x, dim=1),
            lambda: torch.logcumsumexp(x, dim=1),
            lambda: torch.special.log_softmax(x, dim=1),
            lambda: torch.distributions.Categorical(logits=x).log_prob(targets),
            lambda: F.nll_loss(x, targets),
        ],
        "causal_attention": [
            lambda: attention(q, q, q, need_weights=False),
            lambda: attention.eval()(q, q, q, need_weights=False),
        ],
        "layer_norm_by_hand": [
            lambda: F.group_norm(x, 1),
            lambda: F.instance_norm(x[None]),
            lambda: F.batch_norm(x.t(), None, None, training=True),
            lambda: torch.nn.LayerNorm(4)(x),
        ],
    }
    for drill_id, calls in shortcuts.items():
        for number, call in enumerate(calls):
            used: list[str] = []
            with torch.no_grad(), _watching(get(drill_id).forbidden, used):
                call()
            assert used, f"{drill_id}: shortcut {number} went unseen"


def test_gradcheck_in_float64_reports_a_backward_that_disagrees_with_the_forward():
    class HalfGradient(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, beta):
            ctx.save_for_backward(x, beta)
            return x * torch.sigmoid(beta * x)

        @staticmethod
        def backward(ctx, grad_output):
            x, beta = ctx.saved_tensors
            return grad_output * torch.sigmoid(beta * x) / 2, None

    x = torch.randn(3, requires_grad=True)
    beta = torch.tensor(1.0)
    answer = layers._through_backward(HalfGradient.apply)(x, beta, torch.ones(3))
    assert answer["custom"] and answer["saved"] == 2
    assert answer["gradcheck"].startswith("Jacobian mismatch"), answer["gradcheck"]
