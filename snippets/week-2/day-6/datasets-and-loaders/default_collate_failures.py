import numpy as np
import torch
from PIL import Image
from torch.utils.data import default_collate

cases = {
    "PIL images": [Image.new("RGB", (2, 2))] * 2,
    "None": [None, None],
    "custom objects": [object(), object()],
    "numpy strings": [np.array(["a"]), np.array(["b"])],
    "tensors, sizes differ": [torch.zeros(3, 2, 2), torch.zeros(3, 2, 3)],
    "arrays, sizes differ": [np.zeros((3, 2)), np.zeros((3, 4))],
}
errors = {}
# --8<-- [start:gist]
for name, batch in cases.items():
    try:
        default_collate(batch)
    except (TypeError, RuntimeError) as error:
        errors[name] = error
# --8<-- [end:gist]

# --8<-- [start:gist]
assert errors.keys() == cases.keys()  # every case fails
assert isinstance(errors["PIL images"], TypeError)
assert isinstance(errors["tensors, sizes differ"], RuntimeError)
# the shape problem is the same for tensors and arrays
assert str(errors["tensors, sizes differ"]).startswith("stack expects")
assert str(errors["arrays, sizes differ"]).startswith("stack expects")
# --8<-- [end:gist]

for name, error in errors.items():
    print(f"{name}:\n  {type(error).__name__}: {error}")
