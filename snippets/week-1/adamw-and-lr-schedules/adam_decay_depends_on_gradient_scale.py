import torch

STEPS, LR, WD = 300, 0.01, 0.1
# two weights, both 1.0; one gets gradients 1000x smaller than the other
scales = torch.tensor([1e-3, 1.0])


def final_weights(optimizer_class, weight_decay):
    w = torch.nn.Parameter(torch.ones(2))
    opt = optimizer_class([w], lr=LR, weight_decay=weight_decay)
    for step in range(STEPS):
        w.grad = scales * (1.0 if step % 2 == 0 else -1.0)  # mean zero
        opt.step()
    return w.detach()


def kept_by_decay(optimizer_class):
    """Each weight with decay, as a fraction of the same run without it."""
    return (final_weights(optimizer_class, WD)
            / final_weights(optimizer_class, 0.0))


# --8<-- [start:gist]
adam, adamw = kept_by_decay(torch.optim.Adam), kept_by_decay(torch.optim.AdamW)
uniform = (1 - LR * WD) ** STEPS  # AdamW: the same shrink for every weight
assert torch.allclose(adamw, torch.full((2,), uniform), rtol=1e-4)
# Adam: the small-gradient weight is decayed to almost nothing
assert adam[0] < 0.01 < 0.5 < adam[1]
# --8<-- [end:gist]
print(f"fraction kept by weight decay after {STEPS} steps "
      "(small-gradient weight, large-gradient weight):")
print(f"  Adam  {adam[0]:.4f}  {adam[1]:.4f}")
print(f"  AdamW {adamw[0]:.4f}  {adamw[1]:.4f}  "
      f"((1 - lr * wd) ** {STEPS} = {uniform:.4f})")
