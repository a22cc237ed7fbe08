# expect: for x (2, 3) and a hidden width of 5 (torch.float32, seed 0) your swiglu raised RuntimeError
# The mistake: x @ w with an nn.Linear weight stored (out, in): the shapes fit only when H == D.
import torch.nn.functional as F


def swiglu(x, w_gate, w_up, w_down):
    return (F.silu(x @ w_gate) * (x @ w_up)) @ w_down
