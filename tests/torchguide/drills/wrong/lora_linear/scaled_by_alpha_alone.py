# expect: for x (1, 3, 5), a frozen weight (6, 5) with bias, rank 2, alpha 16 (torch.float32, seed 1) your output
# The mistake: the update scaled by alpha, not alpha / r: right at rank 1 only.
import torch.nn.functional as F


def lora_linear(x, weight, bias, lora_a, lora_b, alpha):
    return F.linear(x, weight, bias) + alpha * F.linear(F.linear(x, lora_a), lora_b)
