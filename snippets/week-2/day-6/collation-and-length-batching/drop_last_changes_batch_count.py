import torch
from torch.utils.data import DataLoader


def sizes(n, drop_last):
    loader = DataLoader(range(n), batch_size=32, drop_last=drop_last)
    assert len(loader) == len(list(loader))
    return [len(batch) for batch in loader]


assert sizes(100, drop_last=False) == [32, 32, 32, 4]  # ceil(100 / 32)
assert sizes(100, drop_last=True) == [32, 32, 32]  # floor(100 / 32)
assert sizes(10, drop_last=True) == []  # fewer samples than one batch

# with shuffling, the dropped samples are different ones every epoch
loader = DataLoader(range(100), batch_size=32, shuffle=True, drop_last=True)
dropped = [
    set(range(100)) - set(torch.cat(list(loader)).tolist()) for _ in range(3)
]
assert all(len(d) == 4 for d in dropped) and dropped[0] != dropped[1]

for n in (100, 10):
    for drop_last in (False, True):
        print(f"{n} samples, drop_last={drop_last}:", sizes(n, drop_last))
print("dropped per epoch:", [sorted(d) for d in dropped])
