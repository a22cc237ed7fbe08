import mmap
import os
import re

from torch.utils.data import DataLoader, Dataset


class TouchesAPageWithNothingBehindIt(Dataset):
    """A real bus error: read a mapped page whose file was cut short.
    A full /dev/shm fails the same way when a page cannot be supplied."""

    def __len__(self):
        return 4

    def __getitem__(self, index):
        # --8<-- [start:gist]
        with open("backing.bin", "w+b") as f:
            f.truncate(mmap.PAGESIZE)
            page = mmap.mmap(f.fileno(), mmap.PAGESIZE)
            f.truncate(0)  # the mapped page no longer has a file page
            return page[0]  # SIGBUS
        # --8<-- [end:gist]


def stderr_to_file(worker_id):
    # The worker's signal handler writes to file descriptor 2.
    fd = os.open(f"worker{worker_id}.err", os.O_WRONLY | os.O_CREAT)
    os.dup2(fd, 2)


loader = DataLoader(TouchesAPageWithNothingBehindIt(), num_workers=1,
                    worker_init_fn=stderr_to_file)
try:
    next(iter(loader))
except RuntimeError as error:
    raised = error
chain = [raised, raised.__cause__] if raised.__cause__ else [raised]
messages = [re.sub(r"\d+", "<pid>", str(e)) for e in chain]
# --8<-- [start:gist]
assert any("killed by signal: Bus error" in m for m in messages)
# --8<-- [end:gist]
for message in reversed(messages):
    print("main process:", message)
# --8<-- [start:gist]
with open("worker0.err") as f:
    # The C handler also writes the string's terminating NUL byte.
    worker_said = f.read().replace("\0", "").strip()
assert "insufficient shared memory" in worker_said
print("worker:", worker_said)
# --8<-- [end:gist]
