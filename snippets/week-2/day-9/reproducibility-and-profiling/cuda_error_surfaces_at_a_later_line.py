# docexec: cuda
# docexec: timeout=120
import json
import os
import subprocess
import sys
from pathlib import Path

# the bug: a label (3) out of range for 3 classes. Each run is a fresh
# process: after a device-side assert the CUDA context is unusable
PROGRAM = """
import json, traceback, torch
from torch.nn import functional as F
logits = torch.randn(4, 3, device="cuda")
labels = torch.tensor([0, 2, 1, 3], device="cuda")
try:
    loss = F.cross_entropy(logits, labels)  # the faulty kernel
    scale = torch.ones(1000, device="cuda").sum()  # an innocent op
    print(loss.item() * scale.item())  # the first wait for the GPU
except RuntimeError as error:
    frames = traceback.extract_tb(error.__traceback__)
    # this program's own frame: the innermost one can be inside torch
    line = [f for f in frames if f.filename == frames[0].filename][-1].lineno
    try:  # the context is broken for good: any CUDA work fails now
        torch.ones(1, device="cuda").add(1).item()
        broken = False
    except RuntimeError:
        broken = True
    print(json.dumps({"line": line, "error": str(error).splitlines()[0],
                      "broken": broken}))
"""
Path("train_step.py").write_text(PROGRAM)
FAULTY_LINE = next(number for number, line in enumerate(PROGRAM.split("\n"), 1)
                   if "faulty kernel" in line)  # F.cross_entropy's line


def raised_at(**env):
    run = subprocess.run([sys.executable, "train_step.py"],
                         capture_output=True, text=True,
                         env={**os.environ, **env})
    assert run.stdout.strip(), run.stderr[-2000:]  # it reported, or why not
    return json.loads(run.stdout.splitlines()[-1])


# --8<-- [start:gist]
default = raised_at()  # kernels are queued: the call returns at once
blocking = raised_at(CUDA_LAUNCH_BLOCKING="1")  # each launch waits
assert default["line"] > FAULTY_LINE  # reported at a later, innocent line
assert blocking["line"] == FAULTY_LINE  # reported where the bug is
assert "device-side assert" in default["error"] + blocking["error"]
# --8<-- [end:gist]
assert default["broken"] and blocking["broken"]
print("without CUDA_LAUNCH_BLOCKING, raised at line", default["line"])
print("with CUDA_LAUNCH_BLOCKING=1, raised at line", blocking["line"])
print("the error:", blocking["error"])
print("a new CUDA operation after it fails too:", default["broken"])
