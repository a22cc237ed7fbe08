import torch
from torch.utils.data import DataLoader

data = list(range(8))


def epochs(loader, n=3):
    return [torch.cat(list(loader)).tolist() for _ in range(n)]


# --8<-- [start:gist]
# shuffled once, beforehand: the loader then reads it in a fixed order
shuffled_once = [data[i] for i in torch.randperm(8)]
static = epochs(DataLoader(shuffled_once, batch_size=4, shuffle=False))

# shuffle=True: the RandomSampler draws a new permutation every epoch
dynamic = epochs(DataLoader(data, batch_size=4, shuffle=True))
# --8<-- [end:gist]


# a seeded generator makes the sequence of epochs reproducible
def seeded_loader():
    generator = torch.Generator().manual_seed(torch.initial_seed() + 1)
    return DataLoader(data, batch_size=4, shuffle=True, generator=generator)


seeded = [epochs(seeded_loader()), epochs(seeded_loader())]

# --8<-- [start:gist]
assert static[0] == static[1] == static[2]
assert len({tuple(order) for order in dynamic}) == 3
assert all(sorted(order) == data for order in dynamic)
# --8<-- [end:gist]
assert seeded[0] == seeded[1] and seeded[0][0] != seeded[0][1]

runs = {"shuffled beforehand": static, "shuffle=True": dynamic}
for name, orders in runs.items():
    print(name)
    for epoch, order in enumerate(orders):
        print(f"  epoch {epoch}: {order}")
print("same seed, same epochs:", seeded[0] == seeded[1])
