# docexec: timeout=60
import torch
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode, flop_registry

batch, heads, seq, dim = 2, 4, 16, 8
q, k, v = torch.randn(3, batch, heads, seq, dim).unbind(0)


def by_hand():
    scores = q @ k.transpose(-2, -1) / dim**0.5
    return scores.softmax(-1) @ v


def count(fn):
    with FlopCounterMode(display=False) as counter:
        out = fn()
    ops = sorted(map(str, counter.get_flop_counts().get("Global", {})))
    return out, counter.get_total_flops(), ops


# --8<-- [start:gist]
fused, fused_flops, fused_ops = count(
    lambda: F.scaled_dot_product_attention(q, k, v))
manual, manual_flops, manual_ops = count(by_hand)

torch.testing.assert_close(fused, manual)  # the same attention
expected = 2 * (2 * batch * heads * seq * seq * dim)  # two batched matmuls
assert manual_flops == expected and fused_flops == 0
# --8<-- [end:gist]
# the counter knows the GPU attention kernels, not the CPU one that ran
with_formula = sorted(str(op) for op in flop_registry if "attention" in str(op)
                      and "backward" not in str(op))
# --8<-- [start:gist]
assert "aten._scaled_dot_product_flash_attention" in with_formula
assert "aten._scaled_dot_product_flash_attention_for_cpu" not in with_formula
# --8<-- [end:gist]
print(f"attention written out: {manual_flops:,} FLOPs, ops {manual_ops}")
print(f"scaled_dot_product_attention on a CPU: {fused_flops} FLOPs,"
      f" ops {fused_ops}")
print("attention ops with a FLOP formula:", *with_formula, sep="\n    ")
