# expect: for Linear(4, 3) in torch.bfloat16 with amsgrad=False you counted 248 bytes; after one step there are 128
# The mistake: 4 bytes for every number, as in float32; a bfloat16 model's parameters, gradients
# and Adam moments take 2 bytes each (only the step counter stays a float32).
def training_bytes(model, amsgrad):
    total = 0
    for p in model.parameters():
        size = p.numel() * 4
        total += size
        if p.requires_grad:
            total += (4 if amsgrad else 3) * size + 4
    return total
