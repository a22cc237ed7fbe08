# docexec: timeout=120
import multiprocessing
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = '''
import torch
from torch.utils.data import DataLoader, Dataset

class Squares(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, index):
        return index * index

loader = DataLoader(Squares(), batch_size=2, num_workers=1,
                    multiprocessing_context="spawn")
print([batch.tolist() for batch in loader])
'''
Path("train.py").write_text(SCRIPT)
# --8<-- [start:gist]
done = subprocess.run([sys.executable, "train.py"], capture_output=True,
                      text=True, timeout=100)
errors = [line for line in done.stderr.splitlines()
          if line.startswith("RuntimeError:")]
in_worker = " ".join(done.stderr.split("RuntimeError:")[1].split())

assert multiprocessing.get_start_method() == "fork"  # Linux, Python < 3.14
assert done.returncode == 1 and len(errors) == 3
assert in_worker.startswith("An attempt has been made to start a new process "
                            "before the current process has finished")
assert "exited unexpectedly with exit code 1" in errors[1]
# --8<-- [end:gist]
print("default start method here:", multiprocessing.get_start_method())
print("python train.py, with spawn, exits with", done.returncode)
print("the worker, importing train.py:", in_worker.split(". ")[0] + ".")
for error in errors[1:]:
    print("the main process:", re.sub(r"pid(\(s\))? \d+", r"pid\1 N", error))
