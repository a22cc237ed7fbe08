# expect: for x (2, 3) and a hidden width of 5 (torch.float32, seed 0) your output is
# The mistake: sigmoid(z) as the gate, the original GLU; SwiGLU's gate is silu(z) = z * sigmoid(z).
import torch


def swiglu(x, w_gate, w_up, w_down):
    return (torch.sigmoid(x @ w_gate.T) * (x @ w_up.T)) @ w_down.T
