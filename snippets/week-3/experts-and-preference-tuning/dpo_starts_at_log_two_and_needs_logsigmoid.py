import math

import torch
import torch.nn.functional as F

reference = -torch.rand(2, 4) * 50  # summed log-probs: chosen, rejected
beta = 0.1


def dpo(policy, reference):
    margin = (policy[0] - reference[0]) - (policy[1] - reference[1])
    return -F.logsigmoid(beta * margin).mean()


# --8<-- [start:gist]
start = dpo(reference.clone(), reference)  # policy starts as the reference
assert torch.isclose(start, torch.tensor(math.log(2)))
wrong_way = reference + torch.tensor([[0.0], [2000.0]])  # prefers rejected
stable = dpo(wrong_way, reference)
naive = -torch.log(torch.sigmoid(beta * -2000.0 * torch.ones(4))).mean()
assert torch.isfinite(stable) and torch.isinf(naive)
# --8<-- [end:gist]
print(f"at the start: {start:.4f} (log 2 = {math.log(2):.4f})")
print(f"margin -2000, logsigmoid: {stable:.1f}; log(sigmoid): {naive}")
