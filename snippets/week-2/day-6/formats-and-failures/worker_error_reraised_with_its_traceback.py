import re

from torch.utils.data import DataLoader, Dataset


class Labels(Dataset):
    def __init__(self):
        self.labels = {i: i % 3 for i in range(8) if i != 5}  # 5 is missing

    def __len__(self):
        return 8

    # --8<-- [start:gist]
    def __getitem__(self, i):
        return self.labels[i]  # KeyError for 5
    # --8<-- [end:gist]


# --8<-- [start:gist]
loader = DataLoader(Labels(), batch_size=2, num_workers=2)
try:
    for batch in loader:
        print("got batch", batch.tolist())
except KeyError as error:  # the worker's exception type, re-raised
    message = error.args[0]

assert message.startswith("Caught KeyError in DataLoader worker process 0")
assert "self.labels[i]" in message  # the worker's own traceback
# --8<-- [end:gist]
# Print it without the DataLoader's internal frames.
internal = r'(?:  File "/[^\n]*\n(?:    [^\n]*\n)*)+'
print(re.sub(internal, "  ... (DataLoader internals)\n", message).strip())
