# expect: for x (3, 4), a hidden width of 8 and 4 outputs (torch.float32, seed 0) your forward keeps tensors for the backward that are not its inputs
# The mistake: the block written with plain autograd, which keeps its activations.
import torch.nn.functional as F


def checkpointed_block(x, w1, w2):
    return F.linear(F.gelu(F.linear(x, w1)), w2)
