import torch
import torch.nn.functional as F

experts, tokens = 8, 64


def balance_loss(probs, k=1):  # Switch: E * sum_e f_e * P_e
    indices = probs.topk(k, dim=-1).indices
    f = F.one_hot(indices, experts).sum(dim=(0, 1)) / (tokens * k)
    return experts * (f * probs.mean(dim=0)).sum()


# --8<-- [start:gist]
uniform = torch.full((tokens, experts), 1 / experts)
uniform += 1e-3 * torch.eye(experts).repeat(tokens // experts, 1)  # ties
collapsed = F.one_hot(torch.zeros(tokens, dtype=torch.long), experts)
balanced, worst = balance_loss(uniform), balance_loss(collapsed.float())
assert torch.isclose(balanced, torch.tensor(1.0), atol=1e-2)
assert worst == experts  # every token, and all the probability, on one
# --8<-- [end:gist]
print(f"each expert gets 1/E of the tokens: {balanced:.3f}")
print(f"every token on expert 0:             {worst:.3f}")
