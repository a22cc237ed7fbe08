# expect: for images of shape (2, 3, 3, 4) and flip [True, False] your batch differs at
# The mistake: values scaled to [0, 1] only; the task (and PNGs) maps them to [-1, 1].
import torch


def augment_batch(images, flip):
    images = torch.where(flip[:, None, None, None], images.flip(-1), images)
    return images.float() / 255
