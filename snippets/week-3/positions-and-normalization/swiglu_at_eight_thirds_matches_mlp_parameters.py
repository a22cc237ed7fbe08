from torch import nn

D = 96
mlp = nn.Sequential(  # the original transformer's block: 4D hidden
    nn.Linear(D, 4 * D, bias=False), nn.GELU(), nn.Linear(4 * D, D, bias=False)
)
HIDDEN = 8 * D // 3  # SwiGLU has three matrices: 2/3 of 4D keeps the count
swiglu = nn.ModuleDict(
    {
        "gate": nn.Linear(D, HIDDEN, bias=False),
        "up": nn.Linear(D, HIDDEN, bias=False),
        "down": nn.Linear(HIDDEN, D, bias=False),
    }
)


def count(module):
    return sum(p.numel() for p in module.parameters())


assert count(mlp) == count(swiglu)
print(f"MLP, hidden {4 * D}:    {count(mlp)} parameters")
print(f"SwiGLU, hidden {HIDDEN}: {count(swiglu)} parameters")
