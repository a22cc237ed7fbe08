# docexec: timeout=60
import time

import torch
from torch import nn

torch.set_num_threads(1)  # steady timings on a shared machine
x, y = torch.randn(2048, 32), torch.randint(0, 2, (2048,))
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()


def samples_per_second(batch_size, samples):
    start = time.perf_counter()
    for i in range(0, samples, batch_size):
        optimizer.zero_grad()
        loss = loss_fn(model(x[i : i + batch_size]), y[i : i + batch_size])
        loss.backward()
        optimizer.step()
    return samples / (time.perf_counter() - start)


samples_per_second(64, 256)  # warm up
# --8<-- [start:gist]
# best of three runs each; batch 1 gets fewer samples, it is the slow one
speed = {
    1: max(samples_per_second(1, 128) for _ in range(3)),
    256: max(samples_per_second(256, 2048) for _ in range(3)),
}
ratio = speed[256] / speed[1]
# one step costs about the same whatever its size: batch 1 pays it per sample
assert ratio > 10, ratio  # wide margin: 16x seen on a loaded 2-core machine
# --8<-- [end:gist]

print("samples per second in training, batch 256 vs batch 1: over 10 x")
