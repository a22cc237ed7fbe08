# docexec: raises=RuntimeError match="must match the size of tensor b"
import torch
from torch.nn.utils.rnn import pad_sequence  # the notes leave it out


def my_collate(batch):  # the notes' collate function, as written
    imgs = [item[0] for item in batch]
    lbls = [item[1] for item in batch]
    imgs = pad_sequence(imgs)
    return torch.stack(imgs), torch.tensor(lbls)


batch = [(torch.rand(3, 24, 32), 0), (torch.rand(3, 28, 20), 1)]
# pad_sequence pads dimension 0 only; every other dimension must match
my_collate(batch)
