"""The foundation drills keep the drill contract; their references are what torch's modules compute,
a correct solution written another way than the page's passes, and dropout's statistics hold for
a correct dropout under any seed."""

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

from torchguide.drills import foundations, get
from torchguide.drills.framework import Mismatch

DRILLS = foundations.DRILLS


def _checked(tmp_path, drill_id, source):
    answer = tmp_path / f"{drill_id}.py"
    answer.write_text(textwrap.dedent(source))
    return check_file(drill_id, answer)


def test_every_case_is_drawn_under_at_least_three_seeds():
    for drill in DRILLS:
        seeds = {case.where.split("seed ")[1].split(",")[0].rstrip(")") for case in drill.named_cases()}
        assert len(seeds) >= 3, drill.id


def test_the_references_are_what_the_modules_compute():
    conv = torch.nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2)
    x = torch.randn(2, 4, 7, 6)
    got = foundations._conv2d(
        x, conv.weight, conv.bias, conv.stride, conv.padding, conv.dilation, conv.groups
    )
    torch.testing.assert_close(got, conv(x))

    cell = torch.nn.LSTMCell(3, 5)
    x, h, c = torch.randn(2, 3), torch.randn(2, 5), torch.randn(2, 5)
    got = foundations._lstm_cell(x, h, c, cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)
    for mine, theirs in zip(got, cell(x, (h, c)), strict=True):
        torch.testing.assert_close(mine, theirs)

    norm = torch.nn.BatchNorm2d(3, momentum=0.3)
    x = torch.randn(2, 3, 4, 5)
    y, mean, var = foundations._batch_norm(
        x, norm.running_mean, norm.running_var, norm.weight, norm.bias, True, 0.3, norm.eps
    )
    torch.testing.assert_close(y, norm(x))
    torch.testing.assert_close((mean, var), (norm.running_mean, norm.running_var))
    n = 2 * 4 * 5
    unbiased = x.transpose(0, 1).reshape(3, -1).var(dim=1, correction=1)
    torch.testing.assert_close(var, 0.7 + 0.3 * unbiased)  # the unbiased variance, n = 40
    assert n == 40


def test_a_conv_by_loops_over_the_kernel_passes(tmp_path):
    """Shifted slices summed over the kernel's positions, without unfold: as right."""
    report = _checked(
        tmp_path,
        "conv2d_by_unfold",
        """
        import torch
        import torch.nn.functional as F

        def conv2d(x, weight, bias, stride, padding, dilation, groups):
            n, c, h, w = x.shape
            o, cg, kh, kw = weight.shape
            x = F.pad(x, (padding[1], padding[1], padding[0], padding[0]))
            h_out = (x.shape[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
            w_out = (x.shape[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
            x = x.view(n, groups, cg, *x.shape[2:])
            wg = weight.view(groups, o // groups, cg, kh, kw)
            y = 0
            for i in range(kh):
                for j in range(kw):
                    top, left = i * dilation[0], j * dilation[1]
                    patch = x[..., top : top + stride[0] * (h_out - 1) + 1 : stride[0],
                              left : left + stride[1] * (w_out - 1) + 1 : stride[1]]
                    y = y + torch.einsum("ngchw,goc->ngohw", patch, wg[..., i, j])
            y = y.reshape(n, o, h_out, w_out)
            return y if bias is None else y + bias[:, None, None]
        """,
    )
    assert report.ok, report.text()


def test_a_batch_norm_through_var_mean_passes(tmp_path):
    report = _checked(
        tmp_path,
        "batch_norm_forward",
        """
        import torch

        def batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps):
            c = x.shape[1]
            flat = x.transpose(0, 1).reshape(c, -1)
            if training:
                var, mean = torch.var_mean(flat, dim=1, correction=0)
                n = flat.shape[1]
                new_mean = running_mean.lerp(mean.detach(), momentum)
                new_var = running_var.lerp(var.detach() * n / (n - 1), momentum)
            else:
                mean, var = running_mean, running_var
                new_mean, new_var = running_mean.clone(), running_var.clone()
            shape = [1, c] + [1] * (x.dim() - 2)
            y = (x - mean.view(shape)) * torch.rsqrt(var.view(shape) + eps)
            if weight is not None:
                y = torch.addcmul(bias.view(shape), y, weight.view(shape))
            return y, new_mean, new_var
        """,
    )
    assert report.ok, report.text()


def test_dropouts_statistics_pass_torchs_own_dropout_under_any_seed():
    """The checker's statistics, against F.dropout itself under 200 seeds at every p it draws: the
    bound of 7 standard errors is never approached by a correct dropout."""
    wide = torch.rand(foundations.WIDE) + 0.5
    case = foundations._dropout_case((2, 3), 0.5, True)
    for p in (0.1, 0.25, 0.5, 0.7, 0.8, 0.9):
        for seed in range(200):
            torch.manual_seed(seed)
            draws = [F.dropout(wide, p, True) for _ in range(2)]
            foundations._dropout_statistics(case, {"wide": wide, "draws": draws}, p)


def test_dropouts_statistics_catch_a_mask_shared_by_rows():
    wide = torch.rand(foundations.WIDE) + 0.5
    case = foundations._dropout_case((2, 3), 0.1, True)
    keep = (torch.rand(wide.shape[-1]) >= 0.1).float()
    draws = [wide * keep / 0.9, wide * (torch.rand(wide.shape[-1]) >= 0.1) / 0.9]
    try:
        foundations._dropout_statistics(case, {"wide": wide, "draws": draws}, 0.1)
    except Mismatch as mismatch:
        assert "neighbouring rows" in str(mismatch)
    else:
        raise AssertionError("a mask shared by the rows passed")


def test_every_shortcut_through_torchs_own_layer_is_seen():
    from torchguide.drills._containment import _watching

    x = torch.randn(2, 3, 4, 4)
    shortcuts = {
        "conv2d_by_unfold": [
            lambda: torch.nn.Conv2d(3, 2, 3)(x),
            lambda: F.conv2d(x, torch.randn(2, 3, 3, 3)),
        ],
        "lstm_cell_by_hand": [lambda: torch.nn.LSTMCell(4, 2)(x[0, 0])],
        "batch_norm_forward": [
            lambda: torch.nn.BatchNorm2d(3)(x),
            lambda: F.batch_norm(x, None, None, training=True),
        ],
        "inverted_dropout": [lambda: torch.nn.Dropout(0.5)(x), lambda: F.dropout(x, 0.5)],
    }
    for drill_id, calls in shortcuts.items():
        for number, call in enumerate(calls):
            used: list[str] = []
            with torch.no_grad(), _watching(get(drill_id).forbidden, used):
                call()
            assert used, f"{drill_id}: shortcut {number} went unseen"
