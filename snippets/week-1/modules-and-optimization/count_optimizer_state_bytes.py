import torch
from torch import nn
from torchguide.training import optimizer_state_bytes

optimizers = {
    "SGD": lambda ps: torch.optim.SGD(ps, lr=0.1),
    "SGD momentum": lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9),
    "Adam": lambda ps: torch.optim.Adam(ps, lr=1e-3),
    "AdamW": lambda ps: torch.optim.AdamW(ps, lr=1e-3),
}

print(f"{'optimizer':13s} {'params':>7s} {'grads':>7s} {'state':>7s}"
      f" {'state/P':>7s} {'total/P':>7s}")
for name, make in optimizers.items():
    model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10))
    # --8<-- [start:gist]
    opt = make(model.parameters())
    model(torch.randn(4, 256)).sum().backward()
    opt.step()  # state is created lazily, on the first step
    # --8<-- [end:gist]
    n_params = sum(p.numel() * p.element_size() for p in model.parameters())
    n_grads = sum(p.grad.numel() * p.grad.element_size()
                  for p in model.parameters())
    # --8<-- [start:gist]
    n_state = optimizer_state_bytes(opt)
    # --8<-- [end:gist]
    total = n_params + n_grads + n_state
    print(f"{name:13s} {n_params:7d} {n_grads:7d} {n_state:7d}"
          f" {n_state / n_params:7.3f} {total / n_params:7.3f}")
    # --8<-- [start:gist]
    if name == "SGD":
        assert n_state == 0
    elif name == "SGD momentum":
        assert n_state == n_params  # one momentum_buffer
    else:  # exp_avg + exp_avg_sq, plus a 4-byte step per parameter
        assert n_state == 2 * n_params + 4 * len(list(model.parameters()))
    # --8<-- [end:gist]
        keys = sorted(next(iter(opt.state.values())))
        assert keys == ["exp_avg", "exp_avg_sq", "step"]

print("Adam state keys:", keys)
