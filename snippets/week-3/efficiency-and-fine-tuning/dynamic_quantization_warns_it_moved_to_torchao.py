import warnings

import torch
from torch import nn

model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10))
x = torch.randn(16, 256)
# --8<-- [start:gist]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from torch.ao.quantization import quantize_dynamic

    int8 = quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)
deprecations = [w for w in caught if w.category is DeprecationWarning]
assert deprecations and "torchao" in str(deprecations[0].message)
# --8<-- [end:gist]
assert int8[0]._get_name() == "DynamicQuantizedLinear"
assert int8[0].weight().dtype == torch.qint8  # weights stored as int8
error = (int8(x) - model(x)).abs().max() / model(x).abs().max()
assert error < 0.05  # activations quantized on the fly, per batch
print(torch.__version__, int8[0]._get_name(), int8[0].weight().dtype)
print("relative error of the output:", f"{error:.2%}")
print(str(deprecations[0].message).splitlines()[0].strip())
