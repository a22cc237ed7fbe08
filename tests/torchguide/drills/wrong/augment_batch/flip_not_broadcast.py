# expect: for images of shape (2, 3, 3, 4) and flip [True, False] your augment_batch raised RuntimeError
# The mistake: flip of shape (B,) given to torch.where as it is: broadcasting aligns it with the
# images' last dimension, their width, not with the batch.
import torch


def augment_batch(images, flip):
    images = torch.where(flip, images.flip(-1), images)
    return (images.float() / 255 - 0.5) / 0.5
