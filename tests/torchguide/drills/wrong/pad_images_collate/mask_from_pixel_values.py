# expect: (image 0 all black, zeros) your mask
# The mistake: the mask read from the pixels, so a black image counts as padding.
import torch


def pad_images(images):
    channels = images[0].shape[0]
    max_h = max(image.shape[1] for image in images)
    max_w = max(image.shape[2] for image in images)
    batch = images[0].new_zeros(len(images), channels, max_h, max_w)
    for i, image in enumerate(images):
        batch[i, :, : image.shape[1], : image.shape[2]] = image
    sizes = torch.tensor([list(image.shape[1:]) for image in images], dtype=torch.int64)
    return batch, sizes, (batch != 0).any(dim=1)
