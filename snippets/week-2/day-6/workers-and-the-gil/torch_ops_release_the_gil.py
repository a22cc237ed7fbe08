import io
import sys
import threading
import time

import numpy as np
import torch
from PIL import Image

torch.set_num_threads(1)
# --8<-- [start:gist]
# Python normally takes the GIL from a busy thread every 5 ms; with 10 s,
# the GIL changes hands only where its holder lets go of it
sys.setswitchinterval(10)
# --8<-- [end:gist]
steps = 0
running = True


def count():  # a second thread: one step whenever it holds the GIL
    global steps
    while running:
        steps += 1
        time.sleep(0)  # lets go of the GIL, then waits to get it back


def steps_during(work, tries=20):
    # On a busy machine the other thread may wait for a core, not for the
    # GIL: the work runs again until the thread has run, or 20 times
    before = steps
    for _ in range(tries):
        work()
        if steps - before > 10:
            break
    return steps - before


big = torch.rand(2_000_000)
photo = io.BytesIO()
rng = np.random.default_rng(torch.initial_seed())
pixels = rng.integers(0, 256, (1500, 1500, 3))
Image.fromarray(pixels.astype(np.uint8)).save(photo, "JPEG")
counter = threading.Thread(target=count)
counter.start()
# --8<-- [start:gist]
work = {
    "torch sorts a tensor": lambda: big.sort(),
    "Pillow decodes a JPEG": lambda: Image.open(photo).load(),
    "a pure-Python loop": lambda: sum(i * i % 7 for i in range(500_000)),
}
steps_by = {name: steps_during(run) for name, run in work.items()}
# --8<-- [end:gist]
running = False
counter.join()

# --8<-- [start:gist]
assert steps_by["torch sorts a tensor"] > 10  # the GIL was let go
assert steps_by["Pillow decodes a JPEG"] > 10
assert steps_by["a pure-Python loop"] == 0  # held the whole time
# --8<-- [end:gist]
for name, taken in steps_by.items():
    ran = "more than 10 steps" if taken > 10 else f"{taken} steps"
    print(f"while {name}, the other thread ran {ran}")
