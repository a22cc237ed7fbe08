import torch
from torchguide.drills import check_here


def bce_with_logits(logits: torch.Tensor, targets: torch.Tensor):
    """Mean binary cross-entropy of sigmoid(logits) against targets."""
    # max(x, 0) - x*y + log(1 + exp(-|x|)): the exponent is never positive
    per_element = (
        logits.clamp(min=0)
        - logits * targets
        + torch.log1p(torch.exp(-logits.abs()))
    )
    return per_element.mean()


check_here("stable_bce_with_logits", bce_with_logits)
