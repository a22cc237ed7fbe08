# Copy to snippets/<page>/<what_it_shows>.py and replace the example.
# Declarations (a CUDA device, an expected exception, a timeout) are comment
# lines described in docs/contributing.md. The gist markers below frame the
# lines the page shows first (at most 12; required past 25 lines); the whole
# file, the proof that ran, is one click away under the output.
import torch

# Drawn from the engine's seed: no torch.manual_seed(0) (docs/contributing.md).
x = torch.randn(3, 4)
# --8<-- [start:gist]
y = x.t()  # a view: same memory, strides swapped
# --8<-- [end:gist]

# 1. Assert the claim the page makes.
assert y.data_ptr() == x.data_ptr()

# 2. Print the evidence a reader wants to see.
# --8<-- [start:gist]
print("same memory:", y.data_ptr() == x.data_ptr())
print("strides:", x.stride(), "->", y.stride())
# --8<-- [end:gist]
