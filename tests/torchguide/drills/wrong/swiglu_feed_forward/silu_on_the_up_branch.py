# expect: for x (2, 3) and a hidden width of 5 (torch.float32, seed 0) your output is
# The mistake: the SiLU on the up projection and the gate left linear: the two branches swapped.
import torch.nn.functional as F


def swiglu(x, w_gate, w_up, w_down):
    return ((x @ w_gate.T) * F.silu(x @ w_up.T)) @ w_down.T
