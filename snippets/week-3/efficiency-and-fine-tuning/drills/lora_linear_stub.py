def lora_linear(x, weight, bias, lora_a, lora_b, alpha):
    """A LoRA linear layer over a frozen weight."""
    raise NotImplementedError
