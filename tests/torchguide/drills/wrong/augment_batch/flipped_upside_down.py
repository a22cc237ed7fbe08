# expect: for images of shape (2, 3, 3, 4) and flip [True, False] your batch differs at
# The mistake: flipped along the height (dimension -2): upside down, not left to right.
import torch


def augment_batch(images, flip):
    images = torch.where(flip[:, None, None, None], images.flip(-2), images)
    return (images.float() / 255 - 0.5) / 0.5
