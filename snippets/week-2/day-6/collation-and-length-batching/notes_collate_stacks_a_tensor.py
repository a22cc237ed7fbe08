# docexec: raises=TypeError match="must be tuple of Tensors, not Tensor"
import torch
from torch.nn.utils.rnn import pad_sequence


def my_collate(batch):  # the notes' collate function, as written
    imgs = [item[0] for item in batch]
    lbls = [item[1] for item in batch]
    imgs = pad_sequence(imgs)
    return torch.stack(imgs), torch.tensor(lbls)


# even with images of one size: pad_sequence already returns one tensor,
# (time, batch, ...) = here (3, 2, 24, 32), which torch.stack cannot take
same_size = [(torch.rand(3, 24, 32), 0), (torch.rand(3, 24, 32), 1)]
print(
    "pad_sequence gives", tuple(pad_sequence([x for x, _ in same_size]).shape)
)
my_collate(same_size)
