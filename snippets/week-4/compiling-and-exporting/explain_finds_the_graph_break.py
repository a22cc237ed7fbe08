import logging

import torch
import torch._dynamo

# the break's warning would repeat what explain returns
logging.getLogger("torch._dynamo").setLevel(logging.ERROR)


def clip_to_norm(x, max_norm):
    norm = x.norm()
    if norm.item() > max_norm:  # a Python branch on a tensor's value
        x = x * (max_norm / norm)
    return x


explained = torch._dynamo.explain(clip_to_norm)(torch.randn(4, 3), 0.5)
reasons = [b.reason.splitlines()[0] for b in explained.break_reasons]
assert (explained.graph_count, explained.graph_break_count) == (2, 1)
assert "item()" in reasons[0]
print(f"graphs: {explained.graph_count}, breaks: {explained.graph_break_count}")
print(f"why: {reasons[0]}")
