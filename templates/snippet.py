# Copy to snippets/<page>/<what_it_shows>.py and replace the example.
# Declarations (a CUDA device, an expected exception, a timeout, a named part
# to show) are comment lines described in docs/contributing.md.
import torch

torch.manual_seed(0)
x = torch.randn(3, 4)
y = x.t()

# 1. Assert the claim the page makes.
assert y.data_ptr() == x.data_ptr()

# 2. Print the evidence a reader wants to see.
print("same memory:", y.data_ptr() == x.data_ptr())
print("strides:", x.stride(), "->", y.stride())
