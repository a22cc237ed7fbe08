import traceback

import torch
from torch.nn import functional as F

logits = torch.randn(4, 3)
labels = torch.tensor([0, 2, 1, 3])  # 3: out of range for 3 classes


def own_frame(frames):
    """The last frame of the program itself: where its code was when it
    raised (the first frame is always the program's own top level)."""
    program = frames[0].filename
    return [frame for frame in frames if frame.filename == program][-1]


# --8<-- [start:gist]
try:
    loss = F.cross_entropy(logits, labels)  # the faulty line
except IndexError as error:
    frames = traceback.extract_tb(error.__traceback__)
innermost = frames[-1]  # where the error was raised: inside torch
assert innermost.filename.endswith("torch/nn/functional.py")
assert "faulty line" in own_frame(frames).line  # the program's own line
# --8<-- [end:gist]
print("innermost frame: torch/nn/functional.py, in", innermost.name)
print("the program's own frame:", own_frame(frames).line)
