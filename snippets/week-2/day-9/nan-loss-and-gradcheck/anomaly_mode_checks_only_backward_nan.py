import warnings

import torch

warnings.simplefilter("ignore")  # the "Anomaly Detection has been enabled" note
with torch.autograd.detect_anomaly():
    # A NaN made in the forward pass is not reported there.
    negative = torch.tensor([-1.0, 4.0], requires_grad=True)
    root = negative.sqrt()
    assert root.isnan().any()

    # An infinite gradient is not reported either: only NaN is checked.
    zero = torch.tensor([0.0, 4.0], requires_grad=True)
    zero.sqrt().sum().backward()
    assert zero.grad.isinf().any()

print("forward sqrt(-1):", root.tolist())
print("gradient of sqrt at 0:", zero.grad.tolist())
print("no error raised in anomaly mode")
