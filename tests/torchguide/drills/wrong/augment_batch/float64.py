# expect: your batch has dtype torch.float64; expected torch.float32
# The mistake: the batch in double precision, twice the memory and a dtype the model's float32
# weights refuse.
import torch


def augment_batch(images, flip):
    images = torch.where(flip[:, None, None, None], images.flip(-1), images)
    return (images.double() / 255 - 0.5) / 0.5
