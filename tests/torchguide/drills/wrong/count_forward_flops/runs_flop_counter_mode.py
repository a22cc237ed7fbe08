# expect: count from the layers' settings without running the model
# The mistake: copying the page's FlopCounterMode line instead of counting.
import torch
from torch.utils.flop_counter import FlopCounterMode


def forward_flops(model, input_shape):
    with FlopCounterMode(display=False) as counter:
        model(torch.zeros(input_shape))
    return counter.get_total_flops()
