# %% [markdown]
# # Debug a NaN loss end to end
#
# A small binary classifier trains well for a few hundred steps, then its loss
# turns into `nan` and stays there. This lab follows the evidence from the
# first NaN to the fix, one step at a time:
#
# 1. the loss history: when and how it broke;
# 2. what the NaN step did to the weights;
# 3. the suspects that are *not* guilty: the data, the weights before the
#    step, the gradient norm, the model's forward pass;
# 4. the first non-finite tensor, found with a finder you write (a task
#    with its checker) and with those of `torchguide.debug.numerics`;
# 5. what `torch.autograd.detect_anomaly` says about the same step;
# 6. the root cause, shown on one number;
# 7. the fix, and a training run that then converges.
#
# Everything runs on a CPU in a few seconds.

# %%
import math
import warnings

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import nn
from torchguide.debug.numerics import find_nonfinite, first_nonfinite_module
from torchguide.drills import check_here

torch.manual_seed(0)  # fixed seed: the lab follows one run to its NaN
N, D = 2048, 10
labels = torch.randint(0, 2, (N,)).float()
direction = F.normalize(torch.randn(D), dim=0)
# two overlapping Gaussian clouds, standardized features
features = torch.randn(N, D) + (2 * labels[:, None] - 1) * direction
print("features:", tuple(features.shape), " positives:", int(labels.sum()))


def make_model() -> nn.Sequential:
    torch.manual_seed(1)  # fixed seed: the lab's run, as above
    return nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 64),
                         nn.ReLU(), nn.Linear(64, 1))


def hand_written_bce(logits: torch.Tensor, targets: torch.Tensor):
    """Binary cross-entropy, written out from its textbook formula."""
    p = torch.sigmoid(logits)
    return -(targets * torch.log(p) + (1 - targets) * torch.log(1 - p)).mean()


# %% [markdown]
# ## 1. The loss history
#
# The training loop records the loss and the gradient norm of every step. It
# keeps going after a non-finite loss, as a plain loop would, but remembers
# the batch and a copy of the weights from just before the first bad step:
# that is what we need to replay it.

# %%
def train(loss_fn, steps: int):
    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    gen = torch.Generator().manual_seed(2)  # fixed seed: as above
    history, grad_norms, first_bad = [], [], None
    for step in range(steps):
        index = torch.randint(0, N, (64,), generator=gen)
        x, y = features[index], labels[index]
        before = {k: v.clone() for k, v in model.state_dict().items()}
        loss = loss_fn(model(x).squeeze(1), y)
        opt.zero_grad()
        loss.backward()
        grad_norms.append(nn.utils.get_total_norm(
            [p.grad for p in model.parameters()]).item())
        opt.step()
        history.append(loss.item())
        if first_bad is None and not math.isfinite(loss.item()):
            first_bad = {"step": step, "x": x, "y": y, "weights": before}
    return model, history, grad_norms, first_bad


model, history, grad_norms, bad = train(hand_written_bce, steps=450)
step = bad["step"]
print("first non-finite loss at step", step)
print("losses around it:", [round(v, 4) for v in history[step - 3: step + 3]])
assert all(math.isfinite(v) for v in history[:step])
assert all(math.isnan(v) for v in history[step:])

plt.figure(figsize=(6, 3))
plt.plot(history)
plt.axvline(step, color="red", linestyle=":", label=f"first NaN (step {step})")
plt.xlim(0, len(history))
plt.title("Loss with the hand-written BCE: fine, then NaN for good")
plt.xlabel("step")
plt.ylabel("training loss")
plt.legend()
plt.show()

# %% [markdown]
# The loss did not climb before it broke: it sat on its plateau, then was NaN
# in a single step. A learning rate that is too high looks different: the
# loss grows step after step, by a steady factor, before it overflows.
#
# ## 2. One NaN step poisons every weight
#
# Once a NaN reaches the gradients, Adam writes it into the weights, and from
# then on every forward pass is NaN, whatever the batch. That is why the loss
# never comes back.

# %%
poisoned = find_nonfinite(model.named_parameters())
print(f"{len(poisoned)} of {len(list(model.parameters()))} parameter tensors"
      " hold NaN after training; for example:")
print(" ", poisoned[0])
assert len(poisoned) == len(list(model.parameters()))

# %% [markdown]
# ## 3. Rule out the usual suspects
#
# Replay the bad step: load the weights from just before it and check, in
# order, the data, the weights, the gradient norm so far, and the model's own
# forward pass. `first_nonfinite_module` puts a forward hook on every module
# and returns the first one whose input or output is not finite.

# %%
replay = make_model()
replay.load_state_dict(bad["weights"])
x, y = bad["x"], bad["y"]

print("non-finite data:   ", find_nonfinite({"features": features,
                                              "labels": labels}))
print("non-finite weights:", find_nonfinite(replay.named_parameters()))
print(f"largest gradient norm before step {step}: {max(grad_norms[:step]):.3g}"
      f" (median {sorted(grad_norms[:step])[step // 2]:.3g})")
print("first non-finite module:", first_nonfinite_module(replay, x))
assert find_nonfinite([features, labels]) == []
assert find_nonfinite(replay.named_parameters()) == []
assert first_nonfinite_module(replay, x) is None

# %% [markdown]
# The data is finite, the weights are finite, the gradients never exploded,
# and every module's output is finite: the logits are fine. The NaN is made
# after the model, in the loss.
#
# ## 4. The first non-finite tensor
#
# Compute the loss's pieces one by one, in the order the formula computes
# them, and find the first that is not finite.

# %%
with torch.no_grad():
    logits = replay(x).squeeze(1)
    p = torch.sigmoid(logits)
    pieces = {
        "logits": logits,
        "p": p,
        "log(p)": torch.log(p),
        "log(1 - p)": torch.log(1 - p),
        "(1 - y) * log(1 - p)": (1 - y) * torch.log(1 - p),
        "loss": hand_written_bce(logits, y),
    }
print("pieces:", ", ".join(pieces))

# %% [markdown]
# ### Your turn: the first piece that is not finite
#
# Write `first_nonfinite_piece(pieces)`: `pieces` is a dict from a name to a
# tensor (of any shape and dtype, empty ones included), in the order they were
# computed; return the name of the first tensor
# that holds a NaN or an infinity (`+inf` or `-inf`), or `None` when every one
# is finite. Leave the tensors as they are. Try it on `pieces`, then run the
# check cell: the checker tries it on named cases and generated ones and says
# what differs (`python -m torchguide.drills show first_nonfinite_piece`
# prints hints).

# %% active="ipynb"
# def first_nonfinite_piece(pieces: dict) -> str | None:
#     raise NotImplementedError("write first_nonfinite_piece here")

# %% active="ipynb" tags=["raises-exception"]
# # Checks your first_nonfinite_piece: run the cell above first, then this one.
# from torchguide.drills import check_here
#
# check_here("first_nonfinite_piece", first_nonfinite_piece)

# %% [markdown]
# One way to do it, which the lab goes on with (running this cell replaces
# your function; run your cell again to get it back). `torch.isfinite` is
# False for NaN and for both infinities; `torch.isnan` alone would miss what
# comes next.

# %%
def first_nonfinite_piece(pieces):
    for name, tensor in pieces.items():
        if not torch.isfinite(tensor).all():
            return name
    return None


print("first non-finite piece:", first_nonfinite_piece(pieces))
assert first_nonfinite_piece(pieces) == "log(1 - p)"
check_here("first_nonfinite_piece", first_nonfinite_piece)

# %% [markdown]
# `find_nonfinite` from `torchguide.debug.numerics` says more: for each piece
# that holds a NaN or an infinity, how many of each, and where the first is.

# %%
for report in find_nonfinite(pieces):
    print(report)
found = {r.name: r for r in find_nonfinite(pieces)}
assert list(found)[0] == "log(1 - p)" and found["log(1 - p)"].neginf > 0
sample = found["log(1 - p)"].first_index[0]
print(f"\nsample {sample}: logit {logits[sample]:.2f},"
      f" p = {p[sample].item()!r}, label {y[sample]:.0f}")

# %% [markdown]
# The first non-finite piece is `log(1 - p)`: `-inf` where `p` is exactly
# `1.0`. For those samples the label is 1, so the formula multiplies that
# `-inf` by `1 - y = 0`, and `0 * -inf` is NaN. The model was *right* about
# these samples; it was just confident.
#
# ## 5. What anomaly detection says
#
# `torch.autograd.detect_anomaly` checks every backward function's output for
# NaN and records where each operation was created in the forward pass, so it
# has to wrap the forward too. Here the loss is already NaN in the forward
# pass, which anomaly mode does not check; the backward raises at the first
# node that returns a NaN.

# %%
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with torch.autograd.detect_anomaly():
            loss = hand_written_bce(replay(x).squeeze(1), y)
            loss.backward()
    except RuntimeError as error:
        print("RuntimeError:", error)
        message = str(error)
forward_trace = next(str(w.message) for w in caught
                     if str(w.message).startswith("Error detected"))
print(forward_trace.splitlines()[0])
print("  forward line:", forward_trace.splitlines()[-2].strip())
assert "LogBackward0" in message

# %% [markdown]
# It names `LogBackward0` and the line of the loss: the same place, reached
# from the other side. The gradient flowing into `log(1 - p)` is `0` for
# those samples (they are multiplied by `1 - y = 0`), and the log's backward
# divides it by `1 - p = 0`: `0 / 0`.
#
# ## 6. The root cause, on one number
#
# `sigmoid(z) = 1 / (1 + exp(-z))`. In float32 the numbers just above 1 are
# `2**-23` apart, so once `exp(-z)` is below half of that, `2**-24`, the sum
# `1 + exp(-z)` rounds to exactly 1 and `sigmoid(z)` is exactly `1.0`. That
# happens for `z > 24 ln 2 ≈ 16.636`, a logit any confident classifier reaches.
# From there, `log(1 - sigmoid(z))` is `log(0)`.

# %%
threshold = 24 * math.log(2)
for z in [10.0, 16.0, 16.63, 16.64, 17.0]:
    s = torch.sigmoid(torch.tensor(z))
    print(f"z = {z:5}: sigmoid(z) = {s.item()!r:<20} "
          f"log(1 - sigmoid(z)) = {torch.log(1 - s).item():.4g}")
    assert (s == 1.0) == (z > threshold)
assert logits[sample] > threshold

# %% [markdown]
# ## 7. The fix
#
# Never compute `log(sigmoid(z))` in two steps. The loss on logits,
# `F.binary_cross_entropy_with_logits`, uses `log(sigmoid(z)) =
# -softplus(-z)`, which stays finite for any `z`. On the failing batch it
# agrees with the hand-written formula wherever that one is finite, and its
# gradient is finite everywhere.

# %%
logits = replay(x).squeeze(1)
fixed = F.binary_cross_entropy_with_logits(logits, y, reduction="none")
with torch.no_grad():
    naive = -(y * torch.log(torch.sigmoid(logits))
              + (1 - y) * torch.log(1 - torch.sigmoid(logits)))
ok = torch.isfinite(naive)
assert torch.allclose(fixed[ok], naive[ok], atol=1e-5)
fixed.mean().backward()
assert find_nonfinite(replay.named_parameters()) == []
assert find_nonfinite((n, p.grad) for n, p in replay.named_parameters()) == []
print(f"{int((~ok).sum())} samples non-finite before the fix, "
      f"{int((~torch.isfinite(fixed)).sum())} after; gradients finite")

# %% [markdown]
# Train again from the same start, on the same batches, with the only change
# being the loss. Now the run goes past the old failure point and keeps
# learning.

# %%
fixed_model, fixed_history, _, fixed_bad = train(
    F.binary_cross_entropy_with_logits, steps=450)
assert fixed_bad is None
with torch.no_grad():
    accuracy = ((fixed_model(features).squeeze(1) > 0) == labels.bool())
print(f"finite for all {len(fixed_history)} steps; "
      f"last 50 steps' mean loss {sum(fixed_history[-50:]) / 50:.3f}; "
      f"accuracy on the data {accuracy.float().mean():.3f}")
assert sum(fixed_history[-50:]) / 50 < 0.5 * fixed_history[0]

plt.figure(figsize=(6, 3))
plt.plot(history, label="hand-written BCE")
plt.plot(fixed_history, label="binary_cross_entropy_with_logits", alpha=0.8)
plt.axvline(step, color="red", linestyle=":")
plt.title("Same run, same batches: only the loss changed")
plt.xlabel("step")
plt.ylabel("training loss")
plt.legend()
plt.show()

# %% [markdown]
# ## What to take away
#
# - Make the loop stop (or at least remember the batch and the weights) at the
#   first non-finite loss: everything after it is noise.
# - Check the cheap suspects in order: data, weights, gradient norm history,
#   the model's modules (`first_nonfinite_module`), then the loss's own pieces
#   (`find_nonfinite`).
# - `detect_anomaly` names the backward operation that first returns NaN and
#   the forward line that created it, but only for NaN in the backward pass
#   and only if it also wrapped the forward pass.
# - The usual root cause is a two-step formula that a fused function computes
#   stably: `log(softmax)` → `log_softmax` / `cross_entropy`,
#   `log(sigmoid)` → `binary_cross_entropy_with_logits`, `x / x.norm()` →
#   `F.normalize`.
