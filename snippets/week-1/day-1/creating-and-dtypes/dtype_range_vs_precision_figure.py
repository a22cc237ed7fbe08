import math

import matplotlib.pyplot as plt
import torch

dtypes = [torch.float16, torch.bfloat16, torch.float32]
names = [str(dt)[6:] for dt in dtypes]
# --8<-- [start:gist]
lo = [math.log10(torch.finfo(dt).smallest_normal) for dt in dtypes]
hi = [math.log10(torch.finfo(dt).max) for dt in dtypes]
digits = [-math.log10(torch.finfo(dt).eps) for dt in dtypes]
bits = [1 - int(math.log2(torch.finfo(dt).eps)) for dt in dtypes]

# bfloat16 matches float32 in range, and is coarser than float16
assert abs(hi[1] - hi[2]) < 0.01 and hi[0] < 5
assert digits[1] < digits[0] < digits[2]
# --8<-- [end:gist]

fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(4.8, 4.6))
colors = ["tab:orange", "tab:green", "tab:blue"]
ax1.barh(names, [h - low for h, low in zip(hi, lo)], left=lo, color=colors)
ax1.set_xlabel("log10 of magnitude (normal numbers)")
ax1.set_title("Range: smallest normal to max")
ax1.axvline(math.log10(65504), color="gray", ls="--", lw=1)
ax1.text(math.log10(65504) + 1, 0, "65504", va="center", fontsize=10)
ax2.barh(names, digits, color=colors)
for y, (d, b) in enumerate(zip(digits, bits)):
    ax2.text(d + 0.1, y, f"{b} bits", va="center", fontsize=10)
ax2.set_xlim(0, 9)
ax2.set_xlabel("decimal digits = -log10(eps)")
ax2.set_title("Precision")
fig.suptitle("bfloat16 trades precision for float32's range")
fig.tight_layout()
print("range exponents (log10):",
      dict(zip(names, [(round(a), round(b)) for a, b in zip(lo, hi)])))
print("decimal digits:", dict(zip(names, [round(d, 1) for d in digits])))
