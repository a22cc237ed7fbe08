import torch
from torchguide.drills import check_here


def pad_images(images):
    channels = images[0].shape[0]
    max_h = max(image.shape[1] for image in images)
    max_w = max(image.shape[2] for image in images)
    batch = images[0].new_zeros(len(images), channels, max_h, max_w)
    mask = torch.zeros(len(images), max_h, max_w, dtype=torch.bool)
    for i, image in enumerate(images):
        h, w = image.shape[1:]
        batch[i, :, :h, :w] = image  # the top-left corner; the rest stays 0
        mask[i, :h, :w] = True
    sizes = [list(image.shape[1:]) for image in images]
    return batch, torch.tensor(sizes, dtype=torch.int64), mask


check_here("pad_images_collate", pad_images)
