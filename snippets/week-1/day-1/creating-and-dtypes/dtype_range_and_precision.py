import math

import torch

dtypes = [torch.float64, torch.float32, torch.bfloat16, torch.float16]
rows = {}
exponent_bits = {}
for dt in dtypes:
    f = torch.finfo(dt)
    size = torch.empty(0, dtype=dt).element_size()
    # --8<-- [start:gist]
    bits = 1 - int(math.log2(f.eps))  # stored fraction bits + implicit 1
    rows[dt] = (size, f.max, f.smallest_normal, f.eps, bits)
    # --8<-- [end:gist]
    # f.bits = sign + exponent + stored fraction, and bits = fraction + 1
    exponent_bits[dt] = f.bits - bits

# --8<-- [start:gist]
assert [rows[dt][0] for dt in dtypes] == [8, 4, 2, 2]  # bytes
# bfloat16 has float32's 8 exponent bits, so float32's range ...
assert exponent_bits[torch.bfloat16] == exponent_bits[torch.float32] == 8
assert exponent_bits[torch.float16] == 5
assert rows[torch.bfloat16][2] == rows[torch.float32][2]  # smallest normal
assert rows[torch.bfloat16][1] > 3e38 and rows[torch.float16][1] == 65504
assert 6e-5 < rows[torch.float16][2] < 6.2e-5
# ... but FEWER precision bits than float16
assert rows[torch.bfloat16][4] == 8 and rows[torch.float16][4] == 11
assert rows[torch.float32][4] == 24
# --8<-- [end:gist]

print(f"{'dtype':<9}{'bytes':>6}{'largest':>11}{'smallest normal':>17}"
      f"{'eps':>11}{'precision bits':>16}")
for dt, (size, big, tiny, eps, bits) in rows.items():
    print(f"{str(dt)[6:]:<9}{size:>6}{big:>11.3g}{tiny:>17.3g}"
          f"{eps:>11.3g}{bits:>16}")
