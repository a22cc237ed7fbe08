from torch.utils.data import DataLoader, Dataset


class Scaled(Dataset):
    scale = 1

    def __len__(self):
        return 4

    def __getitem__(self, index):
        return index * self.scale


def first_values(persistent):
    dataset = Scaled()
    loader = DataLoader(dataset, batch_size=4, num_workers=1,
                        persistent_workers=persistent,
                        multiprocessing_context="fork")
    seen = []
    for epoch in range(1, 4):
        dataset.scale = epoch  # changed in the main process, between epochs
        seen.append(next(iter(loader))[1].item())  # sample 1 = its scale
    return seen


# --8<-- [start:gist]
assert first_values(persistent=False) == [1, 2, 3]  # new workers, new copy
assert first_values(persistent=True) == [1, 1, 1]  # their copy is epoch 1's
# --8<-- [end:gist]
print("scale seen by the workers, epochs 1-3:")
print("  persistent_workers=False:", first_values(persistent=False))
print("  persistent_workers=True: ", first_values(persistent=True))
