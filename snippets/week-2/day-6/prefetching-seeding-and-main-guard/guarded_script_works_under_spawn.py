# docexec: timeout=120
import subprocess
import sys
from pathlib import Path

SCRIPT = '''
import torch
from torch.utils.data import DataLoader, Dataset

print("train.py runs as", __name__)  # in every process that imports it


class Squares(Dataset):  # top level: the worker finds it by importing
    def __len__(self):
        return 4

    def __getitem__(self, index):
        return index * index


if __name__ == "__main__":  # only in the process started as a script
    loader = DataLoader(Squares(), batch_size=2, num_workers=1,
                        multiprocessing_context="spawn")
    print("batches:", [batch.tolist() for batch in loader])
'''
# --8<-- [start:gist]
Path("train.py").write_text(SCRIPT)
done = subprocess.run([sys.executable, "train.py"], capture_output=True,
                      text=True, timeout=100)
lines = sorted(done.stdout.splitlines())  # two processes share the pipe

assert done.returncode == 0, done.stderr[-2000:]
assert lines == ["batches: [[0, 1], [4, 9]]",
                 "train.py runs as __main__",
                 "train.py runs as __mp_main__"]  # the worker, importing
# --8<-- [end:gist]
print("python train.py exits with", done.returncode, "and prints:")
print("\n".join(lines))
