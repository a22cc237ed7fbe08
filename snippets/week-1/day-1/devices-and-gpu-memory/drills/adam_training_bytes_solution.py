from torchguide.drills import check_here


def training_bytes(model, amsgrad):
    total = 0
    for p in model.parameters():  # a shared parameter comes once
        size = p.numel() * p.element_size()  # bytes of its dtype
        total += size  # the parameter itself, trained or frozen
        if p.requires_grad:
            moments = 3 if amsgrad else 2  # exp_avg, exp_avg_sq
            total += size  # its .grad, of the same dtype
            total += moments * size  # Adam's moments, same dtype
            total += 4  # Adam's step: a 0-d float32 tensor
    return total


check_here("adam_training_bytes", training_bytes)
