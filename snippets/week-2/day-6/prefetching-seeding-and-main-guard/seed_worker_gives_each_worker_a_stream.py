import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info
from torchguide.data.workers import seed_worker


class Augment(Dataset):
    def __init__(self):
        # copied into every worker
        self.rng = np.random.default_rng(torch.initial_seed())

    def __len__(self):
        return 2  # one sample per worker

    def __getitem__(self, index):
        info = get_worker_info()  # info.seed: torch's seed for this worker
        assert info.seed == torch.initial_seed()
        return info.seed, round(self.rng.random(), 4)


# --8<-- [start:gist]
def run(seed):  # two epochs; the loader's generator makes the worker seeds
    loader = DataLoader(Augment(), batch_size=None, num_workers=2,
                        worker_init_fn=seed_worker,
                        generator=torch.Generator().manual_seed(seed))
    return [[(int(s), float(x)) for s, x in loader] for _ in range(2)]
# --8<-- [end:gist]


base = torch.initial_seed()  # the engine's seed: docexec run --seed N
# --8<-- [start:gist]
first, again, other = run(base), run(base), run(base + 1)
draws = [x for epoch in first for _, x in epoch]
seeds = [s for epoch in first for s, _ in epoch]

assert len(set(draws)) == 4  # new stream per worker and per epoch
assert seeds[1] == seeds[0] + 1 and seeds[3] == seeds[2] + 1  # base + id
assert first == again and first != other  # reproducible from the seed
# --8<-- [end:gist]
for epoch, samples in enumerate(first):
    print(f"epoch {epoch}: self.rng.random() in workers 0 and 1:",
          [x for _, x in samples])
print("the same again with the same generator seed:", first == again)
