import gc
import weakref

import torch


class Batch:
    # --8<-- [start:gist]
    def __init__(self, tensor):
        self.tensor = tensor
        self.me = self  # a reference cycle: the object refers to itself
    # --8<-- [end:gist]


plain = weakref.ref(torch.zeros(1_000_000))  # no reference left: freed now
assert plain() is None
print("tensor without a cycle: freed as soon as its last reference goes")

gc.collect()  # start from an empty youngest generation
in_cycles = []
# --8<-- [start:gist]
for _ in range(20):
    batch = Batch(torch.zeros(1_000_000))  # 4 MB each
    in_cycles.append(weakref.ref(batch.tensor))
    del batch  # the cycle keeps the reference count above zero

alive = sum(ref() is not None for ref in in_cycles)
assert alive == 20 and gc.isenabled()
# --8<-- [end:gist]
print(f"20 tensors in cycles, gc enabled: {alive} still alive "
      f"({alive * 4} MB)")
print("automatic collection counts objects (threshold",
      gc.get_threshold()[0], "), not bytes")

# --8<-- [start:gist]
gc.collect()  # finds the unreachable cycles and frees them
assert all(ref() is None for ref in in_cycles)
# --8<-- [end:gist]
print("after gc.collect():", sum(ref() is not None for ref in in_cycles),
      "alive")
