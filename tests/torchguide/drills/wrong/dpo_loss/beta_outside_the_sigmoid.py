# expect: for 4 pairs, beta 0.1 (torch.float32, seed 0) your loss
# The mistake: beta scales the loss instead of the margin.
import torch.nn.functional as F


def dpo_loss(policy_chosen, policy_rejected, reference_chosen, reference_rejected, beta):
    margin = (policy_chosen - reference_chosen) - (policy_rejected - reference_rejected)
    return -beta * F.logsigmoid(margin).mean()
