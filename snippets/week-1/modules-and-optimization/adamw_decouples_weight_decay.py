import torch


def one_step(optimizer, weight_decay: float) -> float:
    w = torch.nn.Parameter(torch.ones(1))
    opt = optimizer([w], lr=0.1, weight_decay=weight_decay)
    w.grad = torch.zeros(1)  # no loss gradient: only the decay acts
    opt.step()
    return w.item()


# --8<-- [start:gist]
for wd in (0.01, 0.1):
    adam = one_step(torch.optim.Adam, wd)
    adamw = one_step(torch.optim.AdamW, wd)
    # Adam adds wd * w to the gradient, then divides by its RMS: the
    # decay's strength cancels and w moves by lr whatever wd is
    assert abs(adam - 0.9) < 1e-5
    # AdamW shrinks the weight itself: w *= 1 - lr * wd
    assert abs(adamw - (1 - 0.1 * wd)) < 1e-7
# --8<-- [end:gist]
    print(f"weight_decay={wd}: Adam 1.0 -> {adam:.5f}, "
          f"AdamW 1.0 -> {adamw:.5f}")

defaults = {o.__name__: o([torch.nn.Parameter(torch.ones(1))]).defaults
            for o in (torch.optim.Adam, torch.optim.AdamW)}
# --8<-- [start:gist]
assert defaults["Adam"]["weight_decay"] == 0
assert defaults["AdamW"]["weight_decay"] == 0.01
# --8<-- [end:gist]
print("default weight_decay: Adam", defaults["Adam"]["weight_decay"],
      "| AdamW", defaults["AdamW"]["weight_decay"])
