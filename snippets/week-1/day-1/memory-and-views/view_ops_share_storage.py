import torch
from torchguide.layout import shares_storage

x = torch.arange(12.0).reshape(3, 4)

views = {
    "x.view(4, 3)": x.view(4, 3),
    "x.t()": x.t(),
    "x.transpose(0, 1)": x.transpose(0, 1),
    "x.permute(1, 0)": x.permute(1, 0),
    "x.unsqueeze(0)": x.unsqueeze(0),
    "x.unsqueeze(0).squeeze()": x.unsqueeze(0).squeeze(),
    "x[:]": x[:],
    "x[1:, ::2]": x[1:, ::2],
    "x[0]": x[0],
    "x.reshape(6, 2)": x.reshape(6, 2),  # contiguous input: a view
    "x.flatten()": x.flatten(),
    "x.expand(2, 3, 4)": x.expand(2, 3, 4),
    "x.detach()": x.detach(),
}
copies = {
    "x.clone()": x.clone(),
    "x + 0": x + 0,
    "torch.tensor(x.tolist())": torch.tensor(x.tolist()),
    "x[[0, 2]]": x[[0, 2]],  # advanced (integer) indexing
    "x[torch.tensor([0, 2])]": x[torch.tensor([0, 2])],
    "x[x > 5]": x[x > 5],  # boolean mask indexing
    "x.t().contiguous()": x.t().contiguous(),
    "x.t().reshape(12)": x.t().reshape(12),  # non-contiguous: a copy
    "x.t().flatten()": x.t().flatten(),
}
# --8<-- [start:gist]
assert all(shares_storage(x, v) for v in views.values())
assert not any(shares_storage(x, c) for c in copies.values())

# .contiguous() on an already contiguous tensor returns the tensor itself
assert x.contiguous() is x
# x[:] is a new tensor object, but over the same memory
assert x[:] is not x and shares_storage(x, x[:])
# --8<-- [end:gist]

for title, group in [("share memory with x", views), ("copies", copies)]:
    print(title + ":")
    line = " "
    for name in group:  # wrap the names, never inside one
        if len(line) + len(name) > 74:
            print(line)
            line = " "
        line += f" {name};"
    print(line)
print("x.contiguous() is x:", x.contiguous() is x,
      "| x[:] is x:", x[:] is x)
