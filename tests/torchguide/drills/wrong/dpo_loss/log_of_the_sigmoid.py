# expect: for 3 pairs, beta 0.1 (torch.float32, seed 2, a confident policy) your loss
# The mistake: log(sigmoid(z)) in two steps, infinite once the sigmoid rounds to 0.
import torch


def dpo_loss(policy_chosen, policy_rejected, reference_chosen, reference_rejected, beta):
    margin = (policy_chosen - reference_chosen) - (policy_rejected - reference_rejected)
    return -torch.log(torch.sigmoid(beta * margin)).mean()
