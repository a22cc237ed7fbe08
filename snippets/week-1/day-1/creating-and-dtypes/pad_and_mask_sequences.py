import torch
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence

seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0]),
        torch.tensor([6.0])]
lengths = torch.tensor([len(s) for s in seqs])

# --8<-- [start:gist]
padded = pad_sequence(seqs, batch_first=True)  # pads with 0.0 by default
left = pad_sequence(seqs, batch_first=True, padding_value=-1.0,
                    padding_side="left")
mask = torch.arange(padded.size(1)) < lengths[:, None]  # True = real token
assert padded.shape == (3, 3) and mask.sum() == lengths.sum()
assert left[2].tolist() == [-1.0, -1.0, 6.0]  # value and side are options
# --8<-- [end:gist]
print("padded:\n", padded)
print("left-padded with -1:\n", left)
print("mask:\n", mask)

# Masked mean: pads must not count
# --8<-- [start:gist]
mean = (padded * mask).sum(1) / lengths
assert torch.allclose(mean, torch.tensor([2.0, 4.5, 6.0]))
# --8<-- [end:gist]
print("masked mean per sequence:", mean)

# For the loss, mark padded targets with ignore_index (default -100)
logits = torch.zeros(3, 3, 5)  # (batch, time, classes)
# --8<-- [start:gist]
targets = torch.where(mask, torch.tensor(1), torch.tensor(-100))
assert torch.nn.CrossEntropyLoss().ignore_index == -100
loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
assert torch.isclose(loss, torch.log(torch.tensor(5.0)))
# --8<-- [end:gist]
print("loss averages over", int(mask.sum()), "real tokens:", loss)
