import torch.nn.functional as F
from torchguide.drills import check_here


def swiglu(x, w_gate, w_up, w_down):
    """Llama's feed-forward block: a SiLU-gated linear unit, projected back."""
    hidden = F.silu(x @ w_gate.T) * (x @ w_up.T)  # weights are stored (out, in)
    return hidden @ w_down.T


check_here("swiglu_feed_forward", swiglu)
