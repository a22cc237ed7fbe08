# expect: for an MLP 4 -> 8 -> 2 with its first layer frozen in torch.float32 with amsgrad=False you counted 944 bytes; after one step there are 456
# The mistake: every parameter given a gradient and Adam's state, although a frozen one gets no
# .grad and Adam skips a parameter whose .grad is None.
def training_bytes(model, amsgrad):
    total = 0
    for p in model.parameters():
        size = p.numel() * p.element_size()
        total += (5 if amsgrad else 4) * size + 4
    return total
