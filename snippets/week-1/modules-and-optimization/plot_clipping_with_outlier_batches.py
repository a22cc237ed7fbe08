import matplotlib.pyplot as plt
import torch
from torch import nn

SEED = torch.initial_seed()
w_true = torch.randn(20, 1)
batches = []
for step in range(300):
    x = torch.randn(32, 20)
    y = x @ w_true + 0.1 * torch.randn(32, 1)
    if step % 50 == 25:  # an occasional corrupted batch
        y = 30 * torch.randn(32, 1)
    batches.append((x, y))
x_val = torch.randn(512, 20)
y_val = x_val @ w_true


def train(max_norm: float | None) -> tuple[list[float], float]:
    torch.manual_seed(SEED + 1)
    model = nn.Linear(20, 1)
    opt = torch.optim.SGD(model.parameters(), lr=LR)  # same lr
    val_losses, biggest_move = [], 0.0
    for x, y in batches:
        before = nn.utils.parameters_to_vector(model.parameters()).detach()
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        # --8<-- [start:gist]
        if max_norm is not None:
            nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        # --8<-- [end:gist]
        opt.step()
        after = nn.utils.parameters_to_vector(model.parameters()).detach()
        biggest_move = max(biggest_move, (after - before).norm().item())
        with torch.no_grad():
            val_losses.append(nn.functional.mse_loss(model(x_val), y_val))
    return torch.stack(val_losses).tolist(), biggest_move


LR, MAX_NORM = 0.05, 5.0
# --8<-- [start:gist]
plain, plain_move = train(max_norm=None)
clipped, clipped_move = train(max_norm=MAX_NORM)
# --8<-- [end:gist]
print(f"worst clean-data loss after step 100: plain {max(plain[100:]):.2f},"
      f" clipped {max(clipped[100:]):.2f}")
print(f"final clean-data loss: plain {plain[-1]:.3f}, "
      f"clipped {clipped[-1]:.3f}")
# --8<-- [start:gist]
assert max(clipped[100:]) < max(plain[100:]) / 5
assert clipped[-1] < plain[-1]
# with clipping, no step moves the weights further than lr * max_norm
assert clipped_move <= LR * MAX_NORM + 1e-6 < plain_move
# --8<-- [end:gist]
# without it, 20 steps after a corrupted batch the loss is still far above
# its level just before it (spikes from step 75 on, once training settled)
for s in range(75, 300, 50):
    assert plain[s + 20] > 20 * plain[s - 1]
print(f"largest single step: plain {plain_move:.2f}, clipped "
      f"{clipped_move:.2f} (lr * max_norm = {LR * MAX_NORM:.2f})")

fig, ax = plt.subplots(figsize=(4.8, 3.1))
ax.semilogy(plain, label="no clipping")
ax.semilogy(clipped, label="clip_grad_norm_(max_norm=5)")
ax.set(title=f"SGD lr={LR}, corrupted batch every 50 steps",
       xlabel="step", ylabel="loss on clean data")
ax.set_ylim(1e-5, 1e3)
ax.legend(fontsize=10, loc="lower left", ncol=2)
fig.tight_layout()
