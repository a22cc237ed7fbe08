import torch.nn.functional as F
from torchguide.drills import check_here


def dpo_loss(
    policy_chosen, policy_rejected, reference_chosen, reference_rejected, beta
):
    """Mean of -log sigmoid(beta * difference of the two log-ratios)."""
    chosen = policy_chosen - reference_chosen  # log-ratio of the chosen
    rejected = policy_rejected - reference_rejected
    return -F.logsigmoid(beta * (chosen - rejected)).mean()  # stable


check_here("dpo_loss", dpo_loss)
