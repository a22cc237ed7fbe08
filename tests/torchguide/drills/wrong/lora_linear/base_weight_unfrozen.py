# expect: your lora_linear left requires_grad=True on its argument weight
# The mistake: the base weight made trainable too, as full fine-tuning does.
import torch.nn.functional as F


def lora_linear(x, weight, bias, lora_a, lora_b, alpha):
    weight.requires_grad_()
    update = F.linear(F.linear(x, lora_a), lora_b)
    return F.linear(x, weight, bias) + (alpha / lora_a.shape[0]) * update
