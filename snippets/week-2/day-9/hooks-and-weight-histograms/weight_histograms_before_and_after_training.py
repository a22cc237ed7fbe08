# docexec: timeout=60
import matplotlib.pyplot as plt
import torch
from torch import nn

SEED = torch.initial_seed()

# Random labels: the only way to fit them is to memorise, so weights grow.
x = torch.randn(128, 20)
labels = torch.randint(0, 2, (128,))


def first_layer_weights(weight_decay, steps=100):
    torch.manual_seed(SEED + 1)  # the same initial weights for every run
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
    initial = model[0].weight.detach().clone()
    # --8<-- [start:gist]
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9,
                          weight_decay=weight_decay)
    # --8<-- [end:gist]
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), labels)
        loss.backward()
        opt.step()
    return initial, model[0].weight.detach(), loss.item()


# --8<-- [start:gist]
initial, plain, plain_loss = first_layer_weights(0.0)
_, decayed, decayed_loss = first_layer_weights(0.1)
bound = 1 / 20**0.5  # the default initialisation's limit for fan_in 20

assert initial.abs().max() <= bound
assert plain.std() > 1.15 * initial.std() and plain.abs().max() > 2 * bound
assert decayed.std() < initial.std() / 3
assert (decayed.abs() < 0.01).float().mean() > 0.5
# --8<-- [end:gist]
for name, w, loss in [("initial", initial, None),
                      ("trained", plain, plain_loss),
                      ("trained, decay 0.1", decayed, decayed_loss)]:
    fit = "" if loss is None else f"  train loss {loss:.3f}"
    print(f"{name:19} std {w.std():.3f}  max |w| {w.abs().max():.2f}  "
          f"|w| < 0.01: {(w.abs() < 0.01).float().mean():4.0%}{fit}")

fig, ax = plt.subplots(figsize=(4.8, 3.2))
for name, w in [("initial (uniform)", initial), ("trained", plain),
                ("trained, weight decay 0.1", decayed)]:
    ax.hist(w.flatten(), bins=60, range=(-0.8, 0.8), histtype="step",
            linewidth=1.5, label=name)
ax.set(xlabel="weight value", ylabel="count", yscale="log",
       title="First-layer weights: flat at init, wider or collapsed later")
ax.legend(fontsize=10)
fig.tight_layout()
