# expect: for images of shapes (1, 2, 3), (1, 3, 1) (torch.float32) your pad_images raised RuntimeError
# The notes' mistake: pad_sequence pads only the first dimension, which for an image is its channels.
import torch
from torch.nn.utils.rnn import pad_sequence


def pad_images(images):
    batch = pad_sequence(images, batch_first=True)
    sizes = torch.tensor([list(image.shape[1:]) for image in images])
    mask = batch[:, 0] != 0
    return batch, sizes, mask
