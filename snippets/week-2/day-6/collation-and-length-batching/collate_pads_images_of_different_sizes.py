import torch
from torch.utils.data import DataLoader
from torchguide.data.collate import collate_padded_images

sizes = [(24, 32), (28, 20), (16, 30), (20, 20)]  # (H, W)
dataset = [(torch.rand(3, h, w), i % 2) for i, (h, w) in enumerate(sizes)]

loader = DataLoader(dataset, batch_size=2, collate_fn=collate_padded_images)
batches = list(loader)

# each batch is padded only to its own largest height and width
assert batches[0].images.shape == (2, 3, 28, 32)
assert batches[1].images.shape == (2, 3, 20, 30)
# nothing is lost: crop by the recorded size and get the image back
for batch, start in zip(batches, (0, 2)):
    for j, (h, w) in enumerate(batch.sizes.tolist()):
        image = dataset[start + j][0]
        assert torch.equal(batch.images[j, :, :h, :w], image)
        assert batch.mask[j].sum() == h * w

for batch in batches:
    pixels = batch.mask.sum(dim=(1, 2)).tolist()
    print(tuple(batch.images.shape), "sizes", batch.sizes.tolist(), end=" ")
    print("real pixels", pixels)
