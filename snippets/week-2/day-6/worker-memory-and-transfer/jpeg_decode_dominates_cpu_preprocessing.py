import io
import time

import numpy as np
import torch
from PIL import Image

# A photo-sized JPEG (500 x 375): smooth gradients plus noise.
rng = np.random.default_rng(torch.initial_seed())
yy, xx = np.mgrid[0:375, 0:500]
scene = np.stack([xx % 256, (2 * yy) % 256, ((xx + yy) // 3) % 256], -1)
noisy = (scene + rng.normal(0, 12, scene.shape)).clip(0, 255)
buffer = io.BytesIO()
Image.fromarray(noisy.astype(np.uint8)).save(buffer, "JPEG", quality=90)
jpeg = buffer.getvalue()

torch.set_num_threads(1)  # all the work in this thread: its CPU time is all
mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)


# --8<-- [start:gist]
def decode():
    image = Image.open(io.BytesIO(jpeg)).convert("RGB")
    return torch.from_numpy(np.array(image)).permute(2, 0, 1)
# --8<-- [end:gist]


pixels = decode()


# --8<-- [start:gist]
def augment():  # crop, flip, normalize: what a training transform does
    crop = pixels[:, 50:274, 100:324].flip(-1)
    return (crop.float() / 255 - mean) / std
# --8<-- [end:gist]


def cpu_seconds(work, repeats=30):
    """CPU time of this thread per call: other jobs on the machine do not
    inflate it, as they would a wall-clock time."""
    start = time.thread_time()
    for _ in range(repeats):
        work()
    return (time.thread_time() - start) / repeats


# --8<-- [start:gist]
decode_seconds, augment_seconds = cpu_seconds(decode), cpu_seconds(augment)
assert decode_seconds > augment_seconds
# --8<-- [end:gist]
print("decoding costs more CPU time than crop, flip and normalize "
      "together:", decode_seconds > augment_seconds)
print(f"bytes per sample: JPEG {len(jpeg):,}, decoded uint8 "
      f"{pixels.nbytes:,}, normalized float crop {augment().nbytes:,}")
