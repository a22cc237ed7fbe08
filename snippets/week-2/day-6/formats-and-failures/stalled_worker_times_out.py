import faulthandler
import time

from torch.utils.data import DataLoader, Dataset


class SometimesStalls(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        # A per-sample watchdog: dump this worker's stack if the sample
        # takes longer than 0.5 s, then disarm once it is done.
        # --8<-- [start:gist]
        with open(f"slow-sample-{i}.txt", "w") as report:
            faulthandler.dump_traceback_later(0.5, file=report)
            if i == 2:
                time.sleep(2)  # stands in for a stuck read or a deadlock
            faulthandler.cancel_dump_traceback_later()
        # --8<-- [end:gist]
        return i


# --8<-- [start:gist]
loader = DataLoader(SometimesStalls(), batch_size=1, num_workers=1,
                    timeout=1)  # seconds to wait for a batch
# --8<-- [end:gist]
try:
    for batch in loader:
        print("got batch", batch.tolist())
except RuntimeError as error:
    message = str(error)
# --8<-- [start:gist]
assert message == "DataLoader timed out after 1 seconds"
print("main process:", message)
# --8<-- [end:gist]

# --8<-- [start:gist]
with open("slow-sample-2.txt") as report:
    stack = report.read()
assert "in __getitem__" in stack
# --8<-- [end:gist]
print("the stalled worker's own frames, as faulthandler dumped them:")
for line in stack.splitlines():
    if line.strip().startswith('File "snippets/'):
        print(line.strip())
