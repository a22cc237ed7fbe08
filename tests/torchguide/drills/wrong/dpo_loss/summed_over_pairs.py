# expect: for 4 pairs, beta 0.1 (torch.float32, seed 0) your loss
# The mistake: a sum over the pairs, not their mean: right for a batch of one only.
import torch.nn.functional as F


def dpo_loss(policy_chosen, policy_rejected, reference_chosen, reference_rejected, beta):
    margin = (policy_chosen - reference_chosen) - (policy_rejected - reference_rejected)
    return -F.logsigmoid(beta * margin).sum()
