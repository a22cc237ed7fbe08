# docexec: timeout=60
import math

import torch
from torch import nn

WIDTH, DEPTH = 64, 30
# The engine's seed (`docexec run --seed N` draws other data and weights):
# the claims below hold for every draw, not only this one.
SEED = torch.initial_seed()


class Block(nn.Module):
    def __init__(self, activation: type[nn.Module], std: float | None,
                 fix: str) -> None:
        super().__init__()
        self.linear = nn.Linear(WIDTH, WIDTH)
        if std is not None:
            nn.init.normal_(self.linear.weight, std=std / math.sqrt(WIDTH))
        norms = {"LayerNorm": nn.LayerNorm(WIDTH),
                 "BatchNorm": nn.BatchNorm1d(WIDTH)}
        self.norm = norms.get(fix, nn.Identity())
        self.activation = activation()
        self.residual = fix == "residual"

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # --8<-- [start:gist]
        h = self.activation(self.norm(self.linear(x)))
        return x + h if self.residual else h
        # --8<-- [end:gist]


def first_to_last(activation: type[nn.Module], std: float | None,
                  fix: str) -> float:
    """Layer-1 over layer-30 weight-gradient norm, at initialization."""
    torch.manual_seed(SEED + 1)  # every stack starts from the same draw
    blocks = [Block(activation, std, fix) for _ in range(DEPTH)]
    model = nn.Sequential(*blocks, nn.Linear(WIDTH, 1))
    nn.functional.mse_loss(model(x), y).backward()
    norms = [b.linear.weight.grad.double().norm() for b in blocks]
    return (norms[0] / norms[-1]).item()


torch.manual_seed(SEED)
x, y = torch.randn(128, WIDTH), torch.randn(128, 1)
nets = {"sigmoid": (nn.Sigmoid, None), "tanh 3/sqrt(n)": (nn.Tanh, 3.0),
        "ReLU Kaiming": (nn.ReLU, math.sqrt(2))}
fixes = ["plain", "residual", "LayerNorm", "BatchNorm"]
ratio = {(f, n): first_to_last(*nets[n], f) for f in fixes for n in nets}

print("layer 1 / layer 30 weight gradient (1 = same size at every depth)")
print(f"{'':10}" + "".join(f"{n:>16}" for n in nets))
for f in fixes:
    print(f"{f:10}" + "".join(f"{ratio[f, n]:16.2g}" for n in nets))

# --8<-- [start:gist]
# vanishing sigmoid stack: residual and BatchNorm rescue it, LayerNorm less
assert ratio["plain", "sigmoid"] < 1e-20
assert ratio["residual", "sigmoid"] > 1e-3
assert 0.2 < ratio["BatchNorm", "sigmoid"] < 5
assert ratio["LayerNorm", "sigmoid"] < 1e-6
# --8<-- [end:gist]
# exploding tanh stack (thousands): residual shrinks the spread by 20x or
# more, each normalization by 100x or more (37-106x and 285x+ over 8 seeds)
tanh = {f: ratio[f, "tanh 3/sqrt(n)"] for f in fixes}
assert tanh["plain"] > 1000
assert tanh["residual"] < tanh["plain"] / 20
assert max(tanh["LayerNorm"], tanh["BatchNorm"]) < tanh["plain"] / 100
# a healthy ReLU stack (within ~30x of 1): residual tilts it the other
# way, BatchNorm makes the early gradients explode
assert 1 / 30 < ratio["plain", "ReLU Kaiming"] < 30
assert ratio["residual", "ReLU Kaiming"] < 0.1
assert ratio["BatchNorm", "ReLU Kaiming"] > 50
