import math

import torch

dtypes = [torch.float64, torch.float32, torch.bfloat16, torch.float16]
rows = {}
for dt in dtypes:
    f = torch.finfo(dt)
    size = torch.empty(0, dtype=dt).element_size()
    bits = 1 - int(math.log2(f.eps))  # stored fraction bits + implicit 1
    rows[dt] = (size, f.max, f.smallest_normal, f.eps, bits)

assert rows[torch.float64][0] == 2 * rows[torch.float32][0]
assert rows[torch.float16][0] == rows[torch.bfloat16][0] == 2
# bfloat16 has float32's range ...
assert rows[torch.bfloat16][1] > 3e38 and rows[torch.float16][1] == 65504
# ... but FEWER precision bits than float16
assert rows[torch.bfloat16][4] == 8 and rows[torch.float16][4] == 11
assert rows[torch.float32][4] == 24

print(f"{'dtype':<9}{'bytes':>6}{'largest':>11}{'smallest normal':>17}"
      f"{'eps':>11}{'precision bits':>16}")
for dt, (size, big, tiny, eps, bits) in rows.items():
    print(f"{str(dt)[6:]:<9}{size:>6}{big:>11.3g}{tiny:>17.3g}"
          f"{eps:>11.3g}{bits:>16}")
