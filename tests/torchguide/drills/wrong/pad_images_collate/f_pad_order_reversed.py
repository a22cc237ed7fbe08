# expect: for images of shapes (1, 2, 3), (1, 3, 1) (torch.float32) your batch[0, :, :2, :3] is not image 0: put image 0 in the top-left corner of batch[0]
# The mistake: F.pad's amounts read as (top, bottom, left, right); they are (left, right, top, bottom), so the
# padding lands left and on top and the images in the bottom-right corner.
import torch
import torch.nn.functional as F


def pad_images(images):
    max_h = max(image.shape[1] for image in images)
    max_w = max(image.shape[2] for image in images)
    batch, masks = [], []
    for image in images:
        h, w = image.shape[1:]
        amounts = (max_w - w, 0, max_h - h, 0)
        batch.append(F.pad(image, amounts))
        masks.append(F.pad(torch.ones(h, w, dtype=torch.bool), amounts))
    sizes = torch.tensor([list(image.shape[1:]) for image in images], dtype=torch.int64)
    return torch.stack(batch), sizes, torch.stack(masks)
