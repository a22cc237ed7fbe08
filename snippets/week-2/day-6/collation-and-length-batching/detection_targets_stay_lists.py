import torch
from torch.utils.data import DataLoader

# object detection: one image, and a different number of boxes per image
samples = [(torch.rand(3, 8, 8), torch.rand(k, 4)) for k in (2, 0, 3)]

failure = None
try:
    next(iter(DataLoader(samples, batch_size=3)))
except RuntimeError as error:
    failure = str(error)
# --8<-- [start:gist]
assert failure and failure.startswith(
    "stack expects each tensor to be equal size"
)
# --8<-- [end:gist]


# --8<-- [start:gist]
def detection_collate(batch):  # images stacked, boxes kept as a list
    images, boxes = zip(*batch)
    return torch.stack(images), list(boxes)
# --8<-- [end:gist]


# --8<-- [start:gist]
images, boxes = next(
    iter(DataLoader(samples, batch_size=3, collate_fn=detection_collate))
)
assert images.shape == (3, 3, 8, 8)
assert [len(b) for b in boxes] == [2, 0, 3]
# --8<-- [end:gist]

print("default collate:", failure)
print("custom collate: images", tuple(images.shape), end=" ")
print("| boxes per image", [len(b) for b in boxes])
