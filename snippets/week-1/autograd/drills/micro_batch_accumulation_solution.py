import torch.nn.functional as F
from torchguide.drills import check_here


def accumulate_gradients(model, inputs, targets, micro_batch_size):
    model.zero_grad()  # else the last step's gradients are added to
    n = len(inputs)
    xs = inputs.split(micro_batch_size)
    ys = targets.split(micro_batch_size)
    for x, y in zip(xs, ys, strict=True):
        # this micro-batch's share of the whole batch's mean,
        # also when it is the last, smaller one
        loss = F.mse_loss(model(x), y) * (len(x) / n)
        loss.backward()  # adds into .grad, frees the activations


check_here("micro_batch_accumulation", accumulate_gradients)
