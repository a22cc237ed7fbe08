# expect: your cross_entropy calls torch.nn.functional.cross_entropy; the drill asks you to write the smoothing, the weights and the ignored rows yourself
# The mistake: the function the drill asks to write.
import torch.nn.functional as F


def cross_entropy(logits, targets, weight, ignore_index, label_smoothing):
    return F.cross_entropy(
        logits, targets, weight=weight, ignore_index=ignore_index, label_smoothing=label_smoothing
    )
