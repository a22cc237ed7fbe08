# expect: your lora_linear changed its argument weight; leave it as it was
# The mistake: the update merged into the frozen weight in place on every call.
import torch
import torch.nn.functional as F


def lora_linear(x, weight, bias, lora_a, lora_b, alpha):
    with torch.no_grad():
        weight += (alpha / lora_a.shape[0]) * (lora_b @ lora_a)
    return F.linear(x, weight, bias)
