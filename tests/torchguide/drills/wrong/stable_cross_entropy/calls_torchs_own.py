# expect: your cross_entropy calls torch.nn.functional.cross_entropy; the drill asks you to write the log-softmax from elementwise operations
# The mistake: the loss module, which is the very function to write.
import torch


def cross_entropy(logits, targets):
    return torch.nn.CrossEntropyLoss()(logits, targets)
