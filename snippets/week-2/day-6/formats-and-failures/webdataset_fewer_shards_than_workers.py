import webdataset as wds
from torch.utils.data import DataLoader

with wds.TarWriter("only-shard.tar") as sink:
    for i in range(8):
        sink.write({"__key__": f"sample{i:04d}", "cls": i})

# Shards are split between workers: worker 1 of 2 gets no shard at all.
dataset = wds.WebDataset("only-shard.tar", shardshuffle=False)
try:
    list(DataLoader(dataset, batch_size=None, num_workers=2))
except ValueError as error:
    message = str(error)
assert "fewer shards than workers" in message
lines = message.splitlines()
print(lines[0])  # which worker failed
print("\n".join(lines[-2:]))  # the cause, from the worker's traceback
