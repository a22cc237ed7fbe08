import torch

# --8<-- [start:gist]
x = torch.zeros(2, 3)
v = x.view(6)  # same memory, new shape
c = x.clone()  # new memory, same values

v[0] = 1.0  # write through the view
c[1, 1] = 7.0  # write into the copy

assert x[0, 0] == 1.0  # the original sees the write made through the view
assert x[1, 1] == 0.0  # ...but not the write made into the clone
# --8<-- [end:gist]
assert v._base is x and c._base is None
x[1, 2] = 5.0  # and a write into the original shows up in the view
assert v[5] == 5.0 and c[1, 2] == 0.0

print("x after the writes:\n", x)
print("clone:\n", c)
print("v[5] after x[1, 2] = 5:", v[5].item())
print("v._base is x:", v._base is x, "| c._base:", c._base)
