# expect: your sizes is [[3, 2], [1, 3]]; expected [[2, 3], [3, 1]]
# The mistake: sizes as (width, height), the order of PIL's image.size; the task asks for (H, W) as in the tensor.
import torch


def pad_images(images):
    max_h = max(image.shape[1] for image in images)
    max_w = max(image.shape[2] for image in images)
    batch = images[0].new_zeros(len(images), images[0].shape[0], max_h, max_w)
    mask = torch.zeros(len(images), max_h, max_w, dtype=torch.bool)
    for i, image in enumerate(images):
        h, w = image.shape[1:]
        batch[i, :, :h, :w] = image
        mask[i, :h, :w] = True
    sizes = torch.tensor([[image.shape[2], image.shape[1]] for image in images], dtype=torch.int64)
    return batch, sizes, mask
