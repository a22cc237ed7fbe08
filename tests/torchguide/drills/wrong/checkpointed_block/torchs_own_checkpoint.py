# expect: your checkpointed_block calls
# The mistake: the function the drill asks to write.
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


def block(x, w1, w2):
    return F.linear(F.gelu(F.linear(x, w1)), w2)


def checkpointed_block(x, w1, w2):
    return checkpoint(block, x, w1, w2, use_reentrant=False)
